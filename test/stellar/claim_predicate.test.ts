// Claim predicates as Horizon's JSON, and Go's RFC 3339 rendering of abs_before for any int64.
import { xdr } from '@stellar/stellar-sdk/base';
import { describe, expect, it } from 'vitest';
import { claimPredicateJson, goRfc3339 } from '../../src/stellar/index.js';

describe('goRfc3339', () => {
  it('writes seconds since 1970 as Go’s time.Unix(s, 0).UTC().Format(time.RFC3339)', () => {
    expect(goRfc3339(0n)).toBe('1970-01-01T00:00:00Z');
    expect(goRfc3339(-1n)).toBe('1969-12-31T23:59:59Z');
    // resourceadapter/claimable_balances_test.go
    expect(goRfc3339(1598440539n)).toBe('2020-08-26T11:15:39Z');
    expect(goRfc3339(951782400n)).toBe('2000-02-29T00:00:00Z');
    expect(goRfc3339(253402300799n)).toBe('9999-12-31T23:59:59Z');
  });

  it('puts stellar-go’s + before a year past 9999, and reaches the largest int64 as Go does', () => {
    expect(goRfc3339(253402300800n)).toBe('+10000-01-01T00:00:00Z');
    // time.Unix(math.MaxInt64, 0).UTC(): 292277026596-12-04 15:30:07
    expect(goRfc3339(9223372036854775807n)).toBe('+292277026596-12-04T15:30:07Z');
  });
});

describe('claimPredicateJson', () => {
  it('writes relative times as strings and absolute ones with their epoch', () => {
    expect(claimPredicateJson(xdr.ClaimPredicate.claimPredicateBeforeRelativeTime(12n))).toEqual({
      rel_before: '12',
    });
    expect(claimPredicateJson(xdr.ClaimPredicate.claimPredicateBeforeAbsoluteTime(253402300800n))).toEqual({
      abs_before: '+10000-01-01T00:00:00Z',
      abs_before_epoch: '253402300800',
    });
    expect(claimPredicateJson(xdr.ClaimPredicate.claimPredicateOr([]))).toEqual({ or: [] });
  });
});

describe('claimPredicateJson, as stellar-go’s ClaimPredicate.MarshalJSON writes a predicate', () => {
  const P = xdr.ClaimPredicate;
  const int64 = (n: number) => BigInt(n);
  it('writes and, or, not, absolute times (a year past 9999 with a plus sign) and relative ones', () => {
    const predicate = P.claimPredicateAnd([
      P.claimPredicateNot(P.claimPredicateBeforeAbsoluteTime(int64(1600000000))),
      P.claimPredicateOr([P.claimPredicateBeforeRelativeTime(int64(60)), P.claimPredicateBeforeAbsoluteTime(int64(253402300800))]),
    ]);
    expect(claimPredicateJson(xdr.ClaimPredicate.fromXdr(predicate.toXdr()))).toEqual({
      and: [
        { not: { abs_before: '2020-09-13T12:26:40Z', abs_before_epoch: '1600000000' } },
        { or: [{ rel_before: '60' }, { abs_before: '+10000-01-01T00:00:00Z', abs_before_epoch: '253402300800' }] },
      ],
    });
  });
});
