// Claim predicates as Horizon's JSON, and Go's RFC 3339 rendering of abs_before for any int64.
import { xdr } from '@stellar/stellar-sdk/base';
import { describe, expect, it } from 'vitest';
import {
  absoluteClaimPredicate,
  claimPredicateHolds,
  claimPredicateJson,
  goRfc3339,
  isClaimPredicateValid,
} from '../../src/stellar/index.js';

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

// stellar-core's ClaimableBalanceTests.cpp: its predicate builders and numbers
const P = xdr.ClaimPredicate;
const INT64_MAX = 9223372036854775807n;

/** makeSimplePredicate(levels): `levels` nested ors over absBefore INT64_MAX */
function simple(levels: number): xdr.ClaimPredicate {
  if (levels === 0) return P.claimPredicateBeforeAbsoluteTime(INT64_MAX);
  const next = simple(levels - 1);
  return P.claimPredicateOr([next, next]);
}

describe('isClaimPredicateValid, as stellar-core’s validatePredicate', () => {
  it('takes every kind up to 4 levels (makeSimplePredicate 0 to 3)', () => {
    for (const levels of [0, 1, 2, 3]) expect(isClaimPredicateValid(simple(levels))).toBe(true);
    expect(isClaimPredicateValid(P.claimPredicateUnconditional())).toBe(true);
    expect(isClaimPredicateValid(P.claimPredicateBeforeRelativeTime(0n))).toBe(true);
    expect(isClaimPredicateValid(P.claimPredicateBeforeRelativeTime(INT64_MAX))).toBe(true);
    expect(isClaimPredicateValid(P.claimPredicateNot(P.claimPredicateAnd([simple(0), P.claimPredicateUnconditional()])))).toBe(true);
  });

  it('refuses and/or of one predicate, negative times, a null not, a bad predicate under not', () => {
    expect(isClaimPredicateValid(P.claimPredicateAnd([simple(1)]))).toBe(false);
    expect(isClaimPredicateValid(P.claimPredicateOr([simple(1)]))).toBe(false);
    expect(isClaimPredicateValid(P.claimPredicateAnd([]))).toBe(false);
    expect(isClaimPredicateValid(P.claimPredicateBeforeAbsoluteTime(-1n))).toBe(false);
    expect(isClaimPredicateValid(P.claimPredicateBeforeRelativeTime(-1n))).toBe(false);
    expect(isClaimPredicateValid(P.claimPredicateNot(null))).toBe(false);
    expect(isClaimPredicateValid(P.claimPredicateNot(P.claimPredicateBeforeRelativeTime(-1n)))).toBe(false);
  });

  it('counts and, or and not as levels: a fifth level is too deep ("invalid predicate height")', () => {
    expect(isClaimPredicateValid(simple(4))).toBe(false);
    const tree1 = P.claimPredicateOr([simple(0), simple(0)]);
    const tree2 = P.claimPredicateAnd([tree1, tree1]);
    expect(isClaimPredicateValid(tree2)).toBe(true);
    expect(isClaimPredicateValid(P.claimPredicateOr([tree2, P.claimPredicateNot(tree2)]))).toBe(false);
    // an unconditional predicate at depth 5 is refused too: the depth is checked first
    const deep = P.claimPredicateNot(P.claimPredicateNot(P.claimPredicateNot(P.claimPredicateNot(P.claimPredicateUnconditional()))));
    expect(isClaimPredicateValid(deep)).toBe(false);
  });
});

describe('absoluteClaimPredicate, as stellar-core’s updatePredicatesForApply', () => {
  it('turns every relative time into closeTime + relBefore, keeping the rest', () => {
    const predicate = P.claimPredicateAnd([
      P.claimPredicateNot(P.claimPredicateBeforeRelativeTime(86_400n)),
      P.claimPredicateOr([P.claimPredicateBeforeAbsoluteTime(5n), P.claimPredicateUnconditional()]),
    ]);
    const absolute = absoluteClaimPredicate(predicate, 1_451_606_400n);
    expect(absolute.toXdr('hex')).toBe(
      P.claimPredicateAnd([
        P.claimPredicateNot(P.claimPredicateBeforeAbsoluteTime(1_451_692_800n)),
        P.claimPredicateOr([P.claimPredicateBeforeAbsoluteTime(5n), P.claimPredicateUnconditional()]),
      ]).toXdr('hex'),
    );
    // the operation's own predicate is left as it was
    expect(claimPredicateJson(predicate)).toEqual({
      and: [{ not: { rel_before: '86400' } }, { or: [expect.anything(), { unconditional: true }] }],
    });
  });

  it('saturates at INT64_MAX ("relBefore max satisfied")', () => {
    const at = (rel: bigint, closeTime: bigint) => {
      const p = absoluteClaimPredicate(P.claimPredicateBeforeRelativeTime(rel), closeTime);
      return xdr.expectUnionVariant(p, 'claimPredicateBeforeAbsoluteTime').absBefore;
    };
    expect(at(INT64_MAX, 1_451_606_400n)).toBe(INT64_MAX);
    expect(at(INT64_MAX - 10n, 10n)).toBe(INT64_MAX);
    expect(at(INT64_MAX - 10n, 11n)).toBe(INT64_MAX);
    expect(at(INT64_MAX - 10n, 9n)).toBe(INT64_MAX - 1n);
    expect(at(0n, 0n)).toBe(0n);
    // a close time past int64 (uint64 in the header) saturates as well
    expect(at(1n, 2n ** 63n)).toBe(INT64_MAX);
  });
});

