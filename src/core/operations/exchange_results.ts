// XDR results of the exchange operations: claim atoms (ClaimAtom of type order book or liquidity pool, protocol ≥ 18),
// ManageOfferSuccessResult and path payment successes, and stellar-core's default results.
import { xdr } from '@stellar/stellar-sdk/base';
import { accountIdToXdr, assetToXdr, type AssetValue } from '../../stellar/index.js';
import { offerEntryToXdr } from '../ledger/entries.js';
import type { OfferRec } from '../ledger/entries.js';
import { armFactory, opInnerResult, resultUnion } from '../ledger/results.js';
import type { ClaimAtomRec } from '../exchange.js';

export type OfferOpType = 'manageSellOffer' | 'manageBuyOffer' | 'createPassiveSellOffer';
export type PathOpType = 'pathPaymentStrictReceive' | 'pathPaymentStrictSend';

/** The result union of an operation arm (create_passive_sell_offer answers a ManageSellOfferResult). */
function resultClass(opType: OfferOpType | PathOpType): object {
  return resultUnion(opType === 'createPassiveSellOffer' ? 'ManageSellOfferResult' : `${opType[0]!.toUpperCase()}${opType.slice(1)}Result`);
}

/** Code prefix of an operation's inner codes ('manageSellOffer' for create_passive_sell_offer). */
export function codePrefix(opType: OfferOpType | PathOpType): string {
  return opType === 'createPassiveSellOffer' ? 'manageSellOffer' : opType;
}

/**
 * An exchange operation's result. stellar-core applies create_passive_sell_offer as the
 * manage_sell_offer operation it converts it to, and types the result from that operation: the
 * OperationResult's arm is MANAGE_SELL_OFFER (Horizon's ingestion knows this as a "known issue").
 */
export function exchangeOpResult(opType: OfferOpType | PathOpType, code: string, value?: unknown): xdr.OperationResult {
  const make = armFactory(resultClass(opType), code, opType);
  return opInnerResult(codePrefix(opType), value === undefined ? make() : make(value));
}

export function claimAtomToXdr(a: ClaimAtomRec): xdr.ClaimAtom {
  if (a.kind === 'liquidityPool') {
    return xdr.ClaimAtom.claimAtomTypeLiquidityPool(
      new xdr.ClaimLiquidityAtom({
        liquidityPoolId: new xdr.PoolId(a.poolId),
        assetSold: assetToXdr(a.assetSold),
        amountSold: a.amountSold,
        assetBought: assetToXdr(a.assetBought),
        amountBought: a.amountBought,
      }),
    );
  }
  return xdr.ClaimAtom.claimAtomTypeOrderBook(
    new xdr.ClaimOfferAtom({
      sellerId: accountIdToXdr(a.sellerId),
      offerId: a.offerId,
      assetSold: assetToXdr(a.assetSold),
      amountSold: a.amountSold,
      assetBought: assetToXdr(a.assetBought),
      amountBought: a.amountBought,
    }),
  );
}

export type OfferEffect = 'created' | 'updated' | 'deleted';

export function manageOfferSuccess(trail: ClaimAtomRec[], effect: OfferEffect, offer: OfferRec | null): xdr.ManageOfferSuccessResult {
  const o =
    effect === 'deleted' || !offer
      ? xdr.ManageOfferSuccessResultOffer.manageOfferDeleted()
      : effect === 'created'
        ? xdr.ManageOfferSuccessResultOffer.manageOfferCreated(offerEntryToXdr(offer))
        : xdr.ManageOfferSuccessResultOffer.manageOfferUpdated(offerEntryToXdr(offer));
  return new xdr.ManageOfferSuccessResult({ offersClaimed: trail.map(claimAtomToXdr), offer: o });
}

export function simplePaymentResult(destination: string, asset: AssetValue, amount: bigint): xdr.SimplePaymentResult {
  return new xdr.SimplePaymentResult({ destination: accountIdToXdr(destination), asset: assetToXdr(asset), amount });
}

export function pathPaymentSuccess(opType: PathOpType, trail: ClaimAtomRec[], last: xdr.SimplePaymentResult): xdr.OperationResult {
  const parts = { offers: trail.map(claimAtomToXdr), last };
  const success =
    opType === 'pathPaymentStrictReceive'
      ? new xdr.PathPaymentStrictReceiveResultSuccess(parts)
      : new xdr.PathPaymentStrictSendResultSuccess(parts);
  return exchangeOpResult(opType, `${opType}Success`, success);
}

const ZERO_ACCOUNT = xdr.PublicKey.publicKeyTypeEd25519(new Uint8Array(32));

/**
 * The result an operation carries when its transaction fails before it runs: stellar-core's
 * default-constructed success (no claims; a zeroed "created" offer; a zeroed last payment).
 */
export function defaultExchangeResult(opType: OfferOpType | PathOpType): xdr.OperationResult {
  if (opType === 'pathPaymentStrictReceive' || opType === 'pathPaymentStrictSend') {
    const last = new xdr.SimplePaymentResult({ destination: ZERO_ACCOUNT, asset: xdr.Asset.assetTypeNative(), amount: 0n });
    return pathPaymentSuccess(opType, [], last);
  }
  const offer = new xdr.OfferEntry({
    sellerId: ZERO_ACCOUNT,
    offerId: 0n,
    selling: xdr.Asset.assetTypeNative(),
    buying: xdr.Asset.assetTypeNative(),
    amount: 0n,
    price: new xdr.Price({ n: 0, d: 0 }),
    flags: 0,
    ext: xdr.OfferEntryExt.v0(),
  });
  const success = new xdr.ManageOfferSuccessResult({
    offersClaimed: [],
    offer: xdr.ManageOfferSuccessResultOffer.manageOfferCreated(offer),
  });
  return exchangeOpResult(opType, `${codePrefix(opType)}Success`, success);
}

export const EXCHANGE_OP_TYPES: ReadonlySet<string> = new Set([
  'manageSellOffer',
  'manageBuyOffer',
  'createPassiveSellOffer',
  'pathPaymentStrictReceive',
  'pathPaymentStrictSend',
]);
