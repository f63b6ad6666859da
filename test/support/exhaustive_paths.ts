// The definition the path search is held to: every sequence of distinct assets up to the path
// length, each book crossed offer by offer with stellar-core's exchangeV10 by a loop of its own
// (not src/market/path_exchange.ts), sorted by amount, then hops, then the assets' text. No bound,
// no pruning: it is slow on purpose, and the bench's baseline.
import type { FoundPath, GraphOffer } from '../../src/market/index.js';
import { INT64_MAX, MAX_OFFERS_TO_CROSS, exchangeV10 } from '../../src/stellar/index.js';

/** The offers by (selling, buying), best price first, then lowest id, as stellar-core crosses them. */
export class ExhaustiveBooks {
  private readonly books = new Map<string, GraphOffer[]>();
  readonly assets: readonly string[];

  constructor(offers: readonly GraphOffer[]) {
    const assets = new Set<string>();
    for (const offer of offers) {
      if (offer.amount <= 0n) continue;
      assets.add(offer.selling).add(offer.buying);
      const key = `${offer.selling} ${offer.buying}`;
      const book = this.books.get(key) ?? [];
      book.push(offer);
      this.books.set(key, book);
    }
    for (const book of this.books.values()) {
      book.sort((a, b) => {
        const x = BigInt(a.price.n) * BigInt(b.price.d) - BigInt(b.price.n) * BigInt(a.price.d);
        return x < 0n ? -1 : x > 0n ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
      });
    }
    this.assets = [...assets].sort();
  }

  book(selling: string, buying: string): readonly GraphOffer[] {
    return this.books.get(`${selling} ${buying}`) ?? [];
  }
}

/** [the other side's amount, offers crossed], or null when the book cannot take `amount` within `budget` offers */
function cross(
  book: readonly GraphOffer[],
  amount: bigint,
  budget: number,
  ignore: string | null,
  receive: boolean,
): [bigint, number] | null {
  let left = amount;
  let total = 0n;
  let used = 0;
  for (const offer of book) {
    if (left === 0n) break;
    if (offer.seller === ignore) continue;
    if (used === budget) return null;
    let ex: ReturnType<typeof exchangeV10>;
    try {
      ex = receive
        ? exchangeV10(offer.price, offer.amount, left, INT64_MAX, INT64_MAX, 'strictReceive')
        : exchangeV10(offer.price, offer.amount, INT64_MAX, left, INT64_MAX, 'strictSend');
    } catch {
      return null;
    }
    used += 1;
    total += receive ? ex.sheepSend : ex.wheatReceive;
    left -= receive ? ex.wheatReceive : ex.sheepSend;
    if (left > 0n && ex.wheatStays) return null;
  }
  return left === 0n && total > 0n && total <= INT64_MAX ? [total, used] : null;
}

const text = (p: FoundPath) => [p.source, ...p.path, p.destination].join('\u0000');
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** every sequence of distinct assets of `pool` of at most `length` */
function* sequences(pool: readonly string[], length: number, prefix: string[] = []): Generator<string[]> {
  yield prefix;
  if (prefix.length === length) return;
  for (const asset of pool) if (!prefix.includes(asset)) yield* sequences(pool, length, [...prefix, asset]);
}

export interface ExhaustiveReceive {
  readonly sources: readonly string[];
  readonly destination: string;
  readonly amount: bigint;
  /** most books a path crosses */
  readonly maxPathLength: number;
  readonly ignoreSeller?: string | null;
  readonly balances?: ReadonlyMap<string, bigint>;
}

/** Every strict-receive path, best first (lowest source amount, fewer hops, text). */
export function exhaustiveStrictReceive(books: ExhaustiveBooks, query: ExhaustiveReceive): FoundPath[] {
  const found: FoundPath[] = [];
  const { destination, amount } = query;
  for (const source of new Set(query.sources)) {
    const balance = query.balances?.get(source);
    if (source === destination) {
      if (balance === undefined || amount <= balance)
        found.push({ source, sourceAmount: amount, destination, destinationAmount: amount, path: [] });
      continue;
    }
    const pool = books.assets.filter((a) => a !== source && a !== destination);
    for (const middle of sequences(pool, query.maxPathLength - 1)) {
      // paid backwards from the destination, as a path payment's amounts are fixed
      const chain = [source, ...middle, destination];
      let need: bigint | null = amount;
      let budget = MAX_OFFERS_TO_CROSS;
      for (let i = chain.length - 1; i > 0 && need !== null; i -= 1) {
        const r = cross(books.book(chain[i] as string, chain[i - 1] as string), need, budget, query.ignoreSeller ?? null, true);
        need = r ? r[0] : null;
        budget -= r ? r[1] : 0;
      }
      if (need === null || (balance !== undefined && need > balance)) continue;
      found.push({ source, sourceAmount: need, destination, destinationAmount: amount, path: middle });
    }
  }
  return found.sort((a, b) =>
    a.sourceAmount < b.sourceAmount ? -1 : a.sourceAmount > b.sourceAmount ? 1 : a.path.length - b.path.length || byText(text(a), text(b)),
  );
}

export interface ExhaustiveSend {
  readonly source: string;
  readonly amount: bigint;
  readonly destinations: readonly string[];
  readonly maxPathLength: number;
}

/** Every strict-send path, best first (highest destination amount, fewer hops, text). */
export function exhaustiveStrictSend(books: ExhaustiveBooks, query: ExhaustiveSend): FoundPath[] {
  const found: FoundPath[] = [];
  const { source, amount } = query;
  for (const destination of new Set(query.destinations)) {
    if (source === destination) {
      found.push({ source, sourceAmount: amount, destination, destinationAmount: amount, path: [] });
      continue;
    }
    const pool = books.assets.filter((a) => a !== source && a !== destination);
    for (const middle of sequences(pool, query.maxPathLength - 1)) {
      const chain = [source, ...middle, destination];
      let have: bigint | null = amount;
      let budget = MAX_OFFERS_TO_CROSS;
      for (let i = 0; i < chain.length - 1 && have !== null; i += 1) {
        const r = cross(books.book(chain[i + 1] as string, chain[i] as string), have, budget, null, false);
        have = r ? r[0] : null;
        budget -= r ? r[1] : 0;
      }
      if (have === null) continue;
      found.push({ source, sourceAmount: amount, destination, destinationAmount: have, path: middle });
    }
  }
  return found.sort((a, b) =>
    a.destinationAmount > b.destinationAmount
      ? -1
      : a.destinationAmount < b.destinationAmount
        ? 1
        : a.path.length - b.path.length || byText(text(a), text(b)),
  );
}
