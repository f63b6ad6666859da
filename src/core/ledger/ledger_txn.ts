// Nested change tracker in the manner of stellar-core's LedgerTxn: a child sees its parent's
// entries, records its own writes, and either commits them into the parent or is dropped.
import { cloneEntry, entryKey } from './entries.js';
import type { EntryRec, OfferRec } from './entries.js';
import { OfferList, OrderBook, isBetterOffer, offerPairKey } from './order_book.js';
import { CHANGE_CREATED, CHANGE_REMOVED, CHANGE_STATE, CHANGE_UPDATED, XdrBytes, writeEntry, writeKey } from './entry_codec.js';

// encodeChanges writes here and copies out: one buffer for all, instead of one grown per call
const scratch = new XdrBytes(64 * 1024);

export interface EntryReader {
  get(key: string): EntryRec | undefined;
}

export interface EntryStore extends EntryReader {
  write(key: string, value: EntryRec | null): void;
  idPool: bigint;
  /**
   * The best offer of a pair (lowest price, then lowest id, as stellar-core's isBetterOffer) at
   * this level, skipping keys that a level above (`above`) has written.
   */
  bestOffer(pair: string, above: Set<string>[]): OfferRec | undefined;
  /** Keys of a seller's offers visible at this level (`seen` as above). */
  offerKeysOf(sellerId: string, seen: Set<string>, out: Set<string>): void;
  /** Keys starting with `prefix` visible at this level, by a scan (for rare operations only). */
  keysWithPrefix(prefix: string, seen: Set<string>, out: Set<string>): void;
  /**
   * stellar-core's internal SPONSORSHIP entries of a begin/end sandwich (sponsored → sponsoring)
   * and their SPONSORSHIP_COUNTER (sponsoring → count). They live only inside a transaction and
   * never reach the meta or the closed ledger.
   */
  futureSponsor(sponsoredId: string): string | undefined;
  futureSponsoredCount(sponsoringId: string): number;
  writeFutureSponsor(sponsoredId: string, sponsoringId: string | null): void;
  writeFutureSponsoredCount(sponsoringId: string, count: number): void;
}

/** The closed ledger's entries, with an order book index of its offers. */
export class RootState implements EntryStore {
  readonly entries = new Map<string, EntryRec>();
  readonly book = new OrderBook();
  idPool = 0n;
  /** bumped on every write, so that a child's cursor into the book knows when it is stale */
  version = 0;

  get(key: string): EntryRec | undefined {
    return this.entries.get(key);
  }

  write(key: string, value: EntryRec | null): void {
    this.version++;
    if (key.charCodeAt(0) === 0x4f /* 'O' */) {
      const old = this.entries.get(key);
      if (old) this.book.remove(key, old as OfferRec);
      if (value) this.book.add(key, value as OfferRec);
    }
    if (value) this.entries.set(key, value);
    else this.entries.delete(key);
  }

  bestOffer(pair: string, above: Set<string>[]): OfferRec | undefined {
    return this.book.best(pair, 0, above)?.offer;
  }

  offerKeysOf(sellerId: string, seen: Set<string>, out: Set<string>): void {
    for (const k of this.book.keysOf(sellerId)) if (!seen.has(k)) out.add(k);
  }

  keysWithPrefix(prefix: string, seen: Set<string>, out: Set<string>): void {
    for (const k of this.entries.keys()) if (k.startsWith(prefix) && !seen.has(k)) out.add(k);
  }

  futureSponsor(): undefined {
    return undefined;
  }

  futureSponsoredCount(): number {
    return 0;
  }

  // a transaction still holding a sponsorship fails with txBAD_SPONSORSHIP: only ended ones commit this far
  writeFutureSponsor(_sponsoredId: string, sponsoringId: string | null): void {
    if (sponsoringId !== null) throw new Error('a future-reserve sponsorship reached the closed ledger');
  }

  writeFutureSponsoredCount(_sponsoringId: string, count: number): void {
    if (count !== 0) throw new Error('a future-reserve sponsorship reached the closed ledger');
  }
}

