// Values derived from keys that repeat (account ids, signer keys), remembered up to a bound and
// then forgotten at once: a hot path pays one Map lookup, and memory stays bounded whatever keys
// clients send. (src/stellar/account_id.ts keeps its own maps: that layer imports nothing.)

/** `make`, memoized per key for up to `limit` keys at a time. */
export function boundedMemo<V>(limit: number, make: (key: string) => V): (key: string) => V {
  const values = new Map<string, V>();
  return (key) => {
    let value = values.get(key);
    if (value === undefined) {
      value = make(key);
      if (values.size >= limit) values.clear();
      values.set(key, value);
    }
    return value;
  };
}
