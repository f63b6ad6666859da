// Horizon's own figures for the constant-product exchange (stellar/go exp/orderbook/pools_test.go:
// TestLiquidityPoolMath, taken there from stellar-core's ExchangeTests.cpp, and the rounding
// slippage tests TestCalculatePoolExpectationsRoundingSlippage, TestCalculatePoolPayoutRoundingSlippage).
import { describe, expect, it } from 'vitest';
import {
  bigSquareRoot,
  exchangeWithPool,
  INT64_MAX,
  LIQUIDITY_POOL_FEE_V18,
  poolDeposit,
  poolExpectation,
  poolPayout,
  poolWithdrawalAmount,
} from '../../src/stellar/index.js';

const iMax = INT64_MAX;

/**
 * pools_test.go's assertPoolExchange: a deposit (`send`) pays out `expectedDisbursed`, an
 * expectation (`recv`) needs `expectedDeposited`; both without slippage, as there.
 */
function assertPoolExchange(
  kind: 'send' | 'recv',
  reservesBeingDeposited: bigint,
  deposited: bigint,
  reservesBeingDisbursed: bigint,
  disbursed: bigint,
  fee: number,
  expectedOk: boolean,
  expectedDeposited: bigint,
  expectedDisbursed: bigint,
): void {
  const result =
    kind === 'send'
      ? poolPayout(reservesBeingDeposited, reservesBeingDisbursed, deposited, fee, false)
      : poolExpectation(reservesBeingDeposited, reservesBeingDisbursed, disbursed, fee, false);
  expect(result.ok, `${kind} ${reservesBeingDeposited} ${deposited} ${reservesBeingDisbursed} ${disbursed}`).toBe(expectedOk);
  if (expectedOk) expect(result.amount).toBe(kind === 'send' ? expectedDisbursed : expectedDeposited);
}

describe('the constant-product exchange (TestLiquidityPoolMath)', () => {
  it('deposit edge cases', () => {
    assertPoolExchange('send', 100n, iMax - 100n, 100n, -1n, 0, true, -1n, 99n);
    assertPoolExchange('send', 100n, iMax - 99n, 100n, -1n, 0, false, -1n, -1n);
    assertPoolExchange('send', iMax - 100n, 100n, iMax - 100n, -1n, 0, true, -1n, 99n);
    assertPoolExchange('send', iMax - 99n, 100n, iMax - 100n, -1n, 0, false, -1n, -1n);
    assertPoolExchange('send', 100n, 2n, 100n, -1n, 0, true, -1n, 1n);
    assertPoolExchange('send', 100n, 1n, 100n, -1n, 0, false, -1n, -1n);
  });

  it('disburse edge cases', () => {
    assertPoolExchange('recv', 100n, -1n, 100n, 99n, 0, true, 9900n, -1n);
    assertPoolExchange('recv', 100n, -1n, 100n, 100n, 0, false, -1n, -1n);
    assertPoolExchange('recv', 100n, -1n, iMax / 100n, iMax / 100n - 1n, 0, true, iMax - 107n, -1n);
    assertPoolExchange('recv', 100n, -1n, iMax / 100n, iMax / 100n, 0, false, -1n, -1n);
    assertPoolExchange('recv', iMax / 100n, -1n, 101n * 10000n + 1n, 101n * 10000n, 0, false, -1n, -1n);
    assertPoolExchange('recv', iMax / 100n, -1n, 10000n + 1n, 10000n, 0, false, -1n, -1n);
    assertPoolExchange('recv', iMax - 100n, -1n, iMax / 2n, 49n, 0, true, 98n, -1n);
    assertPoolExchange('recv', iMax - 100n, -1n, iMax / 2n, 50n, 0, false, -1n, -1n);
  });

  it('no fees', () => {
    assertPoolExchange('send', 100n, 100n, 100n, -1n, 0, true, -1n, 50n);
    assertPoolExchange('send', 100n, 50n, 100n, -1n, 0, true, -1n, 33n);
    assertPoolExchange('send', 100n, 0n, 100n, -1n, 0, false, -1n, -1n);
    assertPoolExchange('send', 100n, iMax - 99n, 100n, -1n, 0, false, -1n, -1n);
    assertPoolExchange('recv', 100n, -1n, 100n, 50n, 0, true, 100n, -1n);
    assertPoolExchange('recv', 100n, -1n, 100n, 33n, 0, true, 50n, -1n);
    assertPoolExchange('recv', 100n, -1n, 100n, 0n, 0, true, 0n, -1n);
    assertPoolExchange('recv', 100n, -1n, 100n, 100n, 0, false, -1n, -1n);
  });

  it('30 bps fee actually charges 30 bps', () => {
    assertPoolExchange('send', 10000n, 10031n, 20000n, -1n, 30, true, -1n, 10000n);
    assertPoolExchange('recv', 10000n, -1n, 20000n, 10000n, 30, true, 10031n, -1n);
  });

  it('potential internal overflow', () => {
    assertPoolExchange('send', iMax, iMax, iMax, iMax, 0, false, 0n, 0n);
    assertPoolExchange('recv', iMax, iMax, iMax, 0n, 0, true, 0n, -1n);
    assertPoolExchange('recv', iMax, iMax, 0n, 1n, 0, false, 0n, 0n);
    assertPoolExchange('recv', 9223372036654845862n, 0n, 2694994506n, 4515739n, 30, false, 0n, 0n);
    assertPoolExchange('send', iMax, iMax, iMax, iMax, 10001, false, 0n, 0n);
    assertPoolExchange('recv', iMax, iMax, iMax, 0n, 10010, false, 0n, 0n);
    assertPoolExchange('send', 92017260901926686n, 9157376027422527n, 4000000000000000000n, 30n, 1, true, -1n, 362009430194478152n);
  });
});

