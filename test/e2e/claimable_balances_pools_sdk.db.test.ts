// @stellar/stellar-sdk unchanged against Zenith's claimable balances and liquidity pools, on seeded
// rows (the ingestion of their state is tested apart): every call builder of both, the records'
// fields and links, the operations, transactions and effects of a balance and a pool, a stream,
// and the errors as the SDK throws them.
import { Asset, Horizon, Keypair, NetworkError, NotFoundError } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toid } from '../../src/stellar/toid.js';
import { serveTestApi, type TestApi } from '../support/api_server.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { seedLedger } from '../support/seed.js';
import { balanceId, linkHistory, seedClaimableBalance, seedPool } from '../support/seed_balances_pools.js';

const C3C4 = 'GC3C4AKRBQLHOJ45U4XG35ESVWRDECWO5XLDGYADO6DPR3L7KIDVUMML';
const BRPY = 'GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H';
const usd = new Asset('USD', BRPY);
const eur = new Asset('EUR', BRPY);
const BALANCE = balanceId(4, 0, 0);

let test: TestDatabase;
let api: TestApi;
let server: Horizon.Server;
let lp1: string;
let lp2: string;
const holder = Keypair.random().publicKey();

beforeAll(async () => {
  test = await createTestDatabase();
  // the openapi example's predicate: claimable before one time and not before another
  const predicate = {
    and: [
      { abs_before: '2020-12-30T23:03:56Z', abs_before_epoch: '1609369436' },
      { not: { abs_before: '2020-12-30T23:05:56Z', abs_before_epoch: '1609369556' } },
    ],
  };
  await seedClaimableBalance(test.db, { id: BALANCE, account: C3C4, ledger: 7, asset: usd.toString(), flags: 1, predicate });
  await seedClaimableBalance(test.db, { id: balanceId(1, 0, 0), account: BRPY, ledger: 6 });
  lp1 = await seedPool(test.db, Asset.native(), 100n, usd, 200n);
  lp2 = await seedPool(test.db, eur, 300n, usd, 400n);
  await test.db.prisma.trustLine.create({
    data: {
      accountId: holder,
      assetType: 'liquidity_pool_shares',
      assetCode: '',
      assetIssuer: '',
      liquidityPoolId: lp2,
      balance: 1000n,
      limit: 1000n,
      flags: 0,
      lastModifiedLedger: 7,
    },
  });
  await seedLedger(test.db, 7, [
    { source: C3C4, operations: [{ type: 14, source: C3C4, details: { asset: usd.toString(), amount: '0.0000010' }, participants: [] }] },
    {
      source: holder,
      operations: [
        {
          type: 22,
          source: holder,
          details: { liquidity_pool_id: lp2 },
          participants: [],
          effects: [{ account: holder, type: 90, details: { shares_received: '0.0001000' } }],
        },
      ],
    },
  ]);
  await linkHistory(test.db, { operationId: toid(7, 1, 1), transactionId: toid(7, 1, 0), claimableBalanceId: BALANCE });
  await linkHistory(test.db, { operationId: toid(7, 2, 1), transactionId: toid(7, 2, 0), liquidityPoolId: lp2 });
  api = await serveTestApi(test);
  server = new Horizon.Server(api.base, { allowHttp: true });
});

/** the field a 400 names: the SDK's NetworkError carries the problem+json as its response */
async function badRequestField(call: Promise<unknown>): Promise<unknown> {
  const error = (await call.then(
    () => null,
    (failure: unknown) => failure,
  )) as NetworkError | null;
  expect(error).toBeInstanceOf(NetworkError);
  const problem = error?.getResponse() as { status?: number; extras?: { invalid_field?: string } } | undefined;
  expect(problem?.status).toBe(400);
  return problem?.extras?.invalid_field;
}

// the SDK's record types leave out a few of Horizon's fields and the links it turns into calls
interface Linked {
  last_modified_time: string;
  flags: { clawback_enabled: boolean };
  operations(): Promise<{ records: { id: string; type: string }[] }>;
  transactions(): Promise<{ records: { paging_token: string }[] }>;
}

afterAll(async () => {
  await api.close();
  await test.drop();
});

