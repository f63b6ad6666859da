// The constant-product pools of CAP-38. First the exchange as Horizon computes it
// (exp/orderbook/pools.go: CalculatePoolPayout, CalculatePoolExpectation), with its rounding
// slippage: how far, in basis points, the rounded amount is from the exact one. Horizon keeps a
// pool trade's slippage and leaves trades of 1000 bps or more out of trade aggregations. The
// 256-bit arithmetic of pools.go is exact on BigInt; a division by zero gives 0 as uint256's does.
// Then stellar-core's arithmetic, which the embedded core applies: the exchange (the same
// formulas), deposits and withdrawals.
import { bigDivide } from './exchange_math.js';
import { INT64_MAX } from './int64.js';
import type { Price } from './price.js';

/** basis points in one (fees and slippage are in basis points) */
const MAX_BPS = 10_000n;

export interface PoolExchange {
  /** the amount paid out (payout) or to deposit (expectation) */
  amount: bigint;
  /** rounding slippage in basis points (0 unless asked for and the division was not exact) */
  slippageBps: bigint;
  /** false when pools.go's `ok` is false: an overflow, an empty pool, a payout of nothing */
  ok: boolean;
}

const FAILED: PoolExchange = { amount: 0n, slippageBps: 0n, ok: false };

/** uint256 division: x / 0 is 0 */
const div = (x: bigint, y: bigint): bigint => (y === 0n ? 0n : x / y);

/** |unrounded − rounded| / unrounded in basis points, both upscaled by 10^4 (pools.go's S) */
function slippage(numer: bigint, denom: bigint, result: bigint): bigint {
  const unrounded = div(numer * MAX_BPS, denom);
  const rounded = result * MAX_BPS;
  const difference = unrounded > rounded ? unrounded - rounded : rounded - unrounded;
  return div(div(difference * MAX_BPS, unrounded), 100n);
}

/**
 * The amount of reserve B a pool pays out for `received` of reserve A:
 * y = floor[(1 − F) Y x / (X + x − F x)].
 */
export function poolPayout(reserveA: bigint, reserveB: bigint, received: bigint, feeBps: number, withSlippage: boolean): PoolExchange {
  const fee = BigInt(feeBps);
  if (fee < 0n || fee >= MAX_BPS) return FAILED;
  if (received > INT64_MAX - reserveA) return FAILED;
  const f = MAX_BPS - fee;
  const denom = reserveA * MAX_BPS + received * f;
  if (denom === 0n) return FAILED;
  const numer = reserveB * received * f;
  const result = numer / denom;
  let slippageBps = 0n;
  let ok = true;
  if (withSlippage && numer % denom !== 0n) {
    slippageBps = slippage(numer, denom, result);
    ok = slippageBps <= INT64_MAX;
  }
  ok = ok && result <= INT64_MAX && result > 0n;
  return { amount: result, slippageBps, ok };
}

/**
 * The amount of reserve A to deposit into a pool to get `disbursed` of reserve B:
 * x = ceil[X y / ((Y − y)(1 − F))].
 */
export function poolExpectation(
  reserveA: bigint,
  reserveB: bigint,
  disbursed: bigint,
  feeBps: number,
  withSlippage: boolean,
): PoolExchange {
  const fee = BigInt(feeBps);
  if (fee < 0n || fee >= MAX_BPS) return FAILED;
  if (disbursed >= reserveB) return FAILED;
  const f = MAX_BPS - fee;
  const denom = (reserveB - disbursed) * f;
  if (denom === 0n) return FAILED;
  const numer = reserveA * disbursed * MAX_BPS;
  let result = numer / denom;
  let slippageBps = 0n;
  let ok = true;
  if (numer % denom !== 0n) {
    result += 1n;
    if (withSlippage) {
      slippageBps = slippage(numer, denom, result);
      ok = slippageBps <= INT64_MAX;
    }
  }
  ok = ok && result <= INT64_MAX && result <= INT64_MAX - reserveA;
  return { amount: result, slippageBps, ok };
}

// ---- stellar-core's pool arithmetic (OfferExchange.cpp, TransactionUtils.cpp, LiquidityPoolDepositOpFrame.cpp)

/** LIQUIDITY_POOL_FEE_V18: the only fee a pool may have, in basis points. */
export const LIQUIDITY_POOL_FEE_V18 = 30;

/** The amounts of one exchange with a pool: `toPool` is sent to it, `fromPool` received from it. */
export interface PoolTrade {
  toPool: bigint;
  fromPool: bigint;
}

/**
 * stellar-core exchangeWithPool on reserves: strict send sends exactly `maxSendToPool` (receive
 * unbounded), strict receive receives exactly `maxReceiveFromPool` (send unbounded). null when the
 * pool cannot do it: reserves would overflow or be emptied, or nothing would come out. It is
 * Horizon's payout/expectation without slippage (same formulas, same failures), with stellar-core's
 * throws for what its callers never pass.
 */
