// Small builders shared by the operation and effect processors: Horizon's asset fields, muxed
// account fields and amounts, with Horizon's key names.
import { StrKey, type xdr } from '@stellar/stellar-base';
import { assetFromXdr, encodeAccountId, formatAmount, muxedAccountFromXdr, type AssetValue } from '../../stellar/index.js';
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
