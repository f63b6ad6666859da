// Does reaping pause ingestion? Generates payment ledgers with the embedded core (a datastore
// folder), ingests the first HISTORY of them, then ingests the rest paced as a network closes them
// (one every INTERVAL ms) while measuring each ledger's delay from its arrival to its commit: first
// without reaping (the baseline of the same run), then while the reaper deletes all but the last
// KEEP ledgers with its default batch (--history-retention-reap-count 1000). Prints p50/p99/max
// delays of both phases, the longest delay as a fraction of the interval (target < 1: ingestion
// never paused longer than one ledger interval) and the reap's own time, on PGlite and PostgreSQL.
// Run: npx tsx bench/retention.ts [history=2000] [txPerLedger=50] [intervalMs=1000]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defaultConfig } from '../src/config.js';
import { openDatabase, type Database } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { createReaper, datastoreSource, retentionOf, startIngester, type LedgerSource } from '../src/ingest/index.js';
import { createServerDatabase, dropServerDatabase } from '../test/support/database.js';
import { generateTraffic } from '../test/ingest/support/traffic.js';

const PASSPHRASE = 'Zenith Retention Bench Network';
const HISTORY = Number(process.argv[2] ?? 2000);
const TX_PER_LEDGER = Number(process.argv[3] ?? 50);
const INTERVAL_MS = Number(process.argv[4] ?? 1000);
const LIVE = 20;
const KEEP = 100;

/** The folder's ledgers after `from`, one every INTERVAL_MS, each stamped when it is handed over. */
function paced(folder: string, arrivals: Map<number, number>): LedgerSource {
  const inner = datastoreSource(folder);
  return {
    ledgers: inner.ledgers,
    async *rawLedgers(fromSequence) {
      let sequence = fromSequence;
      for await (const raw of inner.rawLedgers!(fromSequence)) {
        await new Promise((resolve) => setTimeout(resolve, INTERVAL_MS));
        arrivals.set(sequence, performance.now());
        yield raw;
        sequence += 1;
      }
    },
    close: inner.close,
  };
}

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

async function measure(label: string, db: Database, folder: string, last: number): Promise<void> {
  // the history first, as fast as it goes
  const history = await startIngester({ db, source: datastoreSource(folder, {}), networkPassphrase: PASSPHRASE });
  await history.waitForLedger(HISTORY);
  await history.stop();

  const arrivals = new Map<number, number>();
  const delays = { baseline: [] as number[], reaping: [] as number[] };
  let phase: keyof typeof delays = 'baseline';
  const retention = { ...retentionOf(defaultConfig()), retentionCount: KEEP };
  const reaper = createReaper({ db, retention });
  let reapMs = 0;
  let reaping: Promise<void> | null = null;
  const live = await startIngester({
    db,
    source: paced(folder, arrivals),
    networkPassphrase: PASSPHRASE,
    onLedger: (sequence) => {
      delays[phase].push(performance.now() - (arrivals.get(sequence) ?? performance.now()));
      if (sequence === HISTORY + LIVE / 2) {
        phase = 'reaping';
        const started = performance.now();
        reaping = reaper.reap().then(() => {
          reapMs = performance.now() - started;
        });
      }
    },
  });
  await live.waitForLedger(Math.min(last, HISTORY + LIVE));
  await reaping;
  await live.stop();
  const line = (name: keyof typeof delays) =>
    `${name} p50 ${percentile(delays[name], 50).toFixed(0)} ms, p99 ${percentile(delays[name], 99).toFixed(0)} ms, max ${Math.max(...delays[name]).toFixed(0)} ms`;
  console.log(`${label}: ${line('baseline')}; ${line('reaping')}`);
  console.log(
    `${label}: longest commit delay while reaping ÷ ledger interval = ${(Math.max(...delays.reaping) / INTERVAL_MS).toFixed(2)} (target < 1); ` +
      `reap of ${HISTORY + LIVE / 2 - KEEP} ledgers took ${(reapMs / 1000).toFixed(1)} s` +
      (reapMs > (LIVE / 2) * INTERVAL_MS ? ' (longer than the measured phase: raise LIVE)' : ''),
  );
}

const folder = mkdtempSync(path.join(tmpdir(), 'zenith-retention-bench-'));
try {
  const traffic = await generateTraffic({
    passphrase: PASSPHRASE,
    metaOutDir: folder,
    ledgers: HISTORY + LIVE,
    txPerLedger: TX_PER_LEDGER,
    opsPerTx: 1,
  });
  console.log(`generated ledgers 2..${traffic.lastLedger} (${traffic.operations} operations)`);

  const pglite = await openDatabase({ kind: 'pglite', inMemory: true });
  await migrate(pglite);
  await measure('PGlite', pglite, folder, traffic.lastLedger);
  await pglite.close();

  const url = await createServerDatabase();
  try {
    const postgres = await openDatabase({ kind: 'postgres', url });
    await migrate(postgres);
    await measure('PostgreSQL', postgres, folder, traffic.lastLedger);
    await postgres.close();
  } finally {
    await dropServerDatabase(url);
  }
} finally {
  rmSync(folder, { recursive: true, force: true });
}
