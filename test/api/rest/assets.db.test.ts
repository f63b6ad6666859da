// GET /assets and GraphQL `assets`, reproducing stellar-horizon's internal/actions/asset_test.go
// (TestAssetStatsValidation, TestAssetStats, TestAssetStatsIssuerDoesNotExist) and the paging
// cases of internal/db2/history/asset_stats_test.go (TestGetAssetStatsFiltersAndCursor): the stats
// rows are inserted as Horizon's tests insert them, the expected records are Horizon's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApi, serveTestApi } from '../../support/api_server.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';

const ISSUER = 'GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H';
const OTHER_ISSUER = 'GA5WBPYA5Y4WAEHXWR2UKO2UO4BUGHUQ74EUPKON2QHV4WRHOIRNKKH2';
// AuthRequired | AuthImmutable | AuthClawbackEnabled
const ISSUER_FLAGS = 1 | 4 | 8;

interface StatRow {
  type: string;
  code: string;
  issuer: string;
  accounts: [number, number, number];
  claimableBalances: number;
  liquidityPools: number;
  balances: [string, string, string];
  claimableAmount: string;
  poolsAmount: string;
}

const usd: StatRow = {
  type: 'credit_alphanum4',
  code: 'USD',
  issuer: ISSUER,
  accounts: [2, 3, 4],
  claimableBalances: 1,
  liquidityPools: 5,
  balances: ['1', '2', '3'],
  claimableAmount: '10',
  poolsAmount: '20',
};
// Horizon's test names it credit_alphanum4 although its code has five letters: kept as given
const ether: StatRow = {
  type: 'credit_alphanum4',
  code: 'ETHER',
  issuer: ISSUER,
  accounts: [1, 2, 3],
  claimableBalances: 0,
  liquidityPools: 0,
  balances: ['23', '46', '92'],
  claimableAmount: '0',
  poolsAmount: '0',
};
const otherUsd: StatRow = { ...usd, issuer: OTHER_ISSUER, claimableBalances: 0, liquidityPools: 0, claimableAmount: '0', poolsAmount: '0' };
const eur: StatRow = {
  type: 'credit_alphanum4',
  code: 'EUR',
  issuer: OTHER_ISSUER,
  accounts: [3, 4, 5],
  claimableBalances: 0,
  liquidityPools: 0,
  balances: ['111', '222', '333'],
  claimableAmount: '0',
  poolsAmount: '0',
};

const noFlags = { auth_required: false, auth_revocable: false, auth_immutable: false, auth_clawback_enabled: false };
const issuerFlags = { auth_required: true, auth_revocable: false, auth_immutable: true, auth_clawback_enabled: true };
const xim = { href: 'https://xim.com/.well-known/stellar.toml' };

/** Horizon's AssetStat JSON for a row (protocols/horizon AssetStat). */
function response(row: StatRow, flags: typeof noFlags, toml: { href: string }): Record<string, unknown> {
  const amount = (stroops: string) => `0.${stroops.padStart(7, '0')}`;
  return {
    _links: { toml },
    asset_type: row.type,
    asset_code: row.code,
    asset_issuer: row.issuer,
    paging_token: `${row.code}_${row.issuer}_${row.type}`,
    num_claimable_balances: row.claimableBalances,
    num_liquidity_pools: row.liquidityPools,
    num_contracts: 0,
    accounts: { authorized: row.accounts[0], authorized_to_maintain_liabilities: row.accounts[1], unauthorized: row.accounts[2] },
    claimable_balances_amount: amount(row.claimableAmount),
    liquidity_pools_amount: amount(row.poolsAmount),
    contracts_amount: '0.0000000',
    balances: {
      authorized: amount(row.balances[0]),
      authorized_to_maintain_liabilities: amount(row.balances[1]),
      unauthorized: amount(row.balances[2]),
    },
    flags,
  };
}

const usdResponse = response(usd, issuerFlags, { href: '' });
const etherResponse = response(ether, issuerFlags, { href: '' });
const otherUsdResponse = response(otherUsd, noFlags, xim);
const eurResponse = response(eur, noFlags, xim);

async function insertStats(t: TestDatabase, rows: StatRow[]): Promise<void> {
  await t.db.session(async (sql) => {
    for (const r of rows) {
      await sql.query(`INSERT INTO asset_stats VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`, [
        r.type,
        r.code,
        r.issuer,
        ...r.accounts,
        r.claimableBalances,
        r.liquidityPools,
        ...r.balances,
        r.claimableAmount,
        r.poolsAmount,
      ]);
    }
  });
}

