// `zenith db reingest --parallel-workers`: a range of generated ledgers reingested with one worker
// and with two gives the same rows in every table; a two-worker run killed (SIGKILL) after its
// first finished job, then started again, skips the finished jobs and still ends with the same
// rows. Off a terminal the progress comes as plain lines. On PGlite folders and on PostgreSQL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';
import { runZenith, spawnZenith } from '../support/cli.js';
import { createServerDatabase, dropServerDatabase, testDbKind } from '../support/database.js';
import { stopAllProcesses } from '../support/processes.js';
import { tableDigests } from '../support/table_digests.js';
import { generateTraffic } from './support/traffic.js';

const PASSPHRASE = 'Zenith Parallel Reingest Test';
const dir = mkdtempSync(join(tmpdir(), 'zenith-parallel-reingest-'));
const datastore = join(dir, 'datastore');
const serverDatabases: string[] = [];
let range = { from: 0, to: 0 };

beforeAll(async () => {
  // 640 ledgers of three payments each: ten jobs of 64 ledgers
  const traffic = await generateTraffic({ passphrase: PASSPHRASE, metaOutDir: datastore, ledgers: 640, txPerLedger: 3 });
  range = { from: traffic.firstLedger, to: traffic.lastLedger };
}, 120_000);

afterAll(async () => {
  await stopAllProcesses();
  for (const url of serverDatabases) await dropServerDatabase(url);
  rmSync(dir, { recursive: true, force: true });
});

/** where a run writes: a PGlite folder of its own, or a fresh database on the server */
async function newTarget(name: string): Promise<{ args: string[]; open: () => Promise<Database> }> {
  if (testDbKind === 'pglite') {
    const dataDir = join(dir, name);
    return { args: ['--data-dir', dataDir], open: () => openDatabase({ kind: 'pglite', dataDir: join(dataDir, 'db') }) };
  }
  const url = await createServerDatabase();
  serverDatabases.push(url);
  return { args: ['--database-url', url], open: () => openDatabase({ kind: 'postgres', url }) };
}

async function digestsOf(target: { open: () => Promise<Database> }) {
  const db = await target.open();
  try {
    const marks = await db.session((sql) => sql.query("SELECT key FROM key_value_store WHERE key LIKE 'reingest_done:%'"));
    return { digests: await tableDigests(db), marks: marks.length };
  } finally {
    await db.close();
  }
}

describe('zenith db reingest --parallel-workers', () => {
  it('writes the same rows with 1 and 2 workers, and after a kill and a rerun', { timeout: 300_000 }, async () => {
    const reingest = (target: { args: string[] }, ...more: string[]) => [
      'db',
      'reingest',
      String(range.from),
      String(range.to),
      ...target.args,
      '--datastore',
      datastore,
      ...more,
    ];
    const one = await newTarget('one');
    const single = await runZenith(reingest(one, '--parallel-workers', '1'));
    expect(single.code, single.stderr).toBe(0);
    // off a terminal: plain lines, the last one complete (640 ledgers are one job for one worker)
    expect(single.stderr).toMatch(
      /\[#{30}\] 100% 640 of 640 ledgers \| 1 of 1 jobs, 1 worker \| [\d,]+ ledgers\/s \| [\d,]+ ops\/s \| ETA 0:00\n/,
    );
    expect(single.stderr).not.toContain('\r');
    const reference = await digestsOf(one);
    expect(reference.digests.history_ledgers).toMatch(/^640 rows /);
    expect(reference.digests.history_operations).toMatch(/^1920 rows /);
    expect(reference.marks).toBe(0);

    // two workers, killed once a job is recorded as finished
    const two = await newTarget('two');
    const args = reingest(two, '--parallel-workers', '2', '--parallel-job-size', '64');
    const killed = spawnZenith(args, { LOG_LEVEL: 'debug' });
    await killed.waitForLine(/reingested job \d+\.\.\d+/);
    const gone = await killed.stop('SIGKILL');
    expect(gone.code).not.toBe(0);
    expect(gone.stdout).not.toMatch(/reingested ledgers/);

    const rerun = await runZenith(args);
    expect(rerun.code, rerun.stderr).toBe(0);
    const summary = JSON.parse(rerun.stdout.split('\n').find((line) => line.includes('reingested ledgers')) ?? '{}') as {
      ledgers: number;
      skipped: number;
      msg: string;
    };
    // the finished jobs were not done again
    expect(summary.skipped).toBeGreaterThanOrEqual(64);
    expect(summary.ledgers).toBeGreaterThan(0);
    expect(summary.ledgers + summary.skipped).toBe(640);
    expect(summary.msg).toMatch(/by an earlier run that stopped/);
    const after = await digestsOf(two);
    expect(after.digests).toEqual(reference.digests);
    // done: no marks left, so the next reingest of the range rewrites all of it
    expect(after.marks).toBe(0);
  });
});
