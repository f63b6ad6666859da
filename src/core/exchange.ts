// The exchange as stellar-core's OfferExchange.cpp does it from protocol 18. Order book crossing
// (convertWithOffers / crossOfferV10): take the best offer selling the wanted asset, release its
// liabilities, exchange within every balance and limit of its seller, then either remove it or
// re-adjust it and acquire its liabilities again. A path payment's hop takes the better of the
// book and the asset pair's liquidity pool (convertWithOffersAndPools); offers never trade with pools.
import { accountKey, liquidityPoolKey, offerKey } from './ledger/entries.js';
import {
  adjustOffer,
  assetsEqual,
  exchangeV10,
  exchangeWithPool,
  INT64_MAX,
  LIQUIDITY_POOL_FEE_V18,
  poolIdOfAssets,
  type AssetValue,
  type Price,
  type Rounding,
} from '../stellar/index.js';
import type { AccountRec, LiquidityPoolRec, OfferRec } from './ledger/entries.js';
import { LedgerTxn } from './ledger/ledger_txn.js';
import { pairKey } from './ledger/order_book.js';
import type { HeaderView } from './operations/context.js';
import { addAccountBalance, loadAccount, loadTrustLineView } from './operations/helpers.js';
import { removeEntryWithPossibleSponsorship } from './operations/sponsorship.js';
import type { TrustLineView } from './operations/helpers.js';
import { acquireLiabilities, canBuyAtMost, canSellAtMost, releaseLiabilities, viewAddBalanceExact } from './operations/liabilities.js';

/**
 * One trade of an exchange: a crossed offer (ClaimOfferAtom) or a pool's exchange
 * (ClaimLiquidityAtom). The offer's seller, or the pool, sold `amountSold` of `assetSold` for
 * `amountBought` of `assetBought`.
 */
export type ClaimAtomRec = ({ kind: 'orderBook'; sellerId: string; offerId: bigint } | { kind: 'liquidityPool'; poolId: string }) & {
  assetSold: AssetValue;
  amountSold: bigint;
  assetBought: AssetValue;
  amountBought: bigint;
};

export type OfferFilterResult = 'keep' | 'stopBadPrice' | 'stopCrossSelf';

export type ConvertResult = 'ok' | 'partial' | 'stopBadPrice' | 'stopCrossSelf' | 'crossedTooMany';

/** One conversion: send at most `maxSheepSend` of sheep to receive at most `maxWheatReceive` of wheat. */
export interface ConversionRequest {
  sheep: AssetValue;
  maxSheepSend: bigint;
  wheat: AssetValue;
  maxWheatReceive: bigint;
  round: Rounding;
  /** which offers may be crossed (the operation's price, crossing oneself) */
  filter: (offer: OfferRec) => OfferFilterResult;
}

export interface Conversion {
  result: ConvertResult;
  sheepSend: bigint;
  wheatReceived: bigint;
  trail: ClaimAtomRec[];
}

function offerPrice(o: OfferRec): Price {
  return { n: o.priceN, d: o.priceD };
}

function loadLineIfNotNative(ltx: LedgerTxn, accountId: string, asset: AssetValue): TrustLineView | undefined {
  return asset.type === 'native' ? undefined : loadTrustLineView(ltx, accountId, asset);
}

// the offer's amount, cut to what its seller can deliver and receive within the error bound
function adjustOfferEntry(
  header: HeaderView,
  offer: OfferRec,
  account: AccountRec | undefined,
  wheatLine: TrustLineView | undefined,
  sheepLine: TrustLineView | undefined,
): void {
  const canSell = canSellAtMost(header, account, offer.selling, wheatLine);
  const maxWheatSend = offer.amount < canSell ? offer.amount : canSell;
  const maxSheepReceive = canBuyAtMost(account, offer.buying, sheepLine);
  offer.amount = adjustOffer(offerPrice(offer), maxWheatSend, maxSheepReceive);
}

interface Crossed {
  taken: boolean;
  wheatReceived: bigint;
  sheepSend: bigint;
  wheatStays: boolean;
}

