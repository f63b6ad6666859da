// The spec's metrics table, registered on the services' registry when the server is made: the
// gauges read live on each GET /metrics; meters and timers start at zero so every entry is
// present from the first request (requests.* are fed in server.ts, logging.* by the logger).
import type { ApiServices } from './context.js';
import { LOG_METERS } from '../metrics/log_meters.js';

export function registerServiceMetrics(services: ApiServices): void {
  const { metrics, db } = services;
  // Node has no goroutines: the nearest count of concurrent work is the live handles and requests
  metrics.gauge('goroutines', () => process.getActiveResourcesInfo().length);
  const range = () => db.prisma.ledger.aggregate({ _max: { sequence: true }, _min: { sequence: true } });
  metrics.gauge('history.elder_ledger', async () => (await range())._min.sequence ?? 0);
  metrics.gauge('history.latest_ledger', async () => (await range())._max.sequence ?? 0);
  metrics.gauge('history.open_connections', () => openConnections(services));
  metrics.gauge('core_node.latest_ledger', async () => (await services.coreInfo())?.latestLedger ?? 0);
  metrics.gauge('core_node.open_connections', async () => ((await services.coreInfo()) ? 1 : 0));
  // MeteredSubmissionSystem registers the txsub entries itself; without one they stay at zero
  if (!services.txsub) {
    metrics.gauge('txsub.buffered', () => 0);
    metrics.gauge('txsub.open', () => 0);
    metrics.timer('txsub.total');
    metrics.meter('txsub.succeeded');
    metrics.meter('txsub.failed');
  }
  metrics.timer('requests.total');
  metrics.meter('requests.succeeded');
  metrics.meter('requests.failed');
  for (const name of LOG_METERS) metrics.meter(name);
  // fed by an ingester in this process (zenith start); an API-only process shows zero counts, and
  // only `zenith db reingest`, a process of its own, clears ledgers (docs/api.md)
  metrics.timer('ingester.ingest_ledger');
  metrics.timer('ingester.clear_ledger');
}

/** PGlite is one in-process connection; the pg pool is not reachable from Database, so ask the server */
async function openConnections(services: ApiServices): Promise<number> {
  if (services.db.kind === 'pglite') return 1;
  const [row] = await services.db.prisma.$queryRaw<{ count: bigint }[]>`
    SELECT count(*) AS count FROM pg_stat_activity WHERE datname = current_database()`;
  return Number(row?.count ?? 0);
}
