// The Playwright side of the browser tests: it attaches to our Chromium, sees the page's console
// errors, refuses requests that leave 127.0.0.1 when asked, and leaves no process behind.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driveChromium } from './browser.js';
import { CHROMIUM_PATH, chromiumAvailable } from './chromium.js';

const available = chromiumAvailable();
if (!available && process.env.CI !== 'true') {
  console.warn(`test/support/browser.test.ts skipped: no Chromium at ${CHROMIUM_PATH}`);
}

const PAGE = `<!doctype html><title>t</title><p id="out">waiting</p><script>
fetch('https://example.com/x').then(() => 'reached', (e) => 'refused: ' + e.message)
  .then((text) => { document.getElementById('out').textContent = text; console.error('logged ' + text); });
</script>`;

describe.skipIf(!available && process.env.CI !== 'true')('driveChromium', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('loads a local page, refuses the internet and collects console errors', async () => {
    const driven = await driveChromium({ blockOutside: true });
    try {
      const page = await driven.newPage();
      await page.goto(url);
      await page.waitForFunction(() => document.getElementById('out')?.textContent !== 'waiting');
      expect(await page.textContent('#out')).toMatch(/^refused/);
      expect(driven.outsideRequests).toEqual(['https://example.com/x']);
      expect(driven.errors.some((line) => line.includes('logged refused'))).toBe(true);
    } finally {
      await driven.stop();
    }
  }, 60_000);
});
