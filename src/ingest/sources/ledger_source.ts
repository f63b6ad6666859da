// Where LedgerCloseMeta comes from: the embedded core, a datastore folder, or a framed stream.
import { xdr } from '@stellar/stellar-sdk/base';
import { viewLedger, viewLedgerBytes, type LedgerView } from '../../meta/index.js';

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

/** A reader of LedgerCloseMeta bytes (src/meta/): a datastore folder, a framed stream. */
export interface MetaReader {
  ledgers(fromSequence: number): AsyncIterable<Buffer>;
  close(): Promise<void>;
}

/** A source over a meta reader: its bytes, or decoded. */
export function metaReaderSource(reader: MetaReader): LedgerSource {
  return {
    rawLedgers: (fromSequence) => reader.ledgers(fromSequence),
    async *ledgers(fromSequence: number): AsyncGenerator<xdr.LedgerCloseMeta> {
      for await (const bytes of reader.ledgers(fromSequence)) yield xdr.LedgerCloseMeta.fromXdr(bytes);
    },
    close: () => reader.close(),
  };
}

/** The source's ledgers as views, from bytes when it has them. */
export async function* ledgerViews(source: LedgerSource, fromSequence: number, network: Buffer): AsyncGenerator<LedgerView> {
  if (source.rawLedgers) {
    for await (const raw of source.rawLedgers(fromSequence)) yield viewLedgerBytes(raw, network);
  } else {
    for await (const meta of source.ledgers(fromSequence)) yield viewLedger(meta, network);
  }
}
