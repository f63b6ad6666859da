// Horizon's REST routes over the seeded history: resources rendered from their GraphQL types with
// Horizon's ids and links, pages with self/next/prev, include_failed, and the spec's errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toid } from '../../../src/stellar/toid.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { ALICE, BOB, ISSUER, ROOT, seedScenario, type Scenario } from '../../support/seed.js';
import { serveTestApi, type TestApi, getJson } from '../../support/api_server.js';

let test: TestDatabase;
let api: TestApi;
let base: string;
let scenario: Scenario;
let events: TestApi['events'];

// response bodies, read loosely
// biome-ignore lint/suspicious/noExplicitAny: the tests read deep paths of answers they just checked
type Json = Record<string, any>;

beforeAll(async () => {
  test = await createTestDatabase();
  scenario = await seedScenario(test.db);
  api = await serveTestApi(test);
  ({ base, events } = api);
});

afterAll(async () => {
  await api.close();
  await test.drop();
});

const get = (path: string, status = 200): Promise<Json> => getJson(base, path, status);

const records = (page: Json): Json[] => page._embedded.records as Json[];

describe('GET /accounts/{id}', () => {
  it('renders balances (authorized trust lines, then lumens), signers with the master key, data, thresholds, flags', async () => {
    const bob = await get(`/accounts/${BOB}`);
    expect(bob).toMatchObject({
      id: BOB,
      account_id: BOB,
      paging_token: BOB,
      sequence: '8589934593',
      subentry_count: 0,
      thresholds: { low_threshold: 0, med_threshold: 0, high_threshold: 0 },
      flags: { auth_required: false, auth_revocable: false, auth_immutable: false, auth_clawback_enabled: false },
      data: { helloWorld: 'd29ybGQ=' },
      _links: {
        self: { href: `${base}/accounts/${BOB}` },
        payments: { href: `${base}/accounts/${BOB}/payments{?cursor,limit,order}`, templated: true },
      },
    });
    expect(bob.balances).toEqual([
      {
        balance: '0.0000000',
        limit: '922337203685.4775807',
        buying_liabilities: '0.0000000',
        selling_liabilities: '0.0000000',
        last_modified_ledger: 3,
        is_authorized: true,
        is_authorized_to_maintain_liabilities: true,
        is_clawback_enabled: false,
        asset_type: 'credit_alphanum4',
        asset_code: 'USD',
        asset_issuer: ISSUER,
      },
      { balance: '104.9999800', buying_liabilities: '0.0000000', selling_liabilities: '0.0000000', asset_type: 'native' },
    ]);
    expect(bob.signers).toEqual([
      { key: ALICE, public_key: ALICE, weight: 1, type: 'ed25519_public_key' },
      { key: BOB, public_key: BOB, weight: 2, type: 'ed25519_public_key' },
    ]);
    expect(bob).not.toHaveProperty('accountId');
  });

  it('serves one data entry at the account’s templated data link', async () => {
    const bob = await get(`/accounts/${BOB}`);
    expect(bob._links.data).toEqual({ href: `${base}/accounts/${BOB}/data/{key}`, templated: true });
    // Horizon's accountDataResponse: the value (and a sponsor, when there is one) only
    expect(await get(`/accounts/${BOB}/data/helloWorld`)).toEqual({ value: 'd29ybGQ=' });
    await get(`/accounts/${BOB}/data/nothing`, 404);
    expect(await get(`/accounts/${BOB}/data/${'k'.repeat(65)}`, 400)).toMatchObject({ extras: { invalid_field: 'key' } });
  });

  it('leaves out a trust line that is not authorized', async () => {
    const alice = await get(`/accounts/${ALICE}`);
    expect(alice.balances.map((b: Json) => b.asset_type)).toEqual(['native']);
    expect((await get(`/accounts/${ISSUER}`)).flags.auth_required).toBe(true);
  });

  it('answers 404 for an unknown account and 400 for a malformed id', async () => {
    const missing = await get('/accounts/GDRXE2BQUC3AZNPVFSCEZ76NJ3WWL25FYFK6RGZGIEKWE4SOOHSUJUJ6', 404);
    expect(missing).toMatchObject({ type: 'https://stellar.org/horizon-errors/not_found', status: 404 });
    const bad = await get('/accounts/nope', 400);
    expect(bad).toMatchObject({ type: 'https://stellar.org/horizon-errors/bad_request', extras: { invalid_field: 'account_id' } });
    await get('/accounts/GDRXE2BQUC3AZNPVFSCEZ76NJ3WWL25FYFK6RGZGIEKWE4SOOHSUJUJ6/operations', 404);
    // history outlives an account (merge): these list it, here nothing, rather than 404
    for (const list of ['payments', 'transactions', 'effects']) {
      expect(records(await get(`/accounts/GDRXE2BQUC3AZNPVFSCEZ76NJ3WWL25FYFK6RGZGIEKWE4SOOHSUJUJ6/${list}`))).toEqual([]);
    }
    expect(await get('/accounts/nope/payments', 400)).toMatchObject({ extras: { invalid_field: 'account_id' } });
  });
});

