// What manage_sell_offer, manage_buy_offer and create_passive_sell_offer share (stellar-core
// ManageOfferOpFrameBase, protocol ≥ 14): the offer sells "sheep" for "wheat"; it first crosses
// the book at its price, then whatever stays becomes (or updates) the offer, with its liabilities.
import type { xdr } from '@stellar/stellar-sdk/base';
import {
  adjustOffer,
  assetFromXdr,
  assetsEqual,
  buyOfferLiabilities,
  isAssetValid,
  MAX_OFFERS_TO_CROSS,
  offerLiabilities,
  priceGreater,
  priceGreaterOrEqual,
  type AssetValue,
  type Price,
} from '../../stellar/index.js';
import { offerKey } from '../ledger/entries.js';
import type { AccountRec, OfferRec } from '../ledger/entries.js';
import { opOuter } from '../ledger/results.js';
import { convertWithOffersAndPools } from '../exchange.js';
import type { ClaimAtomRec } from '../exchange.js';
import type { OpContext, OpOutcome } from './context.js';
import { codePrefix, exchangeOpResult, manageOfferSuccess } from './exchange_results.js';
import type { OfferEffect, OfferOpType } from './exchange_results.js';
import { addAccountBalance, loadAccount, loadTrustLineView, viewAuthorized } from './helpers.js';
import { createEntryWithPossibleSponsorship, removeEntryWithPossibleSponsorship, sponsorshipFailure } from './sponsorship.js';
import {
  accountAvailableBalance,
  accountMaxAmountReceive,
  acquireLiabilities,
  canBuyAtMost,
  canSellAtMost,
  peekAccount,
  peekTrustLineView,
  releaseLiabilities,
  viewAddBalanceExact,
  viewAvailableBalance,
  viewBalance,
  viewMaxAmountReceive,
} from './liabilities.js';

export const PASSIVE_FLAG = 1;

export interface OfferOpParams {
  opType: OfferOpType;
  sheep: xdr.Asset;
  wheat: xdr.Asset;
  offerId: bigint;
  /** price of sheep in wheat (a buy offer's price inverted) */
  price: Price;
  passiveOnCreate: boolean;
  /** 'sell': `amount` of sheep; 'buy': `amount` of wheat */
  kind: 'sell' | 'buy';
  amount: bigint;
}

/** stellar-core ManageOfferOpFrameBase::doCheckValid; null when well formed. */
export function checkOfferOpValid(p: OfferOpParams): xdr.OperationResult | null {
  const malformed = exchangeOpResult(p.opType, `${codePrefix(p.opType)}Malformed`);
  if (!isAssetValid(p.sheep) || !isAssetValid(p.wheat)) return malformed;
  if (assetsEqual(assetFromXdr(p.sheep), assetFromXdr(p.wheat))) return malformed;
  if (p.amount < 0n || p.price.d <= 0 || p.price.n <= 0) return malformed;
  if (p.offerId === 0n && p.amount === 0n) return malformed;
  if (p.offerId < 0n) return malformed;
  return null;
}

function opLiabilities(p: OfferOpParams): { selling: bigint; buying: bigint } {
  return p.kind === 'sell' ? offerLiabilities(p.price, p.amount) : buyOfferLiabilities(p.price, p.amount);
}

// the operation's own bound: a sell offer on what it sends, a buy offer on what it receives
function applyLimits(
  p: OfferOpParams,
  maxSheepSend: bigint,
  sheepSent: bigint,
  maxWheatReceive: bigint,
  wheatReceived: bigint,
): [bigint, bigint] {
  if (p.kind === 'sell') {
    const left = p.amount - sheepSent;
    return [left < maxSheepSend ? left : maxSheepSend, maxWheatReceive];
  }
  const left = p.amount - wheatReceived;
  return [maxSheepSend, left < maxWheatReceive ? left : maxWheatReceive];
}

