// Horizon's internal/actions/account_test.go (the /accounts list) as our test: its accounts,
// signers (Horizon's accounts_signers holds the master key too: here it is the master weight),
// trust lines, data and pool shares, and its expectations for each filter, the cursor, and every
// bad combination of parameters; then the list in GraphQL and Account.sponsoring, whose SQL
// statements do not grow with the number of parents.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../src/db/database.js';
import { migrate } from '../../../src/db/migrate.js';
import { postGraphQL, type Json, type TestApi, serveTestApi, getJson } from '../../support/api_server.js';
import { createServerDatabase, dropServerDatabase, testDbKind } from '../../support/database.js';
import { poolShareLine, seedLedger } from '../../support/seed.js';

const trustLineIssuer = 'GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H';
const accountOne = 'GABGMPEKKDWR2WFH5AJOZV5PDKLJEHGCR3Q24ALETWR5H3A7GI3YTS7V';
const accountTwo = 'GADTXHUTHIAESMMQ2ZWSTIIGBZRLHUCBLCHPLLUEIAWDEFRDC4SYDKOZ';
const signer = 'GCXKG6RN4ONIEPCMNFB732A436Z5PNDSRLGWK7GBLCMQLIFO4S7EYWVU';
const sponsor = 'GCO26ZSBD63TKYX45H2C7D2WOFWOUSG5BMTNC3BG4QMXM3PAYI6WHKVZ';
const dataSponsor = 'GC3C4AKRBQLHOJ45U4XG35ESVWRDECWO5XLDGYADO6DPR3L7KIDVUMML';
const POOL = 'cafebabedeadbeef000000000000000000000000000000000000000000000000';
const OTHER_POOL = '48672641c88264272787837f5c306f5ce93be3c2c7df68a092fbea55f5f4aa1d';

let db: Database;
let url: string | undefined;
let api: TestApi;
let closedAt1234 = '';
const statements: string[] = [];

const account = (id: string, masterWeight: number, extra: { sponsor?: string } = {}) => ({
  id,
  balance: 50000n,
  sequence: 648736n,
  subentryCount: 10,
  flags: 2,
  masterWeight,
  thresholdLow: 6,
  thresholdMedium: 7,
  thresholdHigh: 8,
  lastModifiedLedger: 1234,
  sponsor: extra.sponsor ?? null,
});

const trustLine = (accountId: string, code: string, flags: number) => ({
  accountId,
  assetType: 'credit_alphanum4',
  assetCode: code,
  assetIssuer: trustLineIssuer,
  balance: 10000n,
  limit: 123456789n,
  flags,
  lastModifiedLedger: 1234,
});

beforeAll(async () => {
  const onQuery = (sql: string) => statements.push(sql);
  if (testDbKind === 'postgres') {
    url = await createServerDatabase();
    db = await openDatabase({ kind: 'postgres', url }, { onQuery });
  } else {
    db = await openDatabase({ kind: 'pglite', inMemory: true }, { onQuery });
  }
  await migrate(db);
  await seedLedger(db, 1234, []);
  closedAt1234 = (await db.prisma.ledger.findUniqueOrThrow({ where: { sequence: 1234 } })).closedAt.toISOString().replace('.000Z', 'Z');
  // account1, account2, account3 (signer, sponsored by sponsor); every master weight is not zero
  // and, for Account.sponsoring, the sponsor's own account (master weight 0: it signs for no one)
  await db.prisma.account.createMany({
    data: [account(accountOne, 1), account(accountTwo, 5), account(signer, 5, { sponsor }), account(sponsor, 0)],
  });
  await db.prisma.signer.createMany({
    data: [
      { accountId: accountOne, signer, weight: 1 },
      { accountId: accountTwo, signer, weight: 2 },
    ],
  });
  await db.prisma.dataEntry.createMany({
    data: [
      { accountId: accountOne, name: 'test data', value: 'AAECAwQFBgcICQ==', lastModifiedLedger: 1234 },
      { accountId: accountTwo, name: 'test data2', value: 'CgsMDQ4PEBESEw==', lastModifiedLedger: 1234, sponsor: dataSponsor },
    ],
  });
  await db.prisma.trustLine.createMany({
    data: [trustLine(accountOne, 'EUR', 1), trustLine(accountTwo, 'USD', 0), poolShareLine(accountOne, POOL, 123)],
  });
  api = await serveTestApi({ db, target: { kind: 'pglite', inMemory: true }, drop: async () => {} });
});

