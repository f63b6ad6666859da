// Closing faster than once a second moves the ledgers' clock ahead of the wall clock (close times
// are whole seconds, each after the previous one): `zenith core` and `zenith start` warn about it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { collect, spawnZenith } from '../support/cli.js';
import { stopAllProcesses } from '../support/processes.js';

const dataDir = mkdtempSync(join(tmpdir(), 'zenith-close-interval-'));

afterAll(async () => {
  await stopAllProcesses();
  rmSync(dataDir, { recursive: true, force: true });
}, 30_000);

describe('--close-interval under 1000 ms', () => {
  it('zenith core warns, naming --close-interval and tx_too_late', { timeout: 60_000 }, async () => {
    const child = spawnZenith(['core', '--close-interval', '200', '--core-port', '0', '--data-dir', dataDir], { LOG_LEVEL: 'info' });
    const done = collect(child);
    await child.waitForLine(/core commands on/);
    child.kill('SIGTERM');
    const { code, stdout } = await done;
    expect(code).toBe(0);
    const warnings = stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: number; msg: string })
      .filter((entry) => entry.level === 40);
    expect(warnings.map((w) => w.msg)).toEqual([expect.stringMatching(/--close-interval 200 .*wall clock.*tx_too_late/)]);
  });

  it('says so in --help', async () => {
    const child = spawnZenith(['core', '--help']);
    const { stdout } = await collect(child);
    expect(stdout).toMatch(/--close-interval MS .*whole seconds.*tx_too_late/);
  });
});