export function exchangeWithPool(
  reservesToPool: bigint,
  maxSendToPool: bigint,
  reservesFromPool: bigint,
  maxReceiveFromPool: bigint,
  feeBps: number,
  round: 'strictSend' | 'strictReceive' | 'normal',
): PoolTrade | null {
  if (feeBps < 0 || BigInt(feeBps) >= MAX_BPS) throw new Error('Liquidity pool fee out of range');
  if (reservesToPool <= 0n || reservesFromPool <= 0n) throw new Error('non-positive reserve in exchangeWithPool');
  if (round === 'strictSend') {
    if (maxReceiveFromPool !== INT64_MAX) throw new Error('strict send with bounded receive?');
    const r = poolPayout(reservesToPool, reservesFromPool, maxSendToPool, feeBps, false);
    return r.ok ? { toPool: maxSendToPool, fromPool: r.amount } : null;
  }
  if (round === 'strictReceive') {
    if (maxSendToPool !== INT64_MAX) throw new Error('strict receive with bounded send?');
    const r = poolExpectation(reservesToPool, reservesFromPool, maxReceiveFromPool, feeBps, false);
    return r.ok ? { toPool: r.amount, fromPool: maxReceiveFromPool } : null;
  }
  throw new Error('Invalid rounding type');
}

/** stellar-core bigSquareRoot: the x with x² ≤ a·b < (x+1)². */
export function bigSquareRoot(a: bigint, b: bigint): bigint {
  const n = a * b;
  if (n < 2n) return n;
  // Newton's iteration from above converges down to floor(sqrt(n))
  let x = 1n << BigInt(Math.ceil(n.toString(2).length / 2));
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

/** stellar-core getPoolWithdrawalAmount: the reserve's share of `amountPoolShares`, rounded down. */
export function poolWithdrawalAmount(amountPoolShares: bigint, totalPoolShares: bigint, reserve: bigint): bigint {
  if (amountPoolShares > totalPoolShares) throw new Error('Invalid amountPoolShares');
  const amount = bigDivide(amountPoolShares, reserve, totalPoolShares, false);
  if (amount === null) throw new Error('overflow while performing bigDivide');
  return amount;
}

/** What a deposit of at most (maxAmountA, maxAmountB) into a pool asks for. */
export interface PoolDepositInput {
  maxAmountA: bigint;
  maxAmountB: bigint;
  minPrice: Price;
  maxPrice: Price;
  reserveA: bigint;
  reserveB: bigint;
  totalPoolShares: bigint;
  /** what the depositor can spend of A and of B, and receive of shares */
  availableA: bigint;
  availableB: bigint;
  availableLimitPoolShares: bigint;
}

export type PoolDepositFailure = 'underfunded' | 'badPrice' | 'lineFull' | 'poolFull';

export type PoolDeposit = { ok: true; amountA: bigint; amountB: bigint; poolShares: bigint } | { ok: false; failure: PoolDepositFailure };

// a/b outside [min, max] by cross-multiplication (no rounding), or either amount 0
function isBadPrice(amountA: bigint, amountB: bigint, min: Price, max: Price): boolean {
  return (
    amountA === 0n ||
    amountB === 0n ||
    amountA * BigInt(min.d) < amountB * BigInt(min.n) ||
    amountA * BigInt(max.d) > amountB * BigInt(max.n)
  );
}

/**
 * stellar-core's deposit (LiquidityPoolDepositOpFrame): into an empty pool the whole maximum, for
 * floor(sqrt(A·B)) shares; into a pool with shares, the largest whole number of shares both
 * maxima pay for, each asset rounded up. Checks in stellar-core's order: underfunded, bad price,
 * line full, then pool full (reserves or shares past int64).
 */
export function poolDeposit(p: PoolDepositInput): PoolDeposit {
  const fail = (failure: PoolDepositFailure): PoolDeposit => ({ ok: false, failure });
  let amountA: bigint;
  let amountB: bigint;
  let poolShares: bigint;
  if (p.totalPoolShares === 0n) {
    amountA = p.maxAmountA;
    amountB = p.maxAmountB;
    if (p.availableA < amountA || p.availableB < amountB) return fail('underfunded');
    if (isBadPrice(amountA, amountB, p.minPrice, p.maxPrice)) return fail('badPrice');
    poolShares = bigSquareRoot(amountA, amountB);
    if (p.availableLimitPoolShares < poolShares) return fail('lineFull');
  } else {
    // a share count past int64 is not a candidate (bigDivide failing); one of them always fits
    const sharesA = bigDivide(p.totalPoolShares, p.maxAmountA, p.reserveA, false);
    const sharesB = bigDivide(p.totalPoolShares, p.maxAmountB, p.reserveB, false);
    if (sharesA === null && sharesB === null) throw new Error('both shares calculations overflowed');
    poolShares = sharesA === null ? sharesB! : sharesB === null || sharesA < sharesB ? sharesA : sharesB;
    const a = bigDivide(poolShares, p.reserveA, p.totalPoolShares, true);
    const b = bigDivide(poolShares, p.reserveB, p.totalPoolShares, true);
    if (a === null || b === null) throw new Error('amount overflowed');
    amountA = a;
    amountB = b;
    if (p.availableA < amountA || p.availableB < amountB) return fail('underfunded');
    if (isBadPrice(amountA, amountB, p.minPrice, p.maxPrice)) return fail('badPrice');
    if (p.availableLimitPoolShares < poolShares) return fail('lineFull');
  }
  if (INT64_MAX - amountA < p.reserveA || INT64_MAX - amountB < p.reserveB || INT64_MAX - poolShares < p.totalPoolShares) {
    return fail('poolFull');
  }
  if (amountA <= 0n || amountB <= 0n || poolShares <= 0n) {
    throw new Error('must deposit positive amounts and receive a positive amount of pool shares');
  }
  return { ok: true, amountA, amountB, poolShares };
}
