import { describe, expect, it } from 'vitest';
import { InvalidValueError, formatAmount, parseAmount, parsePositiveAmount } from '../../src/stellar/index.js';

const INT64_MAX = 9223372036854775807n;

describe('parseAmount', () => {
  it.each([
    ['0', 0n],
    ['0.0000000', 0n],
    ['0.0000001', 1n],
    ['1', 10_000_000n],
    ['10', 100_000_000n],
    ['10.5', 105_000_000n],
    ['101.001', 1_010_010_000n],
    ['1.', 10_000_000n], // accepted like Horizon (Go big.Rat)
    ['.5', 5_000_000n], // accepted like Horizon
    ['007.25', 72_500_000n],
    ['922337203685.4775807', INT64_MAX],
    ['922337203685', 9223372036850000000n],
  ])('parses %j as %s stroops', (text, stroops) => {
    expect(parseAmount(text)).toBe(stroops);
  });

  it.each([
    '',
    ' ',
    ' 1',
    '1 ',
    '.',
    '-1',
    '-0.0000001',
    '+1',
    '1e7',
    '1E2',
    '0x10',
    'abc',
    '1.2.3',
    '1,5',
    '١',
    '0.00000001', // 8 decimals
    '1.00000000', // 8 decimals, even if zero (Horizon would accept this one)
    '922337203685.4775808', // INT64_MAX + 1 stroop
    '922337203686',
    '99999999999999999999999',
    'Infinity',
    'NaN',
  ])('rejects %j', (text) => {
    expect(() => parseAmount(text)).toThrow(InvalidValueError);
  });

  it('says why in the message', () => {
    expect(() => parseAmount('1.12345678')).toThrow(/7 decimal/);
    expect(() => parseAmount('922337203685.4775808')).toThrow(/maximum/);
  });
});

describe('parsePositiveAmount', () => {
  it('rejects zero in any spelling and accepts one stroop', () => {
    expect(() => parsePositiveAmount('0')).toThrow(InvalidValueError);
    expect(() => parsePositiveAmount('0.0000000')).toThrow(InvalidValueError);
    expect(() => parsePositiveAmount('.0')).toThrow(InvalidValueError);
    expect(parsePositiveAmount('0.0000001')).toBe(1n);
  });
  it('keeps the other parseAmount rules', () => {
    expect(() => parsePositiveAmount('-1')).toThrow(InvalidValueError);
  });
});

describe('formatAmount', () => {
  it.each([
    [0n, '0.0000000'],
    [1n, '0.0000001'],
    [10n, '0.0000010'],
    [9_999_999n, '0.9999999'],
    [10_000_000n, '1.0000000'],
    [100_000_000n, '10.0000000'],
    [1_010_010_000n, '101.0010000'],
    [INT64_MAX, '922337203685.4775807'],
    [-1n, '-0.0000001'],
    [-15_000_000n, '-1.5000000'],
    [-9223372036854775808n, '-922337203685.4775808'],
    // int128 contract amounts are not clipped
    [170141183460469231731687303715884105727n, '17014118346046923173168730371588.4105727'],
  ])('formats %s as %s', (stroops, text) => {
    expect(formatAmount(stroops)).toBe(text);
  });

  it('round-trips with parseAmount', () => {
    for (const stroops of [0n, 1n, 12_345_678_901n, INT64_MAX - 1n, INT64_MAX]) {
      expect(parseAmount(formatAmount(stroops))).toBe(stroops);
    }
  });
});