async function insertIssuer(t: TestDatabase, id: string, flags: number, homeDomain: string): Promise<void> {
  await t.db.prisma.account.create({
    data: {
      id,
      balance: 0n,
      sequence: 0n,
      subentryCount: 0,
      flags,
      homeDomain,
      masterWeight: 1,
      thresholdLow: 0,
      thresholdMedium: 0,
      thresholdHigh: 0,
      lastModifiedLedger: 100,
    },
  });
}

describe('GET /assets', () => {
  let t: TestDatabase;
  let api: TestApi;

  beforeAll(async () => {
    t = await createTestDatabase();
    await insertStats(t, [ether, eur, otherUsd, usd]);
    await insertIssuer(t, ISSUER, ISSUER_FLAGS, '');
    await insertIssuer(t, OTHER_ISSUER, 0, 'xim.com');
    api = await serveTestApi(t);
  });
  afterAll(async () => {
    await api?.close();
    await t?.drop();
  });

  async function get(query: string): Promise<{ status: number; body: Record<string, unknown> }> {
    const res = await fetch(`${api.base}/assets${query}`);
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  async function records(query: string): Promise<Record<string, unknown>[]> {
    const { status, body } = await get(query);
    expect(status).toBe(200);
    return (body._embedded as { records: Record<string, unknown>[] }).records;
  }

  // TestAssetStats
  it.each([
    ['default parameters', '', [etherResponse, eurResponse, otherUsdResponse, usdResponse]],
    ['with cursor', `?cursor=ETHER_${ISSUER}_credit_alphanum4`, [eurResponse, otherUsdResponse, usdResponse]],
    ['descending order', '?order=desc', [usdResponse, otherUsdResponse, eurResponse, etherResponse]],
    ['filter by asset code', '?asset_code=USD', [otherUsdResponse, usdResponse]],
    ['filter by asset issuer', `?asset_issuer=${ISSUER}`, [etherResponse, usdResponse]],
    ['filter by both asset code and asset issuer', `?asset_code=USD&asset_issuer=${ISSUER}`, [usdResponse]],
    ['filter produces empty set', `?asset_code=XYZ&asset_issuer=${ISSUER}`, []],
  ])('%s', async (_name, query, expected) => {
    expect(await records(query)).toEqual(expected);
  });

  it('has no id and no toml field outside its links, as Horizon', async () => {
    const [first] = await records(`?asset_code=USD&asset_issuer=${ISSUER}`);
    expect(Object.keys(first ?? {}).sort()).toEqual(Object.keys(usdResponse).sort());
  });

  // TestGetAssetStatsFiltersAndCursor: a cursor need not name a listed asset; only code and issuer bound the page
  it.each([
    ['no filter with cursor', `?cursor=ABC_${OTHER_ISSUER}_credit_alphanum4`, ['ETHER', 'EUR', 'USD', 'USD']],
    ['no filter with cursor descending', `?order=desc&cursor=ZZZ_${ISSUER}_credit_alphanum4`, ['USD', 'USD', 'EUR', 'ETHER']],
    ['no filter with cursor and offset descending', `?order=desc&cursor=EUR_${OTHER_ISSUER}_credit_alphanum4`, ['ETHER']],
    ['cursor of another type', `?cursor=ETHER_${ISSUER}_credit_alphanum12`, ['EUR', 'USD', 'USD']],
    ['filter with cursor', `?asset_code=USD&cursor=USD_${OTHER_ISSUER}_credit_alphanum4`, ['USD']],
  ])('%s', async (_name, query, codes) => {
    expect((await records(query)).map((r) => r.asset_code)).toEqual(codes);
  });

  it('pages with links that keep the filters', async () => {
    const { body } = await get('?asset_code=USD&limit=1');
    const links = body._links as Record<string, { href: string }>;
    expect(links.self?.href).toBe(`${api.base}/assets?asset_code=USD&cursor=&limit=1&order=asc`);
    expect(links.next?.href).toBe(`${api.base}/assets?asset_code=USD&cursor=USD_${OTHER_ISSUER}_credit_alphanum4&limit=1&order=asc`);
    const next = await records(`?asset_code=USD&limit=1&cursor=USD_${OTHER_ISSUER}_credit_alphanum4`);
    expect(next).toEqual([usdResponse]);
  });

  // TestAssetStatsValidation
  it.each([
    ['invalid asset code', '?asset_code=tooooooooolong', 'asset_code', 'not a valid asset code'],
    ['invalid asset issuer', '?asset_issuer=invalid', 'asset_issuer', 'not a valid asset issuer'],
    ['cursor has too many underscores', `?cursor=ABC_${ISSUER}_credit_alphanum4_`, 'cursor', 'credit_alphanum4_ is not a valid asset type'],
    ['invalid cursor code', `?cursor=tooooooooolong_${ISSUER}_credit_alphanum12`, 'cursor', 'not a valid asset code'],
    ['invalid cursor issuer', '?cursor=ABC_invalidissuer_credit_alphanum4', 'cursor', 'not a valid asset issuer'],
    ['invalid cursor type', `?cursor=ABC_${ISSUER}_credit_alphanum123`, 'cursor', 'credit_alphanum123 is not a valid asset type'],
    ['cursor without parts', '?cursor=12345', 'cursor', 'not a valid paging_token'],
    ['bad limit', '?limit=201', 'limit', ''],
  ])('%s is a 400 naming the parameter', async (_name, query, field, reason) => {
    const { status, body } = await get(query);
    expect(status).toBe(400);
    const extras = body.extras as { invalid_field: string; reason: string };
    expect(extras.invalid_field).toBe(field);
    expect(extras.reason).toContain(reason);
  });

  it('is linked from the root document', async () => {
    const root = (await (await fetch(`${api.base}/`)).json()) as { _links: Record<string, unknown> };
    expect(root._links.assets).toEqual({ href: `${api.base}/assets{?asset_code,asset_issuer,cursor,limit,order}`, templated: true });
  });

  it('is in GraphQL with the issuer as a relation, and coded errors', async () => {
    const query = `{ assets(assetCode: "USD", first: 5) { edges { cursor node { assetIssuer pagingToken toml flags { authRequired }
      accounts { unauthorized } balances { authorized } claimableBalancesAmount issuer { homeDomain } } } } }`;
    const res = await fetch(`${api.base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    const { data } = (await res.json()) as { data: { assets: { edges: { cursor: string; node: Record<string, unknown> }[] } } };
    expect(data.assets.edges.map((e) => e.node)).toEqual([
      {
        assetIssuer: OTHER_ISSUER,
        pagingToken: `USD_${OTHER_ISSUER}_credit_alphanum4`,
        toml: 'https://xim.com/.well-known/stellar.toml',
        flags: { authRequired: false },
        accounts: { unauthorized: 4 },
        balances: { authorized: '0.0000001' },
        claimableBalancesAmount: '0.0000000',
        issuer: { homeDomain: 'xim.com' },
      },
      {
        assetIssuer: ISSUER,
        pagingToken: `USD_${ISSUER}_credit_alphanum4`,
        toml: null,
        flags: { authRequired: true },
        accounts: { unauthorized: 4 },
        balances: { authorized: '0.0000001' },
        claimableBalancesAmount: '0.0000010',
        issuer: { homeDomain: '' },
      },
    ]);
    expect(data.assets.edges[0]?.cursor).toBe(`USD_${OTHER_ISSUER}_credit_alphanum4`);
    const bad = await fetch(`${api.base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ assets(assetIssuer: "nope") { edges { cursor } } }' }),
    });
    const { errors } = (await bad.json()) as { errors: { extensions: { code: string; extras?: { invalid_field: string } } }[] };
    expect(errors[0]?.extensions.code).toBe('bad_request');
    expect(errors[0]?.extensions.extras?.invalid_field).toBe('asset_issuer');
  });
});

// TestAssetStatsIssuerDoesNotExist: the stats of an issuer merged away are served, without flags or toml
describe('GET /assets of an issuer that does not exist', () => {
  let t: TestDatabase;
  let api: TestApi;

  beforeAll(async () => {
    t = await createTestDatabase();
    await insertStats(t, [{ ...usd, claimableBalances: 0, liquidityPools: 0, claimableAmount: '0', poolsAmount: '0' }]);
    api = await serveTestApi(t);
  });
  afterAll(async () => {
    await api?.close();
    await t?.drop();
  });

  it('is listed with zero flags and an empty toml link', async () => {
    const body = (await (await fetch(`${api.base}/assets`)).json()) as { _embedded: { records: unknown[] } };
    expect(body._embedded.records).toEqual([
      response({ ...usd, claimableBalances: 0, liquidityPools: 0, claimableAmount: '0', poolsAmount: '0' }, noFlags, { href: '' }),
    ]);
  });
});
