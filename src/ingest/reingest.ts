// Re-runs a range of ledgers from a source into the history tables: each batch of ledgers replaces
// its history rows (delete, then multi-row inserts) in one transaction, so running it again, or
// after a crash, gives the same rows. State tables and the cursor are left alone, as in Horizon:
// they describe the latest ledger, not the range.
import type { Database } from '../db/database.js';
import { ledgerViews, type LedgerSource } from './ledger_source.js';
import { ledgerRows } from './ledger_rows.js';
import { networkId, type LedgerView } from './ledger_view.js';
import { LedgerChainError } from './ingester.js';
import type { LedgerRows } from './rows.js';
import { deleteHistory, writeHistory } from './writer.js';

export interface ReingestProgress {
  /** ledgers written so far */
  ledgers: number;
  operations: number;
  lastLedger: number;
  elapsedMs: number;
}

export interface ReingestOptions {
  db: Database;
  source: LedgerSource;
  networkPassphrase: string;
  from: number;
  to: number;
  /** ledgers per database transaction (default 20) */
  batchSize?: number;
  /**
   * stop a batch early once it holds this many operations (default 2,000): small batches let the
   * first write start early and the last one end soon after the source does
   */
  batchOperations?: number;
  onProgress?: (progress: ReingestProgress) => void;
}

const ZERO_HASH = '0'.repeat(64);

async function* rowsOf(views: AsyncIterable<LedgerView>): AsyncGenerator<LedgerRows> {
  // state tables are not rewritten by a reingest: their rows are not built
  for await (const view of views) yield ledgerRows(view, [], { state: false });
}

export class ReingestError extends Error {
  override name = 'ReingestError';
}

export async function reingestRange(options: ReingestOptions): Promise<ReingestProgress> {
  const { db, from, to } = options;
  if (!Number.isInteger(from) || !Number.isInteger(to) || from < 1 || to < from) {
    throw new ReingestError(`invalid ledger range ${from}..${to}: need 1 <= from <= to`);
  }
  const network = networkId(options.networkPassphrase);
  const batchSize = options.batchSize ?? 20;
  const batchOperations = options.batchOperations ?? 2_000;
  const started = performance.now();
  const progress: ReingestProgress = { ledgers: 0, operations: 0, lastLedger: from - 1, elapsedMs: 0 };
  let batch: LedgerRows[] = [];
  let batchOps = 0;
  let prevHash: string | null = null;

  // One batch is written while the next one is built: the database works while this process
  // decodes. Batches still commit in order, each in its own transaction.
  let writing: Promise<void> = Promise.resolve();
  let failure: unknown = null;
  let queued = 0;

  const flush = async (): Promise<void> => {
    if (batch.length === 0) return;
    const rows = batch;
    const ops = batchOps;
    const first = rows[0]!.ledger.sequence;
    const last = rows[rows.length - 1]!.ledger.sequence;
    batch = [];
    batchOps = 0;
    queued = last;
    await writing;
    if (failure) throw failure;
    writing = db
      .transaction(async (sql) => {
        // a crash may lose the last batches' commits, never half a batch: rerunning rewrites them
        await sql.exec('SET LOCAL synchronous_commit = off');
        await deleteHistory(sql, first, last);
        await writeHistory(sql, rows);
      })
      .then(() => {
        progress.ledgers += rows.length;
        progress.operations += ops;
        progress.lastLedger = last;
        progress.elapsedMs = performance.now() - started;
        options.onProgress?.({ ...progress });
      })
      .catch((error: unknown) => {
        failure = error;
      });
  };

  const rowsSource = rowsOf(ledgerViews(options.source, from, network));
  try {
    for await (const rows of rowsSource) {
      const sequence = rows.ledger.sequence;
      if (sequence > to) break;
      const expected = (queued || from - 1) + batch.length + 1;
      if (sequence !== expected) {
        throw new ReingestError(`the source has no ledger ${expected} (next is ${sequence}): cannot reingest ${from}..${to}`);
      }
      const prev = rows.ledger.prev_hash ?? ZERO_HASH;
      if (prevHash !== null && prev !== prevHash) {
        throw new LedgerChainError(`ledger ${sequence} has previous hash ${prev}, but ledger ${sequence - 1} has hash ${prevHash}`);
      }
      prevHash = rows.ledger.hash;
      batch.push(rows);
      batchOps += rows.operations.length;
      if (batch.length >= batchSize || batchOps >= batchOperations) await flush();
      if (sequence === to) break;
    }
    await flush();
  } finally {
    // never leave a write running behind the caller's back
    await writing;
  }
  if (failure) throw failure;
  if (progress.lastLedger !== to) {
    throw new ReingestError(`the source ended at ledger ${progress.lastLedger}, before ${to}`);
  }
  progress.elapsedMs = performance.now() - started;
  return progress;
}
