// The public surface, frozen: every REST route's answers (bodies and statuses, on seeded rows and on
// real testnet ledgers 997–999), the first events of streams, a few GraphQL answers and errors, and
// every command's --help. A refactoring must leave all of it byte for byte as it was; a deliberate
// change rewrites the golden file with `UPDATE_SURFACE=1 npx vitest run test/api/surface.db.test.ts`
// and shows up in review as a diff of test/api/surface.golden.json.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { Asset } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../src/api/rest/routes.js';
import { commands } from '../../src/cli/commands/index.js';
import { commandUsage, programUsage } from '../../src/cli/usage.js';
import { datastoreSource, startIngester } from '../../src/ingest/index.js';
import { toid } from '../../src/stellar/toid.js';
import { serveTestApi, type TestApi } from '../support/api_server.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { readStreamStart } from '../support/sse.js';
import { ALICE, BOB, ISSUER, seedScenario, type Scenario } from '../support/seed.js';
import { balanceId, linkHistory, seedClaimableBalance, seedPool } from '../support/seed_balances_pools.js';
import { TESTNET_DATASTORE, TESTNET_PASSPHRASE } from '../ingest/support/fixtures.js';

const GOLDEN = new URL('./surface.golden.json', import.meta.url);
const update = process.env.UPDATE_SURFACE === '1';

type Api = TestApi & { db: TestDatabase };

async function serve(db: TestDatabase, passphrase: string): Promise<Api> {
  return { db, ...(await serveTestApi(db, passphrase)) };
}

/** long values (XDR, hashes of big bodies) as a short digest, so the golden file stays readable */
function normalize(value: unknown, origin: string): unknown {
  if (typeof value === 'string') {
    const text = value.split(origin).join('{origin}');
    return text.length > 160 ? `sha256:${createHash('sha256').update(text).digest('hex').slice(0, 24)}` : text;
  }
  if (Array.isArray(value)) return value.map((item) => normalize(item, origin));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, normalize(item, origin)]));
  }
  return value;
}

interface Answer {
  status: number;
  type: string | null;
  body: unknown;
}

async function request(api: Api, path: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(api.base + path, init);
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text) as unknown;
  } catch {
    // a text answer stays text
  }
  return { status: response.status, type: response.headers.get('content-type'), body: normalize(body, api.base) };
}

/** the events a stream sends before it has nothing more to say (it is then closed by the client) */
async function streamStart(api: Api, path: string, events: number): Promise<Answer> {
  const start = await readStreamStart(api.base + path, events);
  const chunks = start.events.map((chunk) => {
    const data = /^data: (.*)$/m.exec(chunk)?.[1];
    const rest = chunk.replace(/^data: .*$/m, '').trim();
    return { lines: rest, data: data === undefined ? null : normalize(JSON.parse(data) as unknown, api.base) };
  });
  return { status: start.status, type: start.type, body: chunks };
}

