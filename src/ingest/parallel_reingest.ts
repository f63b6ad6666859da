// A reingest split into jobs, as Horizon's `db reingest range --parallel-workers` splits it
// (internal/ingest/parallel.go): the job size is the range over the workers (or the size asked
// for, unless it leaves a worker idle), at least 64 ledgers (a history checkpoint) and at most 200 checkpoints (Horizon's bound
// for a datastore backend), rounded down to a multiple of 64; jobs are consecutive sub-ranges
// handed to N workers as they free up. Each worker runs `reingestRange` on its own source and
// its own database transactions (on PostgreSQL, a connection of the pool each; PGlite's one
// connection serializes them, and only the decoding runs beside it).
//
// Every finished job is recorded in Horizon's key_value_store (`reingest_done:FROM-TO`), after
// its last batch committed; a run that is killed and started again skips the ledgers of finished
// jobs and splits only what is left. The marks touching the range are removed once the whole range
// is done, so a later reingest of the same range rewrites it again.
import type { Database } from '../db/database.js';
import { type ReingestProgress, reingestRange } from './reingest.js';
import type { LedgerSource } from './sources/ledger_source.js';

/** Horizon's HistoryCheckpointLedgerInterval: the smallest job, and what job sizes are multiples of */
export const CHECKPOINT_LEDGERS = 64;
/** Horizon's MaxBufferedStorageBackendBatchSize: the largest job read from a datastore */
export const MAX_JOB_LEDGERS = 200 * CHECKPOINT_LEDGERS;

export interface LedgerRange {
  from: number;
  to: number;
}

/**
 * Horizon's calculateParallelLedgerBatchSize. `suggested` (--parallel-job-size, as Horizon had
 * it before it fixed the size) is used unless it is 0 or leaves a worker without a job; then the
 * range over the workers.
 */
export function jobSize(rangeSize: number, workers: number, suggested = 0): number {
  const even = Math.floor(rangeSize / workers);
  let size = suggested > 0 && Math.floor(rangeSize / suggested) >= workers ? suggested : even;
  size = Math.min(Math.max(size, CHECKPOINT_LEDGERS), MAX_JOB_LEDGERS);
  return Math.floor(size / CHECKPOINT_LEDGERS) * CHECKPOINT_LEDGERS;
}

/** Horizon's enqueueReingestTasks: each range cut into consecutive jobs of `size` ledgers (the last may be shorter) */
export function splitJobs(ranges: readonly LedgerRange[], size: number): LedgerRange[] {
  const jobs: LedgerRange[] = [];
  for (const range of ranges) {
    for (let from = range.from; from <= range.to; from += size) jobs.push({ from, to: Math.min(range.to, from + size - 1) });
  }
  return jobs;
}

/** `range` without the ledgers of `done`, as ascending ranges */
export function remainingRanges(range: LedgerRange, done: readonly LedgerRange[]): LedgerRange[] {
  const left: LedgerRange[] = [];
  let next = range.from;
  for (const job of [...done].sort((a, b) => a.from - b.from)) {
    if (job.to < next || job.from > range.to) continue;
    if (job.from > next) left.push({ from: next, to: job.from - 1 });
    next = Math.max(next, job.to + 1);
  }
  if (next <= range.to) left.push({ from: next, to: range.to });
  return left;
}

const MARK = 'reingest_done:';

/** the jobs a reingest finished and did not clear (a run that was stopped before its end) */
export async function finishedJobs(db: Database): Promise<LedgerRange[]> {
  const rows = await db.session((sql) => sql.query<{ key: string }>('SELECT key FROM key_value_store WHERE key LIKE $1', [`${MARK}%`]));
  return rows.flatMap(({ key }) => {
    const found = /^reingest_done:(\d+)-(\d+)$/.exec(key);
    return found ? [{ from: Number(found[1]), to: Number(found[2]) }] : [];
  });
}