export class LedgerTxn implements EntryStore {
  private readonly own = new Map<string, EntryRec | null>();
  // The maps below are made on first use: most levels (a fee, a payment) never need them, and a
  // ledger makes several levels per transaction.
  /** offer keys written here, by every pair they belonged to (before or after) */
  private offersByPair: Map<string, Set<string>> | null = null;
  /** offers this level holds, per pair, in book order */
  private liveByPair: Map<string, OfferList> | null = null;
  /** for a level directly above the root: per pair, how many of the root's best offers it overrides */
  private rootCursor: Map<string, { version: number; index: number }> | null = null;
  /** sponsored → sponsoring account of begin_sponsoring_future_reserves (null: ended at this level) */
  private sponsors: Map<string, string | null> | null = null;
  private sponsoredCounts: Map<string, number> | null = null;
  idPool: bigint;

  constructor(
    private readonly parent: EntryStore,
    readonly ledgerSeq: number,
  ) {
    this.idPool = parent.idPool;
  }

  get(key: string): EntryRec | undefined {
    const v = this.own.get(key);
    if (v !== undefined) return v ?? undefined;
    return this.parent.get(key);
  }

  write(key: string, value: EntryRec | null): void {
    if (key.charCodeAt(0) === 0x4f) this.noteOffer(key, value);
    this.own.set(key, value);
  }

  // an offer's pair can change (update with other assets): index the key under the old and new pair
  private noteOffer(key: string, value: EntryRec | null): void {
    const old = this.get(key);
    if (old) this.indexOffer(offerPairKey(old as OfferRec), key);
    const mine = this.own.get(key);
    if (mine) this.liveByPair?.get(offerPairKey(mine as OfferRec))?.remove(key, mine as OfferRec);
    if (value) {
      const pair = offerPairKey(value as OfferRec);
      this.indexOffer(pair, key);
      this.liveByPair ??= new Map();
      let live = this.liveByPair.get(pair);
      if (!live) {
        live = new OfferList();
        this.liveByPair.set(pair, live);
      }
      live.add(key, value as OfferRec);
    }
  }

  private indexOffer(pair: string, key: string): void {
    this.offersByPair ??= new Map();
    let set = this.offersByPair.get(pair);
    if (!set) {
      set = new Set();
      this.offersByPair.set(pair, set);
    }
    set.add(key);
  }

  bestOffer(pair: string, above: Set<string>[]): OfferRec | undefined {
    const best = this.liveByPair?.get(pair)?.first(above)?.offer;
    const mine = this.offersByPair?.get(pair);
    const below = mine ? [...above, mine] : above;
    let parentBest: OfferRec | undefined;
    if (this.parent instanceof RootState) {
      // offers taken during a ledger sit at the top of the root's book: remember how many of
      // them this level overrides, so each lookup does not walk past them again
      const root = this.parent;
      this.rootCursor ??= new Map();
      let cursor = this.rootCursor.get(pair);
      if (!cursor || cursor.version !== root.version) {
        cursor = { version: root.version, index: 0 };
        this.rootCursor.set(pair, cursor);
      }
      if (mine) cursor.index = root.book.skip(pair, cursor.index, mine);
      parentBest = root.book.best(pair, cursor.index, below)?.offer;
    } else {
      parentBest = this.parent.bestOffer(pair, below);
    }
    if (parentBest && (!best || isBetterOffer(parentBest, best))) return parentBest;
    return best;
  }

  /** The best offer selling `pair`'s asset for its other asset, as seen from this transaction. */
  loadBestOffer(pair: string): OfferRec | undefined {
    return this.bestOffer(pair, []);
  }

  offerKeysOf(sellerId: string, seen: Set<string>, out: Set<string>): void {
    this.ownKeysWithPrefix(`O${sellerId}/`, seen, out);
    this.parent.offerKeysOf(sellerId, seen, out);
  }

  keysWithPrefix(prefix: string, seen: Set<string>, out: Set<string>): void {
    this.ownKeysWithPrefix(prefix, seen, out);
    this.parent.keysWithPrefix(prefix, seen, out);
  }