describe('rounding slippage', () => {
  it('of an expectation (TestCalculatePoolExpectationsRoundingSlippage)', () => {
    expect(poolExpectation(3740000000n, 162020000000n, 1n, 30, true)).toEqual({ amount: 1n, slippageBps: 4229n, ok: true });
    expect(poolExpectation(200n, 400n, 20n, 30, true)).toEqual({ amount: 11n, slippageBps: 4n, ok: true });
    expect(poolExpectation(200n, 400n, 50n, 30, true)).toEqual({ amount: 29n, slippageBps: 1n, ok: true });
  });

  it('of a payout (TestCalculatePoolPayoutRoundingSlippage)', () => {
    expect(poolPayout(162020000000n, 3740000000n, 50n, 30, true)).toEqual({ amount: 1n, slippageBps: 13n, ok: true });
    expect(poolPayout(200n, 300n, 1n, 30, true)).toEqual({ amount: 1n, slippageBps: 32n, ok: true });
    expect(poolPayout(200n, 210n, 1n, 30, true)).toEqual({ amount: 1n, slippageBps: 3n, ok: true });
  });
});

// stellar-core's own pool arithmetic, with the numbers of its tests.
describe('stellar-core exchangeWithPool (ExchangeTests.cpp "Exchange with liquidity pools")', () => {
  const validate = (
    reservesToPool: bigint,
    maxSendToPool: bigint,
    reservesFromPool: bigint,
    maxReceiveFromPool: bigint,
    fee: number,
    round: 'strictSend' | 'strictReceive',
    success: boolean,
    expToPool = 0n,
    expFromPool = 0n,
  ): void => {
    const r = exchangeWithPool(reservesToPool, maxSendToPool, reservesFromPool, maxReceiveFromPool, fee, round);
    expect(r !== null, `${reservesToPool} ${maxSendToPool} ${reservesFromPool} ${maxReceiveFromPool} ${round}`).toBe(success);
    if (r) expect(r).toEqual({ toPool: expToPool, fromPool: expFromPool });
  };
  const send = 'strictSend';
  const recv = 'strictReceive';

  it('Error conditions', () => {
    expect(() => validate(100n, 50n, 100n, iMax, -1, send, false)).toThrow();
    expect(() => validate(100n, iMax, 100n, 50n, -1, recv, false)).toThrow();
    expect(() => validate(100n, 50n, 100n, iMax, 10000, send, false)).toThrow();
    expect(() => validate(100n, iMax, 100n, 50n, 10000, recv, false)).toThrow();
    expect(() => validate(100n, 50n, 100n, iMax, 2147483647, send, false)).toThrow();
    expect(() => validate(100n, iMax, 100n, 50n, 2147483647, recv, false)).toThrow();
    // strict send with bounded receive, strict receive with bounded send
    expect(() => validate(100n, 50n, 100n, iMax - 1n, 0, send, false)).toThrow();
    expect(() => validate(100n, 50n, 100n, 0n, 0, send, false)).toThrow();
    expect(() => validate(100n, iMax - 1n, 100n, 50n, 0, recv, false)).toThrow();
    expect(() => validate(100n, 0n, 100n, 50n, 0, recv, false)).toThrow();
    // not a path payment
    expect(() => exchangeWithPool(100n, 50n, 100n, 50n, 0, 'normal')).toThrow();
  });

  it('strict send failure cases', () => {
    validate(100n, iMax - 100n, 100n, iMax, 0, send, true, iMax - 100n, 99n);
    validate(100n, iMax - 99n, 100n, iMax, 0, send, false);
    validate(iMax - 100n, 100n, iMax - 100n, iMax, 0, send, true, 100n, 99n);
    validate(iMax - 99n, 100n, iMax - 100n, iMax, 0, send, false);
    validate(100n, 2n, 100n, iMax, 0, send, true, 2n, 1n);
    validate(100n, 1n, 100n, iMax, 0, send, false);
  });

  it('strict receive failure cases', () => {
    validate(100n, iMax, 100n, 99n, 0, recv, true, 9900n, 99n);
    validate(100n, iMax, 100n, 100n, 0, recv, false);
    validate(100n, iMax, iMax / 100n, iMax / 100n - 1n, 0, recv, true, iMax - 107n, iMax / 100n - 1n);
    validate(100n, iMax, iMax / 100n, iMax / 100n, 0, recv, false);
    validate(iMax / 100n, iMax, 101n * 10000n + 1n, 101n * 10000n, 0, recv, false);
    validate(iMax / 100n, iMax, 10000n + 1n, 10000n, 0, recv, false);
    validate(iMax - 100n, iMax, iMax / 2n, 49n, 0, recv, true, 98n, 49n);
    validate(iMax - 100n, iMax, iMax / 2n, 50n, 0, recv, false);
  });

  it('No fees', () => {
    validate(100n, 100n, 100n, iMax, 0, send, true, 100n, 50n);
    validate(100n, 50n, 100n, iMax, 0, send, true, 50n, 33n);
    validate(100n, 0n, 100n, iMax, 0, send, false);
    validate(100n, iMax - 99n, 100n, iMax, 0, send, false);
    validate(100n, iMax, 100n, 50n, 0, recv, true, 100n, 50n);
    validate(100n, iMax, 100n, 33n, 0, recv, true, 50n, 33n);
    validate(100n, iMax, 100n, 0n, 0, recv, true, 0n, 0n);
    validate(100n, iMax, 100n, 100n, 0, recv, false);
  });

  it('30 bps fee actually charges 30 bps', () => {
    validate(10000n, 10031n, 20000n, iMax, LIQUIDITY_POOL_FEE_V18, send, true, 10031n, 10000n);
    validate(10000n, iMax, 20000n, 10000n, LIQUIDITY_POOL_FEE_V18, recv, true, 10031n, 10000n);
  });
});

