// A claimable balance's claim predicate: stellar-core's rules (a valid predicate, relative times
// made absolute when the balance is created, whether a claim may happen at a close time), and the
// predicate as Horizon writes it in JSON (stellar-go's xdr.ClaimPredicate MarshalJSON,
// xdr/json.go): `and`, `or`, `not`, `unconditional`, `abs_before` with `abs_before_epoch`,
// `rel_before`; 64-bit numbers as strings.
import { xdr } from '@stellar/stellar-sdk/base';
import { INT64_MAX } from './int64.js';

/** The deepest a predicate may nest, its root at depth 1 (stellar-core's validatePredicate). */
const MAX_PREDICATE_DEPTH = 4;

/**
 * stellar-core's validatePredicate (CreateClaimableBalanceOpFrame): at most 4 levels, `and` and
 * `or` with exactly two predicates, `not` with one, times not negative.
 */
export function isClaimPredicateValid(predicate: xdr.ClaimPredicate, depth = 1): boolean {
  // checked before looking inside, so a hostile nesting is never walked past the limit
  if (depth > MAX_PREDICATE_DEPTH) return false;
  switch (predicate.type) {
    case 'claimPredicateUnconditional':
      return true;
    case 'claimPredicateAnd':
    case 'claimPredicateOr': {
      const list = predicate.type === 'claimPredicateAnd' ? predicate.andPredicates : predicate.orPredicates;
      return list.length === 2 && isClaimPredicateValid(list[0]!, depth + 1) && isClaimPredicateValid(list[1]!, depth + 1);
    }
    case 'claimPredicateNot':
      return predicate.notPredicate !== null && isClaimPredicateValid(predicate.notPredicate, depth + 1);
    case 'claimPredicateBeforeAbsoluteTime':
      return predicate.absBefore >= 0n;
    case 'claimPredicateBeforeRelativeTime':
      return predicate.relBefore >= 0n;
  }
}

/** The two predicates of an `and` or `or` in a balance (stellar-core's `.at(0)`, `.at(1)` throw otherwise). */
function pairOf(list: xdr.ClaimPredicate[]): [xdr.ClaimPredicate, xdr.ClaimPredicate] {
  const [left, right] = list;
  if (list.length !== 2 || !left || !right) throw new Error(`a claim predicate joining ${list.length} predicates`);
  return [left, right];
}

/** The `not` of a balance's predicate (always present once validated). */
function notOf(predicate: xdr.ClaimPredicate | null): xdr.ClaimPredicate {
  if (!predicate) throw new Error('a not claim predicate without its predicate');
  return predicate;
}

/**
 * A valid predicate as a new balance holds it (stellar-core's updatePredicatesForApply): every
 * relative time becomes the absolute `closeTime + relBefore` of the ledger creating the balance,
 * INT64_MAX when that sum would pass it.
 */
export function absoluteClaimPredicate(predicate: xdr.ClaimPredicate, closeTime: bigint): xdr.ClaimPredicate {
  const P = xdr.ClaimPredicate;
  switch (predicate.type) {
    case 'claimPredicateAnd':
      return P.claimPredicateAnd(pairOf(predicate.andPredicates).map((p) => absoluteClaimPredicate(p, closeTime)));
    case 'claimPredicateOr':
      return P.claimPredicateOr(pairOf(predicate.orPredicates).map((p) => absoluteClaimPredicate(p, closeTime)));
    case 'claimPredicateNot':
      return P.claimPredicateNot(absoluteClaimPredicate(notOf(predicate.notPredicate), closeTime));
    case 'claimPredicateBeforeRelativeTime': {
      const relative = predicate.relBefore;
      return P.claimPredicateBeforeAbsoluteTime(closeTime > INT64_MAX - relative ? INT64_MAX : closeTime + relative);
    }
    default:
      return predicate;
  }
}

/**
 * Whether a balance's predicate lets its claimant claim in a ledger closing at `closeTime`
 * (stellar-core's validatePredicate of ClaimClaimableBalanceOpFrame): before an absolute time
 * means strictly before. A relative time never reaches a ledger, and throws as in stellar-core.
 */
