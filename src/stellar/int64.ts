import { InvalidValueError } from './invalid_value_error.js';

/** Largest signed 64-bit integer: the ceiling for amounts, ids and paging tokens. */
export const INT64_MAX = 9223372036854775807n;
/** Smallest signed 64-bit integer. */
export const INT64_MIN = -9223372036854775808n;
/** Largest unsigned 64-bit integer (muxed account ids, timestamps). */
export const UINT64_MAX = 18446744073709551615n;

const DIGITS = /^[0-9]+$/;

/**
 * Parses a plain decimal integer in 0..INT64_MAX (ids, offer ids, paging tokens, sequence numbers
 * sent as strings). Only ASCII digits are accepted: no sign, no whitespace, no exponent, no
 * separators — `BigInt()` alone would also accept "0x10", " 1" and "", which must be rejected.
 */
export function parseNonNegativeInt64(text: string, what = 'value'): bigint {
  if (!DIGITS.test(text)) {
    throw new InvalidValueError(`${what} must be a non-negative decimal integer, got ${JSON.stringify(text)}`);
  }
  const value = BigInt(text);
  if (value > INT64_MAX) {
    throw new InvalidValueError(`${what} ${text} is larger than the int64 maximum ${INT64_MAX}`);
  }
  return value;
}
