// Raw-XDR builders for exchange operations in stroops (the SDK's Operation builders take decimal
// strings), and readers for offers, pools, balances and claim atoms of an in-memory core.
import { type Asset, type Keypair, StrKey, xdr } from '@stellar/stellar-sdk/base';
import type { Core } from '../../../src/core/index.js';
import type { LiquidityPoolRec, OfferRec, TrustLineRec } from '../../../src/core/ledger/entries.js';
import { compareAssets, fromStellarAsset, poolIdOfAssets } from '../../../src/stellar/index.js';

const i64 = (v: bigint | number): bigint => BigInt(v);
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
        selling: selling.toXdrObject(),
        buying: buying.toXdrObject(),
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
        selling: selling.toXdrObject(),
        buying: buying.toXdrObject(),
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
        selling: selling.toXdrObject(),
        buying: buying.toXdrObject(),
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
        asset: asset.toXdrObject(),
        amount: i64(amount),
      }),
    ),
  );
}

export function trust(asset: Asset, limit: bigint | number = 0x7fffffffffffffffn): xdr.Operation {
  return op(xdr.OperationBody.changeTrust(new xdr.ChangeTrustOp({ line: asset.toChangeTrustXdrObject(), limit: i64(limit) })));
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
        sendAsset: sendAsset.toXdrObject(),
        sendMax: i64(sendMax),
        destination: xdr.MuxedAccount.keyTypeEd25519(dest.rawPublicKey()),
        destAsset: destAsset.toXdrObject(),
        destAmount: i64(destAmount),
        path: path.map((a) => a.toXdrObject()),
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
        sendAsset: sendAsset.toXdrObject(),
        sendAmount: i64(sendAmount),
        destination: xdr.MuxedAccount.keyTypeEd25519(dest.rawPublicKey()),
        destAsset: destAsset.toXdrObject(),
        destMin: i64(destMin),
        path: path.map((a) => a.toXdrObject()),
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
  return trustLineOf(core, kp, asset)?.balance ?? -1n;
}

export function trustLineOf(core: Core, kp: Keypair, asset: Asset) {
  for (const e of core.entries()) {
    if (e.type !== 'trustline' || e.asset.type === 'pool_share' || e.accountId !== kp.publicKey()) continue;
    if (e.asset.code === asset.getCode() && e.asset.issuer === asset.getIssuer()) return e;
  }
  return undefined;
}

export interface Claim {
  seller: string;
  offerId: bigint;
  sold: bigint;
  bought: bigint;
}

/** The success of a manage sell/buy offer or a passive offer, or null for any other result. */
export function manageOfferSuccess(r: xdr.OperationResult): xdr.ManageOfferSuccessResult | null {
  if (r.type !== 'opInner') return null;
  const tr = r.tr;
  switch (tr.type) {
    case 'manageSellOffer':
      return tr.manageSellOfferResult.type === 'manageSellOfferSuccess' ? tr.manageSellOfferResult.success : null;
    case 'createPassiveSellOffer':
      return tr.createPassiveSellOfferResult.type === 'manageSellOfferSuccess' ? tr.createPassiveSellOfferResult.success : null;
    case 'manageBuyOffer':
      return tr.manageBuyOfferResult.type === 'manageBuyOfferSuccess' ? tr.manageBuyOfferResult.success : null;
    default:
      return null;
  }
}

/** The success of a path payment (strict receive or strict send), or null for any other result. */
export function pathPaymentSuccess(
  r: xdr.OperationResult,
): xdr.PathPaymentStrictReceiveResultSuccess | xdr.PathPaymentStrictSendResultSuccess | null {
  if (r.type !== 'opInner') return null;
  const tr = r.tr;
  if (tr.type === 'pathPaymentStrictReceive')
    return tr.pathPaymentStrictReceiveResult.type === 'pathPaymentStrictReceiveSuccess' ? tr.pathPaymentStrictReceiveResult.success : null;
  if (tr.type === 'pathPaymentStrictSend')
    return tr.pathPaymentStrictSendResult.type === 'pathPaymentStrictSendSuccess' ? tr.pathPaymentStrictSendResult.success : null;
  return null;
}

/** The claim atoms of a successful exchange operation (offers or path payments), or null for any other result. */
export function claimAtoms(r: xdr.OperationResult): xdr.ClaimAtom[] | null {
  return manageOfferSuccess(r)?.offersClaimed ?? pathPaymentSuccess(r)?.offers ?? null;
}

/** The order book atom of a claim. */
export function orderBookAtom(a: xdr.ClaimAtom): xdr.ClaimOfferAtom {
  return xdr.expectUnionVariant(a, 'claimAtomTypeOrderBook').orderBook;
}

/** The claim atoms of a successful exchange operation result. */
export function claims(r: xdr.OperationResult): Claim[] {
  const atoms = claimAtoms(r);
  if (!atoms) throw new Error('not a successful exchange operation');
  return atoms.map((a) => {
    const o = orderBookAtom(a);
    return {
      seller: StrKey.encodeEd25519PublicKey(o.sellerId.ed25519.value),
      offerId: o.offerId,
      sold: o.amountSold,
      bought: o.amountBought,
    };
  });
}