describe('@stellar/stellar-sdk: claimable balances', () => {
  it('claimableBalances().claimableBalance(id): every field of the record', async () => {
    const balance = (await server.claimableBalances().claimableBalance(BALANCE).call()) as Horizon.ServerApi.ClaimableBalanceRecord &
      Linked;
    expect(balance.id).toBe(BALANCE);
    expect(balance.paging_token).toBe(`7-${BALANCE}`);
    expect(balance.asset).toBe(usd.toString());
    expect(balance.amount).toBe('0.0000010');
    expect(balance.sponsor).toBe(C3C4);
    expect(balance.last_modified_ledger).toBe(7);
    expect(balance.last_modified_time).toBe('2026-01-01T00:00:35Z');
    expect(balance.claimants).toEqual([
      {
        destination: C3C4,
        predicate: {
          and: [
            { abs_before: '2020-12-30T23:03:56Z', abs_before_epoch: '1609369436' },
            { not: { abs_before: '2020-12-30T23:05:56Z', abs_before_epoch: '1609369556' } },
          ],
        },
      },
    ]);
    expect(balance.flags).toEqual({ clawback_enabled: true });
    // the record's links, followed by the SDK
    const operations = await balance.operations();
    expect(operations.records.map((op) => op.id)).toEqual([String(toid(7, 1, 1))]);
    const transactions = await balance.transactions();
    expect(transactions.records.map((tx) => tx.paging_token)).toEqual([String(toid(7, 1, 0))]);
  });

  it('claimableBalances().claimant(), .sponsor(), .asset(), and paging with next()', async () => {
    expect((await server.claimableBalances().claimant(C3C4).call()).records.map((b) => b.id)).toEqual([BALANCE]);
    expect((await server.claimableBalances().sponsor(C3C4).call()).records.map((b) => b.id)).toEqual([BALANCE]);
    expect((await server.claimableBalances().asset(Asset.native()).call()).records.map((b) => b.id)).toEqual([balanceId(1, 0, 0)]);
    expect((await server.claimableBalances().asset(usd).call()).records.map((b) => b.id)).toEqual([BALANCE]);
    const first = await server.claimableBalances().limit(1).call();
    expect(first.records.map((b) => b.id)).toEqual([balanceId(1, 0, 0)]);
    const second = await first.next();
    expect(second.records.map((b) => b.id)).toEqual([BALANCE]);
    expect((await second.next()).records).toEqual([]);
  });

  it('operations().forClaimableBalance(), transactions().forClaimableBalance()', async () => {
    const operations = await server.operations().forClaimableBalance(BALANCE).call();
    expect(operations.records.map((op) => op.type)).toEqual(['create_claimable_balance']);
    const transactions = await server.transactions().forClaimableBalance(BALANCE).call();
    expect(transactions.records).toHaveLength(1);
  });

  it('throws NotFoundError for an unknown balance and a 400 for a malformed one', async () => {
    await expect(server.claimableBalances().claimableBalance(balanceId(9)).call()).rejects.toBeInstanceOf(NotFoundError);
    expect(await badRequestField(server.claimableBalances().claimableBalance('0000001112122').call())).toBe('id');
  });
});

describe('@stellar/stellar-sdk: liquidity pools', () => {
  it('liquidityPools().liquidityPoolId(id): every field of the record', async () => {
    const pool = (await server.liquidityPools().liquidityPoolId(lp2).call()) as Horizon.ServerApi.LiquidityPoolRecord & Linked;
    expect(pool).toMatchObject({
      id: lp2,
      paging_token: lp2,
      fee_bp: 30,
      type: 'constant_product',
      total_trustlines: '12345',
      total_shares: '0.0067890',
      reserves: [
        { asset: eur.toString(), amount: '0.0000300' },
        { asset: usd.toString(), amount: '0.0000400' },
      ],
      last_modified_ledger: 123,
    });
    const operations = await pool.operations();
    expect(operations.records.map((op) => op.type)).toEqual(['liquidity_pool_deposit']);
    const transactions = await pool.transactions();
    expect(transactions.records).toHaveLength(1);
  });

  it('liquidityPools().forAssets(), .forAccount(), and paging', async () => {
    expect((await server.liquidityPools().forAssets(Asset.native(), usd).call()).records.map((p) => p.id)).toEqual([lp1]);
    expect((await server.liquidityPools().forAssets(usd).call()).records.map((p) => p.id)).toEqual([lp1, lp2].sort());
    expect((await server.liquidityPools().forAccount(holder).call()).records.map((p) => p.id)).toEqual([lp2]);
    const first = await server.liquidityPools().limit(1).call();
    const second = await first.next();
    expect([...first.records, ...second.records].map((p) => p.id)).toEqual([lp1, lp2].sort());
  });

  it('operations(), transactions(), effects().forLiquidityPool()', async () => {
    expect((await server.operations().forLiquidityPool(lp2).call()).records.map((op) => op.id)).toEqual([String(toid(7, 2, 1))]);
    expect((await server.transactions().forLiquidityPool(lp2).call()).records).toHaveLength(1);
    const effects = await server.effects().forLiquidityPool(lp2).call();
    expect(effects.records.map((effect) => effect.type)).toEqual(['liquidity_pool_deposited']);
  });

  it('streams a pool’s effects', async () => {
    const received: string[] = [];
    const close = server
      .effects()
      .forLiquidityPool(lp2)
      .stream({ onmessage: (record) => void received.push((record as unknown as { paging_token: string }).paging_token) });
    try {
      for (let i = 0; i < 100 && received.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(received).toEqual([`${toid(7, 2, 1)}-1`]);
    } finally {
      close();
    }
  });

  it('throws NotFoundError for an unknown pool, a 400 for too many reserves', async () => {
    await expect(server.liquidityPools().liquidityPoolId('1'.repeat(64)).call()).rejects.toBeInstanceOf(NotFoundError);
    expect(await badRequestField(server.liquidityPools().forAssets(Asset.native(), usd, eur).call())).toBe('reserves');
  });
});
