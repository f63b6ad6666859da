// Trades from the claim atoms of offer and path payment results (Horizon's trades_processor.go):
// a crossed offer (trade type orderbook) or a liquidity pool (liquidity_pool, with the pool's fee
// and the exchange's rounding slippage). The rows keep the seller's and the buyer's side;
// tradeRow turns them into base/counter by the assets' history ids, as Horizon's Flush does.
import { xdr } from '@stellar/stellar-sdk/base';
import { changePairs } from '../../meta/index.js';
import {
  accountIdFromXdr,
  assetFromXdr,
  encodeAccountId,
  INT64_MAX,
  muxedAccountFromXdr,
  poolExpectation,
  poolPayout,
  TRADE_TYPE_LIQUIDITY_POOL,
  TRADE_TYPE_ORDERBOOK,
} from '../../stellar/index.js';
import type { TradeRecord, TradeRow } from '../rows.js';
import { claimAmount, claimAsset } from './operation_details.js';

/** Horizon's synthetic offer id for a buyer without a resting offer: the operation id, type bit 62 */
export function syntheticOfferId(operationId: bigint): bigint {
  return operationId | (1n << 62n);
}

export interface TradeInput {
  operationId: bigint;
  closedAt: string;
  op: xdr.Operation;
  source: xdr.MuxedAccount;
  result: xdr.OperationResultTr;
  changes: xdr.LedgerEntryChange[];
}

export function operationTrades(input: TradeInput): TradeRecord[] {
  const { op, result } = input;
  let claims: xdr.ClaimAtom[];
  let buyOffer: xdr.OfferEntry | null = null;
  const type = op.body.type;
  switch (type) {
    case 'pathPaymentStrictReceive': {
      const r = xdr.expectUnionVariant(result, 'pathPaymentStrictReceive').pathPaymentStrictReceiveResult;
      claims = xdr.expectUnionVariant(r, 'pathPaymentStrictReceiveSuccess').success.offers;
      break;
    }
    case 'pathPaymentStrictSend': {
      const r = xdr.expectUnionVariant(result, 'pathPaymentStrictSend').pathPaymentStrictSendResult;
      claims = xdr.expectUnionVariant(r, 'pathPaymentStrictSendSuccess').success.offers;
      break;
    }
    case 'manageBuyOffer': {
      const r = xdr.expectUnionVariant(result, 'manageBuyOffer').manageBuyOfferResult;
      const success = xdr.expectUnionVariant(r, 'manageBuyOfferSuccess').success;
      claims = success.offersClaimed;
      buyOffer = restingOffer(success.offer);
      break;
    }
    case 'manageSellOffer':
    case 'createPassiveSellOffer': {
      const r =
        result.type === 'createPassiveSellOffer'
          ? result.createPassiveSellOfferResult
          : xdr.expectUnionVariant(result, 'manageSellOffer').manageSellOfferResult;
      const success = xdr.expectUnionVariant(r, 'manageSellOfferSuccess').success;
      claims = success.offersClaimed;
      buyOffer = restingOffer(success.offer);
      break;
    }
    default:
      return [];
  }
  const buyer = muxedAccountFromXdr(input.source).accountId;
  const buyerOfferId = buyOffer ? buyOffer.offerId : syntheticOfferId(input.operationId);
  const rows: TradeRecord[] = [];
  claims.forEach((claim, order) => {
    const sold = claimAmount(claim, 'sold');
    const bought = claimAmount(claim, 'bought');
    // stellar-core's garbage-collected offers: zero amounts, no trade
    if (sold === 0n && bought === 0n) return;
    const common = {
      operation_id: input.operationId,
      order,
      closed_at: input.closedAt,
      buyer,
      buyer_offer_id: buyerOfferId,
      sold_asset: assetFromXdr(claimAsset(claim, 'sold')),
      sold_amount: sold,
      bought_asset: assetFromXdr(claimAsset(claim, 'bought')),
      bought_amount: bought,
    };
    if (claim.type === 'claimAtomTypeLiquidityPool') {
      const atom = claim.liquidityPool;
      const poolId = atom.liquidityPoolId;
      const pool = poolBefore(input.changes, poolId);
      const params = pool.params;
      rows.push({
        ...common,
        offer_id: null,
        seller: null,
        seller_offer_id: null,
        seller_liquidity_pool_id: Buffer.from(poolId.value).toString('hex'),
        // a pool's price is the trade's own: bought per sold
        price_n: bought,
        price_d: sold,
        trade_type: TRADE_TYPE_LIQUIDITY_POOL,
        liquidity_pool_fee: params.fee,
        rounding_slippage: roundingSlippage(type, atom, pool),
      });
      return;
    }
    const seller =
      claim.type === 'claimAtomTypeOrderBook' ? accountIdFromXdr(claim.orderBook.sellerId) : encodeAccountId(claim.v0.sellerEd25519.value);
    const offerId = claim.value.offerId;
    const price = offerPrice(input.changes, seller, offerId);
    rows.push({
      ...common,
      offer_id: offerId,
      seller,
      seller_offer_id: offerId,
      seller_liquidity_pool_id: null,
      price_n: price.n,
      price_d: price.d,
      trade_type: TRADE_TYPE_ORDERBOOK,
      liquidity_pool_fee: null,
      rounding_slippage: null,
    });
  });
  return rows;
}

