// One ledger's history, encoded for COPY: the unit of work of a reingest, built on a worker thread
// (encode_worker.ts) or in process. State rows are not built: a reingest rewrites history only.
import type { LedgerView } from '../../meta/index.js';
import { addTransactionRows, emptyTransactionRows } from '../ledger_rows.js';
import { closedAt, countTransaction, ledgerRow, type LedgerCounts } from '../processors/ledgers.js';
import { HistoryEncoder, type EncodedHistory } from './history.js';

export interface EncodedLedger {
  sequence: number;
  hash: string;
  prevHash: string | null;
  operations: number;
  history: EncodedHistory;
  /** once the history is written: hands its buffers back to the encoder that filled them */
  recycle?: () => void;
}

// Rows are built and encoded this many transactions at a time, and then the transactions forget
// their decoded parts: a whole ledger's decoded transactions and rows (tens of MB) outlived
// several young-generation collections, each of which copied them.
const SLICE = 32;

export function encodeLedger(view: LedgerView): EncodedLedger {
  const at = closedAt(view);
  const encoder = new HistoryEncoder();
  const counts: LedgerCounts = { successful: 0, failed: 0, operations: 0, txSetOperations: 0 };
  for (let start = 0; start < view.txs.length; start += SLICE) {
    const rows = emptyTransactionRows();
    const slice = view.txs.slice(start, start + SLICE);
    for (const tx of slice) addTransactionRows(rows, view, tx, at);
    for (const tx of rows.transactions) countTransaction(counts, tx.successful, tx.operation_count);
    encoder.add(rows);
    for (const tx of slice) tx.release?.();
  }
  const ledger = ledgerRow(view, counts);
  encoder.add({ ledger, ...emptyTransactionRows() });
  return {
    sequence: ledger.sequence,
    hash: ledger.hash,
    prevHash: ledger.prev_hash,
    operations: counts.txSetOperations,
    history: encoder.finish(),
  };
}
