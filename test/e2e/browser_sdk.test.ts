// End to end in a real browser: headless Chromium shows a page from another origin (another port
// of 127.0.0.1), which loads @stellar/stellar-sdk's browser bundle and, against Zenith, has an
// account funded by the friendbot, loads it, and submits a payment it signed. The SDK sends
// X-Client-Name and X-Client-Version with every call, so each cross-origin call is preflighted:
// without CORS (src/api/cors.ts) the browser refuses the answers and the page reports the error.
// Not a *.db.test.ts: CORS is answered before any route reads the database, so one run (on
// PGlite) proves it, and the other end-to-end tests cover both databases.
// It needs Debian's chromium; without it the test is skipped, unless CI=true, where it fails.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type * as StellarSdk from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_PATH, chromiumAvailable, type HeadlessChromium, openInChromium } from '../support/chromium.js';
import { NETWORK_PASSPHRASE, startTestNetwork, type TestNetwork } from '../support/network.js';

const available = chromiumAvailable();
const inCi = process.env.CI === 'true';
if (!available && !inCi) {
  console.warn(`test/e2e/browser_sdk.test.ts skipped: no Chromium at ${CHROMIUM_PATH} (Debian: apt-get install chromium)`);
}

const SDK_BUNDLE = new URL('../../node_modules/@stellar/stellar-sdk/dist/stellar-sdk.min.js', import.meta.url);
/** the whole browser part: start, page, four SDK calls, report */
const PAGE_TIMEOUT_MS = 30_000;

interface PageConfig {
  url: string;
  passphrase: string;
  destination: string;
}

interface PageReport {
  accountId: string;
  sequence: string;
  balances: { asset_type: string; balance: string }[];
  /** the hash the page computed for the transaction it signed */
  hash: string;
  submitted: { hash: string; successful: boolean; ledger: number };
}

type PageOutcome = { ok: true; report: PageReport } | { ok: false; error: string };

/**
 * Runs in the page (its source is put in the page), on the bundle's global StellarSdk: a fresh
 * account funded by the friendbot, loaded, and a payment from it signed and submitted.
 */
async function inPage(sdk: typeof StellarSdk, config: PageConfig): Promise<PageReport> {
  const server = new sdk.Horizon.Server(config.url, { allowHttp: true });
  const keypair = sdk.Keypair.random();
  await server.friendbot(keypair.publicKey()).call();
  const account = await server.loadAccount(keypair.publicKey());
  const tx = new sdk.TransactionBuilder(account, { fee: sdk.BASE_FEE, networkPassphrase: config.passphrase })
    .addOperation(sdk.Operation.payment({ destination: config.destination, asset: sdk.Asset.native(), amount: '10' }))
    .setTimeout(0)
    .build();
  tx.sign(keypair);
  const submitted = await server.submitTransaction(tx);
  return {
    accountId: account.accountId(),
    sequence: account.sequence,
    balances: account.balances.map((b) => ({ asset_type: b.asset_type, balance: b.balance })),
    // the bundle's hash() is a byte array without Buffer's hex encoding
    hash: Array.from(tx.hash(), (byte) => byte.toString(16).padStart(2, '0')).join(''),
    submitted: { hash: submitted.hash, successful: submitted.successful, ledger: submitted.ledger },
  };
}

/** the page: the bundle, then inPage, whose outcome (or error, with the answer if any) is POSTed to /report */
function pageHtml(config: PageConfig): string {
  return `<!doctype html>
<meta charset="utf-8">
<script src="/stellar-sdk.min.js"></script>
<script>
Promise.resolve()
  .then(() => (${inPage.toString()})(StellarSdk, ${JSON.stringify(config)}))
  .then(
    (report) => ({ ok: true, report }),
    (error) => ({ ok: false, error: String(error) + (error && error.response ? ' ' + JSON.stringify(error.response.data) : '') }),
  )
  .then((outcome) => {
    console.log(JSON.stringify(outcome));
    return fetch('/report', { method: 'POST', body: JSON.stringify(outcome) });
  });
</script>
`;
}

/** a request Zenith answered, as its server saw it */
interface Seen {
  method: string;
  path: string;
  origin: string | undefined;
  requestMethod: string | undefined;
  requestHeaders: string | undefined;
  status: number;
  allowOrigin: unknown;
}

let network: TestNetwork;
let pageServer: Server;
let pageOrigin = '';
let browser: HeadlessChromium | null = null;
const seen: Seen[] = [];
let outcome: PageOutcome;

