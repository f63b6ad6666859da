// /claimable_balances and /liquidity_pools over seeded rows: Horizon's action tests
// (internal/actions/claimable_balance_test.go, liquidity_pool_test.go) reproduced — filters,
// paging, ordering, errors — with Horizon's JSON and links, and the lists of operations,
// transactions and effects that touched a balance or a pool.
import { Asset, Keypair } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toid } from '../../../src/stellar/toid.js';
import { serveTestApi, type TestApi, getJson } from '../../support/api_server.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { seedLedger } from '../../support/seed.js';
import { balanceId, linkHistory, seedClaimableBalance, seedPool } from '../../support/seed_balances_pools.js';

// biome-ignore lint/suspicious/noExplicitAny: the tests read deep paths of answers they just checked
type Json = Record<string, any>;

const C3C4 = 'GC3C4AKRBQLHOJ45U4XG35ESVWRDECWO5XLDGYADO6DPR3L7KIDVUMML';
const BRPY = 'GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H';
// account_test.go's usd and euro (issuer GBRPY...), offer_test.go's usdAsset and eurAsset (the same)
const USD = `USD:${BRPY}`;
const EUR = `EUR:${BRPY}`;
const usdAsset = new Asset('USD', BRPY);
const eurAsset = new Asset('EUR', BRPY);

let test: TestDatabase;
let api: TestApi;
let base: string;
let lp1: string;
let lp2: string;

// TestGetClaimableBalances's entries, in its order
const entries = [
  { id: balanceId(4, 0, 0), account: C3C4, ledger: 1235, asset: USD },
  { id: balanceId(3, 0, 0), account: C3C4, ledger: 1235, asset: EUR },
  { id: balanceId(2, 0, 0), account: BRPY, ledger: 1234, asset: USD },
  { id: balanceId(1, 0, 0), account: BRPY, ledger: 1233 },
];
// ingested later in Horizon's test
const later = [
  { id: balanceId(4, 4, 4), account: C3C4, ledger: 1236 },
  { id: balanceId(1, 1, 1), account: C3C4, ledger: 1237 },
];

beforeAll(async () => {
  test = await createTestDatabase();
  for (const entry of entries) await seedClaimableBalance(test.db, entry);
  lp1 = await seedPool(test.db, Asset.native(), 100n, usdAsset, 200n);
  lp2 = await seedPool(test.db, eurAsset, 300n, usdAsset, 400n);
  // ledger 1235: a balance created (and a failed attempt), a deposit into lp1 with its effect
  await seedLedger(test.db, 1235, [
    { source: C3C4, operations: [{ type: 14, source: C3C4, details: { asset: USD, amount: '0.0000010' }, participants: [] }] },
    {
      source: C3C4,
      successful: false,
      operations: [{ type: 14, source: C3C4, details: { asset: USD, amount: '0.0000010' }, participants: [] }],
    },
    {
      source: BRPY,
      operations: [
        {
          type: 22,
          source: BRPY,
          details: { liquidity_pool_id: lp1 },
          participants: [],
          effects: [
            { account: BRPY, type: 90, details: { shares_received: '0.0000010' } },
            { account: BRPY, type: 3, details: { amount: '0.0000100', asset_type: 'native' } },
          ],
        },
      ],
    },
  ]);
  await linkHistory(test.db, { operationId: toid(1235, 1, 1), transactionId: toid(1235, 1, 0), claimableBalanceId: entries[0]!.id });
  await linkHistory(test.db, { operationId: toid(1235, 2, 1), transactionId: toid(1235, 2, 0), claimableBalanceId: entries[0]!.id });
  await linkHistory(test.db, { operationId: toid(1235, 3, 1), transactionId: toid(1235, 3, 0), liquidityPoolId: lp1 });
  api = await serveTestApi(test);
  base = api.base;
});

afterAll(async () => {
  await api.close();
  await test.drop();
});

