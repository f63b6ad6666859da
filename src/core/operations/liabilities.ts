// Balances, limits and liabilities as the exchange sees them (stellar-core TransactionUtils and
// TrustLineWrapper, protocol ≥ 10): available balance and receivable amount net of liabilities,
// offers acquiring and releasing liabilities, and removing a seller's offers in one asset.
import { accountKey, offerKey, trustLineKey } from '../ledger/entries.js';
import { assetsEqual, INT64_MAX, offerLiabilities, type AssetValue, type CreditAsset } from '../../stellar/index.js';
import type { AccountRec, OfferRec, TrustLineRec } from '../ledger/entries.js';
import type { EntryReader, LedgerTxn } from '../ledger/ledger_txn.js';
import type { HeaderView } from './context.js';
import { isAuthorizedToMaintainLiabilities, loadAccount, loadTrustLineView, minBalance } from './helpers.js';
import { removeEntryWithPossibleSponsorship } from './sponsorship.js';
import type { TrustLineView } from './helpers.js';

/** A trust line view without recording a load (stellar-core loadTrustLineWithoutRecord). */
export function peekTrustLineView(r: EntryReader, accountId: string, asset: CreditAsset): TrustLineView | undefined {
  if (asset.issuer === accountId) return { issuer: true };
  const line = r.get(trustLineKey(accountId, asset)) as TrustLineRec | undefined;
  return line ? { issuer: false, line } : undefined;
}

export function peekAccount(r: EntryReader, id: string): AccountRec | undefined {
  return r.get(accountKey(id)) as AccountRec | undefined;
}

// stellar-core checkAuthorization from protocol 10: touching the balance or liabilities of a line
// that may not even maintain liabilities is a broken invariant
function requireMaintainLiabilities(line: TrustLineRec): void {
  if (!isAuthorizedToMaintainLiabilities(line.flags)) throw new Error('Invalid authorization');
}

export function viewMaintainsLiabilities(v: TrustLineView): boolean {
  return v.issuer || isAuthorizedToMaintainLiabilities(v.line.flags);
}

export function viewBalance(v: TrustLineView): bigint {
  return v.issuer ? INT64_MAX : v.line.balance;
}

export function viewAvailableBalance(v: TrustLineView): bigint {
  if (v.issuer) return INT64_MAX;
  requireMaintainLiabilities(v.line);
  return v.line.balance - v.line.sellingLiabilities;
}

export function viewMaxAmountReceive(v: TrustLineView): bigint {
  if (v.issuer) return INT64_MAX;
  requireMaintainLiabilities(v.line);
  return v.line.limit - v.line.balance - v.line.buyingLiabilities;
}

/** stellar-core addBalance on a trust line (authorization to maintain liabilities required). */
export function viewAddBalanceExact(v: TrustLineView, delta: bigint): boolean {
  if (v.issuer || delta === 0n) return true;
  const tl = v.line;
  requireMaintainLiabilities(tl);
  const nb = tl.balance + delta;
  if (nb < 0n || nb > tl.limit) return false;
  if (nb < tl.sellingLiabilities) return false;
  if (nb > tl.limit - tl.buyingLiabilities) return false;
  tl.balance = nb;
  return true;
}

export function accountAvailableBalance(header: HeaderView, acc: AccountRec): bigint {
  return acc.balance - minBalance(header, acc) - acc.sellingLiabilities;
}

export function accountMaxAmountReceive(acc: AccountRec): bigint {
  return INT64_MAX - (acc.balance + acc.buyingLiabilities);
}

// stellar-core's addBalance(int64&, delta, max): the result must stay within [0, max]
function boundedAdd(value: bigint, delta: bigint, max: bigint): bigint | null {
  const v = value + delta;
  return v < 0n || v > max ? null : v;
}

function addBuyingLiabilities(e: AccountRec | TrustLineView, delta: bigint): boolean {
  if (delta === 0n) return true;
  if ('type' in e) {
    const v = boundedAdd(e.buyingLiabilities, delta, INT64_MAX - e.balance);
    if (v === null) return false;
    e.buyingLiabilities = v;
    if (e.extLevel < 1) e.extLevel = 1;
    return true;
  }
  if (e.issuer) return true;
  requireMaintainLiabilities(e.line);
  const v = boundedAdd(e.line.buyingLiabilities, delta, e.line.limit - e.line.balance);
  if (v === null) return false;
  e.line.buyingLiabilities = v;
  if (e.line.extLevel < 1) e.line.extLevel = 1;
  return true;
}

