// `zenith ingest` and `zenith db reingest` on the testnet datastore, into an embedded database.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { runZenith, spawnZenith } from '../support/cli.js';
import { stopAllProcesses } from '../support/processes.js';
import { STANDALONE_PASSPHRASE } from '../../src/config.js';
import { frameHeader, readBatchLedgers } from '../../src/meta/index.js';
import { TESTNET_DATASTORE, TESTNET_PASSPHRASE } from './support/fixtures.js';

const dataDir = mkdtempSync(join(tmpdir(), 'zenith-ingest-cli-'));
afterAll(async () => {
  await stopAllProcesses(); // after a failure: nothing may hold the folder while it is removed
  rmSync(dataDir, { recursive: true, force: true });
});

/** a datastore's ledgers as a framed stream (stellar-core's --metadata-output-stream) */
async function framedStream(folder: string): Promise<Buffer> {
  const frames: Buffer[] = [];
  // file names count down from 0xFFFFFFFF: the last name holds the first ledgers
  for (const name of readdirSync(folder)
    .filter((n) => n.endsWith('.xdr.zst'))
    .sort()
    .reverse()) {
    for (const raw of await readBatchLedgers(readFileSync(join(folder, name)))) frames.push(frameHeader(raw.length), raw);
  }
  return Buffer.concat(frames);
}

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

  // the testnet ledgers' hashes are of "Test SDF Network ; September 2015" (shared/fixtures/README.md)
  it('refuses a source whose transactions are not of --network-passphrase, before writing anything', { timeout: 240_000 }, async () => {
    const fresh = join(dataDir, 'wrong-network');
    const wrong = await runZenith([
      'ingest',
      '--data-dir',
      fresh,
      '--datastore',
      TESTNET_DATASTORE,
      '--network-passphrase',
      STANDALONE_PASSPHRASE,
    ]);
    expect(wrong.code, wrong.stderr).toBe(2);
    expect(wrong.stderr).toMatch(
      /^zenith: the datastore .* is not of the network "Standalone Network ; February 2017": .* ledger 997 .*--network-passphrase/m,
    );
    const reingest = await runZenith(['db', 'reingest', '997', '999', '--data-dir', fresh, '--datastore', TESTNET_DATASTORE], {
      NETWORK_PASSPHRASE: 'Public Global Stellar Network ; September 2015',
    });
    expect(reingest.code, reingest.stderr).toBe(2);
    expect(reingest.stderr).toMatch(/--network-passphrase/);
    expect(existsSync(fresh)).toBe(false);

    // a framed stream brings no passphrase: the default (the standalone network's) is refused, the right one ingests
    const stream = join(dataDir, 'testnet.xdr');
    writeFileSync(stream, await framedStream(TESTNET_DATASTORE));
    const standalone = await runZenith(['ingest', '--data-dir', fresh, '--meta-stream', stream], { NETWORK_PASSPHRASE: '' });
    expect(standalone.code, standalone.stderr).toBe(2);
    expect(standalone.stderr).toMatch(/meta stream .* is not of the network "Standalone Network ; February 2017".*--network-passphrase/);
    expect(existsSync(fresh)).toBe(false);
    const right = await runZenith(['ingest', '--data-dir', fresh, '--meta-stream', stream, '--network-passphrase', TESTNET_PASSPHRASE]);
    expect(right.code, right.stderr).toBe(0);
    const db = await openDatabase({ kind: 'pglite', dataDir: join(fresh, 'db') });
    try {
      expect(await db.prisma.ledger.count()).toBe(3);
    } finally {
      await db.close();
    }
  });

  // the timeout bounds a hang: the progress line comes once the last ledger is in, however long that takes
  it('follows a datastore with live rates, stops on SIGINT, then reingests a range', { timeout: 240_000 }, async () => {
    const child = spawnZenith(['ingest', '--data-dir', dataDir, '--datastore', TESTNET_DATASTORE]);
    const progress = await child.waitForLine(/ledger 999 \| 3 ledgers, \d+ ops \| \d+ ledgers\/s \| [\d,]+ ops\/s/, { stream: 'stderr' });
    expect(progress).toMatch(/ledgers\/s/);
    const followed = await child.stop('SIGINT');
    expect({ code: followed.code, forced: followed.forced }, followed.stderr).toEqual({ code: 0, forced: false });

    const reingest = await runZenith([
      'db',
      'reingest',
      '997',
      '999',
      '--data-dir',
      dataDir,
      '--datastore',
      TESTNET_DATASTORE,
      '--network-passphrase',
      TESTNET_PASSPHRASE,
    ]);
    expect(reingest.code, reingest.stderr).toBe(0);
    expect(reingest.stderr).toMatch(/\[#+\] 100% 3 of 3 ledgers \| 1 of 1 jobs, 1 worker \|.* ETA 0:00/);
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
