import { xdr } from '@stellar/stellar-sdk/base';
import { InvalidValueError } from './invalid_value_error.js';

/** A price as a fraction, as in xdr.Price and Horizon's `price_r` (n and d are int32). */
export interface Price {
  readonly n: number;
  readonly d: number;
}

const PRICE_DECIMALS = 7;
const SCALE = 10n ** BigInt(PRICE_DECIMALS);
const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/**
 * n/d as a decimal string with 7 decimals, exactly as Go's big.Rat.FloatString(7), which Horizon
 * uses for `price` (xdr.Price.String) and amounts: rounded to nearest, halves away from zero; the
 * sign comes from the exact fraction, so a tiny negative value prints as "-0.0000000" like Go.
 * Takes bigints so int64 ratios (trade amounts) work as well as int32 prices.
 */
export function formatRatio(n: bigint, d: bigint): string {
  if (d === 0n) throw new InvalidValueError('price denominator must not be zero');
  const negative = n < 0n !== d < 0n && n !== 0n;
  const num = n < 0n ? -n : n;
  const den = d < 0n ? -d : d;
  let whole = num / den;
  const remainder = num % den;
  let fraction = (remainder * SCALE) / den;
  const rest = (remainder * SCALE) % den;
  if (2n * rest >= den) {
    fraction += 1n;
    if (fraction >= SCALE) {
      whole += 1n;
      fraction -= SCALE;
    }
  }
  return `${negative ? '-' : ''}${whole}.${fraction.toString().padStart(PRICE_DECIMALS, '0')}`;
}

/** Horizon's `price` string for a `price_r`. */
export function formatPrice(price: Price): string {
  return formatRatio(BigInt(price.n), BigInt(price.d));
}

/** Reads an xdr.Price. */
export function priceFromXdr(price: xdr.Price): Price {
  return { n: price.n, d: price.d };
}

/** Builds an xdr.Price; n and d must be int32 and d non-zero. */
export function priceToXdr(price: Price): xdr.Price {
  for (const [part, value] of [
    ['numerator', price.n],
    ['denominator', price.d],
  ] as const) {
    if (!Number.isInteger(value) || value < INT32_MIN || value > INT32_MAX) {
      throw new InvalidValueError(`price ${part} ${value} is not a 32-bit integer`);
    }
  }
  if (price.d === 0) throw new InvalidValueError('price denominator must not be zero');
  return new xdr.Price({ n: price.n, d: price.d });
}
