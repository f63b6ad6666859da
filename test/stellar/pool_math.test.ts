// Horizon's own figures for the constant-product exchange (stellar/go exp/orderbook/pools_test.go:
// TestLiquidityPoolMath, taken there from stellar-core's ExchangeTests.cpp, and the rounding
// slippage tests TestCalculatePoolExpectationsRoundingSlippage, TestCalculatePoolPayoutRoundingSlippage).
import { describe, expect, it } from 'vitest';
import { INT64_MAX, poolExpectation, poolPayout } from '../../src/stellar/index.js';

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
