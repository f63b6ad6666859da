import { reingestRange } from '../../ingest/index.js';
import { ProgressBar, ProgressMeter, progressLine } from '../../ingest/index.js';
import type { Command } from '../command.js';
import { openMigratedDatabase } from '../database.js';
import { chooseSource, SourceChoiceError } from '../../ingest/index.js';

const RANGE = /^(\d+)(?:-|\.\.)(\d+)$/;

export const dbReingest: Command = {
  words: ['db', 'reingest'],
  summary: 'rewrite the history of a range of ledgers from a datastore folder (idempotent)',
  description:
    'Re-runs ledgers FROM..TO from a datastore folder into the history tables: each batch of ledgers\n' +
    'replaces its rows in one transaction, so running it again gives the same rows. State tables\n' +
    'and the ingest cursor are not touched. Until the command line takes positional arguments, the\n' +
    'inputs come from the environment:\n' +
    '  DATASTORE=DIR         the datastore folder\n' +
    '  REINGEST_RANGE=FROM-TO  the ledgers, e.g. 2-5000\n' +
    'Prints a progress bar with ledgers/s and operations/s.',
  settings: ['dataDir', 'databaseUrl', 'logLevel'],
  async run(config, logger) {
    const range = RANGE.exec(process.env.REINGEST_RANGE?.trim() ?? '');
    const from = Number(range?.[1]);
    const to = Number(range?.[2]);
    let chosen;
    try {
      if (!range || from < 1 || to < from) {
        throw new SourceChoiceError('REINGEST_RANGE must be FROM-TO with 1 <= FROM <= TO, e.g. REINGEST_RANGE=2-5000');
      }
      chosen = chooseSource(process.env, { follow: false, allowStream: false });
    } catch (error) {
      if (!(error instanceof SourceChoiceError)) throw error;
      process.stderr.write(`zenith: ${error.message}\nSee \`zenith db reingest --help\`.\n`);
      return 2;
    }
    const db = await openMigratedDatabase(config, logger);
    try {
      const meter = new ProgressMeter();
      const bar = new ProgressBar();
      let previous = { ledgers: 0, operations: 0 };
      const result = await reingestRange({
        db,
        source: chosen.source,
        networkPassphrase: chosen.networkPassphrase ?? config.networkPassphrase,
        from,
        to,
        onProgress: (p) => {
          meter.record(p.lastLedger, p.operations - previous.operations, p.ledgers - previous.ledgers);
          previous = p;
          bar.update(progressLine(meter.snapshot(), { from, to }));
        },
      });
      bar.done(progressLine(meter.snapshot(), { from, to }));
      const seconds = result.elapsedMs / 1000;
      logger.info(
        {
          ledgers: result.ledgers,
          operations: result.operations,
          seconds: +seconds.toFixed(2),
          ledgersPerSecond: Math.round(result.ledgers / seconds),
          operationsPerSecond: Math.round(result.operations / seconds),
        },
        `reingested ledgers ${from}..${to}`,
      );
      return 0;
    } finally {
      await db.close();
    }
  },
};
