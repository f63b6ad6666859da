import { ADMIN_SETTINGS, RETENTION_SETTINGS } from '../../config.js';
import { createReaper, ProgressBar, ProgressMeter, progressLine, retentionOf, startIngester } from '../../ingest/index.js';
import { MetricsRegistry } from '../../metrics/registry.js';
import { startAdminServer } from '../admin_port.js';
import type { Command } from '../command.js';
import { openMigratedDatabase } from '../database.js';
import { chooseLedgerSource, networkCheckedLedgerSource, sourcePassphrase } from '../ledger_source.js';
import { stopAll, waitForShutdownSignal, type Stopper } from '../lifecycle.js';

export const ingest: Command = {
  words: ['ingest'],
  summary: 'follow a source of ledger meta into the database (a datastore folder or a framed stream)',
  description:
    'Ingests LedgerCloseMeta into the history and state tables, continuing after the last ingested\n' +
    'ledger, each ledger in one database transaction, from --datastore (a galexie-style folder,\n' +
    'followed as new files appear; it brings its own network passphrase) or --meta-stream (a framed\n' +
    'XDR file or pipe, as stellar-core --metadata-output-stream writes). --network-passphrase, when\n' +
    "given, wins over the datastore's; a source whose transaction hashes are not of the passphrase\n" +
    'is refused. Prints ledgers/s and operations/s. Ctrl-C finishes the ledger in progress and stops.',
  settings: [
    'dataDir',
    'databaseUrl',
    'networkPassphrase',
    'datastore',
    'metaStream',
    ...RETENTION_SETTINGS,
    ...ADMIN_SETTINGS,
    'logLevel',
  ],
  async run(config, logger, _positionals, given) {
    const chosen = chooseLedgerSource(config, { follow: true, allowStream: true });
    const networkPassphrase = sourcePassphrase(chosen, config, given);
    const source = await networkCheckedLedgerSource(chosen, networkPassphrase);
    const stoppers: Stopper[] = [];
    try {
      const db = await openMigratedDatabase(config, logger);
      stoppers.push(() => db.close());
      // the admin port's figures (no JSON table: this process serves no API)
      const metrics = new MetricsRegistry();
      metrics.prometheus.watchConnections(() => db.connections());
      await startAdminServer(config, metrics.prometheus, logger, stoppers);
      const meter = new ProgressMeter();
      const bar = new ProgressBar();
      let changed = false;
      const reaper = createReaper({ db, retention: retentionOf(config), logger, metrics });
      stoppers.push(() => reaper.stop());
      const ingester = await startIngester({
        db,
        source,
        networkPassphrase,
        logger,
        metrics,
        onLedger: (sequence, rows) => {
          reaper.ledgerIngested(sequence);
          meter.record(sequence, rows.operations.length);
          changed = true;
          if (process.stderr.isTTY) bar.update(progressLine(meter.snapshot()));
        },
      });
      stoppers.push(() => ingester.stop());
      // off a terminal, one line per second at most, and the latest one even when ledgers stop coming
      const ticker = setInterval(() => {
        if (!changed) return;
        changed = false;
        bar.update(progressLine(meter.snapshot()), true);
      }, 1000);
      stoppers.push(async () => clearInterval(ticker));
      logger.info({ source: chosen.description, after: ingester.lastLedger }, `ingesting from ${chosen.description}`);
      const outcome = await Promise.race([waitForShutdownSignal(logger).then(() => 'signal' as const), ingester.done]);
      if (outcome === 'signal') return 0;
      bar.done(progressLine(meter.snapshot()));
      if (outcome) throw outcome;
      logger.info({ ledger: ingester.lastLedger }, 'the source has no more ledgers');
      return 0;
    } finally {
      await stopAll(stoppers, logger);
    }
  },
};
