// `zenith ingest` and `zenith db reingest` on the testnet datastore, into an embedded database.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { runZenith, spawnZenith } from '../support/cli.js';
import { stopAllProcesses } from '../support/processes.js';
import { TESTNET_DATASTORE } from './support/fixtures.js';

const dataDir = mkdtempSync(join(tmpdir(), 'zenith-ingest-cli-'));
afterAll(async () => {
  await stopAllProcesses(); // after a failure: nothing may hold the folder while it is removed
  rmSync(dataDir, { recursive: true, force: true });
});

describe('zenith ingest / db reingest', () => {
  // four processes one after the other: seconds each on a busy machine (the timeout bounds a hang)
  it('names the missing source and a bad range with exit code 2', { timeout: 120_000 }, async () => {
    const run = await runZenith(['ingest', '--data-dir', dataDir], { DATASTORE: '', META_STREAM: '' });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/no ledger source: give --datastore DIR or --meta-stream PATH/);
    const missing = await runZenith(['ingest', '--data-dir', dataDir, '--datastore', join(dataDir, 'nope')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/invalid datastore/);
    const backwards = await runZenith(['db', 'reingest', '9', '2', '--data-dir', dataDir, '--datastore', TESTNET_DATASTORE]);
    expect(backwards.code).toBe(2);
    expect(backwards.stderr).toMatch(/invalid range "9 2"/);
    const noRange = await runZenith(['db', 'reingest', '--data-dir', dataDir, '--datastore', TESTNET_DATASTORE]);
    expect(noRange.code).toBe(2);
    expect(noRange.stderr).toMatch(/expected FROM TO after "db reingest"/);
  });

  it('refuses a range the datastore does not hold, before writing anything', async () => {
    const fresh = join(dataDir, 'untouched');
    for (const [from, to] of [
      ['2', '500'],
      ['998', '1005'],
    ] as const) {
      const run = await runZenith(['db', 'reingest', from, to, '--data-dir', fresh, '--datastore', TESTNET_DATASTORE], {
        DATABASE_URL: '',
      });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(new RegExp(`^zenith: ledgers ${from}\\.\\.${to}: the datastore .* holds 997\\.\\.999$`, 'm'));
    }
    expect(existsSync(fresh)).toBe(false);
  });

  // the timeout bounds a hang: the progress line comes once the last ledger is in, however long that takes
  it('follows a datastore with live rates, stops on SIGINT, then reingests a range', { timeout: 240_000 }, async () => {
    const child = spawnZenith(['ingest', '--data-dir', dataDir, '--datastore', TESTNET_DATASTORE]);
    const progress = await child.waitForLine(/ledger 999 \| 3 ledgers, \d+ ops \| \d+ ledgers\/s \| [\d,]+ ops\/s/, { stream: 'stderr' });
    expect(progress).toMatch(/ledgers\/s/);
    const followed = await child.stop('SIGINT');
    expect({ code: followed.code, forced: followed.forced }, followed.stderr).toEqual({ code: 0, forced: false });

    const reingest = await runZenith(['db', 'reingest', '997', '999', '--data-dir', dataDir, '--datastore', TESTNET_DATASTORE]);
    expect(reingest.code, reingest.stderr).toBe(0);
    expect(reingest.stderr).toMatch(/\[#+\] 100% ledger 999 of 999/);
    expect(reingest.stdout).toMatch(/reingested ledgers 997\.\.999/);

    const db = await openDatabase({ kind: 'pglite', dataDir: join(dataDir, 'db') });
    try {
      expect(await db.prisma.ledger.count()).toBe(3);
      expect((await db.prisma.ingestCursor.findUnique({ where: { id: 1 } }))?.ledgerSequence).toBe(999);
    } finally {
      await db.close();
    }
  });
});
