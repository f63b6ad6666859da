import { describe, expect, it } from 'vitest';
import {
  InvalidValueError,
  PAIR_ORDER_MAX,
  TOID_LEDGER_MAX,
  TOID_OP_INDEX_MAX,
  TOID_TX_ORDER_MAX,
  formatPagingToken,
  formatPairPagingToken,
  ledgerSequenceBounds,
  ledgerToidRange,
  parsePagingToken,
  parsePairPagingToken,
  parseToid,
  startingSequenceNumber,
  toid,
  transactionToidRange,
} from '../../src/stellar/index.js';

const INT64_MAX = 9223372036854775807n;

describe('toid', () => {
  it('packs ledger<<32 | tx<<12 | op', () => {
    expect(toid(0, 0, 0)).toBe(0n);
    expect(toid(1, 0, 0)).toBe(4294967296n);
    expect(toid(0, 1, 0)).toBe(4096n);
    expect(toid(0, 0, 1)).toBe(1n);
    // Horizon's toid tests: ledger 1, tx 1, op 1
    expect(toid(1, 1, 1)).toBe(4294971393n);
    // a real id from Horizon's base scenario: ledger 3, tx 1, op 1
    expect(toid(3, 1, 1)).toBe(12884905985n);
  });

  it('accepts the largest value of every part', () => {
    expect(toid(TOID_LEDGER_MAX, 0, 0)).toBe(BigInt(TOID_LEDGER_MAX) << 32n);
    expect(toid(0, TOID_TX_ORDER_MAX, 0)).toBe(BigInt(TOID_TX_ORDER_MAX) << 12n);
    expect(toid(0, 0, TOID_OP_INDEX_MAX)).toBe(4095n);
    expect(toid(TOID_LEDGER_MAX, TOID_TX_ORDER_MAX, TOID_OP_INDEX_MAX)).toBe(INT64_MAX);
  });

  it.each([
    [2 ** 31, 0, 0],
    [-1, 0, 0],
    [0, 2 ** 20, 0],
    [0, -1, 0],
    [0, 0, 4096],
    [0, 0, -1],
    [1.5, 0, 0],
    [Number.NaN, 0, 0],
  ])('rejects out-of-range parts (%s, %s, %s)', (ledger, tx, op) => {
    expect(() => toid(ledger, tx, op)).toThrow(InvalidValueError);
  });

  it('parses back into parts', () => {
    expect(parseToid(4294971393n)).toEqual({ ledger: 1, txOrder: 1, opIndex: 1 });
    expect(parseToid(INT64_MAX)).toEqual({
      ledger: TOID_LEDGER_MAX,
      txOrder: TOID_TX_ORDER_MAX,
      opIndex: TOID_OP_INDEX_MAX,
    });
    expect(parseToid(0n)).toEqual({ ledger: 0, txOrder: 0, opIndex: 0 });
    for (const [l, t, o] of [
      [123, 45, 6],
      [2 ** 31 - 2, 1, 4095],
      [7, 2 ** 20 - 1, 0],
    ] as const) {
      expect(parseToid(toid(l, t, o))).toEqual({ ledger: l, txOrder: t, opIndex: o });
    }
  });

  it('rejects ids outside 0..INT64_MAX', () => {
    expect(() => parseToid(-1n)).toThrow(InvalidValueError);
    expect(() => parseToid(INT64_MAX + 1n)).toThrow(InvalidValueError);
  });
});

describe('ranges', () => {
  it('covers a whole ledger, half-open', () => {
    const { start, end } = ledgerToidRange(5);
    expect(start).toBe(toid(5, 0, 0));
    expect(end).toBe(toid(6, 0, 0));
    expect(toid(5, TOID_TX_ORDER_MAX, TOID_OP_INDEX_MAX)).toBe(end - 1n);
  });

  it('caps the last ledger at INT64_MAX', () => {
    expect(ledgerToidRange(TOID_LEDGER_MAX)).toEqual({ start: BigInt(TOID_LEDGER_MAX) << 32n, end: INT64_MAX });
    expect(() => ledgerToidRange(TOID_LEDGER_MAX + 1)).toThrow(InvalidValueError);
    expect(() => ledgerToidRange(-1)).toThrow(InvalidValueError);
  });

  it('covers a transaction and all its operations', () => {
    expect(transactionToidRange(toid(9, 3, 0))).toEqual({ start: toid(9, 3, 0), end: toid(9, 4, 0) });
    // an operation id names its transaction too
    expect(transactionToidRange(toid(9, 3, 17))).toEqual({ start: toid(9, 3, 0), end: toid(9, 4, 0) });
  });

  it('rolls the last transaction of a ledger into the next ledger instead of overflowing', () => {
    expect(transactionToidRange(toid(9, TOID_TX_ORDER_MAX, 0))).toEqual({
      start: toid(9, TOID_TX_ORDER_MAX, 0),
      end: toid(10, 0, 0),
    });
    expect(transactionToidRange(toid(TOID_LEDGER_MAX, TOID_TX_ORDER_MAX, 0)).end).toBe(INT64_MAX);
  });
});