async function graphql(api: Api, query: string, variables: Record<string, unknown> = {}): Promise<Answer> {
  return request(api, '/graphql', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
}

const surface: Record<string, unknown> = {};
const covered = new Set<string>();

/** records the answers under `name`; `route` is the route-table path the request exercises */
function record(name: string, answer: Answer, route?: string): void {
  if (route) covered.add(route);
  surface[name] = answer;
}

let seeded: Api;
let testnet: Api;
let scenario: Scenario;
const BALANCE = balanceId(1);
let pool: string;

beforeAll(async () => {
  const seedDb = await createTestDatabase();
  scenario = await seedScenario(seedDb.db);
  // a claimable balance and a pool, touched by Bob's change_trust
  await seedClaimableBalance(seedDb.db, { id: BALANCE, account: BOB, ledger: 3, asset: `USD:${ISSUER}` });
  pool = await seedPool(seedDb.db, Asset.native(), 100n, new Asset('USD', ISSUER), 200n);
  await linkHistory(seedDb.db, {
    operationId: toid(3, 3, 1),
    transactionId: toid(3, 3, 0),
    claimableBalanceId: BALANCE,
    liquidityPoolId: pool,
  });
  seeded = await serve(seedDb, 'test');

  const testnetDb = await createTestDatabase();
  const ingester = await startIngester({
    db: testnetDb.db,
    source: datastoreSource(TESTNET_DATASTORE),
    networkPassphrase: TESTNET_PASSPHRASE,
  });
  if ((await ingester.done) !== null) throw new Error('the testnet datastore was not ingested');
  testnet = await serve(testnetDb, TESTNET_PASSPHRASE);
}, 120_000);

afterAll(async () => {
  for (const api of [seeded, testnet]) {
    if (!api) continue;
    api.server.closeAllConnections();
    await api.close();
    await api.db.drop();
  }
});

describe('the public surface', () => {
  it('REST on seeded rows: resources, pages, market data and errors', async () => {
    const tx = scenario.hashes[3]![0]!;
    const op = toid(3, 1, 1).toString();
    const paths: [string, string][] = [
      ['/', '/'],
      [`/accounts/${BOB}`, '/accounts/:account_id'],
      [`/accounts/${BOB}/data/helloWorld`, '/accounts/:account_id/data/:key'],
      [`/accounts/${ALICE}/transactions?include_failed=true`, '/accounts/:account_id/transactions'],
      [`/accounts/${ALICE}/operations?order=desc&limit=1`, '/accounts/:account_id/operations'],
      [`/accounts/${BOB}/payments`, '/accounts/:account_id/payments'],
      [`/accounts/${BOB}/effects`, '/accounts/:account_id/effects'],
      [`/accounts/${BOB}/offers`, '/accounts/:account_id/offers'],
      [`/accounts/${BOB}/trades`, '/accounts/:account_id/trades'],
      ['/transactions?include_failed=true&limit=2', '/transactions'],
      [`/transactions/${tx}`, '/transactions/:tx_id'],
      [`/transactions/${tx}/operations`, '/transactions/:tx_id/operations'],
      [`/transactions/${tx}/payments`, '/transactions/:tx_id/payments'],
      [`/transactions/${tx}/effects`, '/transactions/:tx_id/effects'],
      ['/ledgers', '/ledgers'],
      ['/ledgers/3', '/ledgers/:ledger_id'],
      ['/ledgers/3/transactions?include_failed=true', '/ledgers/:ledger_id/transactions'],
      ['/ledgers/3/operations', '/ledgers/:ledger_id/operations'],
      ['/ledgers/3/payments?order=desc', '/ledgers/:ledger_id/payments'],
      ['/ledgers/3/effects', '/ledgers/:ledger_id/effects'],
      ['/operations?include_failed=true', '/operations'],
      [`/operations/${op}`, '/operations/:op_id'],
      [`/operations/${op}/effects`, '/operations/:op_id/effects'],
      ['/payments?cursor=0&limit=3', '/payments'],
      ['/effects?order=desc', '/effects'],
      [`/offers?selling_asset_type=credit_alphanum4&selling_asset_code=USD&selling_asset_issuer=${ISSUER}`, '/offers'],
      [`/offers?seller=${ALICE}`, ''],
      [`/accounts?signer=${ALICE}`, '/accounts'],
      [`/accounts?asset=USD:${ISSUER}`, ''],
      [`/accounts?signer=${ALICE}&sponsor=${BOB}`, ''],
      ['/offers/7', '/offers/:offer_id'],
      ['/offers/7/trades', '/offers/:offer_id/trades'],
      ['/trades', '/trades'],
      ['/trades?trade_type=liquidity_pool', ''],
      ['/assets?asset_code=USD', '/assets'],
      [`/trades?base_asset_type=credit_alphanum4&base_asset_code=USD&base_asset_issuer=${ISSUER}&counter_asset_type=native`, ''],
      [`/liquidity_pools/${'ab'.repeat(32)}/trades`, '/liquidity_pools/:liquidity_pool_id/trades'],
      ['/operations?join=transactions&limit=1', ''],
      ['/fee_stats', '/fee_stats'],
      ['/operation_fee_stats', '/operation_fee_stats'],
      [
        `/order_book?selling_asset_type=credit_alphanum4&selling_asset_code=USD&selling_asset_issuer=${ISSUER}&buying_asset_type=native`,
        '/order_book',
      ],
      [
        `/trade_aggregations?base_asset_type=credit_alphanum4&base_asset_code=USD&base_asset_issuer=${ISSUER}&counter_asset_type=native&resolution=60000&start_time=0&end_time=1900000000000`,
        '/trade_aggregations',
      ],
      [
        `/paths?source_account=${ALICE}&destination_asset_type=credit_alphanum4&destination_asset_code=USD&destination_asset_issuer=${ISSUER}&destination_amount=1`,
        '/paths',
      ],
      [
        `/paths/strict-receive?source_assets=native&destination_asset_type=credit_alphanum4&destination_asset_code=USD&destination_asset_issuer=${ISSUER}&destination_amount=1`,
        '/paths/strict-receive',
      ],
      [`/paths/strict-send?source_asset_type=native&source_amount=1&destination_assets=USD:${ISSUER}`, '/paths/strict-send'],
      [`/claimable_balances?claimant=${BOB}`, '/claimable_balances'],
      [`/claimable_balances/${BALANCE}`, '/claimable_balances/:claimable_balance_id'],
      [`/claimable_balances/${BALANCE}/transactions`, '/claimable_balances/:claimable_balance_id/transactions'],
      [`/claimable_balances/${BALANCE}/operations`, '/claimable_balances/:claimable_balance_id/operations'],
      ['/liquidity_pools?reserves=native', '/liquidity_pools'],
      [`/liquidity_pools/${pool}`, '/liquidity_pools/:liquidity_pool_id'],
      [`/liquidity_pools/${pool}/transactions`, '/liquidity_pools/:liquidity_pool_id/transactions'],
      [`/liquidity_pools/${pool}/operations`, '/liquidity_pools/:liquidity_pool_id/operations'],
      [`/liquidity_pools/${pool}/effects`, '/liquidity_pools/:liquidity_pool_id/effects'],
      // errors
      ['/claimable_balances/0000001112122', ''],
      ['/liquidity_pools?reserves=native,native,native', ''],
      ['/accounts/GBAD', ''],
      [`/accounts/${ISSUER.replace('A', 'B')}`, ''],
      [`/accounts/${ALICE}/data/missing`, ''],
      ['/ledgers/abc', ''],
      ['/ledgers/4294967296', ''],
      ['/ledgers/99', ''],
      ['/transactions/xyz', ''],
      ['/operations/-1', ''],
      ['/transactions?limit=0', ''],
      ['/transactions?limit=201', ''],
      ['/transactions?order=sideways', ''],
      ['/transactions?cursor=abc', ''],
      ['/effects?cursor=1-2-3', ''],
      ['/transactions?include_failed=maybe', ''],
      ['/order_book?selling_asset_type=native', ''],
      ['/trade_aggregations?resolution=7', ''],
      ['/trades?trade_type=pools', ''],
      ['/assets?asset_issuer=GBAD', ''],
      ['/trades?base_asset_type=native', ''],
      ['/liquidity_pools/xyz/trades', ''],
      ['/operations?join=accounts', ''],
      ['/paths/strict-send?source_asset_type=native', ''],
      ['/no/such/route', ''],
    ];
    for (const [path, route] of paths) record(`seeded GET ${path}`, await request(seeded, path), route || undefined);
    // the metrics' values are timings: only their names are surface
    const metrics = await request(seeded, '/metrics');
    record('seeded GET /metrics (names)', { ...metrics, body: Object.keys(metrics.body as object).sort() });
    record('seeded POST /ledgers', await request(seeded, '/ledgers', { method: 'POST' }));
    record('seeded POST /transactions without a core', await request(seeded, '/transactions', { method: 'POST', body: 'tx=AAAA' }));
  });

  it('REST on testnet ledgers 997–999: every ledger, transaction, operation and account involved', async () => {
    const db = testnet.db.db.prisma;
    const ledgers = await db.ledger.findMany({ orderBy: { sequence: 'asc' } });
    const transactions = await db.transaction.findMany({ orderBy: { id: 'asc' }, select: { hash: true } });
    const operations = await db.operation.findMany({ orderBy: { id: 'asc' }, select: { id: true } });
    const accounts = await db.account.findMany({ orderBy: { id: 'asc' }, select: { id: true } });
    const get = async (path: string) => record(`testnet GET ${path}`, await request(testnet, path));
    for (const list of ['/ledgers', '/transactions', '/operations', '/payments', '/effects']) {
      await get(`${list}?limit=200&include_failed=true`);
      await get(`${list}?limit=200&order=desc`);
    }
    for (const { sequence } of ledgers) {
      await get(`/ledgers/${sequence}`);
      for (const list of ['transactions', 'operations', 'payments', 'effects'])
        await get(`/ledgers/${sequence}/${list}?limit=200&include_failed=true`);
    }
    for (const { hash } of transactions) {
      await get(`/transactions/${hash}`);
      for (const list of ['operations', 'payments', 'effects']) await get(`/transactions/${hash}/${list}?limit=200&include_failed=true`);
    }
    for (const { id } of operations) {
      await get(`/operations/${id}`);
      await get(`/operations/${id}/effects?limit=200`);
    }
    for (const { id } of accounts) {
      await get(`/accounts/${id}`);
      for (const list of ['transactions', 'operations', 'payments', 'effects', 'offers', 'trades'])
        await get(`/accounts/${id}/${list}?limit=200&include_failed=true`);
    }
    await get('/fee_stats');
  });

  it('streams: the first events of a page stream, a stream from a cursor and the order book', async () => {
    record('seeded STREAM /ledgers', await streamStart(seeded, '/ledgers?cursor=0', 3));
    record('seeded STREAM /accounts/{bob}/payments', await streamStart(seeded, `/accounts/${BOB}/payments`, 2));
    record('seeded STREAM /effects from a cursor', await streamStart(seeded, `/effects?cursor=${toid(3, 1, 1)}-1`, 3));
    record('seeded STREAM /transactions?cursor=now', await streamStart(seeded, '/transactions?cursor=now', 1));
    record(
      'seeded STREAM /order_book',
      await streamStart(
        seeded,
        `/order_book?selling_asset_type=credit_alphanum4&selling_asset_code=USD&selling_asset_issuer=${ISSUER}&buying_asset_type=native`,
        2,
      ),
    );
    record(
      'seeded STREAM /ledgers with a bad cursor',
      await request(seeded, '/ledgers?cursor=xyz', { headers: { Accept: 'text/event-stream' } }),
    );
  });

  it('GraphQL: an account with its payments and their transactions, lists, market data and coded errors', async () => {
    const queries: [string, string, Record<string, unknown>?][] = [
      [
        'account with payments',
        `query($id: String!) { account(id: $id) { accountId sequence balances { balance assetType assetCode } signers { key weight type }
           payments(first: 5) { edges { cursor node { id pagingToken type transaction { hash ledger { sequence closedAt } } } } pageInfo { hasNextPage endCursor } } } }`,
        { id: ALICE },
      ],
      [
        'ledgers backwards',
        '{ ledgers(last: 2, order: desc) { edges { cursor node { sequence hash operationCount } } pageInfo { hasPreviousPage hasNextPage } } }',
      ],
      [
        'effects of an account',
        `{ effects(forAccount: "${BOB}") { edges { node { __typename type accountId ... on AccountCreditedEffect { amount } operation { id type } } } } }`,
      ],
      ['fee stats', '{ feeStats { lastLedger lastLedgerBaseFee ledgerCapacityUsage } }'],
      ['a bad cursor', '{ transactions(after: "zzz") { edges { cursor } } }'],
      ['a bad account id', '{ account(id: "GBAD") { accountId } }'],
      ['too large a page', '{ operations(first: 500) { edges { cursor } } }'],
      ['a syntax error', '{ ledgers('],
    ];
    for (const [name, query, variables] of queries) record(`seeded GraphQL ${name}`, await graphql(seeded, query, variables));
  });

  it('the command line: every command and its options', () => {
    surface['cli zenith --help'] = programUsage(commands);
    for (const command of commands) surface[`cli zenith ${command.words.join(' ')} --help`] = commandUsage(command);
  });

  it('covers every route of the route table and matches the golden file', () => {
    expect(routes.map((route) => route.path).filter((path) => !covered.has(path))).toEqual([]);
    const text = `${JSON.stringify(surface, null, 1)}\n`;
    if (update) writeFileSync(GOLDEN, text);
    expect(existsSync(GOLDEN), 'test/api/surface.golden.json exists').toBe(true);
    const golden = JSON.parse(readFileSync(GOLDEN, 'utf8')) as Record<string, unknown>;
    expect(Object.keys(surface)).toEqual(Object.keys(golden));
    // compared as text: key order is part of the surface (toEqual would ignore it)
    for (const [name, answer] of Object.entries(surface))
      expect(JSON.stringify(answer, null, 1), name).toBe(JSON.stringify(golden[name], null, 1));
  });
});