describe('claimPredicateHolds: the "claim balance" sections of ClaimableBalanceTests', () => {
  // created in a ledger closing at 2016-01-01, claimed one day later (closeLedgerOn(…, 2, 1, 2016))
  const created = 1_451_606_400n;
  const day = 86_400n;
  const next = created + day;
  const absBefore = (satisfied: boolean) => P.claimPredicateBeforeAbsoluteTime(satisfied ? next + 1n : next);
  const relBefore = (satisfied: boolean) => P.claimPredicateBeforeRelativeTime(satisfied ? day + 1n : day);
  const not = (p: xdr.ClaimPredicate) => P.claimPredicateNot(p);
  const and = (l: xdr.ClaimPredicate, r: xdr.ClaimPredicate) => P.claimPredicateAnd([l, r]);
  const or = (l: xdr.ClaimPredicate, r: xdr.ClaimPredicate) => P.claimPredicateOr([l, r]);
  // makePredicate(AND/OR/NOT, satisfied): both orders, as the test randomizes the position
  const andPred = (s: boolean) => [and(absBefore(s), relBefore(true)), and(relBefore(true), absBefore(s))];
  const orPred = (s: boolean) => [or(absBefore(s), relBefore(false)), or(relBefore(false), absBefore(s))];
  const notPred = (s: boolean) => andPred(!s).map(not);
  const absBeforeFalse = absBefore(false);
  const relBeforeFalse = relBefore(false);
  const absBeforeTrue = absBefore(true);
  const relBeforeTrue = relBefore(true);
  const absAfterTrue = not(absBeforeFalse);
  const absAfterFalse = not(absBeforeTrue);
  const relAfterTrue = not(relBeforeFalse);
  const relAfterFalse = not(relBeforeTrue);
  const holds = (p: xdr.ClaimPredicate) => {
    expect(isClaimPredicateValid(p)).toBe(true);
    return claimPredicateHolds(absoluteClaimPredicate(p, created), next);
  };

  it('predicate not satisfied', () => {
    const notSatisfied = [
      not(P.claimPredicateUnconditional()),
      absBeforeFalse,
      relBeforeFalse,
      ...andPred(false),
      ...orPred(false),
      ...notPred(false),
      and(or(relBeforeFalse, absAfterFalse), and(absAfterTrue, absBeforeTrue)),
      and(not(relAfterTrue), absAfterTrue),
      or(
        or(or(relBeforeFalse, absBeforeFalse), or(absBeforeFalse, relBeforeFalse)),
        or(or(absBeforeFalse, relBeforeFalse), or(relBeforeFalse, absBeforeFalse)),
      ),
      or(or(absAfterFalse, absBeforeFalse), or(relAfterFalse, relBeforeFalse)),
    ];
    for (const p of notSatisfied) expect(holds(p)).toBe(false);
  });

  it('predicate satisfied', () => {
    const satisfied = [
      P.claimPredicateUnconditional(),
      absBeforeTrue,
      absAfterTrue,
      relBeforeTrue,
      relAfterTrue,
      P.claimPredicateBeforeRelativeTime(INT64_MAX),
      ...andPred(true),
      ...orPred(true),
      ...notPred(true),
      and(or(relBeforeTrue, absAfterFalse), and(absAfterTrue, absBeforeTrue)),
      not(or(absAfterFalse, absBeforeFalse)),
      and(
        and(and(relBeforeTrue, absBeforeTrue), and(absBeforeTrue, relBeforeTrue)),
        and(and(absBeforeTrue, relBeforeTrue), and(relBeforeTrue, absBeforeTrue)),
      ),
      or(
        or(or(relBeforeFalse, absBeforeFalse), or(absBeforeFalse, relBeforeFalse)),
        or(or(absBeforeTrue, relBeforeFalse), or(relBeforeFalse, absBeforeFalse)),
      ),
      and(and(absAfterTrue, absBeforeTrue), and(relAfterTrue, relBeforeTrue)),
    ];
    for (const p of satisfied) expect(holds(p)).toBe(true);
  });

  it('is strictly before an absolute time, and throws on a relative time left in a balance', () => {
    expect(claimPredicateHolds(P.claimPredicateBeforeAbsoluteTime(10n), 9n)).toBe(true);
    expect(claimPredicateHolds(P.claimPredicateBeforeAbsoluteTime(10n), 10n)).toBe(false);
    expect(() => claimPredicateHolds(P.claimPredicateBeforeRelativeTime(10n), 0n)).toThrow(/relative/);
  });
});
