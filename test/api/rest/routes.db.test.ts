// Horizon's REST routes over the seeded history: resources rendered from their GraphQL types with
// Horizon's ids and links, pages with self/next/prev, include_failed, and the spec's errors.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiServer } from '../../../src/api/server.js';
import { createLogger } from '../../../src/logger.js';
import { toid } from '../../../src/stellar/toid.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { ALICE, BOB, ISSUER, ROOT, seedScenario, type Scenario } from '../../support/seed.js';
import { inProcessLedgerEvents } from '../../../src/events/ledger_events.js';
import { MetricsRegistry } from '../../../src/metrics/registry.js';

let test: TestDatabase;
let server: Server;
let base: string;
let scenario: Scenario;

// response bodies, read loosely
type Json = Record<string, any>;

beforeAll(async () => {
  test = await createTestDatabase();
  scenario = await seedScenario(test.db);
  server = createApiServer({
    services: { db: test.db, config: { networkPassphrase: 'test' }, coreInfo: async () => null, events: inProcessLedgerEvents(), txsub: null, metrics: new MetricsRegistry() },
    logger: createLogger('silent', { pretty: false }),
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await test.drop();
});

async function get(path: string, status = 200): Promise<Json> {
  const response = await fetch(base + path);
  expect(response.status, path).toBe(status);
  return (await response.json()) as Json;
}

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
      _links: { self: { href: `${base}/accounts/${BOB}` }, payments: { href: `${base}/accounts/${BOB}/payments{?cursor,limit,order}`, templated: true } },
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
    expect(await get(`/accounts/${BOB}/data/helloWorld`)).toEqual({
      _links: { self: { href: `${base}/accounts/${BOB}/data/helloWorld` } },
      id: 'helloWorld',
      account_id: BOB,
      name: 'helloWorld',
      value: 'd29ybGQ=',
      last_modified_ledger: 3,
    });
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
    expect(ledgers[0]).toMatchObject({ id: ledgers[0]?.hash, transaction_count: 2, failed_transaction_count: 1, total_coins: '100000000000.0000000' });
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
