// `zenith start` on an embedded database folder: serves, stops cleanly on Ctrl-C, and a second
// start reuses the data; two processes never share one folder.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keypair } from '@stellar/stellar-base';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { collect, runZenith, spawnZenith, waitForLine } from '../support/cli.js';

const dataDir = mkdtempSync(join(tmpdir(), 'zenith-start-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function startOnce() {
  const child = spawnZenith([
    'start',
    '--port',
    '0',
    '--host',
    '127.0.0.1',
    '--core-port',
    '0',
    '--close-interval',
    '200',
    '--data-dir',
    dataDir,
  ]);
  const done = collect(child);
  const line = await waitForLine(child, /Zenith is serving/);
  const port = (JSON.parse(line) as { port: number }).port;
  return { child, done, port };
}

describe('zenith start', () => {
  // three processes start one after the other: slow on a loaded machine
  it('serves GET /, exits 0 on SIGINT, and reuses its data on the next start', { timeout: 90_000 }, async () => {
    const first = await startOnce();
    const root = await fetch(`http://127.0.0.1:${first.port}/`);
    expect(root.status).toBe(200);
    expect(await root.json()).toMatchObject({ network_passphrase: 'Standalone Network ; February 2017' });

    const newcomer = Keypair.random().publicKey();
    const funded = await fetch(`http://127.0.0.1:${first.port}/friendbot?addr=${newcomer}`);
    expect(funded.status).toBe(200);
    expect(await funded.json()).toMatchObject({ successful: true });
    const status = (await (await fetch(`http://127.0.0.1:${first.port}/`)).json()) as { core_latest_ledger: number };
    expect(status.core_latest_ledger).toBeGreaterThan(1);

    const intruder = await runZenith(['start', '--port', '0', '--data-dir', dataDir]);
    expect(intruder.code).toBe(1);
    expect(intruder.stdout + intruder.stderr).toMatch(/in use by another Zenith process/);

    first.child.kill('SIGINT');
    const firstRun = await first.done;
    expect(firstRun.code).toBe(0);
    expect(firstRun.stdout).toMatch(/applied \d+ migration/);
    expect(firstRun.stdout).toMatch(/"msg":"stopped"/);

    // the ingester followed the embedded core: the funded account is in the state tables
    const db = await openDatabase({ kind: 'pglite', dataDir: join(dataDir, 'db') });
    try {
      const account = await db.prisma.account.findUnique({ where: { id: newcomer } });
      expect(account?.balance).toBe(100_000_000_000n);
      const created = await db.prisma.effect.findFirst({ where: { account: newcomer, type: 0 } });
      expect(created?.details).toEqual({ starting_balance: '10000.0000000' });
    } finally {
      await db.close();
    }

    const second = await startOnce();
    second.child.kill('SIGTERM');
    const secondRun = await second.done;
    expect(secondRun.code).toBe(0);
    expect(secondRun.stdout).toMatch(/database schema is up to date/);
    const ledgerAtStop = Number(/"ledger":(\d+),"manualClose"/.exec(secondRun.stdout)?.[1]);
    expect(ledgerAtStop).toBeGreaterThanOrEqual(status.core_latest_ledger);
  });
});

describe('zenith core', () => {
  it('runs the network alone: answers /info, closes on /manualclose, exits 0 on SIGTERM', async () => {
    const coreDir = mkdtempSync(join(tmpdir(), 'zenith-core-'));
    try {
      const child = spawnZenith(['core', '--core-port', '0', '--manual-close', '--data-dir', coreDir]);
      const done = collect(child);
      const line = await waitForLine(child, /core commands on/);
      const corePort = (JSON.parse(line) as { corePort: number }).corePort;
      const info = (await (await fetch(`http://127.0.0.1:${corePort}/info`)).json()) as { info: { ledger: { num: number } } };
      expect(info.info.ledger.num).toBe(1);
      expect((await fetch(`http://127.0.0.1:${corePort}/manualclose`)).status).toBe(200);
      const after = (await (await fetch(`http://127.0.0.1:${corePort}/info`)).json()) as typeof info;
      expect(after.info.ledger.num).toBe(2);
      child.kill('SIGTERM');
      expect((await done).code).toBe(0);
    } finally {
      rmSync(coreDir, { recursive: true, force: true });
    }
  });
});