describe('stellar-core bigSquareRoot (BigDivideTests.cpp "bigSquareRoot tests")', () => {
  it('small values, including 0', () => {
    const roots = [0n];
    for (let i = 1n; i <= 10n; i++) for (let j = 1n; j <= 2n * i + 1n; j++) roots.push(i);
    for (let i = 0; i <= 10; i++) for (let j = 0; j <= 10; j++) expect(bigSquareRoot(BigInt(i), BigInt(j))).toBe(roots[i * j]);
  });

  it('large values', () => {
    const u64 = 2n ** 64n - 1n;
    const u32 = 2n ** 32n - 1n;
    expect(bigSquareRoot(u64, 1n)).toBe((1n << 32n) - 1n);
    expect(bigSquareRoot(u32, 1n)).toBe((1n << 16n) - 1n);
    expect(bigSquareRoot(u64, u64)).toBe(u64);
    expect(bigSquareRoot(u32, u32)).toBe(u32);
    expect(bigSquareRoot(u64, u32)).toBe(281474976677887n);
  });
});

describe('stellar-core getPoolWithdrawalAmount (ExchangeTests.cpp)', () => {
  it('rounds down', () => {
    expect(poolWithdrawalAmount(5n, 10n, 6n)).toBe(3n);
    expect(poolWithdrawalAmount(4n, 5n, 9n)).toBe(7n);
    expect(poolWithdrawalAmount(iMax, iMax, iMax)).toBe(iMax);
    expect(() => poolWithdrawalAmount(11n, 10n, 6n)).toThrow();
  });
});