/** serves the page and the bundle on a port of its own; `reported` resolves with what the page reports */
async function servePage(config: PageConfig): Promise<{ reported: Promise<PageOutcome> }> {
  const bundle = readFileSync(SDK_BUNDLE);
  let report: (outcome: PageOutcome) => void = () => {};
  const reported = new Promise<PageOutcome>((resolve) => (report = resolve));
  pageServer = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(pageHtml(config));
    } else if (req.method === 'GET' && req.url === '/stellar-sdk.min.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
    } else if (req.method === 'POST' && req.url === '/report') {
      void readBody(req).then((body) => {
        res.writeHead(204).end();
        report(JSON.parse(body) as PageOutcome);
      });
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => pageServer.listen(0, '127.0.0.1', resolve));
  pageOrigin = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}`;
  return { reported };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

beforeAll(async () => {
  if (!available) {
    if (inCi) throw new Error(`CI=true and no Chromium at ${CHROMIUM_PATH}: apt-get install chromium (.ci/run does)`);
    return;
  }
  network = await startTestNetwork();
  network.server.prependListener('request', (req: IncomingMessage, res) => {
    res.on('finish', () =>
      seen.push({
        method: req.method ?? '',
        path: (req.url ?? '').split('?')[0] ?? '',
        origin: req.headers.origin,
        requestMethod: req.headers['access-control-request-method'],
        requestHeaders: req.headers['access-control-request-headers'],
        status: res.statusCode,
        allowOrigin: res.getHeader('access-control-allow-origin'),
      }),
    );
  });
  const { reported } = await servePage({ url: network.url, passphrase: NETWORK_PASSPHRASE, destination: network.root.publicKey() });
  const stopClosing = network.closeWhileWaiting();
  browser = openInChromium(`${pageOrigin}/`);
  const started = browser;
  let timer: NodeJS.Timeout | undefined;
  try {
    outcome = await Promise.race([
      reported,
      started.process.done.then(({ code, signal }) => {
        throw new Error(`Chromium exited (${signal ?? code}) before the page reported:\n${started.process.stderr()}`);
      }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(new Error(`no report from the page within ${PAGE_TIMEOUT_MS} ms; its console:\n${started.consoleLines().join('\n')}`)),
          PAGE_TIMEOUT_MS,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
    await stopClosing();
    await started.stop();
  }
}, 60_000);

afterAll(async () => {
  // stopped already unless the hook timed out
  await browser?.stop();
  if (pageServer) await new Promise((resolve) => pageServer.close(resolve));
  await network?.stop();
});

describe.skipIf(!available && !inCi)('@stellar/stellar-sdk in headless Chromium, from another origin', () => {
  it('funds and loads an account, and submits a payment it signed', async () => {
    if (!outcome.ok) throw new Error(`the page failed: ${outcome.error}`);
    const { report } = outcome;
    expect(report.balances).toEqual([{ asset_type: 'native', balance: '10000.0000000' }]);
    expect(report.sequence).toMatch(/^\d+$/);
    expect(report.submitted).toEqual({ hash: report.hash, successful: true, ledger: expect.any(Number) });
    // the payment, as the API has it
    const tx = (await (await fetch(`${network.url}/transactions/${report.hash}`)).json()) as Record<string, unknown>;
    expect(tx).toMatchObject({ successful: true, source_account: report.accountId, ledger: report.submitted.ledger });
  });

  it('was preflighted: every call of the page, answered 204 to its OPTIONS, then with Access-Control-Allow-Origin', () => {
    const fromPage = seen.filter((s) => s.origin === pageOrigin);
    const calls = fromPage.filter((s) => s.method !== 'OPTIONS');
    expect(calls.map((s) => `${s.method} ${s.path}`)).toEqual([
      'GET /friendbot',
      `GET /accounts/${outcome.ok ? outcome.report.accountId : ''}`,
      // submitTransaction's SEP-29 check: does the destination require a memo
      `GET /accounts/${network.root.publicKey()}`,
      'POST /transactions',
    ]);
    for (const call of calls) {
      expect(call, `${call.method} ${call.path}`).toMatchObject({ status: 200, allowOrigin: '*' });
      const preflight = fromPage.find((s) => s.method === 'OPTIONS' && s.path === call.path);
      expect(preflight, `the preflight of ${call.method} ${call.path}`).toMatchObject({ status: 204, requestMethod: call.method });
      expect(preflight?.requestHeaders?.split(',').sort()).toEqual(['x-client-name', 'x-client-version']);
      // the preflight came first
      expect(fromPage.indexOf(preflight as Seen)).toBeLessThan(fromPage.indexOf(call));
    }
  });
});
