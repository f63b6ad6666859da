// Small builders shared by the operation and effect processors: Horizon's asset fields, muxed
// account fields and amounts, with Horizon's key names.
import { StrKey, type xdr } from '@stellar/stellar-base';
import {
  assetFromXdr,
  encodeAccountId,
  formatAmount,
  formatCanonicalAsset,
  muxedAccountFromXdr,
  type AssetValue,
} from '../../stellar/index.js';
import type { Details } from '../rows.js';

/** Horizon's addAssetDetails: `<prefix>asset_type`, and code/issuer for credit assets. */
export function addAsset(details: Details, asset: AssetValue, prefix = ''): void {
  details[`${prefix}asset_type`] = asset.type;
  if (asset.type !== 'native') {
    details[`${prefix}asset_code`] = asset.code;
    details[`${prefix}asset_issuer`] = asset.issuer;
  }
}

export function addXdrAsset(details: Details, asset: xdr.Asset, prefix = ''): void {
  addAsset(details, assetFromXdr(asset), prefix);
}

/** Horizon's addAccountAndMuxedAccountDetails; the muxed id is a string (JSON numbers lose int64). */
export function addAccount(details: Details, account: xdr.MuxedAccount, key: string): void {
  const decoded = muxedAccountFromXdr(account);
  details[key] = decoded.accountId;
  if (decoded.muxedAddress !== null) {
    details[`${key}_muxed`] = decoded.muxedAddress;
    details[`${key}_muxed_id`] = String(decoded.muxedId);
  }
}

export function amountOf(value: xdr.Int64 | bigint | number): string {
  return formatAmount(BigInt(value.toString()));
}

/** Horizon's string form of a signer key (G..., T..., X... or P...). */
export function signerKeyAddress(key: xdr.SignerKey): string {
  switch (key.switch().name) {
    case 'signerKeyTypeEd25519':
      return encodeAccountId(key.ed25519());
    case 'signerKeyTypePreAuthTx':
      return StrKey.encodePreAuthTx(key.preAuthTx());
    case 'signerKeyTypeHashX':
      return StrKey.encodeSha256Hash(key.hashX());
    default: {
      const payload = key.ed25519SignedPayload();
      return StrKey.encodeSignedPayload(payload.toXDR());
    }
  }
}

/** Horizon's StringCanonical of an asset: "native" or "CODE:ISSUER". */
export function canonicalAsset(asset: xdr.Asset): string {
  return formatCanonicalAsset(assetFromXdr(asset));
}

/** Horizon's form of a claimable balance id (xdr.MarshalHex): the hex of its XDR, type first. */
export function balanceIdHex(id: xdr.ClaimableBalanceId): string {
  return id.toXDR('hex');
}

/** Horizon's form of a liquidity pool id: the hex of its hash. */
export function poolIdHex(id: xdr.PoolId | Buffer): string {
  // a Hash is a Buffer (stellar-base types it as an array of opaque bytes)
  return (id as Buffer).toString('hex');
}

const SECONDS_PER_DAY = 86_400n;

/** Go's time.Unix(seconds, 0).UTC() in RFC 3339, with stellar-go's "+" before a year past 9999. */
function unixTimeText(seconds: bigint): string {
  let days = seconds / SECONDS_PER_DAY;
  let rest = seconds % SECONDS_PER_DAY;
  if (rest < 0n) {
    rest += SECONDS_PER_DAY;
    days -= 1n;
  }
  // Howard Hinnant's civil_from_days, in bigints: any int64 gives a date
  const z = days + 719_468n;
  const era = (z >= 0n ? z : z - 146_096n) / 146_097n;
  const doe = z - era * 146_097n;
  const yoe = (doe - doe / 1_460n + doe / 36_524n - doe / 146_096n) / 365n;
  const doy = doe - (365n * yoe + yoe / 4n - yoe / 100n);
  const mp = (5n * doy + 2n) / 153n;
  const day = doy - (153n * mp + 2n) / 5n + 1n;
  const month = mp < 10n ? mp + 3n : mp - 9n;
  const year = yoe + era * 400n + (month <= 2n ? 1n : 0n);
  const two = (n: bigint) => String(n).padStart(2, '0');
  const yearText = year < 0n ? `-${String(-year).padStart(4, '0')}` : String(year).padStart(4, '0');
  const time = `${two(rest / 3_600n)}:${two((rest / 60n) % 60n)}:${two(rest % 60n)}`;
  return `${year > 9_999n ? '+' : ''}${yearText}-${two(month)}-${two(day)}T${time}Z`;
}

/**
 * stellar-go's JSON of a claim predicate (xdr.ClaimPredicate.MarshalJSON), as Horizon stores and
 * renders it: {"unconditional":true}, {"and":[…]}, {"or":[…]}, {"not":{…}},
 * {"abs_before":"2020-01-01T00:00:00Z","abs_before_epoch":"1577836800"}, {"rel_before":"60"}.
 */
export function claimPredicateJson(predicate: xdr.ClaimPredicate): Details {
  switch (predicate.switch().name) {
    case 'claimPredicateAnd':
      return { and: predicate.andPredicates().map(claimPredicateJson) };
    case 'claimPredicateOr':
      return { or: predicate.orPredicates().map(claimPredicateJson) };
    case 'claimPredicateNot': {
      const inner = predicate.notPredicate();
      return { not: inner ? claimPredicateJson(inner) : {} };
    }
    case 'claimPredicateBeforeAbsoluteTime': {
      const epoch = BigInt(predicate.absBefore().toString());
      return { abs_before: unixTimeText(epoch), abs_before_epoch: epoch.toString() };
    }
    case 'claimPredicateBeforeRelativeTime':
      return { rel_before: predicate.relBefore().toString() };
    default:
      return { unconditional: true };
  }
}
