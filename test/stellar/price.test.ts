import { xdr } from '@stellar/stellar-sdk/base';
import { describe, expect, it } from 'vitest';
import { InvalidValueError, formatPrice, formatRatio, priceFromXdr, priceToXdr } from '../../src/stellar/index.js';

describe('formatPrice (Go big.Rat FloatString(7))', () => {
  it.each([
    [1, 1, '1.0000000'],
    [1, 2, '0.5000000'],
    [1, 3, '0.3333333'],
    [2, 3, '0.6666667'], // rounds up
    [10, 1, '10.0000000'],
    [1, 10_000_000, '0.0000001'],
    [1, 20_000_000, '0.0000001'], // exactly half a unit of the last place: away from zero
    [1, 20_000_001, '0.0000000'], // just under half
    [3, 20_000_000, '0.0000002'], // 1.5 units → 2
    [5, 20_000_000, '0.0000003'], // 2.5 units → 3 (not banker's rounding)
    [19_999_999, 20_000_000, '1.0000000'], // 0.99999995 rounds into the integer part
    [2147483647, 1, '2147483647.0000000'],
    [1, 2147483647, '0.0000000'],
    [2147483647, 2147483646, '1.0000000'],
    [0, 5, '0.0000000'],
  ])('%i/%i → %s', (n, d, text) => {
    expect(formatPrice({ n, d })).toBe(text);
  });

  it('handles signs like Go: away from zero, "-" kept even when it rounds to zero', () => {
    expect(formatPrice({ n: -1, d: 2 })).toBe('-0.5000000');
    expect(formatPrice({ n: 1, d: -3 })).toBe('-0.3333333');
    expect(formatPrice({ n: -2, d: 3 })).toBe('-0.6666667');
    expect(formatPrice({ n: -1, d: -2 })).toBe('0.5000000');
    expect(formatPrice({ n: -1, d: 20_000_000 })).toBe('-0.0000001');
    expect(formatPrice({ n: -1, d: 30_000_000 })).toBe('-0.0000000');
    expect(formatPrice({ n: 0, d: -5 })).toBe('0.0000000');
  });

  it('takes int64 ratios', () => {
    expect(formatRatio(9223372036854775807n, 1n)).toBe('9223372036854775807.0000000');
    expect(formatRatio(100_000_000n, 300_000_000n)).toBe('0.3333333');
  });

  it('rejects a zero denominator', () => {
    expect(() => formatPrice({ n: 1, d: 0 })).toThrow(InvalidValueError);
    expect(() => formatRatio(1n, 0n)).toThrow(InvalidValueError);
  });
});

describe('xdr.Price', () => {
  it('round-trips through XDR bytes', () => {
    const price = { n: 2147483647, d: 3 };
    const raw = priceToXdr(price).toXdr('base64');
    expect(priceFromXdr(xdr.Price.fromXdr(raw, 'base64'))).toEqual(price);
    expect(priceToXdr({ n: 1, d: 2 }).toXdr('hex')).toBe('0000000100000002');
  });

  it.each([
    { n: 1, d: 0 },
    { n: 2 ** 31, d: 1 },
    { n: 1, d: 2 ** 31 },
    { n: -(2 ** 31) - 1, d: 1 },
    { n: 1.5, d: 1 },
  ])('rejects %j', (price) => {
    expect(() => priceToXdr(price)).toThrow(InvalidValueError);
  });
});