  // live keys written here win over the levels below; erased ones hide them
  private ownKeysWithPrefix(prefix: string, seen: Set<string>, out: Set<string>): void {
    for (const [k, v] of this.own) {
      if (!k.startsWith(prefix) || seen.has(k)) continue;
      seen.add(k);
      if (v) out.add(k);
    }
  }

  futureSponsor(sponsoredId: string): string | undefined {
    const v = this.sponsors?.get(sponsoredId);
    return v === undefined ? this.parent.futureSponsor(sponsoredId) : (v ?? undefined);
  }

  futureSponsoredCount(sponsoringId: string): number {
    return this.sponsoredCounts?.get(sponsoringId) ?? this.parent.futureSponsoredCount(sponsoringId);
  }

  writeFutureSponsor(sponsoredId: string, sponsoringId: string | null): void {
    (this.sponsors ??= new Map()).set(sponsoredId, sponsoringId);
  }

  writeFutureSponsoredCount(sponsoringId: string, count: number): void {
    (this.sponsoredCounts ??= new Map()).set(sponsoringId, count);
  }

  /** stellar-core hasSponsorshipEntry: a begin without its end, seen from this level. */
  hasFutureSponsorships(): boolean {
    const ids = new Set<string>();
    for (let level: EntryStore = this; level instanceof LedgerTxn; level = level.parent)
      if (level.sponsors) for (const id of level.sponsors.keys()) ids.add(id);
    for (const id of ids) if (this.futureSponsor(id) !== undefined) return true;
    return false;
  }

  /** The entry as a mutable copy owned by this transaction (marks it modified, as stellar-core does). */
  load<T extends EntryRec>(key: string): T | undefined {
    const v = this.own.get(key);
    if (v !== undefined) return (v ?? undefined) as T | undefined;
    const p = this.parent.get(key);
    if (!p) return undefined;
    const c = cloneEntry(p);
    c.lastModified = this.ledgerSeq;
    this.write(key, c);
    return c as T;
  }

  create(e: EntryRec): void {
    e.lastModified = this.ledgerSeq;
    this.write(entryKey(e), e);
  }

  erase(key: string): void {
    this.write(key, null);
  }

  commit(): void {
    for (const [k, v] of this.own) this.parent.write(k, v);
    if (this.sponsors) for (const [k, v] of this.sponsors) this.parent.writeFutureSponsor(k, v);
    if (this.sponsoredCounts) for (const [k, v] of this.sponsoredCounts) this.parent.writeFutureSponsoredCount(k, v);
    this.sponsors = null;
    this.sponsoredCounts = null;
    this.parent.idPool = this.idPool;
    this.own.clear();
    this.offersByPair = null;
    this.liveByPair = null;
    this.rootCursor = null;
  }

  /** Keys written by this transaction, in first-touch order. */
  touched(): IterableIterator<[string, EntryRec | null]> {
    return this.own.entries();
  }

  /**
   * The XDR LedgerEntryChanges relative to the parent, as stellar-core emits them: created; state
   * then updated; state then removed. Entries are listed in first-touch order.
   */
  encodeChanges(): Buffer {
    this.writeChanges(scratch.reset());
    return scratch.toBuffer();
  }

  writeChanges(w: XdrBytes): void {
    let count = 0;
    const items: [EntryRec | undefined, EntryRec | null][] = [];
    for (const [k, after] of this.own) {
      const before = this.parent.get(k);
      if (!before && !after) continue;
      count += before ? 2 : 1;
      items.push([before, after]);
    }
    w.u32(count);
    for (const [before, after] of items) {
      if (!before) {
        w.u32(CHANGE_CREATED);
        writeEntry(w, after!);
      } else if (!after) {
        w.u32(CHANGE_STATE);
        writeEntry(w, before);
        w.u32(CHANGE_REMOVED);
        writeKey(w, before);
      } else {
        w.u32(CHANGE_STATE);
        writeEntry(w, before);
        w.u32(CHANGE_UPDATED);
        writeEntry(w, after);
      }
    }
  }
}
