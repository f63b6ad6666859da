// Small builders shared by the operation and effect processors: Horizon's asset fields, muxed
// account fields and amounts, with Horizon's key names; the sponsors an entry names and what an
// operation changed in a liquidity pool.
import { StrKey, xdr } from '@stellar/stellar-sdk/base';
import type { EntryChange } from '../../meta/index.js';
import {
  accountIdFromXdr,
  assetFromXdr,
  encodeAccountId,
  formatAmount,
  formatCanonicalAsset,
  muxedAccountFromXdr,
  type AssetValue,
  type XdrAsset,
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
  return formatAmount(BigInt(value));
}

/** Horizon's string form of a signer key (G..., T..., X... or P...). */
export function signerKeyAddress(key: xdr.SignerKey): string {
  switch (key.type) {
    case 'signerKeyTypeEd25519':
      return encodeAccountId(key.ed25519.value);
    case 'signerKeyTypePreAuthTx':
      return StrKey.encodePreAuthTx(key.preAuthTx.value);
    case 'signerKeyTypeHashX':
      return StrKey.encodeSha256Hash(key.hashX.value);
    default:
      return StrKey.encodeSignedPayload(key.ed25519SignedPayload.toXdr());
  }
}

/** Horizon's StringCanonical of an asset (not a pool share): "native" or "CODE:ISSUER". */
export function canonicalAsset(asset: XdrAsset): string {
  return formatCanonicalAsset(assetFromXdr(asset));
}

/** The sponsor an entry names (LedgerEntryExt v1's sponsoringID), or null. */
export function entrySponsor(entry: xdr.LedgerEntry | null): string | null {
  const ext = entry?.ext;
  if (ext?.type !== 'v1') return null;
  const sponsor = ext.v1.sponsoringId;
  return sponsor ? accountIdFromXdr(sponsor) : null;
}

/** stellar-go's AccountEntry.SponsorPerSigner: signer address → sponsor, for an account's sponsored signers */
export function sponsorPerSigner(entry: xdr.LedgerEntry | null): Map<string, string> {
  const out = new Map<string, string>();
  if (!entry) return out;
  const account = xdr.expectUnionVariant(entry.data, 'account').account;
  const ext = account.ext;
  if (ext.type !== 'v1' || ext.v1.ext.type !== 'v2') return out;
  const sponsors = ext.v1.ext.v2.signerSponsoringIDs;
  account.signers.forEach((signer, i) => {
    const sponsor = sponsors[i];
    if (sponsor) out.set(signerKeyAddress(signer.key), accountIdFromXdr(sponsor));
  });
  return out;
}

export interface PoolDelta {
  /** the pool after the change (before it, when the change removed it) */
  pool: xdr.LiquidityPoolEntry;
  reserveA: bigint;
  reserveB: bigint;
  shares: bigint;
}

/**
 * Horizon's getLiquidityPoolAndProductDelta: of an operation's changes in stellar-go's order, the
 * first pool changed (the one with `id` when given) and what its reserves and shares gained
 * (negative: lost); null when no such pool changed.
 */
export function liquidityPoolDelta(changes: EntryChange[], id: xdr.PoolId | null): PoolDelta | null {
  for (const change of changes) {
    if (change.type !== 'liquidityPool') continue;
    const pre = change.pre ? xdr.expectUnionVariant(change.pre.data, 'liquidityPool').liquidityPool : null;
    const post = change.post ? xdr.expectUnionVariant(change.post.data, 'liquidityPool').liquidityPool : null;
    if (id && ((pre && !pre.liquidityPoolId.equals(id)) || (post && !post.liquidityPoolId.equals(id)))) continue;
    const before = pre?.body.constantProduct;
    const after = post?.body.constantProduct;
    const gain = (read: (p: xdr.LiquidityPoolEntryConstantProduct) => xdr.Int64): bigint =>
      (after ? read(after) : 0n) - (before ? read(before) : 0n);
    return {
      pool: (post ?? pre)!,
      reserveA: gain((p) => p.reserveA),
      reserveB: gain((p) => p.reserveB),
      shares: gain((p) => p.totalPoolShares),
    };
  }
  return null;
}