describe('pages', () => {
  it('lists transactions without failed ones unless include_failed=true, with self/next/prev', async () => {
    const page = await get('/transactions?limit=2&order=desc');
    expect(records(page).map((r) => r.hash)).toEqual([scenario.hashes[3]?.[2], scenario.hashes[3]?.[0]]);
    const last = records(page)[1]?.paging_token as string;
    const first = records(page)[0]?.paging_token as string;
    expect(page._links).toEqual({
      self: { href: `${base}/transactions?cursor=&limit=2&order=desc` },
      next: { href: `${base}/transactions?cursor=${last}&limit=2&order=desc` },
      prev: { href: `${base}/transactions?cursor=${first}&limit=2&order=asc` },
    });
    const next = await get(new URL(page._links.next.href).pathname + new URL(page._links.next.href).search);
    expect(records(next).map((r) => r.hash)).toEqual([scenario.hashes[2]?.[2], scenario.hashes[2]?.[1]]);
    const prev = await get(new URL(next._links.prev.href).pathname + new URL(next._links.prev.href).search);
    expect(records(prev).map((r) => r.hash)).toEqual([scenario.hashes[3]?.[0], scenario.hashes[3]?.[2]]);

    const all = await get('/transactions?include_failed=true&limit=200');
    expect(records(all)).toHaveLength(6);
    expect(records(all).filter((r) => r.successful === false)).toHaveLength(1);
    expect(all._links.self.href).toBe(`${base}/transactions?cursor=&limit=200&order=asc&include_failed=true`);
  });

  it('renders a transaction with Horizon fields, its id, links, and the spec names', async () => {
    const hash = scenario.hashes[3]?.[0] as string;
    const tx = await get(`/transactions/${hash}`);
    expect(tx).toMatchObject({
      id: hash,
      hash,
      paging_token: String(toid(3, 1, 0)),
      ledger: 3,
      successful: true,
      source_account: ALICE,
      account: ALICE,
      source_account_sequence: '301',
      account_sequence: '301',
      fee_charged: '100',
      fee_paid: 100,
      max_fee: '100',
      operation_count: 1,
      created_at: '2026-01-01T00:00:15Z',
      memo_type: 'none',
      envelope_xdr: 'AAAAAgAAAAA=',
      _links: {
        account: { href: `${base}/accounts/${ALICE}` },
        ledger: { href: `${base}/ledgers/3` },
        operations: { href: `${base}/transactions/${hash}/operations{?cursor,limit,order}`, templated: true },
        precedes: { href: `${base}/transactions?order=asc&cursor=${toid(3, 1, 0)}` },
      },
    });
    expect(tx).not.toHaveProperty('memo');
    await get(`/transactions/${'f'.repeat(64)}`, 404);
    expect(await get('/transactions/xyz', 400)).toMatchObject({ extras: { invalid_field: 'tx_id' } });
  });

  it('lists operations with their details in Horizon names', async () => {
    const page = await get(`/ledgers/2/operations`);
    const op = records(page)[0] as Json;
    expect(op).toEqual({
      _links: {
        self: { href: `${base}/operations/${toid(2, 1, 1)}` },
        transaction: { href: `${base}/transactions/${scenario.hashes[2]?.[0]}` },
        effects: { href: `${base}/operations/${toid(2, 1, 1)}/effects{?cursor,limit,order}`, templated: true },
        succeeds: { href: `${base}/operations?order=desc&cursor=${toid(2, 1, 1)}` },
        precedes: { href: `${base}/operations?order=asc&cursor=${toid(2, 1, 1)}` },
      },
      id: String(toid(2, 1, 1)),
      paging_token: String(toid(2, 1, 1)),
      transaction_successful: true,
      source_account: ROOT,
      type: 'create_account',
      type_i: 0,
      created_at: '2026-01-01T00:00:10Z',
      transaction_hash: scenario.hashes[2]?.[0],
      starting_balance: '100.0000000',
      funder: ROOT,
      account: ALICE,
    });
    expect(await get(`/operations/${toid(2, 1, 1)}`)).toEqual(op);
    await get(`/operations/${toid(9, 1, 1)}`, 404);
    const trust = records(await get(`/transactions/${scenario.hashes[3]?.[2]}/operations`));
    expect(trust.map((r) => r.type)).toEqual(['change_trust', 'manage_data']);
    expect(trust[0]).toMatchObject({ asset_code: 'USD', asset_issuer: ISSUER, limit: '922337203685.4775807', trustor: BOB });
    expect(trust[1]).toMatchObject({ name: 'hello', value: 'd29ybGQ=' });
  });

  it('lists payments of an account, of a ledger, and of a transaction', async () => {
    const alice = records(await get(`/accounts/${ALICE}/payments?order=desc`));
    expect(alice.map((r) => r.type)).toEqual(['payment', 'create_account']);
    expect(alice[0]).toMatchObject({ from: ALICE, to: BOB, amount: '5.0000000', asset_type: 'native' });
    expect(records(await get(`/accounts/${ALICE}/payments?include_failed=true`))).toHaveLength(3);
    expect(records(await get(`/accounts/${BOB}/transactions`)).map((r) => r.hash)).toEqual([
      scenario.hashes[2]?.[1],
      scenario.hashes[3]?.[0],
      scenario.hashes[3]?.[2],
    ]);
    expect(records(await get(`/accounts/${BOB}/operations?limit=1&order=desc`)).map((r) => r.type)).toEqual(['manage_data']);
    expect(records(await get('/ledgers/3/payments'))).toHaveLength(1);
    await get('/ledgers/99/payments', 404);
    expect(records(await get(`/transactions/${scenario.hashes[3]?.[2]}/payments`))).toHaveLength(0);
    await get(`/transactions/${'e'.repeat(64)}/payments`, 404);
  });

  it('lists effects with pair paging tokens and Horizon ids', async () => {
    const effects = records(await get(`/transactions/${scenario.hashes[2]?.[0]}/effects`));
    expect(effects.map((e) => e.type)).toEqual(['account_created', 'account_debited', 'signer_created']);
    const opId = toid(2, 1, 1);
    expect(effects[0]).toEqual({
      _links: {
        operation: { href: `${base}/operations/${opId}` },
        succeeds: { href: `${base}/effects?order=desc&cursor=${opId}-1` },
        precedes: { href: `${base}/effects?order=asc&cursor=${opId}-1` },
      },
      id: `${String(opId).padStart(19, '0')}-0000000001`,
      paging_token: `${opId}-1`,
      account: ALICE,
      type: 'account_created',
      type_i: 0,
      created_at: '2026-01-01T00:00:10Z',
      starting_balance: '100.0000000',
    });
    expect(effects[2]).toMatchObject({ public_key: ALICE, weight: 1 });
    const after = records(await get(`/effects?cursor=${opId}-2&limit=1`));
    expect(after.map((e) => e.paging_token)).toEqual([`${opId}-3`]);
    expect(records(await get(`/accounts/${BOB}/effects`)).map((e) => e.type)).toEqual([
      'account_created',
      'signer_created',
      'account_credited',
      'trustline_created',
      'data_created',
    ]);
    expect(records(await get(`/operations/${opId}/effects?order=desc&limit=1`))[0]?.type).toBe('signer_created');
    await get(`/transactions/${'d'.repeat(64)}/effects`, 404);
  });

  it('lists ledgers and their transactions', async () => {
    const ledgers = records(await get('/ledgers?order=desc'));
    expect(ledgers.map((l) => l.sequence)).toEqual([3, 2]);
    expect(records(await get(`/ledgers?cursor=${2n << 32n}`)).map((l) => l.sequence)).toEqual([3]);
    expect(records(await get(`/ledgers?cursor=${3n << 32n}&order=desc`)).map((l) => l.sequence)).toEqual([2]);
    expect(ledgers[0]).toMatchObject({
      id: ledgers[0]?.hash,
      transaction_count: 2,
      failed_transaction_count: 1,
      total_coins: '100000000000.0000000',
    });
    expect(records(await get('/ledgers/3/transactions')).map((t) => t.hash)).toEqual([scenario.hashes[3]?.[0], scenario.hashes[3]?.[2]]);
    expect(records(await get('/ledgers/3/transactions?include_failed=true'))).toHaveLength(3);
  });

  it('lists an account’s offers and an offer’s trades', async () => {
    const offers = records(await get(`/accounts/${BOB}/offers`));
    expect(offers).toEqual([
      {
        _links: { self: { href: `${base}/offers/7` }, offer_maker: { href: `${base}/accounts/${BOB}` } },
        id: '7',
        paging_token: '7',
        seller: BOB,
        selling: { asset_type: 'credit_alphanum4', asset_code: 'USD', asset_issuer: ISSUER },
        buying: { asset_type: 'native' },
        amount: '1.0000000',
        price_r: { n: 1, d: 2 },
        price: '0.5000000',
        last_modified_ledger: 3,
        // the close time of ledger 3 (seed.ts: 5 s a ledger)
        last_modified_time: '2026-01-01T00:00:15Z',
      },
    ]);
    const trades = records(await get('/offers/7/trades'));
    expect(trades).toHaveLength(1);
    expect(trades[0]).toMatchObject({
      id: `${toid(3, 1, 1)}-0`,
      paging_token: `${toid(3, 1, 1)}-0`,
      base_account: BOB,
      counter_account: ALICE,
      base_asset_type: 'credit_alphanum4',
      base_asset_code: 'USD',
      counter_asset_type: 'native',
      base_amount: '1.0000000',
      counter_amount: '0.5000000',
      base_is_seller: true,
      price: { n: '1', d: '2' },
      _links: { base: { href: `${base}/accounts/${BOB}` }, operation: { href: `${base}/operations/${toid(3, 1, 1)}` } },
    });
    expect(trades[0]).not.toHaveProperty('counter_asset_code');
    await get('/offers/999/trades', 404);
  });

  it('answers 400 naming limit, order, cursor and include_failed', async () => {
    for (const [query, field] of [
      ['limit=0', 'limit'],
      ['limit=201', 'limit'],
      ['limit=ten', 'limit'],
      ['order=up', 'order'],
      ['cursor=abc', 'cursor'],
      ['cursor=-5', 'cursor'],
      ['include_failed=maybe', 'include_failed'],
    ] as const) {
      const problem = await get(`/transactions?${query}`, 400);
      expect(problem, query).toMatchObject({
        type: 'https://stellar.org/horizon-errors/bad_request',
        status: 400,
        extras: { invalid_field: field },
      });
    }
    expect(records(await get('/transactions?limit=200'))).toHaveLength(5);
    const effectsCursor = await get('/effects?cursor=1-x', 400);
    expect(effectsCursor.extras.invalid_field).toBe('cursor');
  });
});

