// stellar-core's own figures (src/transactions/test/ExchangeTests.cpp: "ExchangeV10", "Adjust Offer",
// "Check price error bounds") against the exchange arithmetic.
import { describe, expect, it } from 'vitest';
import { INT64_MAX, adjustOffer, checkPriceErrorBound, exchangeV10 } from '../../src/stellar/index.js';
import type { Price, Rounding } from '../../src/stellar/index.js';

const P = (n: number, d: number): Price => ({ n, d });
const M = INT64_MAX;

function expectFavoured(p: Price, wheatStays: boolean, wheatReceive: bigint, sheepSend: bigint): void {
  if (wheatStays) expect(sheepSend * BigInt(p.d) >= wheatReceive * BigInt(p.n)).toBe(true);
  else expect(sheepSend * BigInt(p.d) <= wheatReceive * BigInt(p.n)).toBe(true);
}

describe('exchangeV10 (ExchangeTests.cpp "ExchangeV10")', () => {
  it('limited by maxWheatSend and maxSheepSend', () => {
    const check = (p: Price, maxWheatSend: bigint, maxSheepSend: bigint, wr: bigint, ss: bigint) => {
      const r = exchangeV10(p, maxWheatSend, M, maxSheepSend, M, 'normal');
      expect(r.wheatStays).toBe(maxWheatSend * BigInt(p.n) > maxSheepSend * BigInt(p.d));
      expect([r.wheatReceive, r.sheepSend]).toEqual([wr, ss]);
      expectFavoured(p, r.wheatStays, wr, ss);
    };
    check(P(3, 2), 3000n, 4501n, 3000n, 4500n);
    check(P(3, 2), 3000n, 4500n, 3000n, 4500n);
    check(P(3, 2), 3000n, 4499n, 2999n, 4499n);
    check(P(3, 2), 2999n, 4499n, 2999n, 4498n);
    check(P(3, 2), 2999n, 4498n, 2998n, 4497n);
    check(P(2, 3), 3000n, 2001n, 3000n, 2000n);
    check(P(2, 3), 3000n, 2000n, 3000n, 2000n);
    check(P(2, 3), 3000n, 1999n, 2998n, 1999n);
    check(P(2, 3), 2999n, 2000n, 2999n, 1999n);
    check(P(2, 3), 2999n, 1999n, 2998n, 1999n);
  });

  it('limited by maxWheatReceive and maxSheepReceive', () => {
    const check = (p: Price, maxWheatReceive: bigint, maxSheepReceive: bigint, wr: bigint, ss: bigint) => {
      const r = exchangeV10(p, M, maxWheatReceive, M, maxSheepReceive, 'normal');
      expect(r.wheatStays).toBe(maxSheepReceive * BigInt(p.d) > maxWheatReceive * BigInt(p.n));
      expect([r.wheatReceive, r.sheepSend]).toEqual([wr, ss]);
      expectFavoured(p, r.wheatStays, wr, ss);
    };
    check(P(3, 2), 3000n, 4501n, 3000n, 4500n);
    check(P(3, 2), 3000n, 4500n, 3000n, 4500n);
    check(P(3, 2), 3000n, 4499n, 2999n, 4498n);
    check(P(3, 2), 2999n, 4499n, 2999n, 4499n);
    check(P(3, 2), 2999n, 4498n, 2998n, 4497n);
    check(P(2, 3), 3000n, 2001n, 3000n, 2000n);
    check(P(2, 3), 3000n, 2000n, 3000n, 2000n);
    check(P(2, 3), 3000n, 1999n, 2999n, 1999n);
    check(P(2, 3), 2999n, 2000n, 2998n, 1999n);
    check(P(2, 3), 2999n, 1999n, 2999n, 1999n);
  });

  it('limited by maxWheatSend and maxWheatReceive', () => {
    const check = (p: Price, maxWheatSend: bigint, maxWheatReceive: bigint, wr: bigint, ss: bigint) => {
      const r = exchangeV10(p, maxWheatSend, maxWheatReceive, M, M, 'normal');
      expect(r.wheatStays).toBe(maxWheatSend > maxWheatReceive);
      expect([r.wheatReceive, r.sheepSend]).toEqual([wr, ss]);
      expectFavoured(p, r.wheatStays, wr, ss);
    };
    check(P(3, 2), 3000n, 3001n, 3000n, 4500n);
    check(P(3, 2), 3000n, 3000n, 3000n, 4500n);
    check(P(3, 2), 3000n, 2999n, 2999n, 4499n);
    check(P(2, 3), 3000n, 3001n, 3000n, 2000n);
    check(P(2, 3), 3000n, 3000n, 3000n, 2000n);
    check(P(2, 3), 3000n, 2999n, 2998n, 1999n);
  });

  it('limited by maxSheepSend and maxSheepReceive', () => {
    const check = (p: Price, maxSheepSend: bigint, maxSheepReceive: bigint, wr: bigint, ss: bigint) => {
      const r = exchangeV10(p, M, M, maxSheepSend, maxSheepReceive, 'normal');
      expect(r.wheatStays).toBe(maxSheepReceive > maxSheepSend);
      expect([r.wheatReceive, r.sheepSend]).toEqual([wr, ss]);
      expectFavoured(p, r.wheatStays, wr, ss);
    };
    check(P(3, 2), 4500n, 4501n, 3000n, 4500n);
    check(P(3, 2), 4500n, 4500n, 3000n, 4500n);
    check(P(3, 2), 4500n, 4499n, 2999n, 4498n);
    check(P(2, 3), 2000n, 2001n, 3000n, 2000n);
    check(P(2, 3), 2000n, 2000n, 3000n, 2000n);
    check(P(2, 3), 2000n, 1999n, 2999n, 1999n);
  });

  it('threshold', () => {
    const check = (p: Price, maxWheatSend: bigint, maxWheatReceive: bigint, wr: bigint, ss: bigint) => {
      const r = exchangeV10(p, maxWheatSend, maxWheatReceive, M, M, 'normal');
      expect(r.wheatStays).toBe(maxWheatSend > maxWheatReceive);
      expect([r.wheatReceive, r.sheepSend]).toEqual([wr, ss]);
    };
    check(P(3, 2), 28n, 27n, 0n, 0n);
    check(P(3, 2), 28n, 26n, 26n, 39n);
    check(P(3, 2), 52n, 51n, 51n, 77n);
    check(P(3, 2), 52n, 50n, 50n, 75n);
  });

  it('rounding for PATH_PAYMENT_STRICT_RECEIVE', () => {
    const check = (p: Price, maxWheatSend: bigint, maxWheatReceive: bigint, round: Rounding, wr: bigint, ss: bigint) => {
      const r = exchangeV10(p, maxWheatSend, maxWheatReceive, M, M, round);
      expect(r.wheatStays).toBe(maxWheatSend > maxWheatReceive);
      expect([r.wheatReceive, r.sheepSend]).toEqual([wr, ss]);
    };
    check(P(3, 2), 28n, 27n, 'normal', 0n, 0n);
    check(P(3, 2), 28n, 27n, 'strictReceive', 27n, 41n);
    check(P(3, 2), 150n, 101n, 'normal', 101n, 152n);
    check(P(3, 2), 150n, 101n, 'strictReceive', 101n, 152n);
    check(P(2, 3), 150n, 101n, 'normal', 100n, 67n);
    check(P(2, 3), 150n, 101n, 'strictReceive', 101n, 68n);
  });

  it('rounding for PATH_PAYMENT_STRICT_SEND', () => {
    const check = (
      p: Price,
      maxWheatSend: bigint,
      maxWheatReceive: bigint,
      maxSheepSend: bigint,
      round: Rounding,
      wr: bigint,
      ss: bigint,
    ) => {
      const r = exchangeV10(p, maxWheatSend, maxWheatReceive, maxSheepSend, M, round);
      if (maxWheatReceive === M) expect(r.wheatStays).toBe(true);
      else {
        const a = maxSheepSend * BigInt(p.d);
        const b = maxWheatReceive * BigInt(p.n);
        expect(r.wheatStays).toBe(maxWheatSend * BigInt(p.n) > (a < b ? a : b));
      }
      expect([r.wheatReceive, r.sheepSend]).toEqual([wr, ss]);
    };
    check(P(3, 2), 28n, M, 41n, 'normal', 0n, 0n);
    check(P(3, 2), 28n, M, 41n, 'strictSend', 27n, 41n);
    expect(adjustOffer(P(3, 2), 97n, M)).toBe(97n);
    check(P(3, 2), 97n, M, 145n, 'normal', 96n, 144n);
    check(P(3, 2), 97n, M, 145n, 'strictSend', 96n, 145n);
    check(P(2, 3), 97n, 95n, M, 'normal', 94n, 63n);
    check(P(2, 3), 97n, 95n, M, 'strictSend', 95n, M);
    check(P(2, 1), 1n, M, 1n, 'normal', 0n, 0n);
    check(P(2, 1), 1n, M, 1n, 'strictSend', 0n, 1n);
  });
});