const get = (path: string, status = 200): Promise<Json> => getJson(base, path, status);

const records = async (path: string): Promise<Json[]> => (await get(path))._embedded.records as Json[];
const ids = (list: Json[]) => list.map((record) => record.id as string);

async function problem(path: string, status = 400): Promise<Json> {
  const body = await get(path, status);
  expect(body.type).toBe(
    status === 404 ? 'https://stellar.org/horizon-errors/not_found' : 'https://stellar.org/horizon-errors/bad_request',
  );
  return body;
}

describe('GET /claimable_balances/{id} (TestGetClaimableBalanceByID)', () => {
  it("renders Horizon's claimable balance with its links", async () => {
    const id = entries[0]!.id;
    const balance = await get(`/claimable_balances/${id}`);
    expect(balance).toEqual({
      _links: {
        self: { href: `${base}/claimable_balances/${id}` },
        transactions: { href: `${base}/claimable_balances/${id}/transactions{?cursor,limit,order}`, templated: true },
        operations: { href: `${base}/claimable_balances/${id}/operations{?cursor,limit,order}`, templated: true },
      },
      id,
      asset: USD,
      amount: '0.0000010',
      sponsor: C3C4,
      last_modified_ledger: 1235,
      last_modified_time: '2026-01-01T01:42:55Z',
      claimants: [{ destination: C3C4, predicate: { unconditional: true } }],
      flags: { clawback_enabled: false },
      paging_token: `1235-${id}`,
    });
    // Horizon leaves out an absent sponsor
    expect((await get(`/claimable_balances/${entries[3]!.id}`)).sponsor).toBeUndefined();
  });

  it('is a 404 for an unknown balance, a 400 naming id for a malformed one', async () => {
    await problem(`/claimable_balances/${balanceId(1, 1, 1)}`, 404);
    const body = await problem('/claimable_balances/0000001112122');
    expect(body.extras).toEqual({ invalid_field: 'id', reason: '0000001112122 does not validate as claimableBalanceID' });
    // the id is the whole ClaimableBalanceId XDR: the bare hash is not one
    expect((await problem(`/claimable_balances/${entries[0]!.id.slice(8)}`)).extras.invalid_field).toBe('id');
  });
});

