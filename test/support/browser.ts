// Playwright (playwright-core, no browser download) driving the headless Chromium of
// test/support/chromium.ts: the browser is started there, in its process group and with its
// tag, so stopping it leaves nothing behind, and Playwright attaches over the DevTools protocol.
// For tests that click, type and read pages; `blockOutside` makes any request that leaves
// 127.0.0.1 fail, so a page that needs the internet shows it.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { openInChromium } from './chromium.js';

/** where the browser tests put their screenshots (kept after the run, ignored by git) */
export const SCREENSHOT_DIR = join(process.cwd(), 'test-artifacts', 'screenshots');

const DEVTOOLS_WAIT_MS = 15_000;

export interface DrivenBrowser {
  browser: Browser;
  context: BrowserContext;
  /** a new page whose console errors and uncaught exceptions are collected in `errors` */
  newPage(): Promise<Page>;
  /** console errors, uncaught page errors and failed requests of every page, one line each */
  errors: string[];
  /** requests the browser tried outside 127.0.0.1 (refused when `blockOutside`) */
  outsideRequests: string[];
  screenshot(page: Page, name: string): Promise<string>;
  stop(): Promise<void>;
}

export interface DriveOptions {
  /** refuse every request whose host is not 127.0.0.1 or localhost */
  blockOutside?: boolean;
}

/** Starts headless Chromium and attaches Playwright to it. */
export async function driveChromium(options: DriveOptions = {}): Promise<DrivenBrowser> {
  const headless = openInChromium('about:blank', ['--remote-debugging-port=0']);
  try {
    const endpoint = await devToolsEndpoint(() => headless.process.stderr());
    const browser = await chromium.connectOverCDP(endpoint);
    const context = browser.contexts()[0] ?? (await browser.newContext());
    const errors: string[] = [];
    const outsideRequests: string[] = [];
    if (options.blockOutside) {
      await context.route(
        (url) => !isLocal(url),
        (route) => {
          outsideRequests.push(route.request().url());
          return route.abort('internetdisconnected');
        },
      );
    }
    return {
      browser,
      context,
      errors,
      outsideRequests,
      async newPage() {
        const page = await context.newPage();
        page.on('console', (message) => {
          if (message.type() === 'error') errors.push(`console: ${message.text()} (${page.url()})`);
        });
        page.on('pageerror', (error) => errors.push(`page error: ${error.message} (${page.url()})`));
        return page;
      },
      async screenshot(page, name) {
        mkdirSync(SCREENSHOT_DIR, { recursive: true });
        const path = join(SCREENSHOT_DIR, `${name}.png`);
        await page.screenshot({ path, fullPage: true });
        return path;
      },
      async stop() {
        try {
          await browser.close().catch(() => {});
        } finally {
          await headless.stop();
        }
      },
    };
  } catch (error) {
    await headless.stop();
    throw error;
  }
}

function isLocal(url: URL): boolean {
  if (url.protocol === 'data:' || url.protocol === 'blob:' || url.protocol === 'about:') return true;
  return url.hostname === '127.0.0.1' || url.hostname === 'localhost' || url.hostname === '[::1]';
}

/** Chromium prints "DevTools listening on ws://…" on stderr once it accepts connections. */
async function devToolsEndpoint(stderr: () => string): Promise<string> {
  const deadline = Date.now() + DEVTOOLS_WAIT_MS;
  for (;;) {
    const match = /DevTools listening on (ws:\/\/\S+)/.exec(stderr());
    if (match?.[1]) return match[1];
    if (Date.now() > deadline) throw new Error(`Chromium did not open its DevTools port:\n${stderr().slice(-2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