/** crossOfferV10: the taker sends sheep and receives wheat from the offer's seller (B). */
function crossOfferV10(
  ltx: LedgerTxn,
  header: HeaderView,
  offer: OfferRec,
  maxWheatReceived: bigint,
  maxSheepSend: bigint,
  round: Rounding,
  trail: ClaimAtomRec[],
): Crossed {
  const sheep = offer.buying;
  const wheat = offer.selling;
  const sellerId = offer.sellerId;
  const offerId = offer.offerId;
  if (!ltx.get(accountKey(sellerId))) throw new Error('invalid database state: offer must have matching account');

  releaseLiabilities(ltx, header, offer);
  const accountB = wheat.type === 'native' || sheep.type === 'native' ? loadAccount(ltx, sellerId) : undefined;
  const sheepLine = loadLineIfNotNative(ltx, sellerId, sheep);
  const wheatLine = loadLineIfNotNative(ltx, sellerId, wheat);

  // a no-op since protocol 10 (liabilities keep offers satisfiable), kept as stellar-core keeps it
  adjustOfferEntry(header, offer, accountB, wheatLine, sheepLine);

  const canSell = canSellAtMost(header, accountB, wheat, wheatLine);
  const maxWheatSend = offer.amount < canSell ? offer.amount : canSell;
  const maxSheepReceive = canBuyAtMost(accountB, sheep, sheepLine);
  const ex = exchangeV10(offerPrice(offer), maxWheatSend, maxWheatReceived, maxSheepSend, maxSheepReceive, round);

  if (ex.sheepSend !== 0n) {
    const ok = sheep.type === 'native' ? addAccountBalance(header, accountB!, ex.sheepSend) : viewAddBalanceExact(sheepLine!, ex.sheepSend);
    if (!ok) throw new Error('overflowed sheep balance');
  }
  if (ex.wheatReceive !== 0n) {
    const ok =
      wheat.type === 'native' ? addAccountBalance(header, accountB!, -ex.wheatReceive) : viewAddBalanceExact(wheatLine!, -ex.wheatReceive);
    if (!ok) throw new Error('overflowed wheat balance');
  }

  if (ex.wheatStays) {
    offer.amount -= ex.wheatReceive;
    adjustOfferEntry(header, offer, accountB, wheatLine, sheepLine);
  } else {
    offer.amount = 0n;
  }
  const taken = offer.amount === 0n;
  if (taken) {
    removeEntryWithPossibleSponsorship(ltx, offer, loadAccount(ltx, sellerId)!);
    ltx.erase(offerKey(sellerId, offerId));
  } else {
    acquireLiabilities(ltx, header, offer);
  }
  trail.push({
    kind: 'orderBook',
    sellerId,
    offerId,
    assetSold: wheat,
    amountSold: ex.wheatReceive,
    assetBought: sheep,
    amountBought: ex.sheepSend,
  });
  return { taken, wheatReceived: ex.wheatReceive, sheepSend: ex.sheepSend, wheatStays: ex.wheatStays };
}

/**
 * Sends up to `maxSheepSend` of sheep to the book to receive up to `maxWheatReceive` of wheat,
 * crossing the best offers first (convertWithOffers). Crossings are committed into `ltxOuter`
 * even when the result is partial or stopped by the filter, as stellar-core does.
 */
export function convertWithOffers(ltxOuter: LedgerTxn, header: HeaderView, req: ConversionRequest, maxOffersToCross: number): Conversion {
  const { sheep, wheat, round, filter } = req;
  let { maxSheepSend, maxWheatReceive } = req;
  const trail: ClaimAtomRec[] = [];
  let sheepSend = 0n;
  let wheatReceived = 0n;
  const done = (result: ConvertResult): Conversion => ({ result, sheepSend, wheatReceived, trail });
  let needMore = maxWheatReceive > 0n && maxSheepSend > 0n;
  if (needMore && maxOffersToCross === 0) return done('crossedTooMany');
  const pair = pairKey(wheat, sheep);
  while (needMore) {
    const ltx = new LedgerTxn(ltxOuter, ltxOuter.ledgerSeq);
    const best = ltx.loadBestOffer(pair);
    if (!best) break;
    const f = filter(best);
    if (f === 'stopBadPrice') return done('stopBadPrice');
    if (f === 'stopCrossSelf') return done('stopCrossSelf');
    if (trail.length >= maxOffersToCross) return done('crossedTooMany');
    const offer = ltx.load<OfferRec>(offerKey(best.sellerId, best.offerId))!;
    const c = crossOfferV10(ltx, header, offer, maxWheatReceive, maxSheepSend, round, trail);
    ltx.commit();
    sheepSend += c.sheepSend;
    maxSheepSend -= c.sheepSend;
    wheatReceived += c.wheatReceived;
    maxWheatReceive -= c.wheatReceived;
    needMore = !c.wheatStays && maxWheatReceive > 0n && maxSheepSend > 0n;
    if (!needMore) return done('ok');
    if (!c.taken) return done('partial');
  }
  return done(needMore ? 'partial' : 'ok');
}

