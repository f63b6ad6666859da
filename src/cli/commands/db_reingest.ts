import { ConfigError } from '../../config.js';
import { datastoreLedgerRanges } from '../../meta/index.js';
import { ProgressBar, ProgressMeter, progressLine, reingestRange } from '../../ingest/index.js';
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
    "datastore's; a datastore whose transaction hashes are not of the passphrase is refused. Prints\n" +
    'a progress bar with ledgers/s and operations/s.',
  settings: ['dataDir', 'databaseUrl', 'networkPassphrase', 'datastore', 'logLevel'],
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
      const meter = new ProgressMeter();
      const bar = new ProgressBar();
      let previous = { ledgers: 0, operations: 0 };
      const result = await reingestRange({
        db,
        source,
        networkPassphrase,
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

/** Refuses, before anything is written, a range the datastore does not hold from end to end. */
async function checkDatastoreHolds(datastore: string, from: number, to: number): Promise<void> {
  const ranges = await datastoreLedgerRanges(datastore);
  if (ranges.some((r) => r.first <= from && to <= r.last)) return;
  const held = ranges.length ? ranges.map((r) => `${r.first}..${r.last}`).join(', ') : 'no ledgers';
  throw new ConfigError('FROM TO', `ledgers ${from}..${to}: the datastore ${datastore} holds ${held}`);
}
