// Horizon's smaller behaviours over the seeded history: the root document's `_links` (Horizon's
// templates, in its order), `Cache-Control` on every REST answer, `Latest-Ledger` on the state
// routes only, `cursor=now` on every list, a stream on every route Horizon streams (one start of
// each), and /paths as Horizon's router serves it (strict receive, from source_assets or
// source_account).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../../src/api/rest/routes.js';
import { afterLedger, toid } from '../../../src/stellar/toid.js';
import { serveTestApi, type TestApi } from '../../support/api_server.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { readStreamStart } from '../../support/sse.js';
import { ALICE, BOB, ISSUER, seedScenario, type Scenario } from '../../support/seed.js';

let test: TestDatabase;
let api: TestApi;
let base: string;
let scenario: Scenario;

// biome-ignore lint/suspicious/noExplicitAny: the tests read deep paths of answers they just checked
type Json = Record<string, any>;

beforeAll(async () => {
  test = await createTestDatabase();
  scenario = await seedScenario(test.db);
  // the ingester's cursor, one ledger ahead of nothing in particular: Latest-Ledger reads it
  await test.db.prisma.ingestCursor.create({ data: { id: 1, ledgerSequence: 3, ledgerHash: 'c'.repeat(64) } });
  api = await serveTestApi(test);
  base = api.base;
});

afterAll(async () => {
  api.server.closeAllConnections();
  await api.close();
  await test.drop();
});

async function get(path: string, status = 200): Promise<{ body: Json; headers: Headers }> {
  const response = await fetch(base + path);
  expect(response.status, path).toBe(status);
  return { body: (await response.json()) as Json, headers: response.headers };
}

const records = (page: Json): Json[] => page._embedded.records as Json[];

/** the first `events` events of a stream (the open event counts), then the client leaves */
const streamStart = (path: string, events: number) => readStreamStart(base + path, events);

describe('the root document', () => {
  it("links Horizon's templates in Horizon's order, then GraphQL", async () => {
    const { body } = await get('/');
    // Horizon's resourceadapter/root.go and actions_root_test.go, all of it
    const horizon: Json = {
      account: { href: `${base}/accounts/{account_id}`, templated: true },
      accounts: { href: `${base}/accounts{?signer,sponsor,asset,liquidity_pool,cursor,limit,order}`, templated: true },
      account_transactions: { href: `${base}/accounts/{account_id}/transactions{?cursor,limit,order}`, templated: true },
      claimable_balances: { href: `${base}/claimable_balances{?asset,sponsor,claimant,cursor,limit,order}`, templated: true },
      assets: { href: `${base}/assets{?asset_code,asset_issuer,cursor,limit,order}`, templated: true },
      effects: { href: `${base}/effects{?cursor,limit,order}`, templated: true },
      fee_stats: { href: `${base}/fee_stats` },
      ledger: { href: `${base}/ledgers/{sequence}`, templated: true },
      ledgers: { href: `${base}/ledgers{?cursor,limit,order}`, templated: true },
      liquidity_pools: { href: `${base}/liquidity_pools{?reserves,account,cursor,limit,order}`, templated: true },
      offer: { href: `${base}/offers/{offer_id}`, templated: true },
      offers: { href: `${base}/offers{?selling,buying,seller,sponsor,cursor,limit,order}`, templated: true },
      operation: { href: `${base}/operations/{id}`, templated: true },
      operations: { href: `${base}/operations{?cursor,limit,order,include_failed}`, templated: true },
      order_book: {
        href: `${base}/order_book{?selling_asset_type,selling_asset_code,selling_asset_issuer,buying_asset_type,buying_asset_code,buying_asset_issuer,limit}`,
        templated: true,
      },
      payments: { href: `${base}/payments{?cursor,limit,order,include_failed}`, templated: true },
      self: { href: `${base}/` },
      strict_receive_paths: {
        href: `${base}/paths/strict-receive{?source_assets,source_account,destination_account,destination_asset_type,destination_asset_issuer,destination_asset_code,destination_amount}`,
        templated: true,
      },
      strict_send_paths: {
        href: `${base}/paths/strict-send{?destination_account,destination_assets,source_asset_type,source_asset_issuer,source_asset_code,source_amount}`,
        templated: true,
      },
      trade_aggregations: {
        href: `${base}/trade_aggregations?base_asset_type={base_asset_type}&base_asset_code={base_asset_code}&base_asset_issuer={base_asset_issuer}&counter_asset_type={counter_asset_type}&counter_asset_code={counter_asset_code}&counter_asset_issuer={counter_asset_issuer}`,
        templated: true,
      },
      trades: {
        href: `${base}/trades?base_asset_type={base_asset_type}&base_asset_code={base_asset_code}&base_asset_issuer={base_asset_issuer}&counter_asset_type={counter_asset_type}&counter_asset_code={counter_asset_code}&counter_asset_issuer={counter_asset_issuer}`,
        templated: true,
      },
      transaction: { href: `${base}/transactions/{hash}`, templated: true },
      transactions: { href: `${base}/transactions{?cursor,limit,order}`, templated: true },
    };
    // these five come with their routes (the lists of accounts, assets, claimable balances,
    // liquidity pools and offers): each is Horizon's once it is there
    const withTheirRoutes = ['accounts', 'claimable_balances', 'assets', 'liquidity_pools', 'offers'];
    const expected: Json = { graphql: { href: `${base}/graphql` } };
    for (const [name, value] of Object.entries(horizon)) {
      if (!withTheirRoutes.includes(name) || name in body._links) expected[name] = value;
    }
    expect(body._links).toEqual(expected);
    // in Horizon's order, then GraphQL's
    expect(Object.keys(body._links)).toEqual([...Object.keys(horizon).filter((name) => name in expected), 'graphql']);
  });
});