const poolIds = new Map<string, string>();

// every hop of every path payment looks its pool up: the id (XDR and sha256) is computed once per pair
function poolIdOfPair(sheep: AssetValue, wheat: AssetValue): string {
  const pair = pairKey(sheep, wheat);
  let id = poolIds.get(pair);
  if (id === undefined) {
    id = poolIdOfAssets(sheep, wheat, LIQUIDITY_POOL_FEE_V18);
    if (poolIds.size > 100_000) poolIds.clear();
    poolIds.set(pair, id);
  }
  return id;
}

/** stellar-core's pool trade of a hop, or null where it does not trade (exchangeWithPool returning false). */
function poolTrade(
  ltx: LedgerTxn,
  { sheep, maxSheepSend, wheat, maxWheatReceive, round }: ConversionRequest,
  maxOffersToCross: number,
): { poolId: string; sheepSend: bigint; wheatReceived: bigint } | null {
  // pools trade only in path payments, and count as one more crossing
  if (round === 'normal' || maxOffersToCross === 0) return null;
  const poolId = poolIdOfPair(sheep, wheat);
  const pool = ltx.get(liquidityPoolKey(poolId)) as LiquidityPoolRec | undefined;
  // a pool with shares trust lines but no deposit has empty reserves
  if (!pool || pool.reserveA <= 0n || pool.reserveB <= 0n) return null;
  const sheepIsA = assetsEqual(sheep, pool.assetA) && assetsEqual(wheat, pool.assetB);
  if (!sheepIsA && !(assetsEqual(sheep, pool.assetB) && assetsEqual(wheat, pool.assetA))) {
    throw new Error('Invalid liquidity pool assets');
  }
  const [toReserve, fromReserve] = sheepIsA ? [pool.reserveA, pool.reserveB] : [pool.reserveB, pool.reserveA];
  const t = exchangeWithPool(toReserve, maxSheepSend, fromReserve, maxWheatReceive, LIQUIDITY_POOL_FEE_V18, round);
  return t && { poolId, sheepSend: t.toPool, wheatReceived: t.fromPool };
}

/**
 * One hop of a path payment (stellar-core convertWithOffersAndPools, protocol 18 to 26): the book
 * is crossed in a nested transaction and kept unless the pool can do the whole hop at a price at
 * least as good (sheep per wheat), in which case the book's crossings are dropped and the pool
 * trades, as one claim atom. `budget.offers` is the operation's remaining crossings.
 */
export function convertWithOffersAndPools(
  ltxOuter: LedgerTxn,
  header: HeaderView,
  req: ConversionRequest,
  budget: { offers: number },
): Conversion {
  const { sheep, wheat } = req;
  const pool = poolTrade(ltxOuter, req, budget.offers);
  const ltxBook = new LedgerTxn(ltxOuter, ltxOuter.ledgerSeq);
  const book = convertWithOffers(ltxBook, header, req, budget.offers);
  // the book wins only with a complete conversion at a strictly better price
  if (!pool || (book.result === 'ok' && pool.sheepSend * book.wheatReceived > pool.wheatReceived * book.sheepSend)) {
    ltxBook.commit();
    budget.offers -= book.trail.length;
    return book;
  }
  const entry = ltxOuter.load<LiquidityPoolRec>(liquidityPoolKey(pool.poolId))!;
  const sheepIsA = assetsEqual(sheep, entry.assetA);
  const reserveDelta = (reserve: bigint, delta: bigint): bigint => {
    const v = reserve + delta;
    if (v < 0n || v > INT64_MAX) throw new Error('could not update reserves');
    return v;
  };
  entry.reserveA = reserveDelta(entry.reserveA, sheepIsA ? pool.sheepSend : -pool.wheatReceived);
  entry.reserveB = reserveDelta(entry.reserveB, sheepIsA ? -pool.wheatReceived : pool.sheepSend);
  budget.offers -= 1;
  const atom: ClaimAtomRec = {
    kind: 'liquidityPool',
    poolId: pool.poolId,
    assetSold: wheat,
    amountSold: pool.wheatReceived,
    assetBought: sheep,
    amountBought: pool.sheepSend,
  };
  return { result: 'ok', sheepSend: pool.sheepSend, wheatReceived: pool.wheatReceived, trail: [atom] };
}
