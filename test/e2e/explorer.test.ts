// The explorer (web/explorer/, served by src/api/explorer.ts) in a real browser: headless
// Chromium driven by Playwright (test/support/browser.ts) with the internet blocked, against a
// whole private network (core, ingester, API with friendbot). It is the proof that the GraphQL
// API serves the views it was made for: the latest ledgers and transactions arrive through
// subscriptions, an account page is one GraphQL request, a payment the test submits through the
// SDK shows on it, search finds each kind of key, every bad input shows a message, and a payment
// is signed in the page with @stellar/stellar-sdk. No page may log a console error. Screenshots go
// to test-artifacts/screenshots/explorer-*.png.
// Not a *.db.test.ts: what the browser sees does not depend on the database, which the GraphQL
// tests cover on both; one run on PGlite keeps the suite's time down (as browser_sdk.test.ts).
// It needs Debian's chromium; without it the test is skipped, unless CI=true, where it fails.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Account, Asset, Horizon, Keypair, Memo, MuxedAccount, Operation, TransactionBuilder } from '@stellar/stellar-sdk';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildExplorer } from '../../scripts/build_explorer.js';
import { loadExplorer } from '../../src/api/explorer.js';
import { type DrivenBrowser, driveChromium } from '../support/browser.js';
import { CHROMIUM_PATH, chromiumAvailable } from '../support/chromium.js';
import { NETWORK_PASSPHRASE, startTestNetwork, type TestNetwork } from '../support/network.js';

const available = chromiumAvailable();
const inCi = process.env.CI === 'true';
if (!available && !inCi) console.warn(`test/e2e/explorer.test.ts skipped: no Chromium at ${CHROMIUM_PATH}`);

/** the issue's bound: a new ledger, and a payment, on the page within 2 s */
const LIVE_BOUND_MS = 2_000;
/** payments from alice to bob beyond the first page (10) of bob's payments */
const PAYMENTS = 12;

const alice = Keypair.random();
const bob = Keypair.random();
const issuer = Keypair.random();
const USD = new Asset('USD', issuer.publicKey());

let network: TestNetwork;
let driven: DrivenBrowser;
let bundleDir = '';
/** a transaction of the seeded history, and the ledger holding it */
let seededHash = '';
let seededLedger = 0;
/** POST /graphql requests and subscriptions (/graphql/stream) the pages made */
const graphqlPosts: string[] = [];
const streams: string[] = [];

function payment(from: Keypair, sequence: string, to: string, amount: string, asset = Asset.native()) {
  const tx = new TransactionBuilder(new Account(from.publicKey(), sequence), { fee: '100', networkPassphrase: NETWORK_PASSPHRASE })
    .addOperation(Operation.payment({ destination: to, asset, amount }))
    .setTimeout(0)
    .build();
  tx.sign(from);
  return tx;
}

const hexHash = (tx: { hash(): Uint8Array }): string => Buffer.from(tx.hash()).toString('hex');

beforeAll(async () => {
  if (!available) {
    if (inCi) throw new Error(`CI=true and no Chromium at ${CHROMIUM_PATH}: apt-get install chromium (.ci/run does)`);
    return;
  }
  bundleDir = mkdtempSync(join(tmpdir(), 'zenith-explorer-'));
  await buildExplorer(bundleDir);
  const explorer = loadExplorer(bundleDir);
  if (!explorer) throw new Error('the explorer did not build');
  network = await startTestNetwork({ explorer });
  await network.fund(alice, bob, issuer);
  await network.submitOperations(bob, [Operation.changeTrust({ asset: USD })]);
  await network.submitOperations(issuer, [Operation.payment({ destination: bob.publicKey(), asset: USD, amount: '500' })]);
  // bob sells USD for lumens: the USD/XLM book has an ask
  await network.submitOperations(bob, [Operation.manageSellOffer({ selling: USD, buying: Asset.native(), amount: '20', price: '2.5' })]);
  // more payments to bob than one page holds
  const start = network.core.account(alice.publicKey())!.seqNum;
  const txs = Array.from({ length: PAYMENTS }, (_, i) => payment(alice, (start + BigInt(i)).toString(), bob.publicKey(), `${i + 1}`));
  seededLedger = await network.submit(...txs);
  seededHash = hexHash(txs[0]!);

  driven = await driveChromium({ blockOutside: true });
  driven.context.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path === '/graphql' && request.method() === 'POST') graphqlPosts.push(request.postData() ?? '');
    if (path === '/graphql/stream') streams.push(request.postData() ?? '');
  });
}, 120_000);

afterAll(async () => {
  await driven?.stop();
  await network?.stop();
  if (bundleDir) rmSync(bundleDir, { recursive: true, force: true });
});

