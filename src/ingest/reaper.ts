// History retention, as Horizon's reaper (internal/ingest/reap.go): with a retention count N, every
// `frequency` ledgers the ingester deletes the history of the ledgers before the last N, oldest
// first, in batches of `batchSize` ledgers, each batch in its own transaction. Between batches it
// yields to the ledger being ingested (on PGlite the one connection is shared, so a batch is a
// pause of ingestion: batches are small for that reason). State tables are never touched; trade
// aggregations follow the trades that remain (the trade triggers rebuild the days they lose).
// Runs only in the active ingester, so two reapers never meet.
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import type { Logger } from '../logger.js';
import type { MetricsRegistry } from '../metrics/registry.js';
import { deleteHistory } from './writer.js';

export interface RetentionConfig {
  /** ledgers kept (Horizon's --history-retention-count); 0 keeps everything */
  retentionCount: number;
  /** ledgers deleted in one transaction (Horizon's --history-retention-reap-count) */
  batchSize: number;
  /** a reap every this many ingested ledgers (Horizon's --reap-frequency) */
  frequency: number;
}

/** The retention settings of a command's configuration. */
export function retentionOf(
  config: Pick<Config, 'historyRetentionCount' | 'historyRetentionReapCount' | 'reapFrequency'>,
): RetentionConfig {
  return { retentionCount: config.historyRetentionCount, batchSize: config.historyRetentionReapCount, frequency: config.reapFrequency };
}

export interface ReapOutcome {
  /** the oldest ledger left in the history (0: none) */
  elder: number;
  /** ledgers whose history was deleted */
  ledgers: number;
}

export interface Reaper {
  /** after each ingested ledger: starts a reap every `frequency` ledgers, unless one is running */
  ledgerIngested(sequence: number): void;
  /** deletes what lies outside the retention window now */
  reap(): Promise<ReapOutcome>;
  /** waits for the reap in progress, and starts no more */
  stop(): Promise<void>;
}

export function createReaper(options: {
  db: Database;
  retention: RetentionConfig;
  logger?: Logger;
  metrics?: MetricsRegistry;
  /** between batches: the ingester's turn (a macrotask by default) */
  pause?: () => Promise<void>;
}): Reaper {
  const { db, retention, logger } = options;
  const pause = options.pause ?? (() => new Promise<void>((resolve) => setTimeout(resolve, 10)));
  const batchTimer = options.metrics?.timer('history.reap_batch');
  let running: Promise<unknown> | null = null;
  let stopped = false;

  async function heights(): Promise<{ oldest: number; latest: number }> {
    const [row] = await db.session((sql) =>
      sql.query<{ oldest: number | null; latest: number | null }>(
        'SELECT min(sequence) AS oldest, max(sequence) AS latest FROM history_ledgers',
      ),
    );
    return { oldest: Number(row?.oldest ?? 0), latest: Number(row?.latest ?? 0) };
  }

  async function reap(): Promise<ReapOutcome> {
    const { oldest, latest } = await heights();
    const target = latest - retention.retentionCount + 1;
    if (retention.retentionCount === 0 || latest <= retention.retentionCount || target <= oldest) return { elder: oldest, ledgers: 0 };
    const started = Date.now();
    for (let from = oldest; from < target && !stopped; from += retention.batchSize) {
      const to = Math.min(from + retention.batchSize, target) - 1;
      const batchStarted = process.hrtime.bigint();
      await db.transaction((sql) => deleteHistory(sql, from, to));
      batchTimer?.update(Number(process.hrtime.bigint() - batchStarted));
      await pause();
    }
    const elder = (await heights()).oldest;
    logger?.info({ elder, ledgers: elder - oldest, ms: Date.now() - started }, `history before ledger ${elder} reaped`);
    return { elder, ledgers: elder - oldest };
  }

  return {
    ledgerIngested(sequence) {
      if (retention.retentionCount === 0 || stopped || running || sequence % retention.frequency !== 0) return;
      running = reap()
        .catch((error: unknown) => logger?.warn({ err: error }, 'reaping the history failed; the next reap tries again'))
        .finally(() => {
          running = null;
        });
    },
    reap,
    async stop() {
      stopped = true;
      await running;
    },
  };
}