describe('GET /claimable_balances (TestGetClaimableBalances)', () => {
  const all = [...entries].reverse().map((entry) => entry.id);

  it('lists in ascending (last modified ledger, id) order and pages by its paging token', async () => {
    const first = await records('/claimable_balances');
    expect(ids(first)).toEqual(all);
    expect(await records(`/claimable_balances?cursor=${first[3]!.paging_token}`)).toEqual([]);
    const two = await records('/claimable_balances?limit=2');
    expect(ids(two)).toEqual(all.slice(0, 2));
    const next = await records(`/claimable_balances?limit=2&cursor=${two[1]!.paging_token}`);
    expect(ids(next)).toEqual(all.slice(2, 4));
    expect(await records(`/claimable_balances?limit=2&cursor=${next[1]!.paging_token}`)).toEqual([]);
  });

  it('filters by asset, sponsor and claimant', async () => {
    const native = await records('/claimable_balances?asset=native');
    expect(native.map((record) => record.asset)).toEqual(['native']);
    expect((await records(`/claimable_balances?asset=${USD}`)).map((record) => record.asset)).toEqual([USD, USD]);
    expect((await records(`/claimable_balances?asset=${EUR}`)).map((record) => record.asset)).toEqual([EUR]);
    expect((await records(`/claimable_balances?sponsor=${C3C4}`)).map((record) => record.sponsor)).toEqual([C3C4, C3C4]);
    expect(await records(`/claimable_balances?claimant=${C3C4}`)).toHaveLength(2);
    expect(await records(`/claimable_balances?claimant=${BRPY}`)).toHaveLength(2);
    // claimant with another filter: a condition on the balances
    expect(ids(await records(`/claimable_balances?claimant=${C3C4}&asset=${USD}`))).toEqual([entries[0]!.id]);
  });

  it('keeps the filters in the page links, in sorted order', async () => {
    const page = await get(`/claimable_balances?asset=native&limit=10`);
    expect(page._links.self.href).toBe(`${base}/claimable_balances?asset=native&cursor=&limit=10&order=asc`);
    expect(page._links.next.href).toBe(`${base}/claimable_balances?asset=native&cursor=1233-${entries[3]!.id}&limit=10&order=asc`);
  });

  it('rejects malformed filters, naming them (TestClaimableBalancesQueryAsset, Sponsor, Claimant)', async () => {
    for (const asset of ['Native', 'NATIVE', 'noColon', ':', 'A:', ':B', 'too:many:colons', 'USD:not-an-address']) {
      expect((await problem(`/claimable_balances?asset=${encodeURIComponent(asset)}`)).extras.invalid_field, asset).toBe('asset');
    }
    for (const name of ['sponsor', 'claimant']) {
      for (const account of ['not-an-address', 'AXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX', 'G']) {
        expect((await problem(`/claimable_balances?${name}=${account}`)).extras.invalid_field).toBe(name);
      }
    }
  });

  it('rejects malformed cursors and orders (TestCursorAndOrderValidation)', async () => {
    for (const cursor of [
      '-1-00000043d380c38a2f2cac46ab63674064c56fdce6b977fdef1a278ad50e1a7e6a5e18',
      '1003529-00000043d380c38a2f2cac46ab63674064c56fdce6b977fdef1a278ad50e1a7e6a5e18',
    ]) {
      const body = await problem(`/claimable_balances?cursor=${cursor}`);
      expect(body.extras.invalid_field).toBe('cursor');
      expect(body.extras.reason).toContain(
        'The first part should be a number higher than 0 and the second part should be a valid claimable balance ID',
      );
    }
    const order = await problem(`/claimable_balances?order=arriba&cursor=1003529-${entries[0]!.id}`);
    expect(order.extras.invalid_field).toBe('order');
  });

  it('pages into balances ingested later, and in descending order', async () => {
    const lastIngested = `1235-${entries[0]!.id}`;
    expect(await records(`/claimable_balances?limit=2&cursor=${lastIngested}`)).toEqual([]);
    for (const entry of later) await seedClaimableBalance(test.db, entry);
    expect(await records('/claimable_balances?limit=200')).toHaveLength(6);
    const newer = await records(`/claimable_balances?limit=2&cursor=${lastIngested}`);
    expect(ids(newer)).toEqual(later.map((entry) => entry.id));
    expect(await records(`/claimable_balances?limit=2&cursor=${newer[1]!.paging_token}`)).toEqual([]);
    const desc = await records('/claimable_balances?limit=2&order=desc');
    expect(ids(desc)).toEqual([later[1]!.id, later[0]!.id]);
    expect(ids(await records(`/claimable_balances?limit=1&order=desc&cursor=${desc[1]!.paging_token}`))).toEqual([entries[0]!.id]);
    // TestGetClaimableBalances's remaining filters, on all six
    expect(await records('/claimable_balances?asset=native')).toHaveLength(3);
    expect(await records(`/claimable_balances?claimant=${C3C4}`)).toHaveLength(4);
    expect(await records(`/claimable_balances?claimant=${BRPY}`)).toHaveLength(2);
    expect(await records(`/claimable_balances?sponsor=${C3C4}`)).toHaveLength(2);
  });
});

