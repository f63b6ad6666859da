import { ADMIN_SETTINGS, RETENTION_SETTINGS } from '../../config.js';
import { databaseTarget } from '../../db/database.js';
import { openLedgerEvents } from '../../events/ledger_events.js';
import {
  createReaper,
  ProgressBar,
  ProgressMeter,
  progressLine,
  retentionOf,
  startIngester,
  waitForIngestLock,
} from '../../ingest/index.js';
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
    'is refused. Prints ledgers/s and operations/s. Ctrl-C finishes the ledger in progress and stops.\n' +
    'On PostgreSQL one ingester writes at a time: another one started on the same database stands\n' +
    'by and takes over within a second or so of the active one ending (even killed), from the\n' +
    "database's ingest cursor. An active ingester whose lock connection is lost exits with an error.",
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
    const shutdown = waitForShutdownSignal(logger);
    const standby = new AbortController();
    void shutdown.then(() => standby.abort());
    try {
      const db = await openMigratedDatabase(config, logger);
      stoppers.push(() => db.close());
      // the admin port's figures (no JSON table: this process serves no API), up while standing by too
      const metrics = new MetricsRegistry();
      metrics.prometheus.watchConnections(() => db.connections());
      await startAdminServer(config, metrics.prometheus, logger, stoppers);
      const lock = await waitForIngestLock(db, { signal: standby.signal, logger });
      if (!lock) return 0; // stopped while standing by
      stoppers.push(() => lock.release());
      // the ledger signal of `zenith serve` processes on the database (LISTEN/NOTIFY on PostgreSQL)
      const events = await openLedgerEvents(databaseTarget(config), (error) =>
        logger.warn({ err: error }, 'the ledger signal connection failed; reconnecting'),
      );
      stoppers.push(() => events.close());
      const publish = (sequence: number) =>
        void events.publish(sequence).catch((error: unknown) => logger.error({ err: error, sequence }, 'the ledger signal was not sent'));
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
        lock,
        metrics,
        onLedger: (sequence, rows) => {
          publish(sequence);
          reaper.ledgerIngested(sequence);
          meter.record(sequence, rows.operations.length);
          changed = true;
          if (process.stderr.isTTY) bar.update(progressLine(meter.snapshot()));
        },
      });
      stoppers.push(() => ingester.stop());
      // a predecessor killed between its commit and its signal: the API processes hear that ledger now
      if (ingester.lastLedger > 0) publish(ingester.lastLedger);
      // off a terminal, one line per second at most, and the latest one even when ledgers stop coming
      const ticker = setInterval(() => {
        if (!changed) return;
        changed = false;
        bar.update(progressLine(meter.snapshot()), true);
      }, 1000);
      stoppers.push(async () => clearInterval(ticker));
      logger.info({ source: chosen.description, after: ingester.lastLedger }, `ingesting from ${chosen.description}`);
      const outcome = await Promise.race([shutdown.then(() => 'signal' as const), ingester.done]);
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
