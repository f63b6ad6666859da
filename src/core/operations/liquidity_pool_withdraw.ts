// liquidity_pool_withdraw (stellar-core LiquidityPoolWithdrawOpFrame, protocol ≥ 18): redeems pool
// shares for each reserve's share, rounded down, each at least its minimum.
import { poolIdHex, poolWithdrawalAmount, type AssetValue } from '../../stellar/index.js';
import { liquidityPoolKey, trustLineKey } from '../ledger/entries.js';
import type { LiquidityPoolRec, TrustLineRec } from '../ledger/entries.js';
import { opInner } from '../ledger/results.js';
import type { OperationDef, OpContext, OpOutcome } from './context.js';
import { addAccountBalance, addTrustLineBalance, loadAccount, loadTrustLineView, opBody } from './helpers.js';
import { viewAddBalanceExact } from './liabilities.js';

const T = 'liquidityPoolWithdraw';
const fail = (code: string): OpOutcome => ({ success: false, result: opInner(T, code) });

/** stellar-core tryAddAssetBalance: null, or the failure code. */
function credit(ctx: OpContext, asset: AssetValue, minAmount: bigint, amount: bigint): string | null {
  if (amount < minAmount) return 'liquidityPoolWithdrawUnderMinimum';
  if (asset.type === 'native') {
    return addAccountBalance(ctx.header, loadAccount(ctx.ltx, ctx.sourceId)!, amount) ? null : 'liquidityPoolWithdrawLineFull';
  }
  // the line exists beside the shares line, and may at least maintain liabilities (a revoked one
  // has had its shares redeemed), else adding throws as stellar-core's checkAuthorization does
  const line = loadTrustLineView(ctx.ltx, ctx.sourceId, asset);
  if (!line) throw new Error('a pool asset trust line is missing');
  return viewAddBalanceExact(line, amount) ? null : 'liquidityPoolWithdrawLineFull';
}

export const liquidityPoolWithdraw: OperationDef = {
  threshold: () => 'medium',
  supported: true,
  checkValid(op) {
    const b = opBody(op, T).liquidityPoolWithdrawOp;
    return b.amount <= 0n || b.minAmountA < 0n || b.minAmountB < 0n ? opInner(T, 'liquidityPoolWithdrawMalformed') : null;
  },
  apply(ctx) {
    const b = opBody(ctx.op, T).liquidityPoolWithdrawOp;
    const poolId = poolIdHex(b.liquidityPoolId);
    const shares = ctx.ltx.load<TrustLineRec>(trustLineKey(ctx.sourceId, { type: 'pool_share', poolId }));
    if (!shares) return fail('liquidityPoolWithdrawNoTrust');
    if (shares.balance - shares.sellingLiabilities < b.amount) return fail('liquidityPoolWithdrawUnderfunded');
    const pool = ctx.ltx.load<LiquidityPoolRec>(liquidityPoolKey(poolId));
    if (!pool) throw new Error('a pool share trust line without its pool');
    const amountA = poolWithdrawalAmount(b.amount, pool.totalPoolShares, pool.reserveA);
    const failA = credit(ctx, pool.assetA, b.minAmountA, amountA);
    if (failA) return fail(failA);
    const amountB = poolWithdrawalAmount(b.amount, pool.totalPoolShares, pool.reserveB);
    const failB = credit(ctx, pool.assetB, b.minAmountB, amountB);
    if (failB) return fail(failB);
    if (!addTrustLineBalance(shares, -b.amount)) throw new Error('pool withdrawal invalid');
    // amounts are at most their reserves, shares at most the total
    pool.totalPoolShares -= b.amount;
    pool.reserveA -= amountA;
    pool.reserveB -= amountB;
    return { success: true, result: opInner(T, 'liquidityPoolWithdrawSuccess') };
  },
};
