// vitest globalSetup: tags the run (workers inherit ZENITH_TEST_RUN; every child a test spawns
// carries it as ZENITH_TEST_CHILD, and so does whatever that child starts). After the last file,
// a process still carrying the tag is one that no file-end check could stop (its worker died, or
// it left its process group): it is killed and the run fails. Linux only (it reads /proc).
import { randomUUID } from 'node:crypto';
import { CHILD_VARIABLE, commandLine, processesWithVariable, RUN_VARIABLE } from './processes.js';

export default function setup(): () => Promise<void> {
  // once per run: every project runs this setup, and the workers of all of them share one tag
  const run = (process.env[RUN_VARIABLE] ??= randomUUID());
  return async function teardown() {
    if (process.platform !== 'linux') return;
    const left = processesWithVariable(CHILD_VARIABLE, run);
    if (left.length === 0) return;
    const names = left.map((pid) => `${pid} ${commandLine(pid)}`);
    // each one by itself: what a tagged process started carries the tag too
    for (const pid of left) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
    // gone before the next project's teardown looks (each project runs this setup)
    const deadline = Date.now() + 10_000;
    while (processesWithVariable(CHILD_VARIABLE, run).length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    console.error(`\nprocesses started by the tests were still running after the run (killed now):\n${names.join('\n')}\n`);
    process.exitCode = 1;
  };
}
