// Horizon's liquidity pool effects (effects_processor.go): deposits, withdrawals, trades against a
// pool, revocations (a trustor's pool shares turned into claimable balances), and pools created or
// removed by any operation's changes. `liquidity_pool` is the pool after the operation (before it,
// when the operation removed it).
import { xdr } from '@stellar/stellar-sdk/base';
import { balanceIdHex, poolIdHex } from '../../stellar/index.js';
import type { Details } from '../rows.js';
import { amountOf, canonicalAsset, liquidityPoolDelta, type PoolDelta } from './details.js';
import type { EffectList } from './effect_list.js';
import { addBalanceCreatedEffects, claimableBalanceOf } from './effects_claimable_balances.js';

const liquidityPoolOf = (entry: xdr.LedgerEntry): xdr.LiquidityPoolEntry =>
  xdr.expectUnionVariant(entry.data, 'liquidityPool').liquidityPool;

/** Horizon's liquidityPoolDetails */
export function liquidityPoolDetails(pool: xdr.LiquidityPoolEntry): Details {
  const product = pool.body.constantProduct;
  const params = product.params;
  return {
    id: poolIdHex(pool.liquidityPoolId),
    fee_bp: params.fee,
    type: 'constant_product',
    total_trustlines: product.poolSharesTrustLineCount.toString(),
    total_shares: amountOf(product.totalPoolShares),
    reserves: [
      { asset: canonicalAsset(params.assetA), amount: amountOf(product.reserveA) },
      { asset: canonicalAsset(params.assetB), amount: amountOf(product.reserveB) },
    ],
  };
}

function requirePoolDelta(list: EffectList, id: xdr.PoolId): PoolDelta {
  const delta = liquidityPoolDelta(list.changes, id);
  if (!delta) throw new Error(`operation ${list.input.operationId}: no change of liquidity pool ${poolIdHex(id)}`);
  return delta;
}

function reserves(pool: xdr.LiquidityPoolEntry, a: bigint, b: bigint): Details[] {
  const params = pool.body.constantProduct.params;
  return [
    { asset: canonicalAsset(params.assetA), amount: amountOf(a) },
    { asset: canonicalAsset(params.assetB), amount: amountOf(b) },
  ];
}

export function addDepositEffect(list: EffectList, op: xdr.LiquidityPoolDepositOp): void {
  const { pool, reserveA, reserveB, shares } = requirePoolDelta(list, op.liquidityPoolId);
  list.addSource('liquidity_pool_deposited', {
    liquidity_pool: liquidityPoolDetails(pool),
    reserves_deposited: reserves(pool, reserveA, reserveB),
    shares_received: amountOf(shares),
  });
}

export function addWithdrawEffect(list: EffectList, op: xdr.LiquidityPoolWithdrawOp): void {
  const { pool, reserveA, reserveB, shares } = requirePoolDelta(list, op.liquidityPoolId);
  list.addSource('liquidity_pool_withdrew', {
    liquidity_pool: liquidityPoolDetails(pool),
    reserves_received: reserves(pool, -reserveA, -reserveB),
    shares_redeemed: amountOf(-shares),
  });
}

/** a claim atom of a trade against a pool, from the operation's source's point of view */
export function addPoolTradeEffect(list: EffectList, claim: xdr.ClaimLiquidityAtom): void {
  const { pool } = requirePoolDelta(list, claim.liquidityPoolId);
  list.addSource('liquidity_pool_trade', {
    liquidity_pool: liquidityPoolDetails(pool),
    sold: { asset: canonicalAsset(claim.assetSold), amount: amountOf(claim.amountSold) },
    bought: { asset: canonicalAsset(claim.assetBought), amount: amountOf(claim.amountBought) },
  });
}

/**
 * After allow_trust and set_trust_line_flags: when revoking authorization redeemed a trustor's pool
 * shares, the claimable balances created for the reserves (their effects first), then
 * liquidity_pool_revoked for the first pool changed.
 */
export function addPoolRevokedEffects(list: EffectList): void {
  const delta = liquidityPoolDelta(list.changes, null);
  if (!delta) return;
  const balanceByAsset = new Map<string, string>();
  for (const change of list.changes) {
    if (change.type !== 'claimableBalance' || change.pre !== null || change.post === null) continue;
    const balance = claimableBalanceOf(change.post);
    balanceByAsset.set(canonicalAsset(balance.asset), balanceIdHex(balance.balanceId));
    addBalanceCreatedEffects(list, balance);
  }
  if (balanceByAsset.size === 0) return;
  const revoked: Details[] = [];
  for (const reserve of reserves(delta.pool, -delta.reserveA, -delta.reserveB)) {
    const balanceId = balanceByAsset.get(reserve.asset as string);
    if (balanceId !== undefined) revoked.push({ ...reserve, claimable_balance_id: balanceId });
  }
  list.addSource('liquidity_pool_revoked', {
    liquidity_pool: liquidityPoolDetails(delta.pool),
    reserves_revoked: revoked,
    shares_revoked: amountOf(-delta.shares),
  });
}

/** liquidity_pool_created and liquidity_pool_removed, for the pools any operation created or removed */
export function addPoolEntryEffects(list: EffectList): void {
  for (const change of list.changes) {
    if (change.type !== 'liquidityPool') continue;
    if (change.pre === null && change.post !== null) {
      list.addSource('liquidity_pool_created', { liquidity_pool: liquidityPoolDetails(liquidityPoolOf(change.post)) });
    } else if (change.pre !== null && change.post === null) {
      list.addSource('liquidity_pool_removed', { liquidity_pool_id: poolIdHex(liquidityPoolOf(change.pre).liquidityPoolId) });
    }
  }
}