describe('stellar-core deposit arithmetic (LiquidityPoolDepositTests.cpp, LiquidityPoolWithdrawTests.cpp)', () => {
  const i32 = 2147483647;
  const deposit = (
    maxAmountA: bigint,
    maxAmountB: bigint,
    minPrice: [number, number],
    maxPrice: [number, number],
    pool: [bigint, bigint, bigint],
    available: [bigint, bigint, bigint] = [iMax, iMax, iMax],
  ) =>
    poolDeposit({
      maxAmountA,
      maxAmountB,
      minPrice: { n: minPrice[0], d: minPrice[1] },
      maxPrice: { n: maxPrice[0], d: maxPrice[1] },
      reserveA: pool[0],
      reserveB: pool[1],
      totalPoolShares: pool[2],
      availableA: available[0],
      availableB: available[1],
      availableLimitPoolShares: available[2],
    });
  const empty: [bigint, bigint, bigint] = [0n, 0n, 0n];

  it('both non-native without liabilities: empty pool', () => {
    expect(deposit(400n, 900n, [1, 1], [1, 1], empty, [400n, 800n, 1n])).toEqual({ ok: false, failure: 'underfunded' });
    expect(deposit(400n, 900n, [1, 1], [1, 1], empty, [1000n, 1800n, 1n])).toEqual({ ok: false, failure: 'badPrice' });
    expect(deposit(400n, 900n, [4, 9], [4, 9], empty, [1000n, 1800n, 1n])).toEqual({ ok: false, failure: 'lineFull' });
    expect(deposit(400n, 900n, [4, 9], [4, 9], empty, [1000n, 1800n, 600n])).toEqual({
      ok: true,
      amountA: 400n,
      amountB: 900n,
      poolShares: 600n,
    });
  });

  it('both non-native without liabilities: non-empty pool', () => {
    const pool: [bigint, bigint, bigint] = [400n, 900n, 600n];
    expect(deposit(400n, 900n, [1, 1], [1, 1], pool)).toEqual({ ok: false, failure: 'badPrice' });
    expect(deposit(400n, 900n, [4, 9], [4, 9], pool, [iMax, iMax, 1n])).toEqual({ ok: false, failure: 'lineFull' });
    expect(deposit(iMax, iMax, [1, i32], [i32, 1], pool)).toEqual({ ok: false, failure: 'poolFull' });
    // balances INT64_MAX - 67 and INT64_MAX - 150, 100 shares; pool 467, 1050, 700
    expect(deposit(101n, 151n, [3, 9], [5, 9], pool)).toEqual({ ok: true, amountA: 67n, amountB: 150n, poolShares: 100n });
  });

  it('one non-native without liabilities', () => {
    expect(deposit(1n, BigInt(i32), [1, i32], [1, i32], empty)).toEqual({
      ok: true,
      amountA: 1n,
      amountB: BigInt(i32),
      poolShares: 46340n,
    });
    const pool: [bigint, bigint, bigint] = [1n, BigInt(i32), 46340n];
    expect(deposit(5000000000n, iMax, [1, i32], [i32, 1], pool)).toEqual({ ok: false, failure: 'poolFull' });
    expect(deposit(1n, BigInt(i32), [1, i32], [i32, 1], pool)).toEqual({ ok: true, amountA: 1n, amountB: BigInt(i32), poolShares: 46340n });
  });

  it('pool share calculation overflows for one asset', () => {
    const second = iMax - 1000n;
    expect(deposit(second, second, [1, i32], [i32, 1], [900n, 400n, 600n])).toEqual({
      ok: true,
      amountA: 9223372036854774807n,
      amountB: 4099276460824344359n,
      poolShares: 6148914691236516538n,
    });
    expect(deposit(second, second, [1, i32], [i32, 1], [400n, 900n, 600n])).toEqual({
      ok: true,
      amountA: 4099276460824344359n,
      amountB: 9223372036854774807n,
      poolShares: 6148914691236516538n,
    });
    // a2 withdraws all: one less of the larger asset comes out, left for a1
    const total = 6148914691236517138n;
    expect(poolWithdrawalAmount(6148914691236516538n, total, 9223372036854775707n)).toBe(9223372036854774807n);
    expect(poolWithdrawalAmount(6148914691236516538n, total, 4099276460824344759n)).toBe(4099276460824344358n);
  });

  it('bad price in existing pool due to 0 calculated deposit amounts for both assets', () => {
    expect(deposit(500n, 1000n, [1, 2], [1, 2], empty)).toEqual({ ok: true, amountA: 500n, amountB: 1000n, poolShares: 707n });
    expect(deposit(100n, 1n, [2, 3], [4, 1], [500n, 1000n, 707n])).toEqual({ ok: false, failure: 'badPrice' });
  });

  it('withdraw rounding: sqrt(90*24) ≈ 46.48 gives 46 shares; 2 of 46 shares give 3 and 1', () => {
    expect(deposit(90n, 24n, [90, 24], [90, 24], empty)).toEqual({ ok: true, amountA: 90n, amountB: 24n, poolShares: 46n });
    expect(poolWithdrawalAmount(2n, 46n, 90n)).toBe(3n);
    expect(poolWithdrawalAmount(2n, 46n, 24n)).toBe(1n);
  });
});