/** The offer in a manage offer result: its effect and the offer entry (if any). */
export function offerEffect(r: xdr.OperationResult): { effect: string; offerId: bigint | null; amount: bigint | null } {
  const success = manageOfferSuccess(r);
  if (!success) throw new Error('not a successful manage offer operation');
  const o = success.offer;
  if (o.type === 'manageOfferDeleted') return { effect: o.type, offerId: null, amount: null };
  return { effect: o.type, offerId: o.offer.offerId, amount: o.offer.amount };
}

// ---- liquidity pools ----------------------------------------------------------------------------

const FEE_V18 = 30;
const INT32_MAX = 2147483647;

/** A deposit's price bounds that accept any price (stellar-core tests' Price{1, INT32_MAX}, Price{INT32_MAX, 1}). */
export const ANY_PRICE: [[number, number], [number, number]] = [
  [1, INT32_MAX],
  [INT32_MAX, 1],
];

/** The ChangeTrustAsset of a pool's shares, with its assets as given (no ordering, so invalid pools can be sent). */
export function poolShareLine(assetA: Asset, assetB: Asset, fee = FEE_V18): xdr.ChangeTrustAsset {
  return xdr.ChangeTrustAsset.assetTypePoolShare(
    xdr.LiquidityPoolParameters.liquidityPoolConstantProduct(
      new xdr.LiquidityPoolConstantProductParameters({ assetA: assetA.toXdrObject(), assetB: assetB.toXdrObject(), fee }),
    ),
  );
}

/** The id (hex) of the pool of two assets, ordered as stellar-core orders them. */
export function poolIdOf(x: Asset, y: Asset): string {
  return poolIdOfAssets(fromStellarAsset(x), fromStellarAsset(y), FEE_V18);
}

/** change_trust to the shares of the pool of x and y (in stellar-core's order). */
export function trustPool(x: Asset, y: Asset, limit: bigint | number = 0x7fffffffffffffffn): xdr.Operation {
  const [a, b] = compareAssets(fromStellarAsset(x), fromStellarAsset(y)) <= 0 ? [x, y] : [y, x];
  return op(xdr.OperationBody.changeTrust(new xdr.ChangeTrustOp({ line: poolShareLine(a, b), limit: i64(limit) })));
}

export function trustLine(line: xdr.ChangeTrustAsset, limit: bigint | number): xdr.Operation {
  return op(xdr.OperationBody.changeTrust(new xdr.ChangeTrustOp({ line, limit: i64(limit) })));
}

export function deposit(
  poolId: string,
  maxAmountA: bigint | number,
  maxAmountB: bigint | number,
  minPrice: [number, number],
  maxPrice: [number, number],
): xdr.Operation {
  return op(
    xdr.OperationBody.liquidityPoolDeposit(
      new xdr.LiquidityPoolDepositOp({
        liquidityPoolId: new xdr.PoolId(poolId),
        maxAmountA: i64(maxAmountA),
        maxAmountB: i64(maxAmountB),
        minPrice: price(...minPrice),
        maxPrice: price(...maxPrice),
      }),
    ),
  );
}

export function withdraw(poolId: string, amount: bigint | number, minAmountA: bigint | number, minAmountB: bigint | number): xdr.Operation {
  return op(
    xdr.OperationBody.liquidityPoolWithdraw(
      new xdr.LiquidityPoolWithdrawOp({
        liquidityPoolId: new xdr.PoolId(poolId),
        amount: i64(amount),
        minAmountA: i64(minAmountA),
        minAmountB: i64(minAmountB),
      }),
    ),
  );
}

export function poolOf(core: Core, poolId: string): LiquidityPoolRec | undefined {
  for (const e of core.entries()) if (e.type === 'liquidityPool' && e.poolId === poolId) return e;
  return undefined;
}

/** stellar-core's checkLiquidityPool: reserves, total shares and shares lines of a pool. */
export function poolState(core: Core, poolId: string): [bigint, bigint, bigint, bigint] | null {
  const p = poolOf(core, poolId);
  return p ? [p.reserveA, p.reserveB, p.totalPoolShares, p.poolSharesTrustLineCount] : null;
}

export function poolShareLineOf(core: Core, kp: Keypair, poolId: string): TrustLineRec | undefined {
  for (const e of core.entries()) {
    if (e.type === 'trustline' && e.accountId === kp.publicKey() && e.asset.type === 'pool_share' && e.asset.poolId === poolId) return e;
  }
  return undefined;
}

/** The kinds of a successful exchange's claim atoms ('claimAtomTypeOrderBook', 'claimAtomTypeLiquidityPool'). */
export function atomKinds(r: xdr.OperationResult): string[] {
  const atoms = claimAtoms(r);
  if (!atoms) throw new Error('not a successful exchange operation');
  return atoms.map((a) => a.type);
}

/** The liquidity pool atom of a claim. */
export function poolAtom(a: xdr.ClaimAtom): xdr.ClaimLiquidityAtom {
  return xdr.expectUnionVariant(a, 'claimAtomTypeLiquidityPool').liquidityPool;
}
