// The explorer's budgets, Lighthouse-style, in headless Chromium (Debian's, driven by Playwright as
// the tests drive it) against the in-process test network: the bytes a first visit transfers
// (every response of the page load, headers included, compressed as sent; the subscriptions'
// event streams left out) and the time from navigation to the first ledger shown, each in a fresh
// browser context (an empty cache), as the median of the runs and its ratio to the budget (≤ 1
// meets it). Also printed: the bundle's sizes, a repeat visit (the hashed assets from the cache),
// the time from a ledger's close to its row on the page, and the signing chunk the payment form
// loads. The machine's load moves the times, so each run also loads a baseline: a hand-written
// page on the same server (one inline script that sends the front page's own query and writes the
// ledgers' rows with DOM calls), and the explorer's time is printed as a ratio to it too.
// PGlite in memory, or PostgreSQL with ZENITH_TEST_DB=postgres.
// Run: npx tsx bench/explorer.ts [runs=5]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keypair } from '@stellar/stellar-sdk';
import type { BrowserContext, Request } from 'playwright-core';
import { buildExplorer } from '../scripts/build_explorer.js';
import { loadExplorer } from '../src/api/explorer.js';
import { driveChromium } from '../test/support/browser.js';
import { chromiumAvailable } from '../test/support/chromium.js';
import { startTestNetwork } from '../test/support/network.js';

/** what a first visit may transfer */
const FIRST_LOAD_BUDGET_BYTES = 150 * 1024;
/** from navigation to the newest ledger on the page */
const FIRST_LEDGER_BUDGET_MS = 1_000;
const BASELINE_PATH = '/bench-baseline';

/** records on the page's clock (0: the navigation's start) when a ledger's row first enters the document */
const SHOWN_WATCH = `new MutationObserver((changes, observer) => {
  if (!document.querySelector('#ledgers tr[data-ledger]')) return;
  window.__firstLedgerShown = performance.now();
  observer.disconnect();
}).observe(document, { childList: true, subtree: true });`;

const runs = Number(process.argv[2] ?? 5);
if (!chromiumAvailable()) throw new Error('bench/explorer.ts needs Debian’s chromium (apt-get install chromium)');

const dir = mkdtempSync(join(tmpdir(), 'zenith-explorer-bench-'));
const manifest = await buildExplorer(dir);
const explorer = loadExplorer(dir)!;
const network = await startTestNetwork({ explorer });
const driven = await driveChromium({ blockOutside: true });
serveBaseline();
/** console errors of every page the bench opened */
const errors: string[] = [];
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

try {
  // a few ledgers with transactions, so the front page has rows to show
  for (let i = 0; i < 5; i++) await network.fund(Keypair.random(), Keypair.random());

  const sizes = (name: string) => {
    const asset = explorer.assets.get(name)!;
    return `${kb(asset.identity.length)} (brotli ${kb(asset.br.length)}, gzip ${kb(asset.gzip.length)})`;
  };
  console.log(
    `bundle: entry ${manifest.entry.script} ${sizes(manifest.entry.script)}, ${manifest.entry.style} ${sizes(manifest.entry.style)}`,
  );
  for (const name of Object.keys(manifest.assets)) {
    if (name !== manifest.entry.script && name !== manifest.entry.style) console.log(`        loaded later: ${name} ${sizes(name)}`);
  }

  const firstBytes: number[] = [];
  const firstMs: number[] = [];
  const firstSteps: Steps[] = [];
  const repeatBytes: number[] = [];
  const repeatMs: number[] = [];
  const liveMs: number[] = [];
  const baselineMs: number[] = [];
  // untimed: the server's first GraphQL query and the browser's first page are slower
  for (const path of [BASELINE_PATH, '/explorer']) {
    const warming = await newContext();
    await visit(warming, path);
    await warming.close();
  }
  for (let run = 0; run < runs; run++) {
    const baseline = await newContext();
    try {
      baselineMs.push((await visit(baseline, BASELINE_PATH)).ms);
    } finally {
      await baseline.close();
    }
    const context = await newContext();
    try {
      const first = await visit(context);
      firstBytes.push(first.bytes);
      firstMs.push(first.ms);
      firstSteps.push(first.steps);
      const repeat = await visit(context);
      repeatBytes.push(repeat.bytes);
      repeatMs.push(repeat.ms);
      // a ledger closed while the page is open: from the close to its row
      const page = context.pages()[0]!;
      const closing = performance.now();
      const sequence = await network.closeLedger();
      await page.locator(`#ledgers tr[data-ledger="${sequence}"]`).waitFor();
      liveMs.push(performance.now() - closing);
    } finally {
      await context.close();
    }
  }
  const signing = await signingChunk();

  const bytes = median(firstBytes);
  const ms = median(firstMs);
  console.log(`runs: ${runs} (a fresh context each, after one of each page to warm up), medians:`);
  console.log(
    `first visit:   ${kb(bytes)} transferred, ratio ${(bytes / FIRST_LOAD_BUDGET_BYTES).toFixed(2)} of the ${kb(FIRST_LOAD_BUDGET_BYTES)} budget`,
  );
  console.log(
    `               first ledger shown after ${ms.toFixed(0)} ms, ratio ${(ms / FIRST_LEDGER_BUDGET_MS).toFixed(2)} of the ${FIRST_LEDGER_BUDGET_MS} ms budget (all runs: ${firstMs.map((value) => value.toFixed(0)).join(', ')})`,
  );
  const base = median(baselineMs);
  console.log(
    `               the hand-written page's first ledger after ${base.toFixed(0)} ms: ratio ${(ms / base).toFixed(2)} (all runs: ${baselineMs.map((value) => value.toFixed(0)).join(', ')})`,
  );
  const step = (name: keyof Steps) => median(firstSteps.map((steps) => steps[name])).toFixed(0);
  console.log(
    `               (the page at ${step('page')} ms, its script at ${step('script')} ms, the GraphQL query sent at ${step('queryStart')} ms and answered at ${step('query')} ms)`,
  );
  console.log(`repeat visit:  ${kb(median(repeatBytes))} transferred, first ledger after ${median(repeatMs).toFixed(0)} ms`);
  console.log(
    `a new ledger:  on the page ${median(liveMs).toFixed(0)} ms after its close (all: ${liveMs.map((value) => value.toFixed(0)).join(', ')})`,
  );
  console.log(`payment form:  loads the signing chunk, ${kb(signing)} transferred`);
  if (errors.length > 0) console.log(`console errors:\n${errors.join('\n')}`);
} finally {
  await driven.stop();
  await network.stop();
  rmSync(dir, { recursive: true, force: true });
}

