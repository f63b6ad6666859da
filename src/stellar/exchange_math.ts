// The exchange arithmetic of stellar-core's OfferExchange.cpp (protocol ≥ 10): exchangeV10 with its
// three rounding modes, the 1% price error bound and adjustOffer. All on BigInt; the 128-bit
// intermediates of stellar-core's bigDivide/bigMultiply are exact here, and a quotient that
// does not fit int64 is reported as such, as bigDivide's `false` is.
import { INT64_MAX } from './int64.js';
import type { Price } from './price.js';

/**
 * stellar-core MAX_OFFERS_TO_CROSS (protocol ≥ 11): offers one operation may cross (a path
 * payment over all its hops).
 */
export const MAX_OFFERS_TO_CROSS = 1000;

/** stellar-core RoundingType */
export type Rounding = 'normal' | 'strictReceive' | 'strictSend';

/** v / c rounded down or up; null when the quotient exceeds int64 (bigDivide returning false). */
export function divide128(v: bigint, c: bigint, roundUp: boolean): bigint | null {
  const q = roundUp ? (v + c - 1n) / c : v / c;
  return q > INT64_MAX ? null : q;
}

/** a × b / c (stellar-core bigDivide); null on int64 overflow of the result. */
export function bigDivide(a: bigint, b: bigint, c: bigint, roundUp: boolean): bigint | null {
  return divide128(a * b, c, roundUp);
}

function divideOrThrow(a: bigint, b: bigint, c: bigint, roundUp: boolean): bigint {
  const r = bigDivide(a, b, c, roundUp);
  if (r === null) throw new Error('overflow while performing bigDivide');
  return r;
}

function divide128OrThrow(v: bigint, c: bigint, roundUp: boolean): bigint {
  const r = divide128(v, c, roundUp);
  if (r === null) throw new Error('overflow while performing bigDivide');
  return r;
}

export interface ExchangeResult {
  wheatReceive: bigint;
  sheepSend: bigint;
  wheatStays: boolean;
}

const min = (a: bigint, b: bigint): bigint => (a < b ? a : b);

/**
 * Relative error between the price and the effective price (sheepSend / wheatReceive) at most 1%;
 * with canFavorWheat an error in favour of the wheat seller is unbounded (path payments).
 */
export function checkPriceErrorBound(price: Price, wheatReceive: bigint, sheepSend: bigint, canFavorWheat: boolean): boolean {
  const n = BigInt(price.n);
  const d = BigInt(price.d);
  const lhs = 100n * n * wheatReceive;
  const rhs = 100n * d * sheepSend;
  if (canFavorWheat && rhs > lhs) return true;
  const absDiff = lhs > rhs ? lhs - rhs : rhs - lhs;
  return absDiff <= n * wheatReceive;
}

// min(maxSend × priceN, maxReceive × priceD): an offer's size rescaled into one unit
function offerValue(priceN: bigint, priceD: bigint, maxSend: bigint, maxReceive: bigint): bigint {
  return min(maxSend * priceN, maxReceive * priceD);
}

/** An exchange between a wheat seller (an offer) and a sheep seller, each bounded on both sides. */
export type Exchange = (
  price: Price,
  maxWheatSend: bigint,
  maxWheatReceive: bigint,
  maxSheepSend: bigint,
  maxSheepReceive: bigint,
  round: Rounding,
) => ExchangeResult;

/**
 * The crossing amounts before the price error bound: the smaller side (by value) is taken
 * completely, and the rounding favours the side that stays in the book.
 */
export const exchangeV10WithoutPriceErrorThresholds: Exchange = (
  price,
  maxWheatSend,
  maxWheatReceive,
  maxSheepSend,
  maxSheepReceive,
  round,
) => {
  const n = BigInt(price.n);
  const d = BigInt(price.d);
  const wheatValue = offerValue(n, d, maxWheatSend, maxSheepReceive);
  const sheepValue = offerValue(d, n, maxSheepSend, maxWheatReceive);
  const wheatStays = wheatValue > sheepValue;
  let wheatReceive: bigint;
  let sheepSend: bigint;
  if (wheatStays) {
    if (round === 'strictSend') {
      wheatReceive = divide128OrThrow(sheepValue, n, false);
      sheepSend = min(maxSheepSend, maxSheepReceive);
    } else if (price.n > price.d || round === 'strictReceive') {
      wheatReceive = divide128OrThrow(sheepValue, n, false);
      sheepSend = divideOrThrow(wheatReceive, n, d, true);
    } else {
      sheepSend = divide128OrThrow(sheepValue, d, false);
      wheatReceive = divideOrThrow(sheepSend, d, n, false);
    }
  } else if (price.n > price.d) {
    wheatReceive = divide128OrThrow(wheatValue, n, false);
    sheepSend = divideOrThrow(wheatReceive, n, d, false);
  } else {
    sheepSend = divide128OrThrow(wheatValue, d, false);
    wheatReceive = divideOrThrow(sheepSend, d, n, true);
  }
  if (wheatReceive < 0n || wheatReceive > min(maxWheatReceive, maxWheatSend)) throw new Error('wheatReceive out of bounds');
  if (sheepSend < 0n || sheepSend > min(maxSheepReceive, maxSheepSend)) throw new Error('sheepSend out of bounds');
  return { wheatReceive, sheepSend, wheatStays };
};

