// Raw-XDR builders for exchange operations in stroops (stellar-base's builders take decimal
// strings), and readers for offers, balances and claim atoms of an in-memory core.
import { type Asset, type Keypair, StrKey, xdr } from '@stellar/stellar-sdk/base';
import type { Core } from '../../../src/core/index.js';
import type { OfferRec } from '../../../src/core/ledger/entries.js';

const i64 = (v: bigint | number): xdr.Int64 => new xdr.Int64(BigInt(v));
const price = (n: number, d: number): xdr.Price => new xdr.Price({ n, d });

function op(body: xdr.OperationBody, source?: Keypair): xdr.Operation {
  return new xdr.Operation({ sourceAccount: source ? xdr.MuxedAccount.keyTypeEd25519(source.rawPublicKey()) : null, body });
}

export function sellOffer(
  selling: Asset,
  buying: Asset,
  amount: bigint | number,
  n: number,
  d: number,
  offerId: bigint | number = 0,
): xdr.Operation {
  return op(
    xdr.OperationBody.manageSellOffer(
      new xdr.ManageSellOfferOp({
        selling: selling.toXDRObject(),
        buying: buying.toXDRObject(),
        amount: i64(amount),
        price: price(n, d),
        offerId: i64(offerId),
      }),
    ),
  );
}

export function buyOffer(
  selling: Asset,
  buying: Asset,
  buyAmount: bigint | number,
  n: number,
  d: number,
  offerId: bigint | number = 0,
): xdr.Operation {
  return op(
    xdr.OperationBody.manageBuyOffer(
      new xdr.ManageBuyOfferOp({
        selling: selling.toXDRObject(),
        buying: buying.toXDRObject(),
        buyAmount: i64(buyAmount),
        price: price(n, d),
        offerId: i64(offerId),
      }),
    ),
  );
}

export function passiveOffer(selling: Asset, buying: Asset, amount: bigint | number, n: number, d: number): xdr.Operation {
  return op(
    xdr.OperationBody.createPassiveSellOffer(
      new xdr.CreatePassiveSellOfferOp({
        selling: selling.toXDRObject(),
        buying: buying.toXDRObject(),
        amount: i64(amount),
        price: price(n, d),
      }),
    ),
  );
}

export function pay(dest: Keypair, asset: Asset, amount: bigint | number): xdr.Operation {
  return op(
    xdr.OperationBody.payment(
      new xdr.PaymentOp({
        destination: xdr.MuxedAccount.keyTypeEd25519(dest.rawPublicKey()),
        asset: asset.toXDRObject(),
        amount: i64(amount),
      }),
    ),
  );
}

export function trust(asset: Asset, limit: bigint | number = 0x7fffffffffffffffn): xdr.Operation {
  return op(xdr.OperationBody.changeTrust(new xdr.ChangeTrustOp({ line: asset.toChangeTrustXDRObject(), limit: i64(limit) })));
}

export function strictReceive(
  sendAsset: Asset,
  sendMax: bigint | number,
  dest: Keypair,
  destAsset: Asset,
  destAmount: bigint | number,
  path: Asset[] = [],
): xdr.Operation {
  return op(
    xdr.OperationBody.pathPaymentStrictReceive(
      new xdr.PathPaymentStrictReceiveOp({
        sendAsset: sendAsset.toXDRObject(),
        sendMax: i64(sendMax),
        destination: xdr.MuxedAccount.keyTypeEd25519(dest.rawPublicKey()),
        destAsset: destAsset.toXDRObject(),
        destAmount: i64(destAmount),
        path: path.map((a) => a.toXDRObject()),
      }),
    ),
  );
}

export function strictSend(
  sendAsset: Asset,
  sendAmount: bigint | number,
  dest: Keypair,
  destAsset: Asset,
  destMin: bigint | number,
  path: Asset[] = [],
): xdr.Operation {
  return op(
    xdr.OperationBody.pathPaymentStrictSend(
      new xdr.PathPaymentStrictSendOp({
        sendAsset: sendAsset.toXDRObject(),
        sendAmount: i64(sendAmount),
        destination: xdr.MuxedAccount.keyTypeEd25519(dest.rawPublicKey()),
        destAsset: destAsset.toXDRObject(),
        destMin: i64(destMin),
        path: path.map((a) => a.toXDRObject()),
      }),
    ),
  );
}

export function offersOf(core: Core, seller?: Keypair): OfferRec[] {
  const out: OfferRec[] = [];
  for (const e of core.entries()) if (e.type === 'offer' && (!seller || e.sellerId === seller.publicKey())) out.push(e);
  return out.sort((a, b) => (a.offerId < b.offerId ? -1 : 1));
}

export function offer(core: Core, seller: Keypair, offerId: bigint): OfferRec | undefined {
  return offersOf(core, seller).find((o) => o.offerId === offerId);
}

/** Trust line balance (or native balance) in stroops; -1 when there is no line. */
export function balanceOf(core: Core, kp: Keypair, asset: Asset): bigint {
  if (asset.isNative()) return core.account(kp.publicKey())?.balance ?? -1n;
  for (const e of core.entries()) {
    if (
      e.type === 'trustline' &&
      e.accountId === kp.publicKey() &&
      e.asset.code === asset.getCode() &&
      e.asset.issuer === asset.getIssuer()
    )
      return e.balance;
  }
  return -1n;
}

export function trustLineOf(core: Core, kp: Keypair, asset: Asset) {
  for (const e of core.entries()) {
    if (
      e.type === 'trustline' &&
      e.accountId === kp.publicKey() &&
      e.asset.code === asset.getCode() &&
      e.asset.issuer === asset.getIssuer()
    )
      return e;
  }
  return undefined;
}

export interface Claim {
  seller: string;
  offerId: bigint;
  sold: bigint;
  bought: bigint;
}

/** The claim atoms of a successful exchange operation result. */
export function claims(r: xdr.OperationResult): Claim[] {
  const inner = r.tr().value() as unknown as { value(): unknown };
  const v = inner.value() as { offersClaimed?: () => xdr.ClaimAtom[]; offers?: () => xdr.ClaimAtom[] };
  const atoms = v instanceof xdr.ManageOfferSuccessResult ? v.offersClaimed() : (v as xdr.PathPaymentStrictReceiveResultSuccess).offers();
  return atoms.map((a) => {
    const o = a.orderBook();
    return {
      seller: StrKey.encodeEd25519PublicKey(o.sellerId().ed25519()),
      offerId: o.offerId().toBigInt(),
      sold: o.amountSold().toBigInt(),
      bought: o.amountBought().toBigInt(),
    };
  });
}

/** The offer in a manage offer result: its effect and the offer entry (if any). */
export function offerEffect(r: xdr.OperationResult): { effect: string; offerId: bigint | null; amount: bigint | null } {
  const inner = r.tr().value() as unknown as { value(): xdr.ManageOfferSuccessResult };
  const o = inner.value().offer();
  const effect = o.switch().name;
  if (effect === 'manageOfferDeleted') return { effect, offerId: null, amount: null };
  return { effect, offerId: o.offer().offerId().toBigInt(), amount: o.offer().amount().toBigInt() };
}