describe('adjustOffer (ExchangeTests.cpp "Adjust Offer")', () => {
  it('limits', () => {
    expect(adjustOffer(P(1, 1000), 2001n, M)).toBe(2000n);
    expect(adjustOffer(P(1, 1000), 2000n, M)).toBe(2000n);
    expect(adjustOffer(P(1, 1000), 1999n, M)).toBe(1000n);
    expect(adjustOffer(P(1, 1000), 2000n, 3n)).toBe(2000n);
    expect(adjustOffer(P(1, 1000), 2000n, 2n)).toBe(2000n);
    expect(adjustOffer(P(1, 1000), 2000n, 1n)).toBe(1000n);
    expect(adjustOffer(P(1000, 1), 401n, M)).toBe(401n);
    expect(adjustOffer(P(1000, 1), 400n, M)).toBe(400n);
    expect(adjustOffer(P(1000, 1), 399n, M)).toBe(399n);
    expect(adjustOffer(P(1000, 1), 400n, 400n * 1000n + 1n)).toBe(400n);
    expect(adjustOffer(P(1000, 1), 400n, 400n * 1000n)).toBe(400n);
    expect(adjustOffer(P(1000, 1), 400n, 400n * 1000n - 1n)).toBe(399n);
  });

  it('adjusting again has no effect', () => {
    const twice = (p: Price, maxWheatSend: bigint, maxSheepReceive: bigint, expected: bigint) => {
      expect(adjustOffer(p, maxWheatSend, maxSheepReceive)).toBe(expected);
      expect(adjustOffer(p, expected, maxSheepReceive)).toBe(expected);
    };
    twice(P(7, 3), 429n, M, 429n);
    twice(P(7, 3), 428n, M, 428n);
    twice(P(7, 3), 427n, M, 427n);
    twice(P(7, 3), 428n, 999n, 428n);
    twice(P(7, 3), 428n, 998n, 427n);
    twice(P(7, 3), 428n, 997n, 427n);
    twice(P(3, 7), 1001n, M, 1001n);
    twice(P(3, 7), 1000n, M, 999n);
    twice(P(3, 7), 999n, M, 999n);
    twice(P(3, 7), 1000n, 429n, 999n);
    twice(P(3, 7), 1000n, 428n, 999n);
    twice(P(3, 7), 1000n, 427n, 997n);
  });

  it('thresholds', () => {
    expect(adjustOffer(P(3, 2), 29n, M)).toBe(0n);
    expect(adjustOffer(P(3, 2), 28n, M)).toBe(28n);
    expect(adjustOffer(P(3, 2), 27n, M)).toBe(0n);
    expect(adjustOffer(P(3, 2), 26n, M)).toBe(26n);
    expect(adjustOffer(P(3, 2), 51n, M)).toBe(51n);
    expect(adjustOffer(P(3, 2), 50n, M)).toBe(50n);
  });
});

describe('checkPriceErrorBound (ExchangeTests.cpp "Check price error bounds")', () => {
  for (const canFavorWheat of [false, true]) {
    it(canFavorWheat ? 'can favor wheat' : 'cannot favor wheat', () => {
      const validate = (p: Price, wheatReceive: bigint, high: bigint, low: bigint) => {
        expect(checkPriceErrorBound(p, wheatReceive, high + 1n, canFavorWheat)).toBe(canFavorWheat);
        expect(checkPriceErrorBound(p, wheatReceive, high, canFavorWheat)).toBe(true);
        expect(checkPriceErrorBound(p, wheatReceive, low, canFavorWheat)).toBe(true);
        expect(checkPriceErrorBound(p, wheatReceive, low - 1n, canFavorWheat)).toBe(false);
      };
      validate(P(1, 1), 1000n, 1010n, 990n);
      validate(P(5, 2), 1000n, 2525n, 2475n);
      validate(P(2, 5), 1000n, 404n, 396n);
      validate(P(7, 3), 1000n, 2356n, 2310n);
      validate(P(3, 7), 1000n, 432n, 425n);
    });
  }
});
