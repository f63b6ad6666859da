// Follows a LedgerSource and writes each ledger in one database transaction together with the
// cursor, so a crash at any point leaves either the whole ledger and its cursor or neither; a
// restart continues after the cursor. A ledger that does not chain onto the last one (previous
// hash, or a gap in sequence) is refused.
import type { Database } from '../db/database.js';
import type { Logger } from '../logger.js';
import type { LedgerView } from '../meta/index.js';
import type { MetricsRegistry } from '../metrics/registry.js';
import { genesisLedgerEntries, networkId } from '../stellar/index.js';
import { advanceCursor, readCursor, type Cursor } from './cursor.js';
import { acquireIngestLock, type IngestLock } from './ingest_lock.js';
import { ledgerRows } from './ledger_rows.js';
import type { LedgerRows } from './rows.js';
import { ledgerViews, type LedgerSource } from './sources/ledger_source.js';
import { writeHistory, writeState } from './writer.js';

export interface Ingester {
  /** stops following the source; the ledger in progress is finished first */
  stop(): Promise<void>;
  /** resolves once `sequence` is committed; rejects if the ingester stops or fails before */
  waitForLedger(sequence: number): Promise<void>;
  /** the last committed ledger (0 before the first) */
  readonly lastLedger: number;
  /** resolves when the ingester ends: null after stop() or the end of the source, else the error */
  readonly done: Promise<Error | null>;
}

export interface IngesterOptions {
  db: Database;
  source: LedgerSource;
  networkPassphrase: string;
  logger?: Logger;
  /** called after each ledger's transaction commits */
  onLedger?: (sequence: number, rows: LedgerRows) => void;
  /** where the time of each ledger (processing and commit) goes, as `ingester.ingest_ledger`, and its close time (the lag) */
  metrics?: MetricsRegistry;
  /** runs inside each ledger's database transaction, just before COMMIT (crash tests) */
  beforeCommit?: (sequence: number) => void | Promise<void>;
  /**
   * the ingest lock, already taken (a standby's wait ended); released when the ingester ends.
   * Without it the ingester takes the lock itself, or fails if another ingester holds it.
   */
  lock?: IngestLock;
}

export class LedgerChainError extends Error {
  override name = 'LedgerChainError';
}

/** Checks that `view` follows `last`; returns false for a ledger already ingested (to skip). */
export function checkChain(view: LedgerView, last: Cursor | null): boolean {
  if (!last) return true;
  if (view.sequence <= last.sequence) return false;
  if (view.sequence !== last.sequence + 1) {
    throw new LedgerChainError(
      `ledger ${view.sequence} does not follow the last ingested ledger ${last.sequence}: ledgers ${last.sequence + 1}..${view.sequence - 1} are missing`,
    );
  }
  const prev = Buffer.from(view.header.previousLedgerHash.value).toString('hex');
  if (prev !== last.hash) {
    throw new LedgerChainError(
      `ledger ${view.sequence} has previous hash ${prev}, but the last ingested ledger ${last.sequence} has hash ${last.hash}: the source is on another chain`,
    );
  }
  return true;
}

/** Writes one ledger and moves the cursor, in one transaction. */
export async function commitLedger(
  db: Database,
  rows: LedgerRows,
  last: Cursor | null,
  beforeCommit?: (sequence: number) => void | Promise<void>,
): Promise<Cursor> {
  const next = { sequence: rows.ledger.sequence, hash: rows.ledger.hash };
  await db.transaction(async (sql) => {
    await advanceCursor(sql, last, next);
    await writeHistory(sql, [rows]);
    await writeState(sql, rows);
    await beforeCommit?.(next.sequence);
  });
  return next;
}

