// A ledger's history rows as COPY input, one buffer per table: built where the rows are (a
// reingest's worker thread, or in process) and written by writer.ts.
import {
  EFFECTS,
  LEDGERS,
  OPERATION_CLAIMABLE_BALANCES,
  OPERATION_LIQUIDITY_POOLS,
  OPERATION_PARTICIPANTS,
  OPERATIONS,
  TRANSACTION_CLAIMABLE_BALANCES,
  TRANSACTION_LIQUIDITY_POOLS,
  TRANSACTION_PARTICIPANTS,
  TRANSACTIONS,
  type LedgerRow,
  type TradeRecord,
  type TransactionHistoryRows,
} from '../rows.js';
import type { Table } from '../table.js';
import { BufferPool } from './buffer_pool.js';
import { CopyBinary, rowWriter } from './copy_binary.js';

/** history rows: a ledger's (LedgerRows), or those of some of its transactions */
export type HistoryRows = TransactionHistoryRows & { ledger?: LedgerRow };

interface HistoryTable {
  readonly table: Table;
  rows(ledger: HistoryRows): readonly object[];
  /** appends the table's rows of `ledger` to `out` */
  encode(out: CopyBinary, ledger: HistoryRows): void;
}

function historyTable<Row extends object>(table: Table<Row>, rows: (ledger: HistoryRows) => readonly Row[]): HistoryTable {
  const write = rowWriter(table);
  return { table, rows, encode: (out, ledger) => write(out, rows(ledger)) };
}

/** The history tables COPY fills, in the order they are written (trades need asset ids: writer.ts). */
export const HISTORY_TABLES: readonly HistoryTable[] = [
  historyTable(LEDGERS, (l) => (l.ledger ? [l.ledger] : [])),
  historyTable(TRANSACTIONS, (l) => l.transactions),
  historyTable(OPERATIONS, (l) => l.operations),
  historyTable(EFFECTS, (l) => l.effects),
  historyTable(TRANSACTION_PARTICIPANTS, (l) => l.transactionParticipants),
  historyTable(OPERATION_PARTICIPANTS, (l) => l.operationParticipants),
  historyTable(TRANSACTION_CLAIMABLE_BALANCES, (l) => l.transactionClaimableBalances),
  historyTable(OPERATION_CLAIMABLE_BALANCES, (l) => l.operationClaimableBalances),
  historyTable(TRANSACTION_LIQUIDITY_POOLS, (l) => l.transactionLiquidityPools),
  historyTable(OPERATION_LIQUIDITY_POOLS, (l) => l.operationLiquidityPools),
];

/**
 * History rows ready to write: COPY tuples per table (each its own buffer, which a worker thread
 * can transfer), and the trades (their base/counter order needs the assets' database ids).
 */
export interface EncodedHistory {
  copy: Record<string, Uint8Array<ArrayBuffer>>;
  trades: TradeRecord[];
}

// each table's size in the previous ledger: the next buffers start about that large
const sizeHints = HISTORY_TABLES.map(() => 1 << 16);

// COPY buffers whose rows have been written, handed back for the next ledgers (recycleHistory)
const spareBuffers = new BufferPool();

/** The buffers of encoded history that has been written, for the encoder of this thread to reuse. */
export function recycleHistory(buffers: readonly ArrayBuffer[]): void {
  for (const buffer of buffers) spareBuffers.give(buffer);
}

/** The buffers that hold encoded history's COPY bytes. */
export function historyBuffers(history: EncodedHistory): ArrayBuffer[] {
  return [...new Set(Object.values(history.copy).map((bytes) => bytes.buffer))];
}

/** Encodes history rows as they come, so a caller can build a ledger's rows a few transactions at a time. */
export class HistoryEncoder {
  private readonly tables = sizeHints.map((size) => new CopyBinary(size, spareBuffers));
  private readonly trades: TradeRecord[] = [];

  add(rows: HistoryRows): void {
    HISTORY_TABLES.forEach((history, i) => {
      history.encode(this.tables[i]!, rows);
    });
    this.trades.push(...rows.trades);
  }

  finish(): EncodedHistory {
    const copy: Record<string, Uint8Array<ArrayBuffer>> = {};
    HISTORY_TABLES.forEach(({ table }, i) => {
      const out = this.tables[i]!;
      sizeHints[i] = Math.max(1 << 12, out.length + (out.length >> 3));
      if (out.length > 0) copy[table.name] = out.view();
    });
    return { copy, trades: this.trades };
  }
}

export function encodeHistory(ledgers: readonly HistoryRows[]): EncodedHistory {
  const encoder = new HistoryEncoder();
  for (const ledger of ledgers) encoder.add(ledger);
  return encoder.finish();
}
