// Raw-XDR builders for the issuer's operations on trust lines (amounts in stroops, flags as
// numbers, invalid assets as stellar-core's tests build them), and the account and line flags.
import { type Asset, type Keypair, xdr } from '@stellar/stellar-sdk/base';
import { accountIdToXdr } from '../../../src/stellar/index.js';

export {
  AUTH_CLAWBACK_ENABLED_FLAG as AUTH_CLAWBACK_ENABLED,
  AUTH_IMMUTABLE_FLAG as AUTH_IMMUTABLE,
  AUTH_REQUIRED_FLAG as AUTH_REQUIRED,
  AUTH_REVOCABLE_FLAG as AUTH_REVOCABLE,
  TL_AUTHORIZED_FLAG as AUTHORIZED,
  TL_AUTHORIZED_TO_MAINTAIN_LIABILITIES_FLAG as MAINTAIN_LIABILITIES,
  TL_CLAWBACK_ENABLED_FLAG as TL_CLAWBACK_ENABLED,
} from '../../../src/core/operations/helpers.js';

const op = (body: xdr.OperationBody): xdr.Operation => new xdr.Operation({ sourceAccount: null, body });

/** clawback from `from` (muxed with `muxedId` when given). */
export function clawbackOp(from: Keypair, asset: Asset | xdr.Asset, amount: bigint | number, muxedId?: bigint): xdr.Operation {
  const account =
    muxedId === undefined
      ? xdr.MuxedAccount.keyTypeEd25519(from.rawPublicKey())
      : xdr.MuxedAccount.keyTypeMuxedEd25519(new xdr.MuxedAccountMed25519({ id: muxedId, ed25519: from.rawPublicKey() }));
  const a = asset instanceof xdr.Asset ? asset : asset.toXdrObject();
  return op(xdr.OperationBody.clawback(new xdr.ClawbackOp({ asset: a, from: account, amount: BigInt(amount) })));
}

export function setTrustLineFlagsOp(trustor: Keypair, asset: Asset | xdr.Asset, set: number, clear: number): xdr.Operation {
  const a = asset instanceof xdr.Asset ? asset : asset.toXdrObject();
  return op(
    xdr.OperationBody.setTrustLineFlags(
      new xdr.SetTrustLineFlagsOp({ trustor: accountIdToXdr(trustor.publicKey()), asset: a, setFlags: set, clearFlags: clear }),
    ),
  );
}

export function allowTrustOp(trustor: Keypair, code: string, authorize: number): xdr.Operation {
  const bytes = Buffer.alloc(code.length <= 4 ? 4 : 12);
  bytes.write(code, 'latin1');
  const asset = code.length <= 4 ? xdr.AssetCode.assetTypeCreditAlphanum4(bytes) : xdr.AssetCode.assetTypeCreditAlphanum12(bytes);
  return op(xdr.OperationBody.allowTrust(new xdr.AllowTrustOp({ trustor: accountIdToXdr(trustor.publicKey()), asset, authorize })));
}

function creditAsset(issuer: string, code: Buffer): xdr.Asset {
  const parts = { assetCode: code, issuer: accountIdToXdr(issuer) };
  return code.length === 4
    ? xdr.Asset.assetTypeCreditAlphanum4(new xdr.AlphaNum4(parts))
    : xdr.Asset.assetTypeCreditAlphanum12(new xdr.AlphaNum12(parts));
}

/** stellar-core's testutil::getInvalidAssets: codes with control, non-ASCII or misplaced zero bytes, a short alphanum12. */
export function invalidAssets(issuer: string): xdr.Asset[] {
  const code4 = (bytes: number[]) => {
    const b = Buffer.alloc(4);
    Buffer.from(bytes).copy(b);
    return creditAsset(issuer, b);
  };
  const assets = [code4([0x0a]), code4([0, 0x61]), code4([0])];
  // right after 'z', then extended ASCII as signed chars (127 - v)
  for (let v = 123; v < 140; v++) assets.push(code4([v < 128 ? v : (127 - v) & 0xff]));
  const short12 = Buffer.alloc(12);
  short12.write('aaaa', 'latin1');
  assets.push(creditAsset(issuer, short12));
  return assets;
}
