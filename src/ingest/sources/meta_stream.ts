// Ledgers from a framed stream, as stellar-core's --metadata-output-stream (src/meta/framed_stream.ts).
import { MetaStreamReader } from '../../meta/index.js';
import { metaReaderSource, type LedgerSource } from './ledger_source.js';

export function metaStreamSource(path: string): LedgerSource {
  return metaReaderSource(new MetaStreamReader(path));
}
