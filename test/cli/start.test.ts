// `zenith start` on an embedded database folder: serves, stops cleanly on Ctrl-C, and a second
// start reuses the data; two processes never share one folder.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keypair } from '@stellar/stellar-sdk/base';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { closeLedgersUntil, corePort, EventStream, runZenith, servingPort, spawnZenith } from '../support/cli.js';
import { stopAllProcesses } from '../support/processes.js';

const dataDir = mkdtempSync(join(tmpdir(), 'zenith-start-'));
afterAll(async () => {
  await stopAllProcesses(); // after a failure: nothing may hold the folder while it is removed
  rmSync(dataDir, { recursive: true, force: true });
});

// ledgers close only on /manualclose: nothing in the test depends on how fast they would close
async function startOnce(options: string[] = []) {
  const child = spawnZenith(['start', '--port', '0', '--core-port', '0', '--manual-close', '--data-dir', dataDir, ...options]);
  return { child, port: await servingPort(child), corePort: await corePort(child) };
}

describe('zenith start', () => {
  // three processes start one after the other: slow on a loaded machine (the timeout bounds a hang)
  it('serves GET /, exits 0 on SIGINT, and reuses its data on the next start', { timeout: 240_000 }, async () => {
    const first = await startOnce();
    const root = await fetch(`http://127.0.0.1:${first.port}/`);
    expect(root.status).toBe(200);
    expect(await root.json()).toMatchObject({ network_passphrase: 'Standalone Network ; February 2017' });
    // this machine alone: its one user is not rate limited (privateNetworkProtection)
    expect(root.headers.get('x-ratelimit-limit')).toBeNull();

    // the funding lands in the next ledger closed after it reached the core
    const newcomer = Keypair.random().publicKey();
    const ledgers = await EventStream.open(`http://127.0.0.1:${first.port}/ledgers?cursor=now`);
    const { value: funded, closed } = await closeLedgersUntil(
      fetch(`http://127.0.0.1:${first.port}/friendbot?addr=${newcomer}`),
      first.corePort,
      ledgers,
    );
    ledgers.close();
    expect(funded.status).toBe(200);
    expect(await funded.json()).toMatchObject({ successful: true });
    const lastClosed = closed[closed.length - 1]!;
    const status = (await (await fetch(`http://127.0.0.1:${first.port}/`)).json()) as { core_latest_ledger: number };
    expect(status.core_latest_ledger).toBe(lastClosed);

    const intruder = await runZenith(['start', '--port', '0', '--data-dir', dataDir]);
    expect(intruder.code).toBe(1);
    expect(intruder.stdout + intruder.stderr).toMatch(/in use by another Zenith process/);

    const firstRun = await first.child.stop('SIGINT');
    expect({ code: firstRun.code, forced: firstRun.forced }, firstRun.stderr).toEqual({ code: 0, forced: false });
    // without --host, this machine alone, and no warning about the root key
    expect(firstRun.stdout).toContain(`Zenith is serving http://127.0.0.1:${first.port}/`);
    expect(firstRun.stdout).not.toMatch(/beyond this machine/);
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

    // the core goes on from the last ledger it closed
    // exposed: it warns that the network's root key derives from its public passphrase
    const second = await startOnce(['--host', '0.0.0.0']);
    // beyond this machine: Horizon's default rate limit (a burst of 100 and the request itself)
    expect((await fetch(`http://127.0.0.1:${second.port}/`)).headers.get('x-ratelimit-limit')).toBe('101');
    const secondRun = await second.child.stop('SIGTERM');
    expect({ code: secondRun.code, forced: secondRun.forced }, secondRun.stderr).toEqual({ code: 0, forced: false });
    expect(secondRun.stdout).toMatch(/"level":40.*listens on 0\.0\.0\.0, beyond this machine/);
    expect(secondRun.stdout).toMatch(/database schema is up to date/);
    const ledgerAtStart = Number(/"ledger":(\d+),"manualClose"/.exec(secondRun.stdout)?.[1]);
    expect(ledgerAtStart).toBe(lastClosed);
  });
});

describe('zenith core', () => {
  it('runs the network alone: answers /info, closes on /manualclose, exits 0 on SIGTERM', { timeout: 120_000 }, async () => {
    const coreDir = mkdtempSync(join(tmpdir(), 'zenith-core-'));
    try {
      const child = spawnZenith(['core', '--core-port', '0', '--manual-close', '--data-dir', coreDir]);
      const port = await corePort(child);
      const info = (await (await fetch(`http://127.0.0.1:${port}/info`)).json()) as { info: { ledger: { num: number } } };
      expect(info.info.ledger.num).toBe(1);
      expect((await fetch(`http://127.0.0.1:${port}/manualclose`)).status).toBe(200);
      const after = (await (await fetch(`http://127.0.0.1:${port}/info`)).json()) as typeof info;
      expect(after.info.ledger.num).toBe(2);
      const run = await child.stop('SIGTERM');
      expect({ code: run.code, forced: run.forced }, run.stderr).toEqual({ code: 0, forced: false });
    } finally {
      rmSync(coreDir, { recursive: true, force: true });
    }
  });
});