describe('GET /fee_stats and /operation_fee_stats', () => {
  const DISTRIBUTION = ['max', 'min', 'mode', 'p10', 'p20', 'p30', 'p40', 'p50', 'p60', 'p70', 'p80', 'p90', 'p95', 'p99'];
  const FLAT = [
    'last_ledger',
    'last_ledger_base_fee',
    'ledger_capacity_usage',
    'min_accepted_fee',
    'mode_accepted_fee',
    ...['10', '20', '30', '40', '50', '60', '70', '80', '90', '95', '99'].map((p) => `p${p}_accepted_fee`),
  ];

  it.each(['/fee_stats', '/operation_fee_stats'])('%s renders the spec names, every value a string', async (path) => {
    const stats = await get(path);
    expect(stats._links).toEqual({ self: { href: base + path } });
    expect(Object.keys(stats).sort()).toEqual(['_links', 'fee_charged', 'max_fee', ...FLAT].sort());
    for (const name of FLAT) expect(typeof stats[name], name).toBe('string');
    for (const object of ['fee_charged', 'max_fee']) {
      expect(Object.keys(stats[object]).sort()).toEqual([...DISTRIBUTION].sort());
      for (const name of DISTRIBUTION) expect(typeof stats[object][name], `${object}.${name}`).toBe('string');
    }
    // the seeded history ends at ledger 3
    expect(stats.last_ledger).toBe('3');
  });

  it('matches the library record', async () => {
    const { feeStats } = await import('../../../src/market/index.js');
    const record = await feeStats(test.db);
    const stats = await get('/fee_stats');
    expect(stats.last_ledger_base_fee).toBe(record.lastLedgerBaseFee);
    expect(stats.p99_accepted_fee).toBe(record.p99AcceptedFee);
    expect(stats.fee_charged.mode).toBe(record.feeCharged.mode);
    expect(stats.max_fee.p10).toBe(record.maxFee.p10);
    expect(stats.ledger_capacity_usage).toBe(record.ledgerCapacityUsage);
  });
});

