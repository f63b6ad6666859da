// One ledger's history, encoded for COPY: the unit of work of a reingest, built on a worker thread
// (encode_worker.ts) or in process. State rows are not built: a reingest rewrites history only.
import { ledgerRows } from './ledger_rows.js';
import type { LedgerView } from './ledger_view.js';
import { encodeHistory, type EncodedHistory } from './writer.js';

export interface EncodedLedger {
  sequence: number;
  hash: string;
  prevHash: string | null;
  operations: number;
  history: EncodedHistory;
}

export function encodeLedger(view: LedgerView): EncodedLedger {
  const rows = ledgerRows(view, [], { state: false });
  return {
    sequence: rows.ledger.sequence,
    hash: rows.ledger.hash,
    prevHash: rows.ledger.prev_hash,
    operations: rows.operations.length,
    history: encodeHistory([rows]),
  };
}
