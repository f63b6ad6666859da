// The constant-product exchange of a liquidity pool (CAP-38) as Horizon computes it
// (exp/orderbook/pools.go: CalculatePoolPayout, CalculatePoolExpectation), with its rounding
// slippage: how far, in basis points, the rounded amount is from the exact one. Horizon keeps a
// pool trade's slippage and leaves trades of 1000 bps or more out of trade aggregations. The
// 256-bit arithmetic of pools.go is exact on BigInt; a division by zero gives 0 as uint256's does.
import { INT64_MAX } from './int64.js';

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
