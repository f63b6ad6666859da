// Re-runs a range of ledgers from a source into the history tables: each batch of ledgers replaces
// its history rows (delete, then multi-row inserts) in one transaction, so running it again, or
// after a crash, gives the same rows. State tables and the cursor are left alone, as in Horizon:
// they describe the latest ledger, not the range.
import type { Database } from '../db/database.js';
import { networkId } from '../stellar/index.js';
import type { EncodedLedger } from './encode/encoded_ledger.js';
import { encodedLedgers } from './encode/parallel_encode.js';
import { LedgerChainError } from './ingester.js';
import type { LedgerSource } from './sources/ledger_source.js';
import { deleteHistory, writeEncodedHistory } from './writer.js';

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
   * stop a batch early once it holds this many operations (default 10,000 on PostgreSQL, 2,000 on
   * PGlite): small batches let the first write start early and the last one end soon after the
   * source does, and on PGlite a batch holds the one connection the live ingester and the API
   * share; on PostgreSQL, 10,000 cost ~10% less CPU on both sides than 2,000 (40,000: no better)
   */
  batchOperations?: number;
  onProgress?: (progress: ReingestProgress) => void;
  /** worker threads that decode and encode ledgers (default: one fewer than the CPUs, 1 to 4); 0 = none */
  workers?: number;
}

const ZERO_HASH = '0'.repeat(64);

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
  const batchOperations = options.batchOperations ?? (db.kind === 'postgres' ? 10_000 : 2_000);
  const started = performance.now();
  const progress: ReingestProgress = { ledgers: 0, operations: 0, lastLedger: from - 1, elapsedMs: 0 };
  let batch: EncodedLedger[] = [];
  let batchOps = 0;
  let prevHash: string | null = null;

  // Batches are written one after the other, each in its own transaction, while the next ledgers are
  // encoded (on worker threads, parallel_encode.ts). Up to two batches wait for the database, so the
  // encoding never pauses for a commit; batches commit in order.
  const writes: Promise<void>[] = [];
  let failure: unknown = null;
  let queued = 0;

  const flush = async (): Promise<void> => {
    if (batch.length === 0) return;
    const ledgers = batch;
    const ops = batchOps;
    const first = ledgers[0]!.sequence;
    const last = ledgers[ledgers.length - 1]!.sequence;
    batch = [];
    batchOps = 0;
    queued = last;
    while (writes.length >= 2) await writes.shift();
    if (failure) throw failure;
    const previous = writes.at(-1) ?? Promise.resolve();
    const write = async (): Promise<void> => {
      if (failure) return;
      await db.transaction(async (sql) => {
        // a crash may lose the last batches' commits, never half a batch: rerunning rewrites them
        await sql.exec('SET LOCAL synchronous_commit = off');
        await deleteHistory(sql, first, last);
        await writeEncodedHistory(
          sql,
          ledgers.map((l) => l.history),
        );
      });
      for (const ledger of ledgers) ledger.recycle?.();
      progress.ledgers += ledgers.length;
      progress.operations += ops;
      progress.lastLedger = last;
      progress.elapsedMs = performance.now() - started;
      options.onProgress?.({ ...progress });
    };
    writes.push(
      previous.then(write).catch((error: unknown) => {
        failure ??= error;
      }),
    );
  };

  const source = encodedLedgers(options.source, from, network, { workers: options.workers, toSequence: to });
  try {
    for await (const ledger of source) {
      const sequence = ledger.sequence;
      if (sequence > to) break;
      const expected = (queued || from - 1) + batch.length + 1;
      if (sequence !== expected) {
        throw new ReingestError(`the source has no ledger ${expected} (next is ${sequence}): cannot reingest ${from}..${to}`);
      }
      const prev = ledger.prevHash ?? ZERO_HASH;
      if (prevHash !== null && prev !== prevHash) {
        throw new LedgerChainError(`ledger ${sequence} has previous hash ${prev}, but ledger ${sequence - 1} has hash ${prevHash}`);
      }
      prevHash = ledger.hash;
      batch.push(ledger);
      batchOps += ledger.operations;
      if (batch.length >= batchSize || batchOps >= batchOperations) await flush();
      if (sequence === to) break;
    }
    await flush();
  } finally {
    // never leave a write running behind the caller's back
    await Promise.all(writes);
  }
  if (failure) throw failure;
  if (progress.lastLedger !== to) {
    throw new ReingestError(`the source ended at ledger ${progress.lastLedger}, before ${to}`);
  }
  progress.elapsedMs = performance.now() - started;
  return progress;
}
