import type { Command } from '../command.js';
import { listenEmbeddedCore, openEmbeddedCore } from '../embedded_core.js';
import { stopAll, waitForShutdownSignal, type Stopper } from '../lifecycle.js';

export const core: Command = {
  words: ['core'],
  summary: 'run the embedded core alone: a standalone network for a separate service',
  description:
    'Runs only the standalone network: it validates submitted transactions, closes ledgers and\n' +
    "answers stellar-core's commands (/tx, /info, /manualclose) on 127.0.0.1:--core-port. With\n" +
    '--meta-out it writes every closed ledger to a galexie-style datastore folder that a separate\n' +
    '`zenith ingest` can follow. State lives in --data-dir/core.',
  settings: ['dataDir', 'networkPassphrase', 'corePort', 'closeIntervalMs', 'manualClose', 'baseReserve', 'metaOutDir', 'logLevel'],
  async run(config, logger) {
    const stoppers: Stopper[] = [];
    try {
      const network = await openEmbeddedCore(config, logger);
      stoppers.push(() => network.stop());
      const address = await listenEmbeddedCore(network, config.corePort);
      network.start();
      logger.info(
        { corePort: address.port, ledger: network.latestLedger().sequence },
        `core commands on http://127.0.0.1:${address.port}/`,
      );
      await waitForShutdownSignal(logger);
      return 0;
    } finally {
      await stopAll(stoppers, logger);
      logger.info('stopped');
    }
  },
};
