// What `start` and `serve` give the API: the ledger signal (in-process on PGlite, LISTEN/NOTIFY on
// PostgreSQL), one metrics registry, and the submission system when a core takes transactions.
// Every ingested ledger, heard through the signal, lets waiting submissions find their results.
import type { CoreInfo, ApiServices } from '../api/context.js';
import { LiveOrderBook } from '../api/live_order_book.js';
import type { Config } from '../config.js';
import { databaseTarget, type Database } from '../db/database.js';
import { openLedgerEvents, replicaLedgerEvents } from '../events/ledger_events.js';
import type { Logger } from '../logger.js';
import { attachLogMeters } from '../metrics/log_meters.js';
import { MetricsRegistry } from '../metrics/registry.js';
import { MeteredSubmissionSystem, prismaSubmissionStore, type CoreClient } from '../txsub/index.js';
import type { Stopper } from './lifecycle.js';

export async function openApiServices(options: {
  config: Config;
  logger: Logger;
  db: Database;
  /** a read replica of `db`: the API reads there, and hears a ledger once the replica has it */
  replica?: Database;
  /** where transactions go; null: POST /transactions answers 503 */
  core: CoreClient | null;
  coreInfo: () => Promise<CoreInfo | null>;
  /** receives what must be stopped, in start order */
  stoppers: Stopper[];
}): Promise<ApiServices> {
  const { config, logger, core, coreInfo, stoppers } = options;
  const primaryEvents = await openLedgerEvents(databaseTarget(config), (error) =>
    logger.warn({ err: error }, 'the ledger signal connection failed; reconnecting'),
  );
  stoppers.push(() => primaryEvents.close());
  const db = options.replica ?? options.db;
  const events = options.replica
    ? replicaLedgerEvents(primaryEvents, options.replica, {
        onError: (error) => logger.warn({ err: error }, 'the read replica does not answer; trying again'),
      })
    : primaryEvents;
  if (options.replica) stoppers.push(() => events.close());
  const metrics = new MetricsRegistry();
  attachLogMeters(metrics);
  // the lag of what the API reads; an ingester in this process reports its own once it has a ledger
  metrics.prometheus.readIngestLagFrom(async () => {
    const newest = await db.prisma.ledger.findFirst({ orderBy: { sequence: 'desc' }, select: { closedAt: true } });
    return newest?.closedAt.getTime() ?? null;
  });
  metrics.prometheus.watchConnections(() => db.connections());
  let txsub: MeteredSubmissionSystem | null = null;
  if (core) {
    const system = new MeteredSubmissionSystem(
      { networkPassphrase: config.networkPassphrase, core, store: prismaSubmissionStore(db.prisma), logger },
      metrics,
    );
    const unsubscribe = events.subscribe(() => {
      system.onLedger().catch((error: unknown) => logger.error({ err: error }, 'submission could not read the new ledger'));
    });
    // answers every waiting submitter before the server closes
    stoppers.push(async () => {
      unsubscribe();
      system.close();
    });
    txsub = system;
  }
  const orderBook = new LiveOrderBook(db, events);
  stoppers.push(async () => orderBook.close());
  return { db, config, coreInfo, events, txsub, metrics, orderBook };
}
