// Headless Chromium (Debian's `chromium` package) for the tests that need a real browser. It runs
// in a process group of its own (test/support/processes.ts) with a fresh profile and nothing that
// reaches the internet. Its crash handler (chrome_crashpad) leaves the group (it starts its own
// session), so every process of one browser also carries a tag of its own in its environment and
// stop() kills whatever still carries it; the crash handler cannot be turned off without breaking
// the browser's network service (--disable-crashpad-for-testing).
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processesWithVariable, spawnProcess, type TestProcess } from './processes.js';

/** Debian's launcher (`apt-get install chromium`) */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** in the environment of every process of one browser: that browser's tag */
const BROWSER_VARIABLE = 'ZENITH_TEST_CHROMIUM';
/** how long the processes that left the group may take to follow the browser before SIGKILL */
const STRAY_WAIT_MS = 5_000;

const FLAGS = [
  '--headless',
  // root in CI, and no user namespaces in containers
  '--no-sandbox',
  '--disable-gpu',
  // a container's /dev/shm is small
  '--disable-dev-shm-usage',
  // no call to Google's services (without these the browser tries to reach them)
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // the page's console on stderr, for the failure messages
  '--enable-logging=stderr',
];

export function chromiumAvailable(): boolean {
  return existsSync(CHROMIUM_PATH);
}

export interface HeadlessChromium {
  process: TestProcess;
  /** what the pages wrote to their console, one line each */
  consoleLines(): string[];
  /** Stops the browser and everything it started, and removes its profile. */
  stop(): Promise<void>;
}

/** Starts headless Chromium on a fresh profile, showing `url`; `extraFlags` are added to ours. */
export function openInChromium(url: string, extraFlags: string[] = []): HeadlessChromium {
  const profile = mkdtempSync(join(tmpdir(), 'zenith-chromium-'));
  const tag = randomUUID();
  const browser = spawnProcess(CHROMIUM_PATH, [...FLAGS, ...extraFlags, `--user-data-dir=${profile}`, url], {
    env: { ...process.env, [BROWSER_VARIABLE]: tag },
  });
  return {
    process: browser,
    consoleLines: () =>
      browser
        .stderr()
        .split('\n')
        .filter((line) => line.includes(':CONSOLE')),
    async stop() {
      try {
        await browser.stop('SIGTERM', 5_000);
      } finally {
        await killStrays(tag);
        rmSync(profile, { recursive: true, force: true });
      }
    },
  };
}

/** the browser's processes outside its group: they end with it, or get SIGKILL */
async function killStrays(tag: string): Promise<void> {
  const deadline = Date.now() + STRAY_WAIT_MS;
  while (processesWithVariable(BROWSER_VARIABLE, tag).length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  for (const pid of processesWithVariable(BROWSER_VARIABLE, tag)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
}