describe('Cache-Control', () => {
  it("is Horizon's no-cache, no-store, max-age=0 on resources, pages and problems; a stream says no-cache", async () => {
    for (const [path, status] of [
      ['/', 200],
      [`/accounts/${BOB}`, 200],
      ['/ledgers', 200],
      ['/ledgers/99', 404],
      ['/ledgers/x', 400],
      ['/nowhere', 404],
      ['/health', 503],
    ] as const) {
      const response = await fetch(base + path);
      expect(response.status, path).toBe(status);
      expect(response.headers.get('cache-control'), path).toBe('no-cache, no-store, max-age=0');
      await response.arrayBuffer();
    }
    const controller = new AbortController();
    const stream = await fetch(`${base}/ledgers`, { headers: { Accept: 'text/event-stream' }, signal: controller.signal });
    expect(stream.headers.get('cache-control')).toBe('no-cache');
    controller.abort();
  });

  it('lets a browser read Latest-Ledger, as Horizon exposes it', async () => {
    const response = await fetch(`${base}/`);
    expect(response.headers.get('access-control-expose-headers')?.split(', ')).toEqual(expect.arrayContaining(['Date', 'Latest-Ledger']));
    await response.arrayBuffer();
  });
});

describe('Latest-Ledger', () => {
  it("is the last ingested ledger on the state routes (Horizon's stateMiddleware), their 4xx answers too", async () => {
    const USD = `destination_asset_type=credit_alphanum4&destination_asset_code=USD&destination_asset_issuer=${ISSUER}`;
    for (const [path, status] of [
      [`/accounts/${BOB}`, 200],
      [`/accounts/${ALICE.replace('A', 'B')}`, 400],
      [`/accounts/${BOB}/data/helloWorld`, 200],
      [`/accounts/${BOB}/data/nothing`, 404],
      [`/accounts/${BOB}/offers`, 200],
      ['/offers/7', 200],
      ['/offers/70', 404],
      [`/order_book?selling_asset_type=native&buying_asset_type=credit_alphanum4&buying_asset_code=USD&buying_asset_issuer=${ISSUER}`, 200],
      [`/paths/strict-receive?${USD}&destination_amount=0.5&source_assets=native`, 200],
      [`/paths?${USD}&destination_amount=0.5&source_assets=native`, 200],
      [`/paths/strict-send?source_asset_type=native&source_amount=0.1&destination_assets=USD:${ISSUER}`, 200],
    ] as const) {
      const { headers } = await get(path, status);
      expect(headers.get('latest-ledger'), path).toBe('3');
    }
  });

  it('is not on history, the root or other answers, nor on a stream', async () => {
    for (const path of ['/', '/ledgers', `/accounts/${BOB}/payments`, `/transactions/${scenario.hashes[3]![0]}`, '/fee_stats']) {
      const { headers } = await get(path);
      expect(headers.get('latest-ledger'), path).toBeNull();
    }
    const controller = new AbortController();
    const stream = await fetch(`${base}/accounts/${BOB}`, { headers: { Accept: 'text/event-stream' }, signal: controller.signal });
    expect(stream.headers.get('latest-ledger')).toBeNull();
    controller.abort();
  });

  it('follows the ingester after the ledger signal', async () => {
    await test.db.prisma.ingestCursor.update({ where: { id: 1 }, data: { ledgerSequence: 4 } });
    await api.events.publish(4);
    expect((await get(`/accounts/${BOB}`)).headers.get('latest-ledger')).toBe('4');
    await test.db.prisma.ingestCursor.update({ where: { id: 1 }, data: { ledgerSequence: 3 } });
    await api.events.publish(3);
    expect((await get(`/accounts/${BOB}`)).headers.get('latest-ledger')).toBe('3');
  });
});

