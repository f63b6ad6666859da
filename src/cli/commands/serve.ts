import { fetchCoreInfo } from '../../api/core_info.js';
import { graphqlLimitsOf } from '../../api/graphql_limits.js';
import { explorerServed, openExplorer } from '../../api/explorer.js';
import { createApiServer, createHealthHandler, SERVED_PATHS } from '../../api/server.js';
import { streamLimitsOf } from '../../api/stream_limits.js';
import { ADMIN_SETTINGS, ADMISSION_SETTINGS, GRAPHQL_LIMIT_SETTINGS, PATH_SETTINGS, STREAM_LIMIT_SETTINGS } from '../../config.js';
import { httpCoreClient } from '../../txsub/index.js';
import { startAdminServer } from '../admin_port.js';
import { openApiServices } from '../api_services.js';
import type { Command } from '../command.js';
import { openMigratedDatabase, openReadReplica } from '../database.js';
import { closeServer, listen, serverUrl, stopAll, waitForShutdownSignal, type Stopper } from '../lifecycle.js';

export const serve: Command = {
  words: ['serve'],
  summary: 'the API alone, on a database another process ingests into',
  description:
    'Serves the REST API, /graphql and its streams on --port from an existing database (--data-dir\n' +
    'or --database-url) without ingesting. On PostgreSQL, new ledgers committed by the ingesting\n' +
    'process (`zenith start` or `zenith ingest`) reach its streams through LISTEN/NOTIFY; several\n' +
    'serve processes may share one database. With --core-url, POST /transactions forwards to that\n' +
    "core's /tx and the root document shows its /info; without it, submissions answer 503.",
  settings: [
    'port',
    'host',
    'trustedProxies',
    'perHourRateLimit',
    ...ADMISSION_SETTINGS,
    'dataDir',
    'databaseUrl',
    'databaseRoUrl',
    'healthMaxLedgerAge',
    'networkPassphrase',
    'coreUrl',
    ...ADMIN_SETTINGS,
    ...GRAPHQL_LIMIT_SETTINGS,
    ...STREAM_LIMIT_SETTINGS,
    ...PATH_SETTINGS,
    'logLevel',
  ],
  async run(config, logger) {
    const stoppers: Stopper[] = [];
    try {
      const replica = await openReadReplica(config);
      if (replica) stoppers.push(() => replica.close());
      const db = await openMigratedDatabase(config, logger, { create: false });
      stoppers.push(() => db.close());
      const { coreUrl } = config;
      const services = await openApiServices({
        config,
        logger,
        db,
        ...(replica ? { replica } : {}),
        core: coreUrl ? httpCoreClient(coreUrl) : null,
        coreInfo: async () => (coreUrl ? fetchCoreInfo(coreUrl) : null),
        stoppers,
      });
      const explorer = openExplorer(logger);
      const server = createApiServer({
        services,
        logger,
        explorer,
        protection: config,
        admission: config,
        graphqlLimits: graphqlLimitsOf(config),
        streamLimits: streamLimitsOf(config),
      });
      const port = await listen(server, config.port, config.host);
      stoppers.push(closeServer(server));
      await startAdminServer(config, services.metrics.prometheus, logger, stoppers, createHealthHandler(services));
      logger.info(
        { port, coreUrl },
        `Zenith is serving ${serverUrl(config.host, port)} (${SERVED_PATHS}${explorerServed(explorer)})${coreUrl ? `, submitting to ${coreUrl}` : ''}`,
      );
      await waitForShutdownSignal(logger);
      return 0;
    } finally {
      await stopAll(stoppers, logger);
      logger.info('stopped');
    }
  },
};
