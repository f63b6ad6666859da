// Small builders shared by the operation and effect processors: Horizon's asset fields, muxed
// account fields and amounts, with Horizon's key names.
import { StrKey, type xdr } from '@stellar/stellar-base';
import { assetFromXdr, formatAmount, muxedAccountFromXdr, type AssetValue, type DecodedMuxedAccount } from '../../stellar/index.js';
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
  const decoded = decodeMuxed(account);
  details[key] = decoded.accountId;
  if (decoded.muxedAddress !== null) {
    details[`${key}_muxed`] = decoded.muxedAddress;
    details[`${key}_muxed_id`] = String(decoded.muxedId);
  }
}

// StrKey encoding (base32 + CRC) is a hot spot of ingestion: accounts repeat, so remember them.
const strkeys = new Map<string, string>();

/** G... of a raw ed25519 key, cached */
export function ed25519Address(key: Buffer): string {
  const raw = key.toString('latin1');
  let address = strkeys.get(raw);
  if (address === undefined) {
    address = StrKey.encodeEd25519PublicKey(key);
    if (strkeys.size >= 200_000) strkeys.clear();
    strkeys.set(raw, address);
  }
  return address;
}

/** G... of the raw ed25519 key at `offset` in `buf`, cached; no slice unless it is new */
export function ed25519AddressAt(buf: Buffer, offset: number): string {
  const address = strkeys.get(buf.toString('latin1', offset, offset + 32));
  return address ?? ed25519Address(buf.subarray(offset, offset + 32));
}

export function accountIdOf(id: xdr.AccountId): string {
  return ed25519Address(id.ed25519());
}

/** stellar-base's muxedAccountFromXdr, with the cached encoding for plain accounts */
export function decodeMuxed(account: xdr.MuxedAccount): DecodedMuxedAccount {
  if (account.switch().name === 'keyTypeEd25519') {
    return { accountId: ed25519Address(account.ed25519()), muxedAddress: null, muxedId: null };
  }
  return muxedAccountFromXdr(account);
}

export function amountOf(value: xdr.Int64 | bigint | number): string {
  return formatAmount(BigInt(value.toString()));
}

/** Horizon's string form of a signer key (G..., T..., X... or P...). */
export function signerKeyAddress(key: xdr.SignerKey): string {
  switch (key.switch().name) {
    case 'signerKeyTypeEd25519':
      return ed25519Address(key.ed25519());
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
