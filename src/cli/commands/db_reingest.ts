import { ConfigError } from '../../config.js';
import { datastoreLedgerRanges } from '../../meta/index.js';
import { ProgressBar, ProgressMeter, rangeProgressLine, reingestInParallel } from '../../ingest/index.js';
import { defaultEncodeWorkers } from '../../ingest/encode/parallel_encode.js';
import type { LedgerSource, ParallelProgress } from '../../ingest/index.js';
import type { Command } from '../command.js';
import { openMigratedDatabase } from '../database.js';
import { chooseLedgerSource, networkCheckedLedgerSource, sourcePassphrase } from '../ledger_source.js';

export const dbReingest: Command = {
  words: ['db', 'reingest'],
  summary: 'rewrite the history of a range of ledgers from a datastore folder (idempotent)',
  description:
    'Re-runs ledgers FROM..TO from a datastore folder into the history tables: each batch of ledgers\n' +
    'replaces its rows in one transaction, so running it again gives the same rows. State tables\n' +
    'and the ingest cursor are not touched. --network-passphrase, when given, wins over the\n' +
    "datastore's; a datastore whose transaction hashes are not of the passphrase is refused.\n" +
    'The range is split into jobs run by --parallel-workers at once, as Horizon splits it; each\n' +
    'finished job is recorded, so a run stopped or killed and started again skips them. Prints a\n' +
    'progress bar with ledgers/s, operations/s and the time left (plain lines off a terminal).',
  settings: ['dataDir', 'databaseUrl', 'networkPassphrase', 'datastore', 'parallelWorkers', 'parallelJobSize', 'logLevel'],
  positionals: ['FROM', 'TO'],
  async run(config, logger, [fromText = '', toText = ''], given) {
    const from = Number(fromText);
    const to = Number(toText);
    if (!/^\d+$/.test(fromText) || !/^\d+$/.test(toText) || from < 1 || to < from) {
      throw new ConfigError('FROM TO', `invalid range "${fromText} ${toText}": FROM and TO are ledgers with 1 <= FROM <= TO`);
    }
    const chosen = chooseLedgerSource(config, { follow: false, allowStream: false });
    if (config.datastore) await checkDatastoreHolds(config.datastore, from, to);
    const networkPassphrase = sourcePassphrase(chosen, config, given);
    const source = await networkCheckedLedgerSource(chosen, networkPassphrase);
    const db = await openMigratedDatabase(config, logger);
    try {
      const workers = config.parallelWorkers;
      const meter = new ProgressMeter();
      const bar = new ProgressBar();
      let previous = { ledgers: 0, operations: 0 };
      let latest: ParallelProgress | null = null;
      const line = (p: ParallelProgress) =>
        rangeProgressLine(meter.snapshot(), {
          done: p.ledgers,
          total: p.total,
          detail: `${p.jobsDone} of ${p.jobs} jobs, ${workers} worker${workers === 1 ? '' : 's'}`,
        });
      // the first job reads the source checked above; the others open it again
      let first: LedgerSource | null = source;
      const result = await reingestInParallel({
        db,
        openSource: () => {
          const next = first ?? chosen.reopen();
          first = null;
          if (!next) throw new Error('the ledger source cannot be read twice');
          return next;
        },
        networkPassphrase,
        from,
        to,
        workers,
        jobSize: config.parallelJobSize,
        // the decoding threads shared out among the jobs running at once
        encodeWorkers: Math.max(1, Math.floor(defaultEncodeWorkers() / workers)),
        onProgress: (p) => {
          if (p.ledgers > previous.ledgers) meter.record(to, p.operations - previous.operations, p.ledgers - previous.ledgers);
          previous = p;
          latest = p;
          bar.update(line(p));
        },
        onJobDone: (job) => logger.debug(job, `reingested job ${job.from}..${job.to}`),
      });
      if (latest) bar.done(line(latest));
      const seconds = result.elapsedMs / 1000;
      logger.info(
        {
          ledgers: result.ledgers,
          skipped: result.skipped,
          jobs: result.jobs,
          workers,
          operations: result.operations,
          seconds: +seconds.toFixed(2),
          ledgersPerSecond: Math.round(result.ledgers / seconds),
          operationsPerSecond: Math.round(result.operations / seconds),
        },
        `reingested ledgers ${from}..${to}${result.skipped ? ` (${result.skipped} of them by an earlier run that stopped)` : ''}`,
      );
      return 0;
    } finally {
      await db.close();
    }
  },
};

/** Refuses, before anything is written, a range the datastore does not hold from end to end. */
async function checkDatastoreHolds(datastore: string, from: number, to: number): Promise<void> {
  const ranges = await datastoreLedgerRanges(datastore);
  if (ranges.some((r) => r.first <= from && to <= r.last)) return;
  const held = ranges.length ? ranges.map((r) => `${r.first}..${r.last}`).join(', ') : 'no ledgers';
  throw new ConfigError('FROM TO', `ledgers ${from}..${to}: the datastore ${datastore} holds ${held}`);
}
