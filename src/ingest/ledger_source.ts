// Where LedgerCloseMeta comes from: the embedded core, a datastore folder, or a framed stream.
import type { xdr } from '@stellar/stellar-base';
import { viewLedgerBytes } from './ledger_bytes.js';
import { viewLedger, type LedgerView } from './ledger_view.js';

export interface LedgerSource {
  /** ledgers from `fromSequence` on (or from the first one the source has, if later), in order */
  ledgers(fromSequence: number): AsyncIterable<xdr.LedgerCloseMeta>;
  /**
   * The same ledgers as XDR bytes, for sources that have them: the ingester then stores slices of
   * the input instead of encoding the decoded values again.
   */
  rawLedgers?(fromSequence: number): AsyncIterable<Buffer>;
  close?(): Promise<void>;
}

/** The source's ledgers as views, from bytes when it has them. */
export async function* ledgerViews(source: LedgerSource, fromSequence: number, network: Buffer): AsyncGenerator<LedgerView> {
  if (source.rawLedgers) {
    for await (const raw of source.rawLedgers(fromSequence)) yield viewLedgerBytes(raw, network);
  } else {
    for await (const meta of source.ledgers(fromSequence)) yield viewLedger(meta, network);
  }
}