describe('GET /metrics', () => {
  const GAUGES = [
    'goroutines',
    'history.elder_ledger',
    'history.latest_ledger',
    'history.open_connections',
    'core_node.latest_ledger',
    'core_node.open_connections',
    'txsub.buffered',
    'txsub.open',
  ];
  const FULL = ['ingester.clear_ledger', 'ingester.ingest_ledger', 'requests.total', 'txsub.total'];
  const RATES = [
    'logging.debug',
    'logging.info',
    'logging.warning',
    'logging.error',
    'logging.panic',
    'requests.failed',
    'requests.succeeded',
    'txsub.failed',
    'txsub.succeeded',
  ];
  const RATE_KEYS = ['1m.rate', '5m.rate', '15m.rate', 'mean.rate', 'count'];
  const FULL_KEYS = [...RATE_KEYS, '75%', '95%', '99%', '99.9%', 'max', 'mean', 'median', 'min', 'stddev'];

  it('has every metric of the spec in its shape, and _links.self', async () => {
    const metrics = await get('/metrics');
    expect(metrics._links).toEqual({ self: { href: `${base}/metrics` } });
    for (const name of GAUGES) expect(Object.keys(metrics[name] ?? {}), name).toEqual(['value']);
    for (const name of GAUGES) expect(typeof metrics[name].value, name).toBe('number');
    for (const name of RATES) expect(Object.keys(metrics[name] ?? {}).sort(), name).toEqual([...RATE_KEYS].sort());
    for (const name of FULL) expect(Object.keys(metrics[name] ?? {}).sort(), name).toEqual([...FULL_KEYS].sort());
    expect(metrics['history.latest_ledger'].value).toBe(3);
    expect(metrics['history.elder_ledger'].value).toBe(2);
    expect(metrics['history.open_connections'].value).toBeGreaterThanOrEqual(1);
    expect(metrics['core_node.open_connections'].value).toBe(0); // the test's core never answers
  });

  it('counts requests by status class', async () => {
    const before = await get('/metrics');
    await get('/ledgers/2');
    await get('/no/such/route', 404);
    const after = await get('/metrics');
    // the first /metrics, /ledgers/2 and the 404 have finished by now
    expect(after['requests.total'].count).toBeGreaterThanOrEqual(before['requests.total'].count + 3);
    expect(after['requests.succeeded'].count).toBeGreaterThanOrEqual(before['requests.succeeded'].count + 2);
    expect(after['requests.failed'].count).toBe(before['requests.failed'].count + 1);
  });

  it('meters log lines by level', async () => {
    const { attachLogMeters, markLog } = await import('../../../src/metrics/log_meters.js');
    const { MetricsRegistry: Registry } = await import('../../../src/metrics/registry.js');
    const registry = new Registry();
    attachLogMeters(registry);
    markLog(40); // pino warn
    markLog(60); // pino fatal
    markLog(10); // trace: no spec level
    const snapshot = (await registry.snapshot()) as Record<string, { count: number }>;
    expect(snapshot['logging.warning']?.count).toBe(1);
    expect(snapshot['logging.panic']?.count).toBe(1);
    expect(snapshot['logging.debug']?.count).toBe(0);
  });
});

