// Parallel reingest: generates payment ledgers with the embedded core (a datastore folder), then
// runs `zenith db reingest` (the built CLI, as a user runs it) over the whole range into fresh
// databases with 1 and with 2 workers, checks that both hold the same rows in every table, and
// prints each run's ledgers/s (the CLI's own figure: the reingest, not the process start) and the
// ratio of 2 workers to 1.
// Run: npx tsx bench/parallel_reingest.ts [ledgers=3000] [txPerLedger=5] [kinds=postgresql,pglite]
// PostgreSQL: TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres); fresh
// databases are created and dropped.
import { execFileSync, execSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase, type Database } from '../src/db/database.js';
import { generateTraffic } from '../test/ingest/support/traffic.js';
import { createServerDatabase, dropServerDatabase } from '../test/support/database.js';
import { tableDigests } from '../test/support/table_digests.js';

const LEDGERS = Number(process.argv[2] ?? 3000);
const TX_PER_LEDGER = Number(process.argv[3] ?? 5);
const KINDS = (process.argv[4] ?? 'postgresql,pglite').split(',');
const PASSPHRASE = 'Zenith Parallel Reingest Bench';

const root = new URL('..', import.meta.url);
execSync('npm run --silent build', { cwd: root, stdio: 'inherit' });
const main = new URL('../dist/main.js', import.meta.url).pathname;
const dir = mkdtempSync(path.join(tmpdir(), 'zenith-bench-parallel-'));
const datastore = path.join(dir, 'datastore');

interface Run {
  ledgersPerSecond: number;
  seconds: number;
  digests: Record<string, string>;
}

async function digestsOf(db: Database): Promise<Record<string, string>> {
  try {
    return await tableDigests(db);
  } finally {
    await db.close();
  }
}

async function reingest(kind: string, workers: number, from: number, to: number): Promise<Run> {
  const url = kind === 'postgresql' ? await createServerDatabase() : null;
  const dataDir = path.join(dir, `${kind}-${workers}`);
  try {
    const target = url ? ['--database-url', url] : ['--data-dir', dataDir];
    const args = [main, 'db', 'reingest', String(from), String(to), '--datastore', datastore, '--parallel-workers', String(workers)];
    const stdout = execFileSync(process.execPath, [...args, ...target], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const line = stdout.split('\n').find((l) => l.includes('reingested ledgers'));
    const { seconds, ledgers } = JSON.parse(line ?? '{}') as { seconds: number; ledgers: number };
    const db = await openDatabase(url ? { kind: 'postgres', url } : { kind: 'pglite', dataDir: path.join(dataDir, 'db') });
    return { seconds, ledgersPerSecond: ledgers / seconds, digests: await digestsOf(db) };
  } finally {
    if (url) await dropServerDatabase(url);
  }
}

try {
  const g0 = performance.now();
  const traffic = await generateTraffic({ passphrase: PASSPHRASE, metaOutDir: datastore, ledgers: LEDGERS, txPerLedger: TX_PER_LEDGER });
  const { firstLedger: from, lastLedger: to } = traffic;
  console.log(
    `generated ledgers ${from}..${to} (${traffic.operations} operations) in ${((performance.now() - g0) / 1000).toFixed(1)} s; ${availableParallelism()} CPUs, load ${loadavg()[0]?.toFixed(2)}`,
  );
  for (const kind of KINDS) {
    const one = await reingest(kind, 1, from, to);
    const two = await reingest(kind, 2, from, to);
    const same = JSON.stringify(one.digests) === JSON.stringify(two.digests);
    console.log(
      `${kind}: 1 worker ${Math.round(one.ledgersPerSecond)} ledgers/s (${one.seconds} s), 2 workers ${Math.round(two.ledgersPerSecond)} ledgers/s (${two.seconds} s): ratio ${(two.ledgersPerSecond / one.ledgersPerSecond).toFixed(2)}; tables ${same ? 'identical' : 'DIFFERENT'} (${Object.keys(one.digests).length} tables, ${one.digests.history_ledgers})`,
    );
    if (!same) process.exitCode = 1;
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
