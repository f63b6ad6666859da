// Runs in every test file (vitest setupFiles): after the file's own hooks, no process it started
// may still be there. One that is gets SIGKILL (with its whole process group) and fails the file,
// so that a forgotten or timed-out child is a test failure, not a server left listening.
import { afterAll, beforeAll } from 'vitest';
import { acceptNewProcesses, reapLeftoverProcesses } from './processes.js';

beforeAll(() => acceptNewProcesses());

afterAll(async () => {
  const leftovers = await reapLeftoverProcesses();
  if (leftovers.length > 0) {
    throw new Error(`child processes outlived the test file (now killed with their process groups):\n${leftovers.join('\n')}`);
  }
});
