// Exactly once: an ingester process killed with SIGKILL at several points (inside a ledger's
// transaction, and at arbitrary moments) and restarted leaves the same database, table by table,
// as an uninterrupted run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseTarget } from '../../src/db/database.js';
import { datastoreSource, startIngester } from '../../src/ingest/index.js';
import { createServerDatabase, createTestDatabase, dropServerDatabase, testDbKind, type TestDatabase } from '../support/database.js';
import { type ProcessResult, spawnProcess, stopAllProcesses } from '../support/processes.js';
import { dumpTables } from './support/fixtures.js';
import { generateTraffic, type TrafficSummary } from './support/traffic.js';

const PASSPHRASE = 'Zenith Crash Test Network';
const root = fileURLToPath(new URL('../..', import.meta.url));
const child = path.join(root, 'test/ingest/support/ingest_child.ts');

async function runChild(target: DatabaseTarget, folder: string, env: NodeJS.ProcessEnv = {}, killAfterMs?: number): Promise<ProcessResult> {
  // node itself (not the tsx wrapper) so that the signal that ends it is what we observe; in a
  // process group of its own, which the kill hits as a whole
  const proc = spawnProcess(process.execPath, ['--import', 'tsx', child, JSON.stringify(target), folder, PASSPHRASE], {
    cwd: root,
    env: { ...process.env, ...env },
  });
  let timer: NodeJS.Timeout | undefined;
  if (killAfterMs !== undefined) {
    // kill once the child is ingesting (it printed a ledger), then after a further delay: a moment
    // chosen by the clock on purpose, wherever the child happens to be by then
    proc
      .waitForLine(/^ledger \d+$/)
      .then(() => (timer = setTimeout(() => proc.kill('SIGKILL'), killAfterMs)))
      .catch(() => {}); // it ended before its first ledger: nothing to kill
  }
  const run = await proc.done;
  clearTimeout(timer);
  return run;
}

describe('killing the ingester and restarting it', () => {
  const work = mkdtempSync(path.join(tmpdir(), 'zenith-crash-'));
  const datastore = path.join(work, 'datastore');
  let traffic: TrafficSummary;
  let reference: TestDatabase;
  let target: DatabaseTarget;

  beforeAll(async () => {
    traffic = await generateTraffic({ passphrase: PASSPHRASE, metaOutDir: datastore, ledgers: 30, txPerLedger: 40, opsPerTx: 2 });
    reference = await createTestDatabase();
    const ingester = await startIngester({ db: reference.db, source: datastoreSource(datastore), networkPassphrase: PASSPHRASE });
    expect(await ingester.done).toBeNull();
    expect(ingester.lastLedger).toBe(traffic.lastLedger);
    target =
      testDbKind === 'postgres'
        ? { kind: 'postgres', url: await createServerDatabase() }
        : { kind: 'pglite', dataDir: path.join(work, 'pglite') };
  }, 120_000);

  afterAll(async () => {
    await stopAllProcesses(); // after a failure: nothing may hold the databases while they are dropped
    await reference?.drop();
    if (target?.kind === 'postgres') await dropServerDatabase(target.url);
    rmSync(work, { recursive: true, force: true });
  });

  it('gives exactly the rows of an uninterrupted run', async () => {
    const lastLedger = traffic.lastLedger;
    // inside the transactions of ledgers 1, 5 and 17, after all their rows were written
    for (const killAt of [1, 5, 17]) {
      const run = await runChild(target, datastore, { KILL_AT_LEDGER: String(killAt) });
      expect(run.signal, run.stderr).toBe('SIGKILL');
      expect(run.stdout).not.toMatch(new RegExp(`ledger ${killAt}\\n`));
    }
    // at arbitrary moments
    for (const delay of [15, 60]) {
      const run = await runChild(target, datastore, {}, delay);
      expect(run.code === 0 || run.signal === 'SIGKILL', run.stderr).toBe(true);
    }
    const last = await runChild(target, datastore);
    expect(last.code, last.stderr).toBe(0);

    const restarted = await openDatabase(target);
    try {
      const ours = await dumpTables(restarted);
      const theirs = await dumpTables(reference.db);
      expect((theirs.history_ledgers ?? []).length).toBe(lastLedger);
      for (const table of Object.keys(theirs)) expect(ours[table], table).toEqual(theirs[table]);
    } finally {
      await restarted.close();
    }
  }, 180_000);
});
