// The ingester takes the ledgers the embedded core closes with liquidity pools: pool state rows,
// pool trades, the pool effects (a revocation's too) and the history rows linking operations to pools.
import { Asset, type Keypair, Operation } from '@stellar/stellar-sdk/base';
import { describe, expect, it } from 'vitest';
import { effectTypeName } from '../../src/stellar/index.js';
import {
  ANY_PRICE,
  deposit,
  pay,
  poolIdOf,
  sellOffer,
  strictReceive,
  strictSend,
  trust,
  trustPool,
  withdraw,
} from '../core/support/dex.js';
import { Harness } from '../core/support/harness.js';
import { coreLedgerRows } from './support/core_rows.js';

describe('ingesting pools from the embedded core', () => {
  it('gives rows for every ledger, from objects and from bytes alike', async () => {
    const h = await Harness.create();
    const [gw, lp, payer, mm] = (await h.fund(100, 4)) as [Keypair, Keypair, Keypair, Keypair];
    const cur1 = new Asset('CUR1', gw.publicKey());
    const cur2 = new Asset('CUR2', gw.publicKey());
    const pool = poolIdOf(cur1, cur2);
    await h.succeed(gw, [Operation.setOptions({ setFlags: 2 })]);
    for (const kp of [lp, payer, mm]) await h.succeed(kp, [trust(cur1), trust(cur2)]);
    await h.succeed(gw, [pay(lp, cur1, 10000), pay(lp, cur2, 10000), pay(payer, cur1, 1000), pay(mm, cur2, 1000)]);
    await h.succeed(lp, [trustPool(cur1, cur2), deposit(pool, 1000, 1000, ...ANY_PRICE)]);
    // a worse book beside the pool: the pool trades
    await h.succeed(mm, [sellOffer(cur2, cur1, 100, 2, 1)]);
    await h.succeed(payer, [strictSend(cur1, 10, payer, cur2, 9), strictReceive(cur1, 100, payer, cur2, 9)]);
    await h.succeed(lp, [withdraw(pool, 500, 0, 0)]);
    // revoking redeems the other 500 shares into two claimable balances and removes the pool
    await h.succeed(gw, [Operation.allowTrust({ trustor: lp.publicKey(), assetCode: 'CUR1', authorize: 0 })]);

    const all = coreLedgerRows(h);

    const pools = all.flatMap((r) => r.state.liquidityPools);
    expect(pools.map((p) => [p.id, p.reserve_a, p.reserve_b, p.share_count, p.trustline_count]).at(-1)).toEqual([
      pool,
      510n,
      491n,
      500n,
      1n,
    ]);
    const trades = all.flatMap((r) => r.trades);
    expect(trades.map((t) => [t.seller_liquidity_pool_id, t.sold_amount, t.bought_amount, t.liquidity_pool_fee])).toEqual([
      [pool, 9n, 10n, 30],
      [pool, 9n, 10n, 30],
    ]);
    const effects = new Set(all.flatMap((r) => r.effects.map((e) => effectTypeName(e.type))));
    const names = [
      'liquidity_pool_created',
      'liquidity_pool_deposited',
      'liquidity_pool_trade',
      'liquidity_pool_withdrew',
      'liquidity_pool_revoked',
      'liquidity_pool_removed',
      'claimable_balance_created',
    ] as const;
    for (const name of names) {
      expect(effects.has(name), name).toBe(true);
    }
    expect(all.flatMap((r) => r.operationLiquidityPools).length).toBeGreaterThanOrEqual(5);
  });
});
