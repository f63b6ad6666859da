// A port that is taken is bad configuration: the command exits 2 naming the flag of that port,
// after closing what it had opened (the database, the core), instead of dying with a stack trace.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect, spawnZenith } from '../support/cli.js';
import { stopAllProcesses } from '../support/processes.js';

const dataDir = mkdtempSync(join(tmpdir(), 'zenith-ports-'));
let taken: Server;
let port = 0;

beforeAll(async () => {
  taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  port = (taken.address() as { port: number }).port;
});

afterAll(async () => {
  await stopAllProcesses();
  await new Promise((resolve) => taken.close(resolve));
  rmSync(dataDir, { recursive: true, force: true });
}, 30_000);

function run(args: string[]) {
  const child = spawnZenith(args, { DATABASE_URL: '' });
  return collect(child);
}

/** no lock left behind: the database and the core were closed before the exit */
function expectUnlocked(dir: string) {
  expect(existsSync(join(dir, 'db', 'zenith.lock'))).toBe(false);
  expect(existsSync(join(dir, 'core', 'zenith.lock'))).toBe(false);
}

describe('a port in use', { timeout: 60_000 }, () => {
  it('zenith start --port: exit 2 naming --port', async () => {
    const dir = join(dataDir, 'api');
    const result = await run(['start', '--port', String(port), '--host', '127.0.0.1', '--core-port', '0', '--data-dir', dir]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`^zenith: --port ${port}: the port is in use`, 'm'));
    expect(result.stdout + result.stderr).not.toMatch(/EADDRINUSE|"level":60/);
    expectUnlocked(dir);
  });

  it('zenith start --core-port: exit 2 naming --core-port', async () => {
    const dir = join(dataDir, 'start-core');
    const result = await run(['start', '--port', '0', '--host', '127.0.0.1', '--core-port', String(port), '--data-dir', dir]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`^zenith: --core-port ${port}: the port is in use`, 'm'));
    expect(result.stdout + result.stderr).not.toMatch(/EADDRINUSE|"level":60/);
    expectUnlocked(dir);
  });

  it('zenith core --core-port: exit 2 naming --core-port', async () => {
    const dir = join(dataDir, 'core');
    const result = await run(['core', '--core-port', String(port), '--data-dir', dir]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`^zenith: --core-port ${port}: the port is in use`, 'm'));
    expectUnlocked(dir);
  });
});
