// The order book in memory, for path finding: every offer of the offers table, grouped into
// books (selling → buying) sorted as stellar-core crosses them (best price, then lowest offer id).
// Kept current by `refresh`, which re-reads only offers changed since the graph's ledger and drops
// the ids no longer in the table; `apply` takes changes directly (e.g. from ingestion).
import type { Database } from '../db/database.js';
import type { Price } from '../stellar/index.js';

export interface GraphOffer {
  readonly id: bigint;
  readonly seller: string;
  /** canonical asset strings: "native" or "CODE:ISSUER" */
  readonly selling: string;
  readonly buying: string;
  readonly amount: bigint;
  /** buying per selling, as in the offer entry */
  readonly price: Price;
}

/** One book as path finding walks it: the asset at its other end by number, its best price, its depth. */
export interface GraphEdge {
  /** the asset at the other end (an index of `IndexedBooks.assets`) */
  readonly to: number;
  /** offers best first */
  readonly book: readonly GraphOffer[];
  /** the best offer's price, buying per selling (n/d) and its inverse (d/n), as floats */
  readonly price: number;
  readonly inverse: number;
  /** what all its offers sell, as a float */
  readonly depth: number;
  /** the most all its offers take (buy), as a float: amount·n/d + 1 (rounding) per offer */
  readonly capacity: number;
}

/** The books numbered by asset, for searches that should not hash asset strings at every step. */
export interface IndexedBooks {
  readonly assets: readonly string[];
  readonly ids: ReadonlyMap<string, number>;
  /** by asset number: the books selling it (`to` is what they buy) */
  readonly selling: readonly (readonly GraphEdge[])[];
  /** by asset number: the books buying it (`to` is what they sell) */
  readonly buying: readonly (readonly GraphEdge[])[];
}

export interface OfferChanges {
  readonly upserted?: readonly GraphOffer[];
  readonly removed?: readonly bigint[];
}