describe('GET /order_book', () => {
  const USD = `selling_asset_type=credit_alphanum4&selling_asset_code=USD&selling_asset_issuer=${ISSUER}`;

  it('renders the seeded offer as an ask, and the reverse market as a bid', async () => {
    const book = await get(`/order_book?${USD}&buying_asset_type=native`);
    expect(book).toMatchObject({
      _links: { self: { href: `${base}/order_book` } },
      base: { asset_type: 'credit_alphanum4', asset_code: 'USD', asset_issuer: ISSUER },
      counter: { asset_type: 'native' },
      bids: [],
      asks: [{ price_r: { n: 1, d: 2 }, price: '0.5000000', amount: '1.0000000' }],
    });
    const reverse = await get(
      `/order_book?selling_asset_type=native&buying_asset_type=credit_alphanum4&buying_asset_code=USD&buying_asset_issuer=${ISSUER}`,
    );
    expect(reverse.asks).toEqual([]);
    expect(reverse.bids).toEqual([{ price_r: { n: 2, d: 1 }, price: '2.0000000', amount: '1.0000000' }]);
    expect(reverse.counter).toMatchObject({ asset_code: 'USD' });
  });

  it.each([
    ['selling_asset_type=credit_alphanum4&buying_asset_type=native', 'selling_asset_code'],
    [`${USD}`, 'buying_asset_type'],
    [`${USD}&buying_asset_type=native&limit=0`, 'limit'],
    [`${USD}&buying_asset_type=credit_alphanum4&buying_asset_code=EUR&buying_asset_issuer=nope`, 'buying_asset_issuer'],
    // several bad: the first in Horizon's order (the assets, then limit)
    [`${USD}&limit=abc`, 'buying_asset_type'],
    [`${USD}&buying_asset_type=native&limit=0500`, 'limit'],
  ])('?%s is a 400 naming %s', async (query, field) => {
    const problem = await get(`/order_book?${query}`, 400);
    expect(problem).toMatchObject({ type: 'https://stellar.org/horizon-errors/bad_request', extras: { invalid_field: field } });
  });

  it('streams the book at open', async () => {
    const controller = new AbortController();
    const response = await fetch(`${base}/order_book?${USD}&buying_asset_type=native`, {
      headers: { Accept: 'text/event-stream' },
      signal: controller.signal,
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body!.getReader();
    let text = '';
    while (!text.includes('"asks"')) text += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    const data = text
      .split('\n')
      .filter((line) => line.startsWith('data: {'))[0]!
      .slice(6);
    expect(JSON.parse(data)).toMatchObject({ asks: [{ amount: '1.0000000' }] });
  });

  it('is a 400 before a stream opens', async () => {
    const response = await fetch(`${base}/order_book?selling_asset_type=bogus&buying_asset_type=native`, {
      headers: { Accept: 'text/event-stream' },
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as Json).extras.invalid_field).toBe('selling_asset_type');
  });
});

describe('GET /trade_aggregations', () => {
  const PAIR = `base_asset_type=credit_alphanum4&base_asset_code=USD&base_asset_issuer=${ISSUER}&counter_asset_type=native`;

  it('folds the seeded trade into a minute segment, with self and next links', async () => {
    const page = await get(`/trade_aggregations?${PAIR}&resolution=60000`);
    const [record, ...rest] = records(page);
    expect(rest).toEqual([]);
    expect(record).toMatchObject({
      trade_count: 1,
      base_volume: '1.0000000',
      counter_volume: '0.5000000',
      avg: '0.5000000',
      high: '0.5000000',
      high_r: { N: 1, D: 2 },
      low_r: { N: 1, D: 2 },
      open_r: { N: 1, D: 2 },
      close_r: { N: 1, D: 2 },
    });
    expect(typeof record!.timestamp).toBe('number');
    expect(record!.timestamp % 60000).toBe(0);
    const next = new URL(page._links.next.href);
    expect(next.pathname).toBe('/trade_aggregations');
    expect(next.searchParams.get('start_time')).toBe(String(record!.timestamp + 60000));
    expect(next.searchParams.get('base_asset_code')).toBe('USD');
    expect(new URL(page._links.self.href).searchParams.get('resolution')).toBe('60000');
    // the next page is empty and its next link stays where it is
    const after = await get(next.pathname + next.search);
    expect(records(after)).toEqual([]);
  });

  it('reads the reverse pair with inverted prices', async () => {
    const page = await get(
      `/trade_aggregations?base_asset_type=native&counter_asset_type=credit_alphanum4&counter_asset_code=USD&counter_asset_issuer=${ISSUER}&resolution=3600000`,
    );
    expect(records(page)).toMatchObject([
      { trade_count: 1, base_volume: '0.5000000', counter_volume: '1.0000000', high_r: { N: 2, D: 1 } },
    ]);
  });

  it.each([
    [`${PAIR}`, 'resolution'],
    [`${PAIR}&resolution=1000`, 'resolution'],
    [`base_asset_type=native&resolution=60000`, 'counter_asset_type'],
    [`${PAIR}&resolution=60000&order=up`, 'order'],
    [`${PAIR}&resolution=7&limit=0`, 'resolution'],
    [`${PAIR}&resolution=60000&limit=201`, 'limit'],
  ])('?%s is a 400 naming %s', async (query, field) => {
    const problem = await get(`/trade_aggregations?${query}`, 400);
    expect(problem.extras.invalid_field).toBe(field);
  });
});

describe('GET /paths', () => {
  const USD = `USD:${ISSUER}`;
  const TO_USD = `destination_asset_type=credit_alphanum4&destination_asset_code=USD&destination_asset_issuer=${ISSUER}`;

  it('strict receive crosses the seeded offer from native', async () => {
    const page = await get(`/paths/strict-receive?${TO_USD}&destination_amount=0.5&source_assets=native`);
    expect(Object.keys(page._links)).toEqual(['self']);
    expect(page._links.self.href).toContain('/paths/strict-receive?destination_asset_type=credit_alphanum4');
    expect(records(page)).toEqual([
      {
        source_asset_type: 'native',
        source_amount: '0.2500000',
        destination_asset_type: 'credit_alphanum4',
        destination_asset_code: 'USD',
        destination_asset_issuer: ISSUER,
        destination_amount: '0.5000000',
        path: [],
      },
    ]);
  });

  it("strict send and the legacy route (from the source account's assets) find it too", async () => {
    const send = await get(`/paths/strict-send?source_asset_type=native&source_amount=0.1&destination_assets=${USD}`);
    expect(records(send)).toMatchObject([
      { source_amount: '0.1000000', destination_asset_code: 'USD', destination_amount: '0.2000000', path: [] },
    ]);
    const legacy = await get(`/paths?${TO_USD}&destination_amount=0.5&source_account=${ALICE}`);
    expect(records(legacy)).toMatchObject([{ source_asset_type: 'native', source_amount: '0.2500000' }]);
  });

  it('no path is a 404; bad parameters are a 400 naming the field', async () => {
    await get(`/paths/strict-receive?${TO_USD}&destination_amount=50&source_assets=native`, 404);
    expect((await get(`/paths?${TO_USD}&destination_amount=0.5`, 400)).extras.invalid_field).toBe('source_account');
    // the legacy route's missing source_account comes after the parameters checked before it
    expect((await get(`/paths?${TO_USD}&destination_amount=-1`, 400)).extras.invalid_field).toBe('destination_amount');
    expect((await get(`/paths?${TO_USD}&destination_amount=1&destination_account=GB`, 400)).extras.invalid_field).toBe(
      'destination_account',
    );
    expect((await get(`/paths/strict-receive?${TO_USD}&source_assets=native`, 400)).extras.invalid_field).toBe('destination_amount');
    expect((await get(`/paths/strict-send?source_asset_type=native&source_amount=1`, 400)).extras.invalid_field).toBe(
      'destination_account',
    );
  });

  it('sees a new offer after the next ledger signal', async () => {
    await get(`/paths/strict-receive?${TO_USD}&destination_amount=50&source_assets=native`, 404);
    await test.db.prisma.offer.create({
      data: {
        id: 8n,
        sellerId: BOB,
        sellingAsset: USD,
        buyingAsset: 'native',
        amount: 1_000_000_000n,
        priceN: 1,
        priceD: 1,
        price: 1,
        flags: 0,
        lastModifiedLedger: 4,
      },
    });
    await events.publish(4);
    const page = await get(`/paths/strict-receive?${TO_USD}&destination_amount=50&source_assets=native`);
    expect(records(page)[0]).toMatchObject({ destination_amount: '50.0000000' });
    await test.db.prisma.offer.delete({ where: { id: 8n } });
    await events.publish(4);
    await get(`/paths/strict-receive?${TO_USD}&destination_amount=50&source_assets=native`, 404);
  });
});