describe('paging tokens', () => {
  it.each([
    ['0', 0n],
    ['12884905985', 12884905985n],
    ['9223372036854775807', INT64_MAX],
    ['007', 7n],
  ])('parses %j', (text, id) => {
    expect(parsePagingToken(text)).toBe(id);
  });

  it.each(['', ' 1', '1 ', '-1', '+1', '1.0', '1e3', '0x10', 'now', 'abc', '9223372036854775808', '1-2'])('rejects %j', (text) => {
    expect(() => parsePagingToken(text)).toThrow(InvalidValueError);
  });

  it('formats as decimal', () => {
    expect(formatPagingToken(12884905985n)).toBe('12884905985');
    expect(parsePagingToken(formatPagingToken(INT64_MAX))).toBe(INT64_MAX);
  });
});

describe('pair paging tokens (effects, trades)', () => {
  it('formats <operation_id>-<order>', () => {
    expect(formatPairPagingToken(12884905985n, 1)).toBe('12884905985-1');
    expect(formatPairPagingToken(0n, 0)).toBe('0-0');
    expect(formatPairPagingToken(INT64_MAX, PAIR_ORDER_MAX)).toBe('9223372036854775807-2147483647');
  });

  it('rejects out-of-range parts when formatting', () => {
    expect(() => formatPairPagingToken(-1n, 1)).toThrow(InvalidValueError);
    expect(() => formatPairPagingToken(INT64_MAX + 1n, 1)).toThrow(InvalidValueError);
    expect(() => formatPairPagingToken(1n, -1)).toThrow(InvalidValueError);
    expect(() => formatPairPagingToken(1n, 2 ** 31)).toThrow(InvalidValueError);
    expect(() => formatPairPagingToken(1n, 0.5)).toThrow(InvalidValueError);
  });

  it('parses what it formats', () => {
    expect(parsePairPagingToken('12884905985-1')).toEqual({ operationId: 12884905985n, order: 1 });
    expect(parsePairPagingToken(formatPairPagingToken(INT64_MAX, 7))).toEqual({ operationId: INT64_MAX, order: 7 });
  });

  it('treats a single number as "after every record of that id" (Horizon)', () => {
    expect(parsePairPagingToken('12884905985')).toEqual({ operationId: 12884905985n, order: PAIR_ORDER_MAX });
  });

  it('clamps a large order to 2^31-1 like Horizon', () => {
    expect(parsePairPagingToken('5-9223372036854775807')).toEqual({ operationId: 5n, order: PAIR_ORDER_MAX });
    expect(parsePairPagingToken('5-2147483648')).toEqual({ operationId: 5n, order: PAIR_ORDER_MAX });
  });

  it.each(['', '-', '-1', '1-', '-1-2', '1--2', '1-2-3', 'a-1', '1-b', '1 -2', '9223372036854775808-1', '1-9223372036854775808'])(
    'rejects %j',
    (text) => {
      expect(() => parsePairPagingToken(text)).toThrow(InvalidValueError);
    },
  );
});

describe('ledgerSequenceBounds', () => {
  it('turns a TOID range into the ledgers whose ids lie strictly inside it', () => {
    expect(ledgerSequenceBounds({})).toEqual({});
    expect(ledgerSequenceBounds({ gt: toid(5, 0, 0) })).toEqual({ gt: 5 });
    expect(ledgerSequenceBounds({ gt: toid(5, 3, 1) })).toEqual({ gt: 5 });
    expect(ledgerSequenceBounds({ lt: toid(9, 0, 0) })).toEqual({ lt: 9 });
    // ledger 9's id is below any id inside ledger 9
    expect(ledgerSequenceBounds({ lt: toid(9, 0, 1) })).toEqual({ lt: 10 });
    expect(ledgerSequenceBounds({ gt: 0n, lt: INT64_MAX })).toEqual({ gt: 0, lt: 2 ** 31 });
  });
});

describe('startingSequenceNumber', () => {
  it('puts the ledger in the high 32 bits, as the ledger\u2019s TOID', () => {
    expect(startingSequenceNumber(0)).toBe(0n);
    expect(startingSequenceNumber(7)).toBe(7n << 32n);
    expect(startingSequenceNumber(7)).toBe(toid(7, 0, 0));
  });
});
