// End to end for a liquidity pool the embedded core made, through @stellar/stellar-sdk: a pool
// created (change_trust to its shares), deposited into, swapped through by a path payment and
// withdrawn. After each step the API's pool, balances, subentries and share lines equal the
// core's state, and the SDK's call builders read the pool, its trades and its operations.
import {
  Asset,
  getLiquidityPoolId,
  Horizon,
  Keypair,
  LiquidityPoolAsset,
  LiquidityPoolFeeV18,
  Operation,
  type xdr,
} from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccountAsCore } from '../support/core_accounts.js';
import { startTestNetwork, type TestNetwork } from '../support/network.js';

let network: TestNetwork;
let server: Horizon.Server;
const issuer = Keypair.random();
const lp = Keypair.random();
const trader = Keypair.random();
const USD = new Asset('USD', issuer.publicKey());
const share = new LiquidityPoolAsset(Asset.native(), USD, LiquidityPoolFeeV18);
// the SDK's own pool id (raw bytes), as a wallet computes it
const poolId = Buffer.from(
  getLiquidityPoolId('constant_product', { assetA: Asset.native(), assetB: USD, fee: LiquidityPoolFeeV18 }),
).toString('hex');

async function submit(signer: Keypair, operations: xdr.Operation[]): Promise<void> {
  await network.submitOperations(signer, operations);
  const [last] = (await server.transactions().forAccount(signer.publicKey()).order('desc').limit(1).call()).records;
  expect(last?.successful).toBe(true);
}

/** The API's pool against the core's entry. */
async function expectPoolAsCore() {
  const api = await server.liquidityPools().liquidityPoolId(poolId).call();
  const core = [...network.core.entries()].find((e) => e.type === 'liquidityPool' && e.poolId === poolId);
  if (core?.type !== 'liquidityPool') throw new Error('no pool in the core');
  const stroops = (v: string) => BigInt(Math.round(Number(v) * 1e7));
  expect(api.reserves.map((r) => stroops(r.amount))).toEqual([core.reserveA, core.reserveB]);
  expect(stroops(api.total_shares)).toBe(core.totalPoolShares);
  expect(BigInt(api.total_trustlines)).toBe(core.poolSharesTrustLineCount);
  expect(api.fee_bp).toBe(core.fee);
  return api;
}

beforeAll(async () => {
  network = await startTestNetwork();
  server = new Horizon.Server(network.url, { allowHttp: true });
  await network.fund(issuer, lp, trader);
  await submit(lp, [Operation.changeTrust({ asset: USD })]);
  await submit(trader, [Operation.changeTrust({ asset: USD })]);
  await submit(issuer, [Operation.payment({ destination: lp.publicKey(), asset: USD, amount: '500' })]);
}, 120_000);

afterAll(async () => {
  await network?.stop();
});

describe('a liquidity pool on the embedded core, through the SDK', () => {
  it('change_trust to the pool shares creates the pool; the share line takes two reserves', async () => {
    await submit(lp, [Operation.changeTrust({ asset: share })]);
    const pool = await expectPoolAsCore();
    expect(pool.reserves.map((r) => r.amount)).toEqual(['0.0000000', '0.0000000']);
    const account = await expectAccountAsCore(network, server, lp);
    // the USD line (1) and the share line (2)
    expect(account.subentry_count).toBe(3);
    expect(account.balances.some((b) => b.asset_type === 'liquidity_pool_shares')).toBe(true);
  });

  it('deposit: the reserves at the price given, shares = sqrt(a × b)', async () => {
    await submit(lp, [
      Operation.liquidityPoolDeposit({ liquidityPoolId: poolId, maxAmountA: '100', maxAmountB: '200', minPrice: '0.5', maxPrice: '0.5' }),
    ]);
    const pool = await expectPoolAsCore();
    expect(pool.reserves.map((r) => r.amount)).toEqual(['100.0000000', '200.0000000']);
    // stellar-core's initial deposit: floor(sqrt(100e7 × 200e7)) stroops of shares
    expect(pool.total_shares).toBe('141.4213562');
    const lines = (await expectAccountAsCore(network, server, lp)).balances;
    const shares = lines.find((b) => b.asset_type === 'liquidity_pool_shares') as Horizon.HorizonApi.BalanceLineLiquidityPool;
    expect(shares.balance).toBe('141.4213562');
  });

  it('a path payment swaps through the pool (its only source of USD) and is a pool trade', async () => {
    await submit(trader, [
      Operation.pathPaymentStrictSend({
        sendAsset: Asset.native(),
        sendAmount: '10',
        destination: trader.publicKey(),
        destAsset: USD,
        destMin: '1',
        path: [],
      }),
    ]);
    const pool = await expectPoolAsCore();
    expect(pool.reserves[0]!.amount).toBe('110.0000000');
    const trades = await server.trades().forLiquidityPool(poolId).call();
    expect(trades.records).toHaveLength(1);
    const trade = trades.records[0]!;
    expect(trade).toMatchObject({ trade_type: 'liquidity_pool', liquidity_pool_fee_bp: 30 });
    // the constant product less the 30 bps fee: 200 − 100 × 200 / (100 + 10 × 0.997), rounded down
    const usd = (await expectAccountAsCore(network, server, trader)).balances.find((b) => b.asset_type === 'credit_alphanum4')!;
    expect(usd.balance).toBe('18.1322178');
    const sides = [
      [trade.base_asset_type, trade.base_amount],
      [trade.counter_asset_type, trade.counter_amount],
    ].sort();
    expect(sides).toEqual([
      ['credit_alphanum4', '18.1322178'],
      ['native', '10.0000000'],
    ]);
  });

  it('withdraw: all shares back, the pool empty and still there while the share line is', async () => {
    await submit(lp, [
      Operation.liquidityPoolWithdraw({ liquidityPoolId: poolId, amount: '141.4213562', minAmountA: '1', minAmountB: '1' }),
    ]);
    const pool = await expectPoolAsCore();
    expect(pool.total_shares).toBe('0.0000000');
    expect(pool.reserves.map((r) => r.amount)).toEqual(['0.0000000', '0.0000000']);
    const ops = await server.operations().forLiquidityPool(poolId).call();
    expect(ops.records.map((o) => o.type)).toEqual([
      'change_trust',
      'liquidity_pool_deposit',
      'path_payment_strict_send',
      'liquidity_pool_withdraw',
    ]);
    await expectAccountAsCore(network, server, lp);
  });

  it('the last share line removed deletes the pool', async () => {
    await submit(lp, [Operation.changeTrust({ asset: share, limit: '0' })]);
    await expect(server.liquidityPools().liquidityPoolId(poolId).call()).rejects.toThrow();
    expect([...network.core.entries()].some((e) => e.type === 'liquidityPool')).toBe(false);
    expect((await expectAccountAsCore(network, server, lp)).subentry_count).toBe(1);
  });
});
