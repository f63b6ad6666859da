// A claimable balance's claim predicate as Horizon writes it in JSON (stellar-go's
// xdr.ClaimPredicate MarshalJSON, xdr/json.go): `and`, `or`, `not`, `unconditional`, `abs_before`
// with `abs_before_epoch`, `rel_before`; 64-bit numbers as strings.
import type { xdr } from '@stellar/stellar-sdk/base';

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
