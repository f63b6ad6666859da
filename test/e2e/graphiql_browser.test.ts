// GraphiQL at /graphql in a real browser with the internet refused (driveChromium's blockOutside):
// the page, served from the installed package, renders, runs its example tabs against a test
// network (the account view with a payment this test made, the latest ledgers) and follows the
// payments subscription over graphql-sse at /graphql/stream while the test funds an account, with
// no console error and no request leaving 127.0.0.1. Screenshots go to test-artifacts/screenshots.
// Not a *.db.test.ts: the page and its requests are the same on both databases (one run, on PGlite).
// It needs Debian's chromium; without it the test is skipped, unless CI=true, where it fails.
import type { IncomingMessage } from 'node:http';
import { Keypair } from '@stellar/stellar-sdk/base';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DrivenBrowser, driveChromium } from '../support/browser.js';
import { CHROMIUM_PATH, chromiumAvailable } from '../support/chromium.js';
import { startTestNetwork, type TestNetwork } from '../support/network.js';

const available = chromiumAvailable();
const inCi = process.env.CI === 'true';
if (!available && !inCi) {
  console.warn(`test/e2e/graphiql_browser.test.ts skipped: no Chromium at ${CHROMIUM_PATH} (Debian: apt-get install chromium)`);
}

/** how long the page may take to show an answer (the first GET builds the page, ~2 s) */
const WAIT_MS = 20_000;

let network: TestNetwork;
let driven: DrivenBrowser;
let page: Page;
/** the account this test funded before the page opened, and the ledger of that payment */
const funded = Keypair.random();
let fundedLedger = 0;
/** the requests the server received: method, path and Accept */
const seen: { method: string; path: string; accept: string }[] = [];

beforeAll(async () => {
  if (!available) {
    if (inCi) throw new Error(`CI=true and no Chromium at ${CHROMIUM_PATH}: apt-get install chromium (.ci/run does)`);
    return;
  }
  network = await startTestNetwork();
  network.server.prependListener('request', (req: IncomingMessage) =>
    seen.push({ method: req.method ?? '', path: (req.url ?? '').split('?')[0] ?? '', accept: req.headers.accept ?? '' }),
  );
  fundedLedger = await network.fund(funded);
  driven = await driveChromium({ blockOutside: true });
  page = await driven.newPage();
  // tall enough that Monaco renders every line of the answers read below (it draws only what is visible)
  await page.setViewportSize({ width: 1400, height: 2000 });
}, 60_000);

afterAll(async () => {
  await driven?.stop();
  await network?.stop();
});

/** The result pane's JSON: Monaco's lines joined, without the whitespace its wrapping adds (the answers hold none of their own). */
async function resultPane(): Promise<unknown> {
  return JSON.parse(await paneText());
}

/** the result pane's text without whitespace */
async function paneText(): Promise<string> {
  const text = await page.evaluate(() => document.querySelector('.graphiql-response .view-lines')?.textContent ?? '');
  return text.replace(/\s+/g, '');
}

/**
 * Shows a tab and runs its document until `ran` says it ran. In headless Chromium the tab strip's
 * entry animation can leave a tab's box offset from where it is drawn until the first pointer
 * gesture, so a click may miss: clicked until the tab is active. GraphiQL learns the shown tab's
 * operation name a moment later; run before that, it sends the previous tab's name and answers
 * "Cannot infer operation" without any request: then it is run again.
 */
async function runTab(name: string, ran: () => Promise<boolean>): Promise<void> {
  const tab = page.locator(`.graphiql-tab-button[title="${name}"]`);
  const active = page.locator(`.graphiql-tab-active .graphiql-tab-button[title="${name}"]`);
  await expect
    .poll(
      async () => {
        await tab.click();
        return active.isVisible();
      },
      { timeout: WAIT_MS },
    )
    .toBe(true);
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    await page.locator('.graphiql-execute-button').click();
    for (;;) {
      if (await ran()) return;
      if ((await paneText()).includes('Cannotinferoperation')) break;
      if (Date.now() > deadline)
        throw new Error(`the ${name} tab did not run (screenshot: ${await driven.screenshot(page, 'graphiql-waiting')})`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

describe.skipIf(!available && !inCi)('GraphiQL at /graphql, offline', () => {
  it('renders from the server alone and runs the account view', async () => {
    const response = await page.goto(`${network.url}/graphql`);
    expect(response?.headers()['content-security-policy']).toMatch(/^default-src 'none'; script-src 'sha256-/);
    await page.locator('.graphiql-execute-button').waitFor({ timeout: WAIT_MS });
    await runTab('Account', async () => (await paneText()).includes(`"account":"${funded.publicKey()}"`));
    await driven.screenshot(page, 'graphiql-account');
    const root = network.root.publicKey();
    expect(await resultPane()).toMatchObject({
      data: {
        account: {
          accountId: root,
          signers: [{ key: root, type: 'ed25519_public_key', weight: 1 }],
          offers: { edges: [] },
          payments: {
            edges: [
              {
                node: {
                  type: 'create_account',
                  funder: root,
                  account: funded.publicKey(),
                  startingBalance: '1000.0000000',
                  transaction: { hash: expect.stringMatching(/^[0-9a-f]{64}$/), ledger: { sequence: fundedLedger } },
                },
              },
            ],
          },
        },
      },
    });
  }, 60_000);

  it('runs the latest ledgers', async () => {
    await runTab('LatestLedgers', async () => (await paneText()).includes(`"ledgers":{"edges":[{"node":{"sequence":${fundedLedger},`));
    await driven.screenshot(page, 'graphiql-ledgers');
    const { data } = (await resultPane()) as { data: { ledgers: { edges: { node: { sequence: number } }[] } } };
    expect(data.ledgers.edges.map((edge) => edge.node.sequence)).toEqual(
      Array.from({ length: fundedLedger }, (_, i) => fundedLedger - i).slice(0, 5),
    );
  });

  it('follows payments over graphql-sse at /graphql/stream', async () => {
    const before = seen.length;
    await runTab('Payments', async () =>
      seen.slice(before).some((s) => s.method === 'GET' && s.path === '/graphql/stream' && s.accept === 'text/event-stream'),
    );
    // cursor "now" is read when the subscription starts: fund until an account shows
    let shown: string | undefined;
    for (let attempt = 0; attempt < 5 && !shown; attempt++) {
      const next = Keypair.random();
      await network.fund(next);
      await expect
        .poll(paneText, { timeout: 3_000 })
        .toContain(`"account":"${next.publicKey()}"`)
        .then(
          () => (shown = next.publicKey()),
          () => {},
        );
    }
    await driven.screenshot(page, 'graphiql-payments-subscription');
    expect(shown).toBeDefined();
    expect(await resultPane()).toMatchObject({
      data: { payments: { type: 'create_account', funder: network.root.publicKey(), account: shown } },
    });
    // the stop button ends the subscription
    await page.locator('.graphiql-execute-button').click();
  }, 120_000);

  it('logged no console error and reached nothing outside 127.0.0.1', () => {
    expect(driven.errors).toEqual([]);
    expect(driven.outsideRequests).toEqual([]);
  });
});
