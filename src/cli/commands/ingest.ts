import { startIngester } from '../../ingest/index.js';
import { ProgressBar, ProgressMeter, progressLine } from '../../ingest/index.js';
import type { Command } from '../command.js';
import { openMigratedDatabase } from '../database.js';
import { stopAll, waitForShutdownSignal, type Stopper } from '../lifecycle.js';
import { chooseSource, SourceChoiceError } from '../../ingest/index.js';

export const ingest: Command = {
  words: ['ingest'],
  summary: 'follow a source of ledger meta into the database (a datastore folder or a framed stream)',
  description:
    'Ingests LedgerCloseMeta into the history and state tables, continuing after the last ingested\n' +
    'ledger, each ledger in one database transaction. The source comes from the environment:\n' +
    '  DATASTORE=DIR      a galexie-style datastore folder (.config.json + .xdr.zst files), followed\n' +
    '                     as new files appear\n' +
    '  META_STREAM=PATH   a framed XDR stream (stellar-core --metadata-output-stream), file or pipe\n' +
    'A datastore brings its own network passphrase. Prints ledgers/s and operations/s. Ctrl-C\n' +
    'finishes the ledger in progress and stops.',
  settings: ['dataDir', 'databaseUrl', 'networkPassphrase', 'logLevel'],
  async run(config, logger) {
    let chosen;
    try {
      chosen = chooseSource(process.env, { follow: true, allowStream: true });
    } catch (error) {
      if (!(error instanceof SourceChoiceError)) throw error;
      process.stderr.write(`zenith: ${error.message}\nSee \`zenith ingest --help\`.\n`);
      return 2;
    }
    const stoppers: Stopper[] = [];
    try {
      const db = await openMigratedDatabase(config, logger);
      stoppers.push(() => db.close());
      const meter = new ProgressMeter();
      const bar = new ProgressBar();
      let changed = false;
      const ingester = await startIngester({
        db,
        source: chosen.source,
        networkPassphrase: chosen.networkPassphrase ?? config.networkPassphrase,
        logger,
        onLedger: (sequence, rows) => {
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