function addSellingLiabilities(header: HeaderView, e: AccountRec | TrustLineView, delta: bigint): boolean {
  if (delta === 0n) return true;
  if ('type' in e) {
    const max = e.balance - minBalance(header, e);
    if (max < 0n) return false;
    const v = boundedAdd(e.sellingLiabilities, delta, max);
    if (v === null) return false;
    e.sellingLiabilities = v;
    if (e.extLevel < 1) e.extLevel = 1;
    return true;
  }
  if (e.issuer) return true;
  requireMaintainLiabilities(e.line);
  const v = boundedAdd(e.line.sellingLiabilities, delta, e.line.balance);
  if (v === null) return false;
  e.line.sellingLiabilities = v;
  if (e.line.extLevel < 1) e.line.extLevel = 1;
  return true;
}

function loadHolder(ltx: LedgerTxn, sellerId: string, asset: AssetValue): AccountRec | TrustLineView {
  if (asset.type === 'native') {
    const acc = loadAccount(ltx, sellerId);
    if (!acc) throw new Error('account does not exist');
    return acc;
  }
  const v = loadTrustLineView(ltx, sellerId, asset);
  if (!v) throw new Error('trustline does not exist');
  return v;
}

/** stellar-core acquireOrReleaseLiabilities: buying side first, then selling side. */
export function changeOfferLiabilities(ltx: LedgerTxn, header: HeaderView, offer: OfferRec, acquire: boolean): void {
  const l = offerLiabilities({ n: offer.priceN, d: offer.priceD }, offer.amount);
  const sign = acquire ? 1n : -1n;
  if (!addBuyingLiabilities(loadHolder(ltx, offer.sellerId, offer.buying), sign * l.buying)) {
    throw new Error('could not add buying liabilities');
  }
  if (!addSellingLiabilities(header, loadHolder(ltx, offer.sellerId, offer.selling), sign * l.selling)) {
    throw new Error('could not add selling liabilities');
  }
}

export function acquireLiabilities(ltx: LedgerTxn, header: HeaderView, offer: OfferRec): void {
  changeOfferLiabilities(ltx, header, offer, true);
}

export function releaseLiabilities(ltx: LedgerTxn, header: HeaderView, offer: OfferRec): void {
  changeOfferLiabilities(ltx, header, offer, false);
}

/** What an account can sell of an asset now (canSellAtMost). */
export function canSellAtMost(header: HeaderView, acc: AccountRec | undefined, asset: AssetValue, line: TrustLineView | undefined): bigint {
  if (asset.type === 'native') {
    const a = accountAvailableBalance(header, acc!);
    return a > 0n ? a : 0n;
  }
  if (line && viewMaintainsLiabilities(line)) {
    const a = viewAvailableBalance(line);
    return a > 0n ? a : 0n;
  }
  return 0n;
}

/** What an account can receive of an asset now (canBuyAtMost). */
export function canBuyAtMost(acc: AccountRec | undefined, asset: AssetValue, line: TrustLineView | undefined): bigint {
  if (asset.type === 'native') {
    const a = accountMaxAmountReceive(acc!);
    return a > 0n ? a : 0n;
  }
  if (!line) return 0n;
  const a = viewMaxAmountReceive(line);
  return a > 0n ? a : 0n;
}

/**
 * Removes an account's offers buying or selling an asset, releasing their liabilities and
 * reserves (stellar-core removeOffersByAccountAndAsset, when a line loses authorization to
 * maintain liabilities).
 */
export function removeOffersByAccountAndAsset(ltx: LedgerTxn, header: HeaderView, sellerId: string, asset: AssetValue): void {
  const keys = new Set<string>();
  ltx.offerKeysOf(sellerId, new Set(), keys);
  const offers = [...keys]
    .map((k) => ltx.get(k) as OfferRec)
    .filter((o) => assetsEqual(o.buying, asset) || assetsEqual(o.selling, asset))
    .sort((a, b) => (a.offerId < b.offerId ? -1 : a.offerId > b.offerId ? 1 : 0));
  for (const o of offers) {
    const key = offerKey(o.sellerId, o.offerId);
    const offer = ltx.load<OfferRec>(key)!;
    releaseLiabilities(ltx, header, offer);
    removeEntryWithPossibleSponsorship(ltx, offer, loadAccount(ltx, sellerId)!);
    ltx.erase(key);
  }
}
