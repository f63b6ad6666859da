// Ledgers from a galexie-style datastore folder (read by src/meta/datastore.ts).
import { DatastoreReader, type DatastoreReadOptions } from '../../meta/index.js';
import { metaReaderSource, type LedgerSource } from './ledger_source.js';

export function datastoreSource(folder: string, options: DatastoreReadOptions = {}): LedgerSource {
  return metaReaderSource(new DatastoreReader(folder, options));
}