afterAll(async () => {
  await api?.close();
  await db?.close();
  if (url) await dropServerDatabase(url);
});

const get = (path: string, status = 200): Promise<Json> => getJson(api.base, path, status);

const records = async (path: string): Promise<Json[]> => ((await get(path))._embedded as { records: Json[] }).records;
const ids = async (path: string): Promise<string[]> => (await records(path)).map((r) => r.account_id as string);

describe('GET /accounts (TestGetAccountsHandler*)', () => {
  it('by signer: the accounts it signs for, its own by its master key; then after a cursor', async () => {
    expect((await ids(`/accounts?signer=${signer}`)).sort()).toEqual([accountOne, accountTwo, signer].sort());
    expect((await ids(`/accounts?signer=${signer}&cursor=${accountOne}`)).sort()).toEqual([accountTwo, signer].sort());
    // no account has this signer (TestGetAccountsHandlerPageNoResults)
    expect(await ids(`/accounts?signer=${sponsor}`)).toEqual([]);
  });

  it('by sponsor: the sponsored account entry, or an account with a sponsored data entry', async () => {
    const page = await records(`/accounts?sponsor=${sponsor}`);
    expect(page.map((r) => r.id)).toEqual([signer]);
    expect(page[0]?.sponsor).toBe(sponsor);
    expect(await ids(`/accounts?sponsor=${dataSponsor}`)).toEqual([accountTwo]);
  });

  it('by asset: the accounts with a trust line to it, with their signers and data', async () => {
    const page = await records(`/accounts?asset=USD:${trustLineIssuer}`);
    expect(page.map((r) => r.account_id)).toEqual([accountTwo]);
    const [result] = page;
    expect(result?.last_modified_time).toBe(closedAt1234);
    expect(result?.signers).toHaveLength(2);
    expect(result?.data).toHaveProperty('test data2');
    // Horizon lists the unauthorized USD line too (2 balances); the spec shows a line once authorized
    expect(result?.balances).toHaveLength(1);
    expect(await ids(`/accounts?asset=EUR:${trustLineIssuer}`)).toEqual([accountOne]);
  });

  it('by liquidity pool: the holders of its shares, the share balance as Horizon shows it', async () => {
    expect(await ids(`/accounts?liquidity_pool=${OTHER_POOL}`)).toEqual([]);
    const page = await records(`/accounts?liquidity_pool=${POOL}`);
    expect(page.map((r) => r.account_id)).toEqual([accountOne]);
    expect(page[0]?.last_modified_time).toBe(closedAt1234);
    const balances = page[0]?.balances as Json[];
    expect(balances).toHaveLength(3);
    expect(balances.find((b) => b.asset_type === 'liquidity_pool_shares')).toEqual({
      balance: '0.0000010',
      liquidity_pool_id: POOL,
      limit: '0.0000100',
      last_modified_ledger: 123,
      is_authorized: true,
      is_authorized_to_maintain_liabilities: true,
      asset_type: 'liquidity_pool_shares',
    });
  });

  it('pages by account id, the links keeping the filter', async () => {
    const first = await get(`/accounts?signer=${signer}&limit=2&order=desc`);
    const page = (first._embedded as { records: Json[] }).records.map((r) => r.id);
    expect(page).toEqual([signer, accountTwo].sort().reverse());
    const links = first._links as Record<string, { href: string }>;
    expect(links.next?.href).toBe(`${api.base}/accounts?cursor=${page[1]}&limit=2&order=desc&signer=${signer}`);
    expect(await ids((links.next?.href ?? '').slice(api.base.length))).toEqual([accountOne]);
  });

  it('takes any cursor text, as Horizon, but a NUL byte (no text the database compares): a 400 naming cursor', async () => {
    // every account id sorts after "G"
    expect(await ids(`/accounts?signer=${signer}&cursor=G`)).toEqual(await ids(`/accounts?signer=${signer}`));
    const problem = await get(`/accounts?signer=${signer}&cursor=%00`, 400);
    expect((problem.extras as Json).invalid_field).toBe('cursor');
  });

  const invalid = '/accounts?';
  it.each([
    ['no filter', ''],
    ['signer and asset', `signer=${accountOne}&asset=USD:${accountOne}`],
    ['signer and liquidity pool', `signer=${accountOne}&liquidity_pool=${OTHER_POOL}`],
    ['signer and sponsor', `signer=${accountOne}&sponsor=${accountTwo}`],
    ['asset and sponsor', `asset=USD:${accountOne}&sponsor=${accountTwo}`],
    ['asset and liquidity pool', `asset=USD:${accountOne}&liquidity_pool=${OTHER_POOL}`],
    ['sponsor and liquidity pool', `sponsor=${accountTwo}&liquidity_pool=${OTHER_POOL}`],
  ])('%s: Horizon’s invalid_accounts_params', async (_name, query) => {
    const problem = await get(invalid + query, 400);
    expect(problem).toMatchObject({
      type: 'https://stellar.org/horizon-errors/invalid_accounts_params',
      title: 'Invalid Accounts Parameters',
      status: 400,
      detail: 'Exactly one filter is required. Please ensure that you are including a signer, sponsor, asset, or liquidity pool filter.',
    });
    if (query !== '') expect((problem.extras as Json).invalid_field).toMatch(/,/);
  });

  it.each([
    ['filtering by native asset', 'asset=native', 'asset', "you can't filter by asset: native"],
    [
      'invalid asset',
      `asset_issuer=${accountOne}&asset=USDCOP:someissuer`,
      'asset',
      'Asset must be the string "native" or a string of the form "Code:IssuerAccountID" for issued assets.',
    ],
    ['invalid liquidity pool', 'liquidity_pool=USDCOP:someissuer', 'liquidity_pool', 'USDCOP:someissuer does not validate as sha256'],
    ['liquidity pool too short', 'liquidity_pool=48672641c882642727', 'liquidity_pool', '48672641c882642727 does not validate as sha256'],
    ['bad signer', 'signer=GBAD', 'signer', 'Account ID must start with `G` and contain 56 alphanum characters'],
    ['bad sponsor', `sponsor=${accountOne}X`, 'sponsor', 'Account ID must start with `G` and contain 56 alphanum characters'],
  ])('%s: a bad_request naming the parameter', async (_name, query, field, reason) => {
    const problem = await get(invalid + query, 400);
    expect(problem.type).toBe('https://stellar.org/horizon-errors/bad_request');
    expect(problem.extras).toEqual({ invalid_field: field, reason });
  });

  it('the root document links the list with its template', async () => {
    const root = await get('/');
    expect((root._links as Json).accounts).toEqual({
      href: `${api.base}/accounts{?signer,sponsor,asset,liquidity_pool,cursor,limit,order}`,
      templated: true,
    });
  });
});

