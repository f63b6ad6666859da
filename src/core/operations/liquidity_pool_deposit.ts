// liquidity_pool_deposit (stellar-core LiquidityPoolDepositOpFrame, protocol ≥ 18): deposits up to
// both maxima into a pool the source holds a shares line of, at a price within its bounds, for
// pool shares (src/stellar/pool_math.ts poolDeposit).
import { INT64_MAX, poolDeposit, poolIdHex, type AssetValue, type PoolDepositFailure } from '../../stellar/index.js';
import { liquidityPoolKey, trustLineKey } from '../ledger/entries.js';
import type { AccountRec, LiquidityPoolRec, TrustLineRec } from '../ledger/entries.js';
import { opInner } from '../ledger/results.js';
import type { OperationDef, OpContext, OpOutcome } from './context.js';
import {
  addAccountBalance,
  addTrustLineBalance,
  availableBalance,
  loadAccount,
  loadTrustLineView,
  opBody,
  viewAuthorized,
  type TrustLineView,
} from './helpers.js';
import { viewAddBalanceExact, viewAvailableBalance } from './liabilities.js';

const T = 'liquidityPoolDeposit';
const fail = (code: string): OpOutcome => ({ success: false, result: opInner(T, code) });

const FAILURE_CODES: Record<PoolDepositFailure, string> = {
  underfunded: 'liquidityPoolDepositUnderfunded',
  badPrice: 'liquidityPoolDepositBadPrice',
  lineFull: 'liquidityPoolDepositLineFull',
  poolFull: 'liquidityPoolDepositPoolFull',
};

/** The source's holding of a pool asset: its account for native, else its line (an issuer's is implicit). */
type Holding = { native: AccountRec } | { line: TrustLineView };

function holding(ctx: OpContext, asset: AssetValue): Holding {
  if (asset.type === 'native') return { native: loadAccount(ctx.ltx, ctx.sourceId)! };
  const line = loadTrustLineView(ctx.ltx, ctx.sourceId, asset);
  // a shares line exists only beside lines of both assets
  if (!line) throw new Error('Invalid ledger state');
  return { line };
}

const available = (ctx: OpContext, h: Holding): bigint =>
  'native' in h ? availableBalance(ctx.header, h.native) : viewAvailableBalance(h.line);

function debit(ctx: OpContext, h: Holding, amount: bigint): void {
  const ok = 'native' in h ? addAccountBalance(ctx.header, h.native, -amount) : viewAddBalanceExact(h.line, -amount);
  if (!ok) throw new Error('insufficient balance');
}

export const liquidityPoolDeposit: OperationDef = {
  threshold: () => 'medium',
  supported: true,
  checkValid(op) {
    const b = opBody(op, T).liquidityPoolDepositOp;
    const { minPrice, maxPrice } = b;
    const malformed =
      b.maxAmountA <= 0n ||
      b.maxAmountB <= 0n ||
      minPrice.n <= 0 ||
      minPrice.d <= 0 ||
      maxPrice.n <= 0 ||
      maxPrice.d <= 0 ||
      BigInt(minPrice.n) * BigInt(maxPrice.d) > BigInt(minPrice.d) * BigInt(maxPrice.n);
    return malformed ? opInner(T, 'liquidityPoolDepositMalformed') : null;
  },
  apply(ctx) {
    const b = opBody(ctx.op, T).liquidityPoolDepositOp;
    const poolId = poolIdHex(b.liquidityPoolId);
    const shares = ctx.ltx.load<TrustLineRec>(trustLineKey(ctx.sourceId, { type: 'pool_share', poolId }));
    if (!shares) return fail('liquidityPoolDepositNoTrust');
    const pool = ctx.ltx.load<LiquidityPoolRec>(liquidityPoolKey(poolId));
    if (!pool) throw new Error('a pool share trust line without its pool');
    const a = holding(ctx, pool.assetA);
    const bh = holding(ctx, pool.assetB);
    if (('line' in a && !viewAuthorized(a.line)) || ('line' in bh && !viewAuthorized(bh.line))) {
      return fail('liquidityPoolDepositNotAuthorized');
    }
    const d = poolDeposit({
      maxAmountA: b.maxAmountA,
      maxAmountB: b.maxAmountB,
      minPrice: b.minPrice,
      maxPrice: b.maxPrice,
      reserveA: pool.reserveA,
      reserveB: pool.reserveB,
      totalPoolShares: pool.totalPoolShares,
      availableA: available(ctx, a),
      availableB: available(ctx, bh),
      availableLimitPoolShares: shares.limit - shares.balance - shares.buyingLiabilities,
    });
    if (!d.ok) return fail(FAILURE_CODES[d.failure]);
    debit(ctx, a, d.amountA);
    debit(ctx, bh, d.amountB);
    if (!addTrustLineBalance(shares, d.poolShares)) throw new Error('insufficient pool share limit');
    // poolDeposit has checked that none of these passes int64
    pool.reserveA += d.amountA;
    pool.reserveB += d.amountB;
    pool.totalPoolShares += d.poolShares;
    if (pool.reserveA > INT64_MAX || pool.reserveB > INT64_MAX || pool.totalPoolShares > INT64_MAX) {
      throw new Error('insufficient liquidity pool limit');
    }
    return { success: true, result: opInner(T, 'liquidityPoolDepositSuccess') };
  },
};