/** the operation names of the GraphQL requests made while `act` ran */
async function requestsDuring(act: () => Promise<void>): Promise<{ posts: string[]; streams: string[] }> {
  const posts = graphqlPosts.length;
  const opened = streams.length;
  streamsBefore = opened;
  await act();
  const name = (body: string) => (JSON.parse(body) as { operationName: string }).operationName;
  return { posts: graphqlPosts.slice(posts).map(name), streams: streams.slice(opened).map(name) };
}

/** waits until `count` more subscriptions than at the start of requestsDuring were asked */
let streamsBefore = 0;
async function streamsOpened(count: number): Promise<void> {
  await expect.poll(() => streams.length - streamsBefore, { timeout: 10_000 }).toBe(count);
}

async function search(page: Page, text: string): Promise<void> {
  await page.fill('#search', text);
  await page.press('#search', 'Enter');
}

/**
 * What keeps the page from a screen reader or a keyboard: a control without a name (an input
 * without a label, an empty button or link), a table column without a header, a missing main
 * landmark, or not exactly one h1.
 */
async function inaccessible(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const named = (element: Element) => (element.getAttribute('aria-label') ?? element.textContent ?? '').trim() !== '';
    for (const input of document.querySelectorAll('input')) {
      if (input.type !== 'hidden' && (input.labels?.length ?? 0) === 0) found.push(`input ${input.name} has no label`);
    }
    for (const control of document.querySelectorAll('button, a')) if (!named(control)) found.push(`${control.outerHTML} has no name`);
    for (const table of document.querySelectorAll('table')) {
      if (table.querySelectorAll('thead th[scope=col]').length === 0) found.push(`table ${table.id} has no column headers`);
    }
    if (document.querySelectorAll('main').length !== 1) found.push('not one main');
    if (document.querySelectorAll('h1').length !== 1) found.push('not one h1');
    return found;
  });
}

/** a screenshot of the page, once it is found accessible */
async function shoot(page: Page, name: string): Promise<void> {
  expect(await inaccessible(page), name).toEqual([]);
  await driven.screenshot(page, name);
}

/** the text of the page's alert (a problem's message) */
async function problem(page: Page): Promise<string> {
  return (await page.locator('[role=alert]').first().textContent({ timeout: 10_000 })) ?? '';
}