const graphql = (query: string) => postGraphQL(api.base, query);

describe('accounts in GraphQL', () => {
  it('accounts(signer) with each account’s sponsoring, in a number of statements that does not grow with the page', async () => {
    const counts: number[] = [];
    for (const first of [1, 3]) {
      statements.length = 0;
      const { data, errors } = await graphql(
        `{ accounts(signer: "${signer}", first: ${first}) { edges { node { accountId sponsor sponsoring(first: 5) { edges { node { accountId } } } } } } }`,
      );
      expect(errors).toBeUndefined();
      expect((data?.accounts as { edges: unknown[] } | undefined)?.edges).toHaveLength(first);
      counts.push(statements.filter((sql) => /\bselect\b/i.test(sql)).length);
    }
    expect(counts[1]).toBe(counts[0]);
  });

  it('Account.sponsoring: the accounts it sponsors', async () => {
    const { data } = await graphql(
      `{ a: account(id: "${sponsor}") { sponsoring { edges { cursor node { accountId sponsor } } } } b: accounts(sponsor: "${dataSponsor}") { edges { node { accountId } } } }`,
    );
    expect(data?.a).toEqual({ sponsoring: { edges: [{ cursor: signer, node: { accountId: signer, sponsor } }] } });
    expect(data?.b).toEqual({ edges: [{ node: { accountId: accountTwo } }] });
  });

  it('two filters are Horizon’s coded error; a bad one names the argument', async () => {
    const both = await graphql(`{ accounts(signer: "${signer}", sponsor: "${sponsor}") { edges { cursor } } }`);
    expect(both.errors?.[0]?.extensions).toMatchObject({ code: 'invalid_accounts_params', extras: { invalid_field: 'signer,sponsor' } });
    const pool = await graphql('{ accounts(liquidityPool: "abc") { edges { cursor } } }');
    expect(pool.errors?.[0]?.extensions).toMatchObject({ code: 'bad_request', extras: { invalid_field: 'liquidityPool' } });
  });
});
