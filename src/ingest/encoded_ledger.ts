// One ledger's history, encoded for COPY: the unit of work of a reingest, built on a worker thread
// (encode_worker.ts) or in process. State rows are not built: a reingest rewrites history only.
import { addTransactionRows, emptyTransactionRows } from './ledger_rows.js';
import type { LedgerView } from './ledger_view.js';
import { closedAt, ledgerRow } from './processors/ledgers.js';
import { HistoryEncoder, type EncodedHistory } from './writer.js';

export interface EncodedLedger {
  sequence: number;
  hash: string;
  prevHash: string | null;
  operations: number;
  history: EncodedHistory;
}

// Rows are built and encoded this many transactions at a time: the rows of a whole ledger (a few
// MB) outlived several young-generation collections, each of which copied them.
const SLICE = 32;

export function encodeLedger(view: LedgerView): EncodedLedger {
  const ledger = ledgerRow(view);
  const at = closedAt(view);
  const encoder = new HistoryEncoder();
  encoder.add({ ledger, ...emptyTransactionRows() });
  let operations = 0;
  for (let start = 0; start < view.txs.length; start += SLICE) {
    const rows = emptyTransactionRows();
    for (const tx of view.txs.slice(start, start + SLICE)) addTransactionRows(rows, view, tx, at);
    operations += rows.operations.length;
    encoder.add(rows);
  }
  return { sequence: ledger.sequence, hash: ledger.hash, prevHash: ledger.prev_hash, operations, history: encoder.finish() };
}