function compareOffers(a: GraphOffer, b: GraphOffer): number {
  const left = BigInt(a.price.n) * BigInt(b.price.d);
  const right = BigInt(b.price.n) * BigInt(a.price.d);
  if (left !== right) return left < right ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

interface OfferRow {
  id: string | bigint;
  seller_id: string;
  selling_asset: string;
  buying_asset: string;
  amount: string | bigint;
  price_n: number;
  price_d: number;
}

function offerFromRow(row: OfferRow): GraphOffer {
  return {
    id: BigInt(row.id),
    seller: row.seller_id,
    selling: row.selling_asset,
    buying: row.buying_asset,
    amount: BigInt(row.amount),
    price: { n: Number(row.price_n), d: Number(row.price_d) },
  };
}

const OFFER_COLUMNS = 'id, seller_id, selling_asset, buying_asset, amount, price_n, price_d';

export class OrderBookGraph {
  /** the ledger the graph reflects (0 before the first load) */
  ledger = 0;
  private readonly offers = new Map<bigint, GraphOffer>();
  private bySelling: Map<string, Map<string, GraphOffer[]>> | null = null;
  private byBuying: Map<string, Map<string, GraphOffer[]>> | null = null;
  private numbered: IndexedBooks | null = null;

  get size(): number {
    return this.offers.size;
  }

  /** Applies offer changes and moves the graph to `ledger`. */
  apply(changes: OfferChanges, ledger: number = this.ledger): void {
    for (const id of changes.removed ?? []) this.offers.delete(id);
    for (const offer of changes.upserted ?? []) {
      if (offer.amount > 0n) this.offers.set(offer.id, offer);
      else this.offers.delete(offer.id);
    }
    this.ledger = ledger;
    this.bySelling = null;
    this.byBuying = null;
    this.numbered = null;
  }

  /** Replaces everything with the offers table. */
  async reload(db: Database): Promise<void> {
    const { ledger, rows } = await db.session(async (sql) => ({
      ledger: await currentLedger(sql),
      rows: await sql.query<OfferRow>(`SELECT ${OFFER_COLUMNS} FROM offers`),
    }));
    this.offers.clear();
    this.apply({ upserted: rows.map(offerFromRow) }, ledger);
  }

  /** Reads offers modified after the graph's ledger, and removes offers deleted from the table. */
  async refresh(db: Database): Promise<void> {
    const { ledger, changed, ids } = await db.session(async (sql) => ({
      ledger: await currentLedger(sql),
      changed: await sql.query<OfferRow>(`SELECT ${OFFER_COLUMNS} FROM offers WHERE last_modified_ledger > $1`, [this.ledger]),
      ids: await sql.query<{ id: string | bigint }>('SELECT id FROM offers'),
    }));
    const present = new Set(ids.map((row) => BigInt(row.id)));
    const removed = [...this.offers.keys()].filter((id) => !present.has(id));
    if (changed.length === 0 && removed.length === 0) {
      this.ledger = Math.max(this.ledger, ledger);
      return;
    }
    this.apply({ upserted: changed.map(offerFromRow), removed }, Math.max(this.ledger, ledger));
  }

  /** Books selling `asset`, by the asset they buy; offers best first. */
  booksSelling(asset: string): ReadonlyMap<string, readonly GraphOffer[]> {
    return this.index().bySelling.get(asset) ?? EMPTY;
  }

  /** Books buying `asset`, by the asset they sell; offers best first. */
  booksBuying(asset: string): ReadonlyMap<string, readonly GraphOffer[]> {
    return this.index().byBuying.get(asset) ?? EMPTY;
  }

  /** Every asset that some offer sells or buys. */
  assets(): string[] {
    const { bySelling, byBuying } = this.index();
    return [...new Set([...bySelling.keys(), ...byBuying.keys()])];
  }

  /** The books by asset number; built once per change of the graph. */
  indexed(): IndexedBooks {
    if (this.numbered) return this.numbered;
    const { bySelling, byBuying } = this.index();
    const assets = this.assets();
    const ids = new Map(assets.map((asset, i) => [asset, i]));
    const edges = (index: Map<string, Map<string, GraphOffer[]>>) =>
      assets.map((asset) =>
        [...(index.get(asset) ?? EMPTY)].map(([other, book]): GraphEdge => {
          const best = book[0] as GraphOffer;
          return {
            to: ids.get(other) as number,
            book,
            price: best.price.n / best.price.d,
            inverse: best.price.d / best.price.n,
            depth: book.reduce((sum, offer) => sum + Number(offer.amount), 0),
            capacity: book.reduce((sum, offer) => sum + (Number(offer.amount) * offer.price.n) / offer.price.d + 1, 0),
          };
        }),
      );
    this.numbered = { assets, ids, selling: edges(bySelling), buying: edges(byBuying) };
    return this.numbered;
  }

  private index(): { bySelling: Map<string, Map<string, GraphOffer[]>>; byBuying: Map<string, Map<string, GraphOffer[]>> } {
    if (this.bySelling && this.byBuying) return { bySelling: this.bySelling, byBuying: this.byBuying };
    const bySelling = new Map<string, Map<string, GraphOffer[]>>();
    const byBuying = new Map<string, Map<string, GraphOffer[]>>();
    const add = (index: Map<string, Map<string, GraphOffer[]>>, outer: string, inner: string, offer: GraphOffer) => {
      let books = index.get(outer);
      if (!books) index.set(outer, (books = new Map()));
      let book = books.get(inner);
      if (!book) books.set(inner, (book = []));
      book.push(offer);
    };
    for (const offer of this.offers.values()) {
      add(bySelling, offer.selling, offer.buying, offer);
      add(byBuying, offer.buying, offer.selling, offer);
    }
    for (const index of [bySelling, byBuying])
      for (const books of index.values()) for (const book of books.values()) book.sort(compareOffers);
    this.bySelling = bySelling;
    this.byBuying = byBuying;
    return { bySelling, byBuying };
  }
}

const EMPTY: ReadonlyMap<string, readonly GraphOffer[]> = new Map();

async function currentLedger(sql: {
  query<Row extends object>(text: string, params?: readonly unknown[]): Promise<Row[]>;
}): Promise<number> {
  const [row] = await sql.query<{ ledger: number | null }>(
    `SELECT GREATEST((SELECT max(ledger_sequence) FROM ingest_cursor), (SELECT max(last_modified_ledger) FROM offers)) AS ledger`,
  );
  return Number(row?.ledger ?? 0);
}