describe('cursor=now', () => {
  // Horizon's getCursor: toid.AfterLedger of the history's newest ledger (3 here)
  const now = afterLedger(3).toString();

  it('is after the newest ledger: an ascending page is empty and its links carry that cursor', async () => {
    expect(now).toBe(String((3n << 32n) | (0xfffffn << 12n) | 0xfffn));
    for (const path of ['/ledgers', '/transactions', '/operations', '/payments', '/effects', '/trades', `/accounts/${BOB}/payments`]) {
      const { body } = await get(`${path}?cursor=now`);
      expect(records(body), path).toEqual([]);
      expect(body._links.self.href, path).toBe(`${base}${path}?cursor=${now}&limit=10&order=asc`);
      expect(body._links.next.href, path).toBe(`${base}${path}?cursor=${now}&limit=10&order=asc`);
    }
  });

  it('starts a descending page at the newest record', async () => {
    const ledgers = await get('/ledgers?cursor=now&order=desc&limit=1');
    expect(records(ledgers.body).map((ledger) => ledger.sequence)).toEqual([3]);
    const transactions = await get('/transactions?cursor=now&order=desc');
    expect(records(transactions.body).map((tx) => tx.hash)).toEqual(
      (await get('/transactions?order=desc')).body._embedded.records.map((tx: Json) => tx.hash),
    );
    const effects = await get('/effects?cursor=now&order=desc&limit=2');
    expect(records(effects.body).map((effect) => effect.paging_token)).toEqual(
      records((await get('/effects?order=desc&limit=2')).body).map((effect) => effect.paging_token),
    );
    const trades = await get('/trades?cursor=now&order=desc');
    expect(records(trades.body).map((trade) => trade.paging_token)).toEqual([`${toid(3, 1, 1)}-0`]);
  });

  it('is GraphQL\'s after: "now" too, on every list', async () => {
    const query = `{
      asc: ledgers(after: "now") { edges { node { sequence } } }
      newest: ledgers(after: "now", order: desc, first: 1) { edges { node { sequence } } }
      transactions(after: "now", order: desc, first: 1) { edges { cursor } }
      effects(after: "now", order: desc, first: 1) { edges { cursor } }
      trades(after: "now", order: desc) { edges { cursor } }
      account(id: "${BOB}") { offers(after: "now", order: desc) { edges { cursor } } }
      none: operations(after: "now") { edges { cursor } }
    }`;
    const response = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    const { data, errors } = (await response.json()) as Json;
    expect(errors).toBeUndefined();
    expect(data.asc.edges).toEqual([]);
    expect(data.newest.edges).toEqual([{ node: { sequence: 3 } }]);
    expect(data.transactions.edges).toEqual([{ cursor: records((await get('/transactions?order=desc&limit=1')).body)[0]!.paging_token }]);
    expect(data.effects.edges).toEqual([{ cursor: records((await get('/effects?order=desc&limit=1')).body)[0]!.paging_token }]);
    expect(data.trades.edges).toEqual([{ cursor: `${toid(3, 1, 1)}-0` }]);
    expect(data.account.offers.edges).toEqual([{ cursor: '7' }]);
    expect(data.none.edges).toEqual([]);
  });

  it('still refuses any other word as a cursor, naming it', async () => {
    expect((await get('/ledgers?cursor=later', 400)).body.extras.invalid_field).toBe('cursor');
    expect((await get('/effects?cursor=NOW', 400)).body.extras.invalid_field).toBe('cursor');
  });
});

