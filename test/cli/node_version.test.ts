// `zenith` on a Node.js older than 22.12 (what @stellar/stellar-sdk needs): one line telling to use
// `npm start` or `npx zenith` (the project's own Node 22), exit 1, before anything else is loaded.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { spawnProcess } from '../support/processes.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** a preload that makes the process report another Node version (after tsx, which reads the real one) */
const reportVersion = (version: string): string =>
  `data:text/javascript,Object.defineProperty(process,"versions",{value:{...process.versions,node:${JSON.stringify(version)}}})`;

/** `zenith --version` (which would print the version and exit 0) as `node` runs it, with `preloads` first */
function zenithVersion(node: string, preloads: string[] = []) {
  return spawnProcess(node, ['--import', 'tsx', ...preloads.flatMap((p) => ['--import', p]), 'src/main.ts', '--version'], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'info' },
  }).done;
}

function expectRefused(result: { code: number | null; stdout: string; stderr: string }, version: string): void {
  expect(result.code, result.stderr).toBe(1);
  expect(result.stdout).toBe('');
  const lines = result.stderr.split('\n').filter((line) => line !== '' && !/^\(node:\d+\)|--trace-warnings/.test(line));
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain(`Node.js ${version} is too old`);
  expect(lines[0]).toContain('`npm start`');
  expect(lines[0]).toContain('`npx zenith`');
}

/** a node other than the project's own (the system's), older than 22.12, if this machine has one */
function olderNode(): { path: string; version: string } | null {
  const candidates = [
    ...(process.env.PATH ?? '')
      .split(delimiter)
      .filter((dir) => dir !== '' && !dir.includes('node_modules'))
      .map((dir) => join(dir, 'node')),
    '/usr/bin/node',
    '/usr/local/bin/node',
  ];
  for (const path of new Set(candidates)) {
    if (!existsSync(path)) continue;
    try {
      const version = execFileSync(path, ['--version'], { encoding: 'utf8' }).trim().replace(/^v/, '');
      const [major = 0, minor = 0] = version.split('.').map(Number);
      if (major >= 18 && (major < 22 || (major === 22 && minor < 12))) return { path, version };
    } catch {
      // not a node that runs here
    }
  }
  return null;
}

describe('zenith on an older Node.js', { timeout: 120_000 }, () => {
  it('exits 1 with one line telling to use npm start or npx zenith', async () => {
    expectRefused(await zenithVersion(process.execPath, [reportVersion('20.19.0')]), '20.19.0');
    expectRefused(await zenithVersion(process.execPath, [reportVersion('22.11.0')]), '22.11.0');
  });

  it('runs on the Node.js the tests run on (the project’s Node 22)', async () => {
    const result = await zenithVersion(process.execPath);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^zenith /);
  });

  const older = olderNode();
  it.skipIf(older === null)(`refuses the system’s own older node (${older?.path ?? 'none here'})`, async () => {
    expectRefused(await zenithVersion(older!.path), older!.version);
  });

  it('is checked before anything is imported: src/main.ts has no static import', () => {
    const source = readFileSync(new URL('../../src/main.ts', import.meta.url), 'utf8');
    expect(source).not.toMatch(/^\s*(import|export)\s[^(]/m);
  });
});
