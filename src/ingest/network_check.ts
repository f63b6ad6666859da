// Whether a source of ledger meta belongs to the network of a passphrase: the hash of a ledger's
// first transaction envelope under the network's id is one of its results' transaction hashes
// (metaMatchesNetwork). Ledgers without transactions tell nothing; the first one with transactions
// decides. Horizon asks for the passphrase for the same reason: every transaction hash (and the
// genesis account) depends on it.
import { xdr } from '@stellar/stellar-sdk/base';
import { metaMatchesNetwork, metaSequence } from '../meta/index.js';
import { networkId } from '../stellar/index.js';
import type { LedgerSource } from './sources/ledger_source.js';

export interface NetworkVerdict {
  /** null when no ledger read had transactions */
  matches: boolean | null;
  /** the ledger that decided */
  sequence: number | null;
}

/** What the source's first ledgers (at most `maxLedgers` of them) say; the caller closes the source. */
export async function checkSourceNetwork(source: LedgerSource, passphrase: string, maxLedgers = 64): Promise<NetworkVerdict> {
  const network = networkId(passphrase);
  let read = 0;
  for await (const meta of decoded(source, 0)) {
    const matches = metaMatchesNetwork(meta, network);
    if (matches !== null) return { matches, sequence: metaSequence(meta) };
    if (++read >= maxLedgers) break;
  }
  return { matches: null, sequence: null };
}

/**
 * The source with its ledgers checked as they pass, until one with transactions decides: a
 * mismatch throws `mismatch(sequence)` before that ledger is handed on.
 */
export function networkCheckedSource(source: LedgerSource, passphrase: string, mismatch: (sequence: number) => Error): LedgerSource {
  const network = networkId(passphrase);
  let decided = false;
  const check = (meta: xdr.LedgerCloseMeta): void => {
    const matches = metaMatchesNetwork(meta, network);
    if (matches === false) throw mismatch(metaSequence(meta));
    if (matches) decided = true;
  };
  const raw = source.rawLedgers?.bind(source);
  return {
    ...(raw && {
      async *rawLedgers(fromSequence: number): AsyncGenerator<Buffer> {
        for await (const bytes of raw(fromSequence)) {
          if (!decided) check(xdr.LedgerCloseMeta.fromXdr(bytes));
          yield bytes;
        }
      },
    }),
    async *ledgers(fromSequence: number): AsyncGenerator<xdr.LedgerCloseMeta> {
      for await (const meta of source.ledgers(fromSequence)) {
        if (!decided) check(meta);
        yield meta;
      }
    },
    close: async () => {
      await source.close?.();
    },
  };
}

function decoded(source: LedgerSource, fromSequence: number): AsyncIterable<xdr.LedgerCloseMeta> {
  const raw = source.rawLedgers?.bind(source);
  if (!raw) return source.ledgers(fromSequence);
  return (async function* () {
    for await (const bytes of raw(fromSequence)) yield xdr.LedgerCloseMeta.fromXdr(bytes);
  })();
}