export async function startIngester(options: IngesterOptions): Promise<Ingester> {
  const { db, source, logger } = options;
  const network = networkId(options.networkPassphrase);
  const ingestTimer = options.metrics?.timer('ingester.ingest_ledger');
  const lock = options.lock ?? (await acquireIngestLock(db));
  // read once the lock is held: a standby taking over continues where the last ingester committed
  let last: Cursor | null;
  try {
    last = await db.session(readCursor);
  } catch (error) {
    await lock.release();
    throw error;
  }
  let failure: Error | null = null;
  let finished = false;
  const waiters: { sequence: number; resolve: () => void; reject: (e: Error) => void }[] = [];
  // What ends the loop from outside: stop(), or the lock lost (another ingester may take over; the
  // ledger in progress is finished, and its commit fails anyway if the other one moved the cursor
  // first). The wait for the next ledger is woken through `wake`, one per wait: racing the same
  // long-lived promise on every ledger would keep a reaction per ledger alive.
  let interruption: 'stop' | Error | null = null;
  let wake: ((reason: 'stop' | Error) => void) | null = null;
  const interrupt = (reason: 'stop' | Error): void => {
    interruption ??= reason;
    wake?.(interruption);
  };
  void lock.lost.then(interrupt);
  const nextOrInterruption = <T>(next: () => Promise<T>): Promise<T | 'stop' | Error> =>
    interruption
      ? Promise.resolve(interruption)
      : new Promise<T | 'stop' | Error>((resolve, reject) => {
          wake = resolve;
          next().then(resolve, reject);
        }).finally(() => {
          wake = null;
        });

  const settleWaiters = (): void => {
    for (let i = waiters.length - 1; i >= 0; i--) {
      const w = waiters[i]!;
      if (last && last.sequence >= w.sequence) {
        waiters.splice(i, 1);
        w.resolve();
      } else if (finished) {
        waiters.splice(i, 1);
        w.reject(failure ?? new Error(`the ingester stopped at ledger ${last?.sequence ?? 0} before ledger ${w.sequence}`));
      }
    }
  };

  const run = async (): Promise<Error | null> => {
    const iterator = ledgerViews(source, last ? last.sequence + 1 : 1, network)[Symbol.asyncIterator]();
    try {
      for (;;) {
        const next = await nextOrInterruption(() => iterator.next());
        if (next instanceof Error) throw next;
        if (next === 'stop' || next.done) break;
        const view = next.value;
        if (!checkChain(view, last)) continue;
        const started = process.hrtime.bigint();
        const seed = !last && view.sequence === 1 ? genesisLedgerEntries(options.networkPassphrase) : [];
        const rows = ledgerRows(view, seed);
        last = await commitLedger(db, rows, last, options.beforeCommit);
        const nanoseconds = Number(process.hrtime.bigint() - started);
        ingestTimer?.update(nanoseconds);
        options.metrics?.prometheus.ledgerIngested(Date.parse(rows.ledger.closed_at), nanoseconds / 1e9);
        logger?.debug({ ledger: view.sequence, operations: rows.operations.length }, 'ingested ledger');
        settleWaiters();
        options.onLedger?.(view.sequence, rows);
        if (interruption instanceof Error) throw interruption;
        if (interruption === 'stop') break;
      }
      return null;
    } catch (error) {
      const err = error instanceof Error ? error : new Error(String(error));
      logger?.error({ err }, `ingestion stopped: ${err.message}`);
      return err;
    } finally {
      // a generator waiting for the next live ledger cannot be interrupted; let it end on its own
      void iterator.return?.(undefined).catch(() => {});
    }
  };

  const done = run().then(async (error) => {
    await lock.release().catch((e: unknown) => logger?.warn({ err: e }, 'could not release the ingestion lock'));
    failure = error;
    finished = true;
    settleWaiters();
    return error;
  });

  return {
    get lastLedger() {
      return last?.sequence ?? 0;
    },
    done,
    async stop() {
      interrupt('stop');
      await done;
      await source.close?.();
    },
    waitForLedger(sequence: number) {
      return new Promise<void>((resolve, reject) => {
        waiters.push({ sequence, resolve, reject });
        settleWaiters();
      });
    },
  };
}