describe.skipIf(!available && !inCi)('the explorer in headless Chromium', () => {
  let page: Page;

  it('shows the latest ledgers and transactions, then a new ledger within 2 s of its close', async () => {
    page = await driven.newPage();
    const { posts, streams: opened } = await requestsDuring(async () => {
      await page.goto(`${network.url}/explorer`);
      await page.locator(`#ledgers tr[data-ledger="${seededLedger}"]`).waitFor();
      await streamsOpened(2);
    });
    expect(posts).toEqual(['Home']);
    // the landmarks and the search box, as assistive technology finds them
    await page.getByRole('searchbox', { name: 'Search' }).waitFor();
    await page.getByRole('navigation', { name: 'Views' }).waitFor();
    await page.getByRole('search').waitFor();
    expect(opened.sort()).toEqual(['NewLedgers', 'NewTransactions']);
    expect(await page.locator('#transactions tr[data-transaction]').count()).toBe(10);

    const closing = Date.now();
    const sequence = await network.closeLedger();
    await page.locator(`#ledgers tr[data-ledger="${sequence}"]`).waitFor({ timeout: LIVE_BOUND_MS });
    expect(Date.now() - closing).toBeLessThan(LIVE_BOUND_MS);

    // a transaction arrives the same way
    const next = network.core.account(alice.publicKey())!.seqNum;
    const tx = payment(alice, next.toString(), bob.publicKey(), '1');
    await network.submit(tx);
    await page.locator(`#transactions tr[data-transaction="${hexHash(tx)}"]`).waitFor({ timeout: LIVE_BOUND_MS });
    await shoot(page, 'explorer-home');
  });

  it('is what / answers a browser, while a JSON client keeps the root document', async () => {
    const html = await fetch(`${network.url}/`, { headers: { Accept: 'text/html,application/xhtml+xml' } });
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(html.headers.get('content-security-policy')).toContain("script-src 'self'");
    const json = (await (await fetch(`${network.url}/`)).json()) as { _links: Record<string, unknown> };
    expect(Object.keys(json._links)).toContain('friendbot');
    // the page at / is the front page; its two live streams are waited for, or one asked late on
    // a loaded machine is counted by the next test's window
    const { streams: opened } = await requestsDuring(async () => {
      await page.goto(`${network.url}/`);
      await page.locator('#ledgers').waitFor();
      await streamsOpened(2);
    });
    expect(opened).toHaveLength(2);
  });

  it('shows an account from one GraphQL request: balances, signers, offers and payments with their transactions and ledgers', async () => {
    const { posts, streams: opened } = await requestsDuring(async () => {
      await page.goto(`${network.url}/explorer/accounts/${bob.publicKey()}`);
      await page.locator('#payments tr[data-payment]').first().waitFor();
      await streamsOpened(1);
    });
    expect(posts).toEqual(['Account']);
    expect(opened).toEqual(['AccountPaymentsLive']);
    const balances = await page.locator('#balances tbody tr').allTextContents();
    // 500 USD, 20 of them offered
    expect(balances.some((row) => row.startsWith('USD') && row.includes('500') && row.includes('0 / 20'))).toBe(true);
    expect(balances.some((row) => row.startsWith('XLM'))).toBe(true);
    expect(await page.locator('#signers tbody tr').allTextContents()).toEqual([`${bob.publicKey()}ed25519_public_key1`]);
    expect(await page.locator('#offers tbody tr').count()).toBe(1);
    // the newest first: the front page's payment of 1, then the seeded ones from 12 down
    const rows = page.locator('#payments tbody tr');
    expect(await rows.count()).toBe(10);
    expect(await rows.first().locator('td').nth(5).textContent()).toBe('1 XLM');
    await shoot(page, 'explorer-account');

    // load more: the next pages of the connection, until the history's end (its creation)
    const more = await requestsDuring(async () => {
      while (await page.locator('button.more', { hasText: 'payments' }).isVisible()) {
        const count = await rows.count();
        await page.click('button.more:has-text("payments")');
        await page.waitForFunction((shown) => document.querySelectorAll('#payments tbody tr').length > shown, count);
      }
    });
    expect(more.posts).toEqual(['AccountPayments']);
    // 1 + 12 payments, its trust line's USD and its creation
    expect(await rows.count()).toBe(1 + PAYMENTS + 2);
    expect(await rows.last().locator('td').nth(2).textContent()).toBe('create account');
  });

  it('shows a payment submitted through the SDK within 2 s, with its transaction', async () => {
    const server = new Horizon.Server(network.url, { allowHttp: true });
    const source = await server.loadAccount(alice.publicKey());
    const tx = new TransactionBuilder(source, { fee: '100', networkPassphrase: NETWORK_PASSPHRASE })
      .addOperation(Operation.payment({ destination: bob.publicKey(), asset: Asset.native(), amount: '42.5' }))
      .addMemo(Memo.text('from the SDK'))
      .setTimeout(0)
      .build();
    tx.sign(alice);
    const stopClosing = network.closeWhileWaiting();
    let submitted: Horizon.HorizonApi.SubmitTransactionResponse;
    try {
      submitted = await server.submitTransaction(tx);
    } finally {
      await stopClosing();
    }
    // answered once its ledger is ingested
    const ingested = Date.now();
    const row = page.locator(`#payments tr:has(a[href="/explorer/transactions/${submitted.hash}"])`);
    await row.waitFor({ timeout: LIVE_BOUND_MS });
    expect(Date.now() - ingested).toBeLessThan(LIVE_BOUND_MS);
    expect(await row.locator('td').nth(5).textContent()).toBe('42.5 XLM');
    expect(await row.textContent()).toContain('memo: from the SDK');
    await shoot(page, 'explorer-account-live');
  });

  it('finds each kind of key from the search box', async () => {
    await page.goto(`${network.url}/explorer`);
    await search(page, bob.publicKey());
    await page.waitForURL(`**/explorer/accounts/${bob.publicKey()}`);
    await page.locator('#balances').waitFor();

    const muxed = new MuxedAccount(new Account(bob.publicKey(), '0'), '7').accountId();
    await search(page, muxed);
    await page.waitForURL(`**/explorer/accounts/${muxed}`);
    expect(await page.locator('.note').textContent()).toContain('id 7 of the account');
    await page.locator('#balances').waitFor();
    await shoot(page, 'explorer-muxed');

    await search(page, seededHash);
    await page.waitForURL(`**/explorer/transactions/${seededHash}`);
    await page.locator('#operations tbody tr').first().waitFor();
    await shoot(page, 'explorer-transaction');

    await search(page, String(seededLedger));
    await page.waitForURL(`**/explorer/ledgers/${seededLedger}`);
    await page.locator('#ledger-transactions tbody tr').first().waitFor();
    expect(await page.locator('#ledger-transactions tbody tr').count()).toBe(PAYMENTS);
    await shoot(page, 'explorer-ledger');

    await search(page, 'USD');
    await page.waitForURL('**/explorer/assets?code=USD');
    // the URL changes before the query answers: wait for the table, then read all of it
    await page.locator('#assets tbody tr').first().waitFor();
    expect(await page.locator('#assets tbody tr').allTextContents()).toEqual([expect.stringContaining('USD')]);
    await search(page, `USD:${issuer.publicKey()}`);
    await page.waitForURL(`**/explorer/assets?code=USD&issuer=${issuer.publicKey()}`);
    await page.locator('#assets tbody tr').waitFor();

    // an operation, by its id, from its transaction's page
    await page.goto(`${network.url}/explorer/transactions/${seededHash}`);
    await page.click('#operations tbody tr a');
    await page.waitForURL('**/explorer/operations/*');
    expect(await page.locator('dl.fields').last().textContent()).toContain('amount1');
    await shoot(page, 'explorer-operation');
  });

  it('shows a clear message for every bad input, in the search box or the URL', async () => {
    const unknown = Keypair.random().publicKey();
    const badChecksum = `${bob.publicKey().slice(0, 55)}${bob.publicKey().endsWith('A') ? 'B' : 'A'}`;
    const cases: [string, RegExp][] = [
      [`/explorer/accounts/${unknown}`, /not found/],
      [`/explorer/accounts/${badChecksum}`, /is not a valid account id/],
      [`/explorer/accounts/M${'A'.repeat(68)}`, /is not a valid muxed account/],
      [`/explorer/transactions/${'0'.repeat(64)}`, /not found/],
      ['/explorer/transactions/xyz', /is not a valid transaction hash/],
      ['/explorer/ledgers/99999999', /not found/],
      ['/explorer/ledgers/abc', /is not a valid ledger sequence/],
      [`/explorer/operations/${(BigInt(seededLedger) << 32n) | (99n << 12n) | 1n}`, /not found/],
      // before the history: the server's own words
      ['/explorer/operations/12', /prior to the recorded history/],
      ['/explorer/operations/abc', /is not a valid operation id/],
      ['/explorer/assets?code=ZZZ', /No asset with the code ZZZ/],
      ['/explorer/assets?code=%24%24', /is not/],
      ['/explorer/order-book?selling=native&buying=USD', /is not an asset/],
      ['/explorer/search?q=GABCDEFGHIJKLMNOPQRST', /is not a valid account id/],
      ['/explorer/search?q=hello%20world', /is not an account id/],
      ['/explorer/no/such/page', /no page at/],
    ];
    for (const [path, message] of cases) {
      await page.goto(`${network.url}${path}`);
      expect(await problem(page), path).toMatch(message);
    }
    await shoot(page, 'explorer-bad-input');
    // and from the search box, without a page load
    await search(page, 'not a key!');
    expect(await problem(page)).toMatch(/is not an account id/);
  });

  it('follows the order book of a pair', async () => {
    await page.goto(`${network.url}/explorer/order-book?selling=${encodeURIComponent(`USD:${issuer.publicKey()}`)}&buying=native`);
    const asks = page.locator('#asks tbody tr');
    await asks.first().waitFor();
    expect(await asks.allTextContents()).toEqual(['2.520']);
    await shoot(page, 'explorer-order-book');
  });

  it('funds a key made in the page and sends a payment it signs', async () => {
    await page.goto(`${network.url}/explorer/send`);
    await page.click('#generate');
    const address = (await page.locator('#public-key').textContent()) ?? '';
    expect(address).toMatch(/^G[A-Z2-7]{55}$/);
    const stopClosing = network.closeWhileWaiting();
    try {
      await page.click('#fund');
      await page.locator('#funded').waitFor({ timeout: 20_000 });
      await page.fill('input[name=destination]', bob.publicKey());
      await page.fill('input[name=amount]', '7.25');
      await page.fill('input[name=memo]', 'signed in the page');
      await page.click('form.payment button[type=submit]');
      await page.locator('#sent').waitFor({ timeout: 20_000 });
    } finally {
      await stopClosing();
    }
    await shoot(page, 'explorer-send');
    const hash = (await page.locator('#sent a').first().getAttribute('href'))!.split('/').pop()!;
    const tx = (await (await fetch(`${network.url}/transactions/${hash}`)).json()) as Record<string, unknown>;
    expect(tx).toMatchObject({ successful: true, source_account: address, memo: 'signed in the page' });
    const payments = (await (await fetch(`${network.url}/transactions/${hash}/payments`)).json()) as {
      _embedded: { records: Record<string, unknown>[] };
    };
    expect(payments._embedded.records).toEqual([
      expect.objectContaining({ to: bob.publicKey(), amount: '7.2500000', asset_type: 'native' }),
    ]);
  });

  it('logged no console error and reached nothing outside this machine', () => {
    expect(driven.errors).toEqual([]);
    expect(driven.outsideRequests).toEqual([]);
  });
});
