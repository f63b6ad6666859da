// The closed ledger's offers indexed per pair in stellar-core's best-offer order (price as a
// double n/d, then offer id: isBetterOffer), and per seller for removing a seller's offers.
import { formatCanonicalAsset, type AssetValue } from '../../stellar/index.js';
import type { OfferRec } from './entries.js';

/** Offers that sell `selling` for `buying`. */
export function pairKey(selling: AssetValue, buying: AssetValue): string {
  return `${formatCanonicalAsset(selling)}>${formatCanonicalAsset(buying)}`;
}

export function offerPairKey(o: OfferRec): string {
  return pairKey(o.selling, o.buying);
}

function compareOffers(a: OfferRec, b: OfferRec): number {
  // stellar-core compares the prices as doubles, as its SQL index did
  const pa = a.priceN / a.priceD;
  const pb = b.priceN / b.priceD;
  if (pa !== pb) return pa < pb ? -1 : 1;
  return a.offerId < b.offerId ? -1 : a.offerId > b.offerId ? 1 : 0;
}

export function isBetterOffer(a: OfferRec, b: OfferRec): boolean {
  return compareOffers(a, b) < 0;
}

export interface Slot {
  key: string;
  offer: OfferRec;
}

function position(list: Slot[], o: OfferRec): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareOffers(list[mid]!.offer, o) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function removeSlot(list: Slot[], key: string, o: OfferRec): void {
  let i = position(list, o);
  // equal (price, id) slots cannot exist, but be exact about which one goes
  while (i < list.length && list[i]!.key !== key && compareOffers(list[i]!.offer, o) === 0) i++;
  if (i < list.length && list[i]!.key === key) list.splice(i, 1);
  else {
    const j = list.findIndex((s) => s.key === key);
    if (j >= 0) list.splice(j, 1);
  }
}

function overridden(key: string, sets: Set<string>[]): boolean {
  for (const s of sets) if (s.has(key)) return true;
  return false;
}

/** A small sorted list of offers (one pair, one LedgerTxn level). */
export class OfferList {
  private readonly slots: Slot[] = [];

  add(key: string, o: OfferRec): void {
    this.slots.splice(position(this.slots, o), 0, { key, offer: o });
  }

  remove(key: string, o: OfferRec): void {
    removeSlot(this.slots, key, o);
  }

  first(above: Set<string>[]): Slot | undefined {
    for (const s of this.slots) if (!overridden(s.key, above)) return s;
    return undefined;
  }
}

export class OrderBook {
  private readonly pairs = new Map<string, Slot[]>();
  private readonly sellers = new Map<string, Set<string>>();

  add(key: string, o: OfferRec): void {
    const pair = offerPairKey(o);
    let list = this.pairs.get(pair);
    if (!list) {
      list = [];
      this.pairs.set(pair, list);
    }
    list.splice(position(list, o), 0, { key, offer: o });
    let keys = this.sellers.get(o.sellerId);
    if (!keys) {
      keys = new Set();
      this.sellers.set(o.sellerId, keys);
    }
    keys.add(key);
  }

  remove(key: string, o: OfferRec): void {
    const pair = offerPairKey(o);
    const list = this.pairs.get(pair);
    if (list) {
      removeSlot(list, key, o);
      if (list.length === 0) this.pairs.delete(pair);
    }
    const keys = this.sellers.get(o.sellerId);
    if (keys) {
      keys.delete(key);
      if (keys.size === 0) this.sellers.delete(o.sellerId);
    }
  }

  /** From slot `from` on, the best offer of a pair whose key no set in `above` holds. */
  best(pair: string, from: number, above: Set<string>[]): Slot | undefined {
    const list = this.pairs.get(pair);
    if (!list) return undefined;
    for (let i = from; i < list.length; i++) {
      const s = list[i]!;
      if (!overridden(s.key, above)) return s;
    }
    return undefined;
  }

  /** The first slot at or after `from` whose key is not in `keys`. */
  skip(pair: string, from: number, keys: Set<string>): number {
    const list = this.pairs.get(pair);
    if (!list) return from;
    let i = from;
    while (i < list.length && keys.has(list[i]!.key)) i++;
    return i;
  }

  keysOf(sellerId: string): Iterable<string> {
    return this.sellers.get(sellerId) ?? [];
  }

  /** Offers of a pair in book order (for tests and the bench). */
  offers(pair: string): OfferRec[] {
    return (this.pairs.get(pair) ?? []).map((s) => s.offer);
  }
}
