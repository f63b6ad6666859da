// The child processes of the tests: stopped as whole process groups, killed when they do not stop,
// and named (then killed) by the end-of-file check when a test leaves one behind.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { acceptNewProcesses, groupMembers, reapLeftoverProcesses, spawnProcess } from './processes.js';

const node = (script: string) => spawnProcess(process.execPath, ['-e', script]);

/** true while the process runs (a zombie waiting to be reaped does not) */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return false;
  }
}

describe.skipIf(process.platform !== 'linux')('test processes', () => {
  it('stops the whole process group: what the child started goes too', async () => {
    // a wrapper that starts the real process, as the tsx command does
    const wrapper = node(`
      const { spawn } = require('node:child_process');
      const inner = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
      console.log(inner.pid);
      setInterval(() => {}, 1000);
    `);
    const inner = Number(await wrapper.waitForLine(/^\d+$/));
    expect(
      groupMembers(wrapper.pid)
        .map((member) => Number(member.split(' ')[0]))
        .sort(),
    ).toEqual([wrapper.pid, inner].sort());
    const stopped = await wrapper.stop('SIGTERM');
    expect(stopped).toMatchObject({ signal: 'SIGTERM', forced: false });
    expect(groupMembers(wrapper.pid)).toEqual([]);
    expect(running(inner)).toBe(false);
  });

  it('kills with SIGKILL what does not exit within the grace period', async () => {
    const stubborn = node(`process.on('SIGTERM', () => console.log('ignored')); console.log('ready'); setInterval(() => {}, 1000);`);
    await stubborn.waitForLine(/ready/);
    const stopped = await stubborn.stop('SIGTERM', 300);
    expect(stopped).toMatchObject({ code: null, signal: 'SIGKILL', forced: true });
    expect(stopped.stdout).toMatch(/ignored/);
  });

  it('gives a process that stops by itself its exit code', async () => {
    const polite = node(`process.on('SIGINT', () => process.exit(0)); console.log('ready'); setInterval(() => {}, 1000);`);
    await polite.waitForLine(/ready/);
    expect(await polite.stop('SIGINT')).toMatchObject({ code: 0, signal: null, forced: false });
  });

  it('rejects the wait for a line when the process exits without it', async () => {
    const brief = node(`console.log('hello'); console.error('bye'); process.exit(3);`);
    await expect(brief.waitForLine(/never/)).rejects.toThrow(/exited \(3\) without a line matching \/never\/[\s\S]*hello[\s\S]*bye/);
    expect(await brief.waitForLine(/hello/)).toBe('hello');
  });

  it('names and kills what a test left running at the end of the file', async () => {
    const done = node(`console.log('done')`);
    await done.done;
    const forgotten = node(`setInterval(() => {}, 1000)`);
    const leftovers = await reapLeftoverProcesses();
    expect(leftovers).toHaveLength(1);
    expect(leftovers[0]).toMatch(new RegExp(`^pid ${forgotten.pid} \\(.*setInterval`));
    expect(forgotten.gone()).toBe(true);
    expect((await forgotten.done).signal).toBe('SIGKILL');
    // the registry is empty now: the check of this file finds nothing more
    expect(await reapLeftoverProcesses()).toEqual([]);
    // and nothing starts after the check (a timed-out test that goes on)
    expect(() => node('0')).toThrow(/after the end of the test file/);
    acceptNewProcesses();
    expect((await node(`process.exit(0)`).done).code).toBe(0);
  });
});