/** milliseconds from the navigation's start */
interface Steps {
  page: number;
  script: number;
  queryStart: number;
  query: number;
}

/** a browser context with an empty cache, whose console errors are collected */
async function newContext(): Promise<BrowserContext> {
  const context = await driven.browser.newContext();
  await context.addInitScript(SHOWN_WATCH);
  context.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return context;
}

/** One visit of the front page in `context`: bytes transferred until the first ledger shows, and when it showed. */
async function visit(context: BrowserContext, path = '/explorer'): Promise<{ bytes: number; ms: number; steps: Steps }> {
  const page = context.pages()[0] ?? (await context.newPage());
  const requests: Request[] = [];
  const seen = (request: Request) => requests.push(request);
  page.on('request', seen);
  await page.goto(network.url + path);
  // the page's own clock: navigation starts at 0
  // the moment the first ledger's row enters the document (SHOWN_WATCH, run before the page's scripts)
  const ms = (await (await page.waitForFunction('window.__firstLedgerShown')).jsonValue()) as number;
  page.off('request', seen);
  // where the time went, on the same clock: the page, its script, the first GraphQL answer
  // (a string: tsx would name the helpers of a function, which the page does not have)
  const steps = (await page.evaluate(`(() => {
    const resources = performance.getEntriesByType('resource');
    const named = (test) => resources.find((entry) => test(new URL(entry.name).pathname));
    const script = named((path) => path.startsWith('/explorer/assets/main-') && path.endsWith('.js'));
    const query = named((path) => path === '/graphql');
    return {
      page: performance.getEntriesByType('navigation')[0].responseEnd,
      script: script ? script.responseEnd : 0,
      queryStart: query ? query.startTime : 0,
      query: query ? query.responseEnd : 0,
    };
  })()`)) as Steps;
  return { bytes: await transferred(requests), ms, steps };
}

/** what the responses of these requests cost on the wire (their event streams aside: they never end) */
async function transferred(requests: Request[]): Promise<number> {
  let total = 0;
  for (const request of requests) {
    if (new URL(request.url()).pathname === '/graphql/stream') continue;
    const sizes = await request.sizes();
    total += sizes.responseHeadersSize + sizes.responseBodySize;
  }
  return total;
}

/** the baseline page, answered by the network's server before its own handler */
function serveBaseline(): void {
  const home = readFileSync(new URL('../web/explorer/queries/home.graphql', import.meta.url), 'utf8');
  const page = `<!doctype html><meta charset="utf-8"><title>baseline</title><link rel="icon" href="data:,"><table id="ledgers"></table>
<script>
fetch('/graphql', {
  method: 'POST',
  headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
  body: JSON.stringify({ query: ${JSON.stringify(home)}, operationName: 'Home' }),
})
  .then((response) => response.json())
  .then(({ data }) => {
    const table = document.getElementById('ledgers');
    for (const { node } of data.ledgers.edges) {
      const row = document.createElement('tr');
      row.dataset.ledger = node.sequence;
      row.textContent = node.sequence + ' ' + node.closedAt;
      table.append(row);
    }
  });
</script>`;
  const [served] = network.server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  network.server.removeAllListeners('request');
  network.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.url === BASELINE_PATH) res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(page);
    else served!(req, res);
  });
}

/** the bytes the payment form adds: the signing chunk */
async function signingChunk(): Promise<number> {
  const context = await newContext();
  try {
    const page = await context.newPage();
    await page.goto(`${network.url}/explorer`);
    await page.locator('#ledgers').waitFor();
    const requests: Request[] = [];
    page.on('request', (request) => requests.push(request));
    await page.click('text=Send');
    await page.locator('#generate').waitFor();
    return await transferred(requests);
  } finally {
    await context.close();
  }
}