describe('GET /claimable_balances/{id}/operations and /transactions', () => {
  const id = () => entries[0]!.id;

  it('lists the operations and transactions that touched the balance, failed ones with include_failed', async () => {
    expect((await records(`/claimable_balances/${id()}/operations`)).map((op) => op.id)).toEqual([String(toid(1235, 1, 1))]);
    expect((await records(`/claimable_balances/${id()}/operations?include_failed=true`)).map((op) => op.id)).toEqual([
      String(toid(1235, 1, 1)),
      String(toid(1235, 2, 1)),
    ]);
    expect(await records(`/claimable_balances/${id()}/transactions`)).toHaveLength(1);
    expect(await records(`/claimable_balances/${id()}/transactions?include_failed=true`)).toHaveLength(2);
  });

  it('is a 404 for a balance the history never saw, a 400 naming claimable_balance_id for a malformed one', async () => {
    await problem(`/claimable_balances/${balanceId(9)}/operations`, 404);
    await problem(`/claimable_balances/${balanceId(9)}/transactions`, 404);
    expect((await problem('/claimable_balances/0000001112122/operations')).extras.invalid_field).toBe('claimable_balance_id');
    expect((await problem('/claimable_balances/0000001112122/transactions')).extras.invalid_field).toBe('claimable_balance_id');
  });

  it('streams the operations', async () => {
    const controller = new AbortController();
    const response = await fetch(`${base}/claimable_balances/${id()}/operations`, {
      headers: { Accept: 'text/event-stream' },
      signal: controller.signal,
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body!.getReader();
    let text = '';
    while (!text.includes('"paging_token"')) text += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    expect(text).toContain(`id: ${toid(1235, 1, 1)}`);
  });
});

describe('GET /liquidity_pools/{id} (TestGetLiquidityPoolByID)', () => {
  it("renders Horizon's pool with its links (transactions and operations)", async () => {
    const pool = await get(`/liquidity_pools/${lp1}`);
    expect(pool).toEqual({
      _links: {
        self: { href: `${base}/liquidity_pools/${lp1}` },
        transactions: { href: `${base}/liquidity_pools/${lp1}/transactions{?cursor,limit,order}`, templated: true },
        operations: { href: `${base}/liquidity_pools/${lp1}/operations{?cursor,limit,order}`, templated: true },
      },
      id: lp1,
      paging_token: lp1,
      fee_bp: 30,
      type: 'constant_product',
      total_trustlines: '12345',
      total_shares: '0.0067890',
      reserves: [
        { asset: 'native', amount: '0.0000100' },
        { asset: USD, amount: '0.0000200' },
      ],
      last_modified_ledger: 123,
    });
  });

  it('is a 404 for an unknown pool, a 400 naming liquidity_pool_id for a malformed one', async () => {
    await problem('/liquidity_pools/123816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad', 404);
    const body = await problem('/liquidity_pools/0000001112122');
    expect(body.extras).toEqual({ invalid_field: 'liquidity_pool_id', reason: '0000001112122 does not validate as sha256' });
  });
});

describe('GET /liquidity_pools (TestGetLiquidityPools, TestLiquidityPoolsQueryValidate)', () => {
  it('lists the pools by id', async () => {
    const pools = await records('/liquidity_pools');
    expect(ids(pools)).toEqual([lp1, lp2]);
    expect(pools[1]).toMatchObject({
      fee_bp: 30,
      total_trustlines: '12345',
      total_shares: '0.0067890',
      reserves: [
        { asset: EUR, amount: '0.0000300' },
        { asset: USD, amount: '0.0000400' },
      ],
    });
  });

  it('filters by reserves, pages by the pool id, filters by a participating account', async () => {
    expect(ids(await records('/liquidity_pools?reserves=native'))).toEqual([lp1]);
    expect(ids(await records(`/liquidity_pools?reserves=native,${USD}`))).toEqual([lp1]);
    expect(ids(await records(`/liquidity_pools?reserves=${USD}`))).toEqual([lp1, lp2]);
    expect(ids(await records(`/liquidity_pools?cursor=${lp1}`))).toEqual([lp2]);
    const account = Keypair.random().publicKey();
    await test.db.prisma.trustLine.createMany({
      data: [
        {
          accountId: account,
          assetType: 'credit_alphanum4',
          assetCode: 'EUR',
          assetIssuer: BRPY,
          balance: 1000n,
          limit: 1000n,
          flags: 0,
          lastModifiedLedger: 1234,
        },
        {
          accountId: account,
          assetType: 'liquidity_pool_shares',
          assetCode: '',
          assetIssuer: '',
          liquidityPoolId: lp1,
          balance: 1000n,
          limit: 1000n,
          flags: 0,
          lastModifiedLedger: 1234,
        },
      ],
    });
    const page = await get(`/liquidity_pools?account=${account}`);
    expect(ids(page._embedded.records)).toEqual([lp1]);
    expect(page._links.self.href).toContain(`account=${account}`);
  });

  it('refuses more than two reserves, and a reserve that is no asset', async () => {
    for (const reserves of ['native,native,native', `native,${USD},${EUR}`, `${'native,'.repeat(1000)}native`]) {
      const body = await problem(`/liquidity_pools?reserves=${reserves}`);
      expect(body.extras.invalid_field).toBe('reserves');
      expect(body.extras.reason).toContain('maximum length of 2');
    }
    const bad = await problem('/liquidity_pools?reserves=USD');
    expect(bad.extras).toEqual({
      invalid_field: 'reserves',
      reason: 'Invalid reserves, should be comma-separated list of assets in canonical form',
    });
    expect((await problem('/liquidity_pools?account=GBAD')).extras.invalid_field).toBe('account');
    expect((await problem('/liquidity_pools?cursor=not-hex')).extras.invalid_field).toBe('cursor');
  });
});

describe('GET /liquidity_pools/{id}/operations, /transactions, /effects', () => {
  it('lists what touched the pool', async () => {
    expect((await records(`/liquidity_pools/${lp1}/operations`)).map((op) => op.id)).toEqual([String(toid(1235, 3, 1))]);
    expect((await records(`/liquidity_pools/${lp1}/transactions`)).map((tx) => tx.paging_token)).toEqual([String(toid(1235, 3, 0))]);
    const effects = await records(`/liquidity_pools/${lp1}/effects`);
    expect(effects.map((effect) => effect.type)).toEqual(['liquidity_pool_deposited', 'account_debited']);
    expect(effects[0]!.paging_token).toBe(`${toid(1235, 3, 1)}-1`);
    // paged within the operation's effects, both ways
    const second = await records(`/liquidity_pools/${lp1}/effects?limit=1&cursor=${effects[0]!.paging_token}`);
    expect(second.map((effect) => effect.paging_token)).toEqual([`${toid(1235, 3, 1)}-2`]);
    expect(await records(`/liquidity_pools/${lp1}/effects?cursor=${second[0]!.paging_token}`)).toEqual([]);
    const desc = await records(`/liquidity_pools/${lp1}/effects?order=desc&limit=1&cursor=${second[0]!.paging_token}`);
    expect(desc.map((effect) => effect.paging_token)).toEqual([effects[0]!.paging_token]);
  });

  it('is a 404 for a pool the history never saw, a 400 for a malformed id', async () => {
    for (const list of ['operations', 'transactions', 'effects']) {
      await problem(`/liquidity_pools/${lp2}/${list}`, 404);
      expect((await problem(`/liquidity_pools/xyz/${list}`)).extras.invalid_field).toBe('liquidity_pool_id');
    }
  });
});

describe('GET /', () => {
  it("links the lists as Horizon's root does", async () => {
    const root = await get('/');
    expect(root._links.claimable_balances).toEqual({
      href: `${base}/claimable_balances{?asset,sponsor,claimant,cursor,limit,order}`,
      templated: true,
    });
    expect(root._links.liquidity_pools).toEqual({ href: `${base}/liquidity_pools{?reserves,account,cursor,limit,order}`, templated: true });
  });
});