/** A normal crossing beyond the 1% bound trades nothing; path payments may favour the book without bound. */
export function applyPriceErrorThresholds(
  price: Price,
  wheatReceive: bigint,
  sheepSend: bigint,
  wheatStays: boolean,
  round: Rounding,
): ExchangeResult {
  if (wheatReceive > 0n && sheepSend > 0n) {
    const wheatReceiveValue = wheatReceive * BigInt(price.n);
    const sheepSendValue = sheepSend * BigInt(price.d);
    if (wheatStays && sheepSendValue < wheatReceiveValue) throw new Error('favored sheep when wheat stays');
    if (!wheatStays && sheepSendValue > wheatReceiveValue) throw new Error('favored wheat when sheep stays');
    if (round === 'normal') {
      if (!checkPriceErrorBound(price, wheatReceive, sheepSend, false)) {
        wheatReceive = 0n;
        sheepSend = 0n;
      }
    } else if (!checkPriceErrorBound(price, wheatReceive, sheepSend, true)) {
      throw new Error('exceeded price error bound');
    }
  } else if (round === 'strictSend') {
    // strict send may give sheep for no wheat to send exactly the amount asked; never the reverse
    if (sheepSend === 0n) throw new Error('invalid amount of sheep sent');
  } else {
    wheatReceive = 0n;
    sheepSend = 0n;
  }
  return { wheatReceive, sheepSend, wheatStays };
}

/** stellar-core exchangeV10: the crossing amounts within the price error bound. */
export const exchangeV10: Exchange = (price, maxWheatSend, maxWheatReceive, maxSheepSend, maxSheepReceive, round) => {
  const r = exchangeV10WithoutPriceErrorThresholds(price, maxWheatSend, maxWheatReceive, maxSheepSend, maxSheepReceive, round);
  return applyPriceErrorThresholds(price, r.wheatReceive, r.sheepSend, r.wheatStays, round);
};

/** The largest amount an offer can keep so that it could be fully taken within the error bound. */
export function adjustOffer(price: Price, maxWheatSend: bigint, maxSheepReceive: bigint): bigint {
  return exchangeV10(price, maxWheatSend, INT64_MAX, INT64_MAX, maxSheepReceive, 'normal').wheatReceive;
}

/** Selling and buying liabilities of an offer of `amount` at `price` (getOfferSelling/BuyingLiabilities). */
export function offerLiabilities(price: Price, amount: bigint): { selling: bigint; buying: bigint } {
  const r = exchangeV10WithoutPriceErrorThresholds(price, amount, INT64_MAX, INT64_MAX, INT64_MAX, 'normal');
  return { selling: r.wheatReceive, buying: r.sheepSend };
}

/** Liabilities of a buy offer: at the inverse price, limited by what it buys. */
export function buyOfferLiabilities(sellPrice: Price, buyAmount: bigint): { selling: bigint; buying: bigint } {
  const r = exchangeV10WithoutPriceErrorThresholds(sellPrice, INT64_MAX, INT64_MAX, INT64_MAX, buyAmount, 'normal');
  return { selling: r.wheatReceive, buying: r.sheepSend };
}

/** Price comparison a > b, exact (stellar-core Price operator>). */
export function priceGreater(a: Price, b: Price): boolean {
  return BigInt(a.n) * BigInt(b.d) > BigInt(a.d) * BigInt(b.n);
}

export function priceGreaterOrEqual(a: Price, b: Price): boolean {
  return BigInt(a.n) * BigInt(b.d) >= BigInt(a.d) * BigInt(b.n);
}