export function applyManageOffer(ctx: OpContext, p: OfferOpParams): OpOutcome {
  const { ltx, header, sourceId } = ctx;
  const prefix = codePrefix(p.opType);
  const fail = (code: string): OpOutcome => ({ success: false, result: exchangeOpResult(p.opType, `${prefix}${code}`) });
  const sheep = assetFromXdr(p.sheep);
  const wheat = assetFromXdr(p.wheat);
  const isDelete = p.amount === 0n;

  // checkOfferValid: read only (stellar-core rolls this LedgerTxn back)
  if (!isDelete) {
    if (sheep.type !== 'native') {
      const line = peekTrustLineView(ltx, sourceId, sheep);
      if (!line) return fail('SellNoTrust');
      if (viewBalance(line) === 0n) return fail('Underfunded');
      if (!viewAuthorized(line)) return fail('SellNotAuthorized');
    }
    if (wheat.type !== 'native') {
      const line = peekTrustLineView(ltx, sourceId, wheat);
      if (!line) return fail('BuyNoTrust');
      if (!viewAuthorized(line)) return fail('BuyNotAuthorized');
    }
  }

  let creating = false;
  let flags = 0;
  let passive: boolean;
  // the offer's LedgerEntry extension (its sponsor) carries over to what the operation leaves
  let sponsor: string | null | undefined;
  if (p.offerId !== 0n) {
    const key = offerKey(sourceId, p.offerId);
    const existing = ltx.load<OfferRec>(key);
    if (!existing) return fail('NotFound');
    // free the old offer's liabilities so its balance can back the new one (assets may change)
    releaseLiabilities(ltx, header, existing);
    flags = existing.flags;
    passive = (flags & PASSIVE_FLAG) !== 0;
    sponsor = existing.sponsor;
    ltx.erase(key);
  } else {
    creating = true;
    passive = p.passiveOnCreate;
    flags = passive ? PASSIVE_FLAG : 0;
    // protocol ≥ 14 reserves the subentry (or has it sponsored) before crossing, so crossing cannot eat the reserve
    const placeholder = offerEntry(p, sourceId, sheep, wheat, 0n, 0, undefined);
    const r = createEntryWithPossibleSponsorship(ltx, header, placeholder, loadAccount(ltx, sourceId)!);
    if (r !== 'ok') return sponsorshipFailure(r, fail('LowReserve').result);
    sponsor = placeholder.sponsor;
  }

  let amount = 0n;
  let trail: ClaimAtomRec[] = [];
  if (!isDelete) {
    // computeOfferExchangeParameters (read only)
    const acc = peekAccount(ltx, sourceId)!;
    const sheepLine = sheep.type === 'native' ? undefined : peekTrustLineView(ltx, sourceId, sheep);
    const wheatLine = wheat.type === 'native' ? undefined : peekTrustLineView(ltx, sourceId, wheat);
    let maxWheatReceive = canBuyAtMost(acc, wheat, wheatLine);
    let maxSheepSend = canSellAtMost(header, acc, sheep, sheepLine);
    const liabilities = opLiabilities(p);
    const availableLimit = wheat.type === 'native' ? accountMaxAmountReceive(acc) : viewMaxAmountReceive(wheatLine!);
    if (availableLimit < liabilities.buying) return fail('LineFull');
    const availableBalance = sheep.type === 'native' ? accountAvailableBalance(header, acc) : viewAvailableBalance(sheepLine!);
    if (availableBalance < liabilities.selling) return fail('Underfunded');
    [maxSheepSend, maxWheatReceive] = applyLimits(p, maxSheepSend, 0n, maxWheatReceive, 0n);
    if (maxWheatReceive === 0n) return fail('LineFull');

    // the book's offers sell wheat for sheep; their price is in sheep per wheat
    const maxWheatPrice: Price = { n: p.price.d, d: p.price.n };
    // normal rounding: pools never take part, the book alone is crossed
    const conv = convertWithOffersAndPools(
      ltx,
      header,
      {
        sheep,
        maxSheepSend,
        wheat,
        maxWheatReceive,
        round: 'normal',
        filter: (o) => {
          const op: Price = { n: o.priceN, d: o.priceD };
          if ((passive && priceGreaterOrEqual(op, maxWheatPrice)) || priceGreater(op, maxWheatPrice)) return 'stopBadPrice';
          if (o.sellerId === sourceId) return 'stopCrossSelf';
          return 'keep';
        },
      },
      { offers: MAX_OFFERS_TO_CROSS },
    );
    if (conv.result === 'stopCrossSelf') return fail('CrossSelf');
    if (conv.result === 'crossedTooMany') return { success: false, result: opOuter('opExceededWorkLimit') };
    const sheepStays = conv.result !== 'ok';
    trail = conv.trail;
    const sheepSent = conv.sheepSend;
    const wheatReceived = conv.wheatReceived;

    if (wheatReceived > 0n) {
      if (!creditSource(ctx, wheat, wheatReceived)) throw new Error('offer claimed over limit');
      if (!creditSource(ctx, sheep, -sheepSent)) throw new Error('offer sold more than balance');
    }

    if (sheepStays) {
      const a = peekAccount(ltx, sourceId)!;
      const sl = sheep.type === 'native' ? undefined : peekTrustLineView(ltx, sourceId, sheep);
      const wl = wheat.type === 'native' ? undefined : peekTrustLineView(ltx, sourceId, wheat);
      const [sheepSendLimit, wheatReceiveLimit] = applyLimits(
        p,
        canSellAtMost(header, a, sheep, sl),
        sheepSent,
        canBuyAtMost(a, wheat, wl),
        wheatReceived,
      );
      // what stays must itself be fully takeable within the error bound
      amount = adjustOffer(p.price, sheepSendLimit, wheatReceiveLimit);
    }
  }

  let effect: OfferEffect;
  let offer: OfferRec | null = null;
  if (amount > 0n) {
    let offerId = p.offerId;
    if (creating) {
      ltx.idPool += 1n;
      offerId = ltx.idPool;
      effect = 'created';
    } else {
      effect = 'updated';
    }
    offer = offerEntry(p, sourceId, sheep, wheat, amount, flags, sponsor);
    offer.offerId = offerId;
    ltx.create(offer);
    acquireLiabilities(ltx, header, offer);
  } else {
    effect = 'deleted';
    removeEntryWithPossibleSponsorship(ltx, offerEntry(p, sourceId, sheep, wheat, 0n, 0, sponsor), loadAccount(ltx, sourceId)!);
  }
  return { success: true, result: exchangeOpResult(p.opType, `${prefix}Success`, manageOfferSuccess(trail, effect, offer)) };
}

/** stellar-core buildOffer: the offer as the operation describes it, with a given LedgerEntry extension. */
function offerEntry(
  p: OfferOpParams,
  sellerId: string,
  selling: AssetValue,
  buying: AssetValue,
  amount: bigint,
  flags: number,
  sponsor: string | null | undefined,
): OfferRec {
  const offer: OfferRec = {
    type: 'offer',
    sellerId,
    offerId: p.offerId,
    selling,
    buying,
    amount,
    priceN: p.price.n,
    priceD: p.price.d,
    flags,
    lastModified: 0,
  };
  if (sponsor !== undefined) offer.sponsor = sponsor;
  return offer;
}

function creditSource(ctx: OpContext, asset: AssetValue, delta: bigint): boolean {
  if (asset.type === 'native') return addAccountBalance(ctx.header, loadAccount(ctx.ltx, ctx.sourceId) as AccountRec, delta);
  return viewAddBalanceExact(loadTrustLineView(ctx.ltx, ctx.sourceId, asset)!, delta);
}
