import { INT64_MAX } from './int64.js';
import { InvalidValueError } from './invalid_value_error.js';

/** One whole unit of any asset, in stroops (Stellar amounts have 7 fixed decimals). */
export const STROOPS_PER_UNIT = 10_000_000n;

/** Number of fractional digits in an amount string. */
export const AMOUNT_DECIMALS = 7;

// Integer part and/or fraction. "1." and ".5" are accepted because Horizon's parser (Go's
// big.Rat.SetString behind stellar/go amount.Parse) accepts them; "." alone is not a number.
const AMOUNT = /^(?:([0-9]+)(?:\.([0-9]*))?|\.([0-9]+))$/;

/**
 * Parses a decimal amount string ("10", "10.5", "0.0000001", "1.", ".5") into stroops, exactly
 * (no floating point anywhere).
 *
 * Rejected: empty, whitespace, signs (amounts given to Horizon are never negative), exponents,
 * anything but ASCII digits and one dot, more than 7 fractional digits, and values above
 * INT64_MAX stroops ("922337203685.4775807").
 *
 * Unlike Horizon (which accepts "1.00000000" because the value is still a whole number of stroops)
 * this rejects any 8th decimal, even a zero: a client sending 8 decimals has misunderstood the unit.
 */
export function parseAmount(text: string): bigint {
  const match = AMOUNT.exec(text);
  if (match === null) {
    throw new InvalidValueError(`invalid amount ${JSON.stringify(text)}: expected a decimal number such as "10" or "0.5000000"`);
  }
  const whole = match[1] ?? '0';
  const fraction = match[2] ?? match[3] ?? '';
  if (fraction.length > AMOUNT_DECIMALS) {
    throw new InvalidValueError(`invalid amount ${JSON.stringify(text)}: more than ${AMOUNT_DECIMALS} decimal places`);
  }
  const stroops = BigInt(whole) * STROOPS_PER_UNIT + BigInt(fraction.padEnd(AMOUNT_DECIMALS, '0'));
  if (stroops > INT64_MAX) {
    throw new InvalidValueError(`invalid amount ${JSON.stringify(text)}: larger than the maximum 922337203685.4775807`);
  }
  return stroops;
}

/** Like parseAmount, but zero is rejected too (payment and path amounts must be positive). */
export function parsePositiveAmount(text: string): bigint {
  const stroops = parseAmount(text);
  if (stroops === 0n) {
    throw new InvalidValueError(`invalid amount ${JSON.stringify(text)}: must be greater than zero`);
  }
  return stroops;
}

/**
 * Renders stroops as Horizon does: always 7 decimals ("10.0000000", "0.0000001").
 * Negative values keep their sign ("-1.5000000"): Horizon never shows a negative balance or
 * payment amount, but signed deltas (e.g. liquidity pool reserves changes, SAC amounts) can be.
 * Not bounded to int64, so int128 contract amounts render too.
 */
export function formatAmount(stroops: bigint): string {
  const negative = stroops < 0n;
  const magnitude = negative ? -stroops : stroops;
  const whole = magnitude / STROOPS_PER_UNIT;
  const fraction = (magnitude % STROOPS_PER_UNIT).toString().padStart(AMOUNT_DECIMALS, '0');
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}
