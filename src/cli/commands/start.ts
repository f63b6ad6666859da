import { coreInfoFromAnswer } from '../../api/core_info.js';
import { graphqlLimitsOf } from '../../api/graphql_limits.js';
import { explorerServed, openExplorer } from '../../api/explorer.js';
import { createApiServer, createHealthHandler, SERVED_PATHS } from '../../api/server.js';
import { streamLimitsOf } from '../../api/stream_limits.js';
import {
  ADMIN_SETTINGS,
  ADMISSION_SETTINGS,
  type Config,
  GRAPHQL_LIMIT_SETTINGS,
  RETENTION_SETTINGS,
  type SettingName,
  PATH_SETTINGS,
  STREAM_LIMIT_SETTINGS,
} from '../../config.js';
import { Friendbot } from '../../friendbot/index.js';
import { createReaper, embeddedCoreSource, retentionOf, startIngester } from '../../ingest/index.js';
import { embeddedCoreClient, prismaSubmissionStore } from '../../txsub/index.js';
import { startAdminServer } from '../admin_port.js';
import { openApiServices } from '../api_services.js';
import type { Command } from '../command.js';
import { listenEmbeddedCore, openEmbeddedCore } from '../embedded_core.js';
import { openMigratedDatabase } from '../database.js';
import { closeServer, isLoopback, listen, serverUrl, stopAll, waitForShutdownSignal, type Stopper } from '../lifecycle.js';

export const start: Command = {
  words: ['start'],
  summary: 'all in one: a private network (embedded core + friendbot) and the API on it',
  description:
    'Runs a complete private network in one process: the embedded core closes ledgers (its\n' +
    'stellar-core commands on 127.0.0.1:--core-port), /friendbot funds new accounts, and the REST\n' +
    'API and /graphql are served on --host:--port (this machine alone by default: the root key\n' +
    'of the network derives from its public passphrase). Data lives in --data-dir (PGlite and the\n' +
    'core), or the history goes to PostgreSQL with --database-url. Ctrl-C stops it; the next\n' +
    'start continues. On this machine alone, the per-hour rate limit is off unless given.',
  settings: [
    'port',
    'host',
    'trustedProxies',
    'perHourRateLimit',
    'friendbotPerHourLimit',
    ...ADMISSION_SETTINGS,
    'dataDir',
    'databaseUrl',
    'healthMaxLedgerAge',
    'networkPassphrase',
    'corePort',
    'closeIntervalMs',
    'manualClose',
    'baseReserve',
    'metaOutDir',
    ...ADMIN_SETTINGS,
    ...GRAPHQL_LIMIT_SETTINGS,
    ...STREAM_LIMIT_SETTINGS,
    ...PATH_SETTINGS,
    ...RETENTION_SETTINGS,
    'logLevel',
  ],
  async run(config, logger, _positionals, given) {
    const stoppers: Stopper[] = [];
    try {
      const db = await openMigratedDatabase(config, logger);
      stoppers.push(() => db.close());

      const core = await openEmbeddedCore(config, logger.child({ component: 'core' }));
      stoppers.push(() => core.stop());
      const coreAddress = await listenEmbeddedCore(core, config.corePort);
      core.start();
      logger.info(
        { corePort: coreAddress.port, ledger: core.latestLedger().sequence, manualClose: config.manualClose },
        `core commands on http://127.0.0.1:${coreAddress.port}/ (/tx, /info${config.manualClose ? ', /manualclose' : ''})`,
      );

      const services = await openApiServices({
        config,
        logger,
        db,
        core: embeddedCoreClient(core),
        coreInfo: async () => coreInfoFromAnswer(core.info()),
        stoppers,
      });

      // stopped before the core and the database (stoppers run in reverse): it finishes its ledger
      const ingestLogger = logger.child({ component: 'ingest' });
      const reaper = createReaper({ db, retention: retentionOf(config), logger: ingestLogger, metrics: services.metrics });
      stoppers.push(() => reaper.stop());
      const ingester = await startIngester({
        db,
        source: embeddedCoreSource(core),
        networkPassphrase: config.networkPassphrase,
        logger: ingestLogger,
        metrics: services.metrics,
        // after the commit: streams, subscriptions and submissions (here and in other API processes) read it
        onLedger: (sequence) => {
          reaper.ledgerIngested(sequence);
          services.events
            .publish(sequence)
            .catch((error: unknown) => ingestLogger.error({ err: error, sequence }, 'the ledger signal was not sent'));
        },
      });
      stoppers.push(() => ingester.stop());
      logger.info({ after: ingester.lastLedger }, 'ingesting the embedded core');

      // a client of the submission system like any other (openApiServices made one: it has a core)
      const friendbot = new Friendbot({
        networkPassphrase: config.networkPassphrase,
        txsub: services.txsub!,
        store: prismaSubmissionStore(db.prisma),
        events: services.events,
        baseFee: core.info().info.ledger.baseFee,
      });
      const explorer = openExplorer(logger);
      const server = createApiServer({
        services,
        logger,
        explorer,
        friendbot,
        protection: privateNetworkProtection(config, given),
        admission: config,
        graphqlLimits: graphqlLimitsOf(config),
        streamLimits: streamLimitsOf(config),
      });
      const port = await listen(server, config.port, config.host);
      if (!isLoopback(config.host)) {
        // stellar-core's root account: its secret seed is the network id, the passphrase's sha256
        logger.warn(
          { host: config.host },
          `the API listens on ${config.host}, beyond this machine: the root account of this private network has the passphrase's hash as its secret, so anyone who can reach it may sign for all its lumens; expose it to trusted networks only`,
        );
      }
      stoppers.push(closeServer(server));
      // answers the requests waiting for a funding transaction before the server closes
      stoppers.push(async () => friendbot.close());
      await startAdminServer(config, services.metrics.prometheus, logger, stoppers, createHealthHandler(services));
      logger.info(
        { port },
        `Zenith is serving ${serverUrl(config.host, port)} (${SERVED_PATHS}, friendbot at /friendbot${explorerServed(explorer)})`,
      );
      // an ingester that stops by itself (its database gone, its lock lost) ends the process, which
      // would otherwise serve an ever older history
      const failure = await Promise.race([waitForShutdownSignal(logger).then(() => null), ingester.done]);
      if (failure) throw failure;
      return 0;
    } finally {
      await stopAll(stoppers, logger);
      logger.info('stopped');
    }
  },
};

/**
 * The protection of a private network: on this machine alone its one user (their explorer's live
 * ledgers alone spend 3,600 units an hour on 1-second ledgers) is not rate limited unless the
 * limit is given; once the API listens beyond the machine, Horizon's default applies.
 */
export function privateNetworkProtection(config: Config, given: ReadonlySet<SettingName>): Config {
  if (given.has('perHourRateLimit') || !isLoopback(config.host)) return config;
  return { ...config, perHourRateLimit: 0 };
}
