// @stellar/stellar-sdk's protocol part (keys, strkeys, transactions: signing.ts), loaded only when a
// view needs it (a muxed account, the payment form): it is a chunk of its own, many times the size
// of the rest of the page.
export type Sdk = typeof import('./signing.js');

let loading: Promise<Sdk> | null = null;

export function loadSdk(): Promise<Sdk> {
  loading ??= import('./signing.js').catch((error: unknown) => {
    // tried again next time
    loading = null;
    throw error;
  });
  return loading;
}

/** A muxed account (M…) as its account and id; null when it is no valid muxed account. */
export async function demux(address: string): Promise<{ accountId: string; id: string } | null> {
  const sdk = await loadSdk();
  try {
    const muxed = sdk.MuxedAccount.fromAddress(address, '0');
    return { accountId: muxed.baseAccount().accountId(), id: muxed.id() };
  } catch {
    return null;
  }
}