describe('streams', () => {
  /** the seeded value of each path parameter */
  const values = (): Record<string, string> => ({
    account_id: BOB,
    tx_id: scenario.hashes[3]![2]!,
    ledger_id: '3',
    op_id: toid(3, 3, 1).toString(),
    offer_id: '7',
    key: 'helloWorld',
  });
  const fill = (path: string) => path.replace(/:(\w+)/g, (_all, name: string) => values()[name] ?? name);
  /** the routes whose parameters have a seeded value here (a route added later needs one above) */
  const seeded = (path: string) => [...path.matchAll(/:(\w+)/g)].every(([, name]) => name! in values());

  it('every history list Horizon streams has a stream', () => {
    const pages = routes.filter((route) => route.kind === 'page');
    // Horizon's state lists served by restPageHandler (router.go) have none
    expect(pages.filter((route) => !route.stream).map((route) => route.path)).toEqual([
      '/accounts',
      '/assets',
      '/claimable_balances',
      '/liquidity_pools',
    ]);
    // and the objects Horizon streams (streamableObjectActionHandler)
    const objects = routes.filter((route) => route.kind === 'resource' && route.stream).map((route) => route.path);
    expect(objects).toEqual(expect.arrayContaining(['/accounts/:account_id', '/accounts/:account_id/data/:key', '/order_book']));
  });

  it('each page route streams from the start: hello, then its first record as its page renders it', async () => {
    const pages = routes.filter((candidate) => candidate.kind === 'page' && candidate.stream && seeded(candidate.path));
    // every list of the history, the account's, the ledger's, the transaction's, the operation's, the offer's
    expect(pages.length).toBeGreaterThanOrEqual(21);
    for (const route of pages) {
      const path = fill(route.path);
      const first = records((await get(`${path}?limit=1`)).body)[0];
      const start = await streamStart(path, first ? 2 : 1);
      expect(start.status, path).toBe(200);
      expect(start.type, path).toBe('text/event-stream; charset=utf-8');
      expect(start.events[0], path).toBe('retry: 1000\nevent: open\ndata: "hello"');
      if (first) expect(start.events[1], path).toBe(`id: ${first.paging_token}\ndata: ${JSON.stringify(first)}`);
    }
  });

  it('an account and a data entry stream as their resource', async () => {
    for (const path of [`/accounts/${BOB}`, `/accounts/${BOB}/data/helloWorld`]) {
      const { body } = await get(path);
      const start = await streamStart(path, 2);
      expect(start.events[1], path).toBe(`data: ${JSON.stringify(body)}`);
    }
    // a missing one is the 404 before a stream opens
    const response = await fetch(`${base}/accounts/${BOB}/data/nothing`, { headers: { Accept: 'text/event-stream' } });
    expect(response.status).toBe(404);
    await response.arrayBuffer();
  });
});

describe('GET /paths', () => {
  const TO_USD = `destination_asset_type=credit_alphanum4&destination_asset_code=USD&destination_asset_issuer=${ISSUER}`;

  it("is strict receive (Horizon's router gives both one handler): from source_assets or source_account", async () => {
    for (const source of ['source_assets=native', `source_account=${ALICE}`]) {
      const legacy = await get(`/paths?${TO_USD}&destination_amount=0.5&${source}`);
      const strict = await get(`/paths/strict-receive?${TO_USD}&destination_amount=0.5&${source}`);
      expect(records(legacy.body)).toEqual(records(strict.body));
      expect(records(legacy.body)).toMatchObject([{ source_asset_type: 'native', source_amount: '0.2500000' }]);
      expect(legacy.body._links.self.href).toBe(`${base}/paths?${TO_USD}&destination_amount=0.5&${source}`);
    }
  });

  it('needs exactly one of source_assets and source_account, and names a bad one', async () => {
    const both = await get(`/paths?${TO_USD}&destination_amount=0.5&source_assets=native&source_account=${ALICE}`, 400);
    expect(both.body.extras.invalid_field).toBe('source_assets');
    expect((await get(`/paths?${TO_USD}&destination_amount=0.5`, 400)).body.extras.invalid_field).toBe('source_account');
    expect((await get(`/paths?${TO_USD}&destination_amount=0.5&source_assets=XYZ`, 400)).body.extras.invalid_field).toBe('source_assets');
    expect((await get(`/paths?${TO_USD}&destination_amount=0.5&source_account=GABC`, 400)).body.extras.invalid_field).toBe(
      'source_account',
    );
  });
});