async function markFinished(db: Database, job: LedgerRange): Promise<void> {
  await db.session((sql) =>
    sql.query('INSERT INTO key_value_store (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value', [
      `${MARK}${job.from}-${job.to}`,
      new Date().toISOString(),
    ]),
  );
}

async function clearFinished(db: Database, range: LedgerRange): Promise<void> {
  // a mark reaching beyond the range (an earlier, longer run) goes too: that run redoes the job rather than skip what it did not see rewritten
  const overlapping = (await finishedJobs(db)).filter((job) => job.from <= range.to && job.to >= range.from);
  await db.session(async (sql) => {
    for (const job of overlapping) await sql.query('DELETE FROM key_value_store WHERE key = $1', [`${MARK}${job.from}-${job.to}`]);
  });
}

export interface ParallelProgress {
  /** ledgers of the range to write in this run (the finished jobs of an earlier run excluded) */
  total: number;
  /** ledgers written so far in this run */
  ledgers: number;
  operations: number;
  jobs: number;
  jobsDone: number;
  /** ledgers skipped: finished by an earlier run */
  skipped: number;
}

export interface ParallelReingestOptions {
  db: Database;
  /** a fresh source of the same ledgers for each job */
  openSource: () => LedgerSource;
  networkPassphrase: string;
  from: number;
  to: number;
  workers: number;
  /** Horizon's --parallel-job-size; 0: the range over the workers */
  jobSize?: number;
  /** decoding threads of each job (reingest.ts's `workers`) */
  encodeWorkers?: number;
  onProgress?: (progress: ParallelProgress) => void;
  /** told of each job once it is recorded as finished */
  onJobDone?: (job: LedgerRange) => void;
}

export interface ParallelResult extends ParallelProgress {
  elapsedMs: number;
}

export async function reingestInParallel(options: ParallelReingestOptions): Promise<ParallelResult> {
  const { db, from, to, workers } = options;
  const started = performance.now();
  const left = remainingRanges({ from, to }, await finishedJobs(db));
  const total = left.reduce((sum, range) => sum + range.to - range.from + 1, 0);
  const jobs = splitJobs(left, jobSize(total, workers, options.jobSize ?? 0));
  const progress: ParallelProgress = { total, ledgers: 0, operations: 0, jobs: jobs.length, jobsDone: 0, skipped: to - from + 1 - total };
  options.onProgress?.({ ...progress });

  let next = 0;
  let failure: unknown = null;
  const worker = async (): Promise<void> => {
    while (failure === null && next < jobs.length) {
      const job = jobs[next++]!;
      let counted: ReingestProgress = { ledgers: 0, operations: 0, lastLedger: job.from - 1, elapsedMs: 0 };
      try {
        await reingestRange({
          db,
          source: options.openSource(),
          networkPassphrase: options.networkPassphrase,
          from: job.from,
          to: job.to,
          ...(options.encodeWorkers !== undefined ? { workers: options.encodeWorkers } : {}),
          onProgress: (p) => {
            progress.ledgers += p.ledgers - counted.ledgers;
            progress.operations += p.operations - counted.operations;
            counted = p;
            options.onProgress?.({ ...progress });
          },
        });
        await markFinished(db, job);
      } catch (error) {
        failure ??= new JobError(job, error);
        return;
      }
      progress.jobsDone++;
      options.onJobDone?.(job);
      options.onProgress?.({ ...progress });
    }
  };
  // a worker stops taking jobs once one failed; the others finish the job they hold
  await Promise.all(Array.from({ length: Math.min(workers, jobs.length) }, worker));
  if (failure) throw failure;
  await clearFinished(db, { from, to });
  return { ...progress, elapsedMs: performance.now() - started };
}

export class JobError extends Error {
  override name = 'JobError';
  constructor(
    readonly job: LedgerRange,
    override readonly cause: unknown,
  ) {
    super(
      `ledgers ${job.from}..${job.to} failed: ${cause instanceof Error ? cause.message : String(cause)}; run the same command again: the finished jobs are kept`,
    );
  }
}