export function claimPredicateHolds(predicate: xdr.ClaimPredicate, closeTime: bigint): boolean {
  switch (predicate.type) {
    case 'claimPredicateUnconditional':
      return true;
    case 'claimPredicateAnd': {
      const [left, right] = pairOf(predicate.andPredicates);
      return claimPredicateHolds(left, closeTime) && claimPredicateHolds(right, closeTime);
    }
    case 'claimPredicateOr': {
      const [left, right] = pairOf(predicate.orPredicates);
      return claimPredicateHolds(left, closeTime) || claimPredicateHolds(right, closeTime);
    }
    case 'claimPredicateNot':
      return !claimPredicateHolds(notOf(predicate.notPredicate), closeTime);
    case 'claimPredicateBeforeAbsoluteTime':
      // stellar-core compares as uint64
      return BigInt.asUintN(64, predicate.absBefore) > closeTime;
    case 'claimPredicateBeforeRelativeTime':
      throw new Error('a relative claim predicate in a claimable balance');
  }
}

export type ClaimPredicateJson =
  | { and: ClaimPredicateJson[] }
  | { or: ClaimPredicateJson[] }
  | { not: ClaimPredicateJson | null }
  | { unconditional: true }
  | { abs_before: string; abs_before_epoch: string }
  | { rel_before: string };

export function claimPredicateJson(predicate: xdr.ClaimPredicate): ClaimPredicateJson {
  switch (predicate.type) {
    case 'claimPredicateAnd':
      return { and: predicate.andPredicates.map(claimPredicateJson) };
    case 'claimPredicateOr':
      return { or: predicate.orPredicates.map(claimPredicateJson) };
    case 'claimPredicateNot': {
      // stellar-core rejects a `not` without its predicate before a ledger holds it
      const inner = predicate.notPredicate;
      return { not: inner ? claimPredicateJson(inner) : null };
    }
    case 'claimPredicateBeforeAbsoluteTime': {
      const epoch = predicate.absBefore;
      return { abs_before: goRfc3339(epoch), abs_before_epoch: epoch.toString() };
    }
    case 'claimPredicateBeforeRelativeTime':
      return { rel_before: predicate.relBefore.toString() };
    default:
      return { unconditional: true };
  }
}

const floorDiv = (a: bigint, b: bigint): bigint => (a >= 0n ? a / b : -((-a + b - 1n) / b));
const pad = (n: bigint, width: number): string => n.toString().padStart(width, '0');

/**
 * Seconds since 1970 as Go's time.Unix(s, 0).UTC().Format(time.RFC3339), with the `+` stellar-go
 * puts before a year past 9999 ("+10000-01-01T00:00:00Z"). Every int64 has a proleptic Gregorian
 * date in Go, years of any length included (civil_from_days, H. Hinnant, in bigint).
 */
export function goRfc3339(seconds: bigint): string {
  const days = floorDiv(seconds, 86_400n);
  const secs = seconds - days * 86_400n;
  const z = days + 719_468n;
  const era = floorDiv(z, 146_097n);
  const doe = z - era * 146_097n;
  const yoe = (doe - doe / 1_460n + doe / 36_524n - doe / 146_096n) / 365n;
  const doy = doe - (365n * yoe + yoe / 4n - yoe / 100n);
  const mp = (5n * doy + 2n) / 153n;
  const day = doy - (153n * mp + 2n) / 5n + 1n;
  const month = mp < 10n ? mp + 3n : mp - 9n;
  const year = yoe + era * 400n + (month <= 2n ? 1n : 0n);
  // Go's appendInt: a sign, then at least 4 digits
  const yearText = year < 0n ? `-${pad(-year, 4)}` : `${year > 9999n ? '+' : ''}${pad(year, 4)}`;
  const time = `${pad(secs / 3600n, 2)}:${pad((secs / 60n) % 60n, 2)}:${pad(secs % 60n, 2)}`;
  return `${yearText}-${pad(month, 2)}-${pad(day, 2)}T${time}Z`;
}