/**
 * The history_trades row of a trade whose sold and bought assets have these history ids: the
 * base asset is the one with the smaller id (Horizon's Flush), the base is the seller unless the
 * sides swap, and the price is counter per base.
 */
export function tradeRow(t: TradeRecord, soldAssetId: number, boughtAssetId: number): TradeRow {
  const baseIsSeller = soldAssetId < boughtAssetId;
  const seller = {
    offer: t.seller_offer_id,
    account: t.seller,
    pool: t.seller_liquidity_pool_id,
    asset: soldAssetId,
    amount: t.sold_amount,
  };
  const buyer = { offer: t.buyer_offer_id, account: t.buyer, pool: null, asset: boughtAssetId, amount: t.bought_amount };
  const [base, counter] = baseIsSeller ? [seller, buyer] : [buyer, seller];
  return {
    operation_id: t.operation_id,
    order: t.order,
    closed_at: t.closed_at,
    offer_id: t.offer_id,
    base_offer_id: base.offer,
    base_account: base.account,
    base_asset_id: base.asset,
    base_amount: base.amount,
    counter_offer_id: counter.offer,
    counter_account: counter.account,
    counter_asset_id: counter.asset,
    counter_amount: counter.amount,
    base_is_seller: baseIsSeller,
    price_n: baseIsSeller ? t.price_n : t.price_d,
    price_d: baseIsSeller ? t.price_d : t.price_n,
    trade_type: t.trade_type,
    base_liquidity_pool_id: base.pool,
    counter_liquidity_pool_id: counter.pool,
    liquidity_pool_fee: t.liquidity_pool_fee,
    rounding_slippage: t.rounding_slippage,
  };
}

function restingOffer(offer: xdr.ManageOfferSuccessResultOffer): xdr.OfferEntry | null {
  return offer.type === 'manageOfferCreated' || offer.type === 'manageOfferUpdated' ? offer.offer : null;
}

/** the crossed offer's price before this operation (its state entry in the operation's changes) */
function offerPrice(changes: xdr.LedgerEntryChange[], seller: string, offerId: bigint): { n: bigint; d: bigint } {
  for (const change of changePairs(changes)) {
    if (change.type !== 'offer' || !change.pre) continue;
    const offer = xdr.expectUnionVariant(change.pre.data, 'offer').offer;
    if (offer.offerId === offerId && accountIdFromXdr(offer.sellerId) === seller) {
      return { n: BigInt(offer.price.n), d: BigInt(offer.price.d) };
    }
  }
  throw new Error(`no ledger entry change for crossed offer ${offerId} of ${seller}`);
}

/** the pool as it stood before this operation: the last change of it in the operation's changes (Horizon's findOperationChange) */
function poolBefore(changes: xdr.LedgerEntryChange[], poolId: xdr.PoolId): xdr.LiquidityPoolEntryConstantProduct {
  const pairs = changePairs(changes);
  for (let i = pairs.length - 1; i >= 0; i--) {
    const change = pairs[i]!;
    if (change.type !== 'liquidityPool' || !change.pre) continue;
    const pool = xdr.expectUnionVariant(change.pre.data, 'liquidityPool').liquidityPool;
    if (pool.liquidityPoolId.equals(poolId)) return pool.body.constantProduct;
  }
  throw new Error(`no ledger entry change for liquidity pool ${Buffer.from(poolId.value).toString('hex')}`);
}

/**
 * Horizon's roundingSlippage: the exchange recomputed from the pool's reserves before the trade,
 * from the amount the operation fixed (what it receives for a strict receive, what it sends for a
 * strict send); a computation that fails counts as the largest slippage, so the trade is left out
 * of trade aggregations.
 */
function roundingSlippage(type: string, atom: xdr.ClaimLiquidityAtom, pool: xdr.LiquidityPoolEntryConstantProduct): bigint {
  const params = pool.params;
  let disbursedReserve = pool.reserveA;
  let depositedReserve = pool.reserveB;
  if (!atom.assetSold.equals(params.assetA)) [disbursedReserve, depositedReserve] = [depositedReserve, disbursedReserve];
  const deposited = atom.amountBought;
  const disbursed = atom.amountSold;
  let exchange: { slippageBps: bigint; ok: boolean };
  switch (type) {
    case 'pathPaymentStrictReceive':
      exchange = poolExpectation(depositedReserve, disbursedReserve, disbursed, params.fee, true);
      break;
    case 'pathPaymentStrictSend':
      exchange = poolPayout(depositedReserve, disbursedReserve, deposited, params.fee, true);
      break;
    default:
      throw new Error(`a liquidity pool trade of a ${type} operation`);
  }
  return exchange.ok ? exchange.slippageBps : INT64_MAX;
}
