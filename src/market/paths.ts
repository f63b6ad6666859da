// Payment path search over the in-memory order book graph.
//
// Strict receive walks backwards from the destination asset: the amount of the asset before each
// hop is what crossing that hop's book costs to receive the amount after it (stellar-core's
// exchange math, strict-receive rounding). Strict send walks forwards from the source amount.
// Every simple path (no asset twice) of at most `maxPathLength` books is a candidate; the result
// is the best `maxResults` by cost (strict receive: lowest source amount; strict send: highest
// destination amount), then fewer hops, then asset text, so it is exactly what an exhaustive
// search returns. To avoid enumerating every path of a dense book, a branch is cut when a bound on
// what it could still reach (path_bound.ts: best prices along any walk to a target, minus the at
// most one unit per crossed offer that stellar-core's rounding can give back) is strictly worse
// than the current last result. A query that would cross more books than its budget stops with
// PathSearchLimitError rather than answer a list that might not be the best.
import {
  assetRecord,
  formatAmount,
  MAX_OFFERS_TO_CROSS,
  parseCanonicalAsset,
  type AssetRecord,
  type AssetValue,
} from '../stellar/index.js';
import type { GraphEdge, GraphOffer, IndexedBooks, OrderBookGraph } from './order_book_graph.js';
import { PathBound, type BoundChild } from './path_bound.js';
import { receiveForSend, sendToReceive, type Crossing } from './path_exchange.js';

/** Horizon's default --max-path-length: most books one path crosses */
export const DEFAULT_MAX_PATH_LENGTH = 3;
/** the most --max-path-length allows (4 assets between source and destination) */
export const MAX_PATH_LENGTH = 5;
export const DEFAULT_MAX_PATH_RESULTS = 20;
/**
 * Books one query may cross before it gives up (an exhaustive search of 3 hops over 30 fully
 * connected assets to 5 targets crosses ~5,000; the bound usually cuts that to hundreds).
 */
export const MAX_PATH_SEARCH_CROSSINGS = 50_000;

export interface PathSearchOptions {
  /** most books a path crosses, 1 to MAX_PATH_LENGTH (default 3, as Horizon's --max-path-length) */
  readonly maxPathLength?: number;
  /** most paths returned (default 20) */
  readonly maxResults?: number;
  /** offers of this account are skipped (a payment cannot cross its own source's offers) */
  readonly ignoreSeller?: string | null;
  /** books one query may cross (default MAX_PATH_SEARCH_CROSSINGS); beyond: PathSearchLimitError */
  readonly maxCrossings?: number;
}

/** Horizon's path record, camelCase. */
export interface PathRecord {
  readonly sourceAssetType: string;
  readonly sourceAssetCode?: string;
  readonly sourceAssetIssuer?: string;
  readonly sourceAmount: string;
  readonly destinationAssetType: string;
  readonly destinationAssetCode?: string;
  readonly destinationAssetIssuer?: string;
  readonly destinationAmount: string;
  readonly path: AssetRecord[];
}

/** A path as found: canonical asset strings, amounts in stroops. */
export interface FoundPath {
  readonly source: string;
  readonly sourceAmount: bigint;
  readonly destination: string;
  readonly destinationAmount: bigint;
  /** intermediate assets, source side first */
  readonly path: readonly string[];
}

export interface StrictReceiveSearch {
  readonly destination: string;
  readonly destinationAmount: bigint;
  readonly sources: readonly string[];
  /** when given, a path whose source amount exceeds the source asset's balance is left out */
  readonly sourceBalances?: ReadonlyMap<string, bigint>;
}

export interface StrictSendSearch {
  readonly source: string;
  readonly sourceAmount: bigint;
  readonly destinations: readonly string[];
}

/** float sums of a book's amounts: above this relative error a book surely cannot take an amount */
const DEPTH_SLACK = 1e-9;

// A lower bound on what receiving `amount` through `edge` costs (≥ amount·n/d − one unit per
// offer); null when all its offers together sell less than `amount`.
function roughCost(amount: number, edge: GraphEdge): number | null {
  if (amount > edge.depth * (1 + DEPTH_SLACK)) return null;
  return Math.max(0, amount * edge.price - edge.book.length);
}

// An upper bound on what sending `amount` through `edge` receives (≤ amount·d/n + one unit per
// offer, ≤ what its offers sell); null when all its offers together take less than `amount`.
function roughGain(amount: number, edge: GraphEdge): number | null {
  if (amount > edge.capacity * (1 + DEPTH_SLACK)) return null;
  return Math.min(amount * edge.inverse + 1 + edge.book.length, edge.depth * (1 + DEPTH_SLACK));
}

interface Candidate extends FoundPath {
  readonly hops: number;
  readonly key: string;
}

/** Keeps the best `limit` candidates under `compare`. */
class TopPaths {
  readonly items: Candidate[] = [];
  constructor(
    private readonly limit: number,
    private readonly compare: (a: Candidate, b: Candidate) => number,
  ) {}

  get full(): boolean {
    return this.items.length >= this.limit;
  }

  last(): Candidate | undefined {
    return this.items[this.items.length - 1];
  }

  offer(candidate: Candidate): void {
    const last = this.last();
    if (this.full && last && this.compare(candidate, last) >= 0) return;
    let at = this.items.length;
    while (at > 0 && this.compare(candidate, this.items[at - 1] as Candidate) < 0) at -= 1;
    this.items.splice(at, 0, candidate);
    if (this.items.length > this.limit) this.items.pop();
  }
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const compareBig = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0);

/** Strict receive order: lower source amount, fewer hops, then source asset and path text. */
export function compareStrictReceive(a: FoundPath, b: FoundPath): number {
  return compareBig(a.sourceAmount, b.sourceAmount) || a.path.length - b.path.length || compareText(pathKey(a), pathKey(b));
}

/** Strict send order: higher destination amount, fewer hops, then destination asset and path text. */
export function compareStrictSend(a: FoundPath, b: FoundPath): number {
  return compareBig(b.destinationAmount, a.destinationAmount) || a.path.length - b.path.length || compareText(pathKey(a), pathKey(b));
}

function pathKey(p: FoundPath): string {
  return [p.source, ...p.path, p.destination].join('\u0000');
}

function candidate(found: FoundPath): Candidate {
  return { ...found, hops: found.path.length + 1, key: pathKey(found) };
}

interface Direction {
  readonly start: string;
  readonly amount: bigint;
  readonly targets: ReadonlySet<string>;
  /** books to cross from an asset, by asset number */
  edges(books: IndexedBooks): readonly (readonly GraphEdge[])[];
  cross(book: readonly GraphOffer[], amount: bigint, maxOffers: number, ignore: string | null): Crossing | null;
  /** the amount after one hop as the best offer's price and the book's depth bound it; null: the book cannot take it */
  rough(amount: number, edge: GraphEdge): number | null;
  rate(edge: GraphEdge): number;
  readonly minimize: boolean;
  /** a path reached a target: `path` holds the assets after the start, the target last */
  found(asset: string, amount: bigint, path: readonly string[]): void;
  /** the value of the current last result, or null while there are fewer than maxResults */
  last(): bigint | null;
}

/**
 * An entry of the search's queue, of one of three kinds. Reached (`edge` and `next` unset): the
 * crossing into `asset` is done and `amount` is what it holds. Pending (`edge` set): that book is
 * still to be crossed from `from`, keyed by the bound from the best offer's price alone, so books
 * are crossed only once nothing more promising is left. Siblings (`next` ≥ 0): the books from the
 * reached `from`, from its `next`-th on (best first), not yet looked at, keyed by the bound of all
 * of them, so a partial path adds its children to the queue one at a time, as they come first.
 */
interface Frontier {
  /** bound on every path through this entry (negated for maximizing), for the heap */
  readonly key: number;
  readonly asset: number;
  /** hops from the start to `asset` */
  readonly hops: number;
  readonly amount: bigint;
  readonly crossed: number;
  /** the reached partial path this one extends (null at the start) */
  readonly from: Frontier | null;
  readonly edge: GraphEdge | null;
  readonly next: number;
}

/** A binary min-heap on `key`. */
class Heap {
  private readonly items: Frontier[] = [];
  get size(): number {
    return this.items.length;
  }
  push(item: Frontier): void {
    const items = this.items;
    items.push(item);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((items[parent] as Frontier).key <= item.key) break;
      items[i] = items[parent] as Frontier;
      i = parent;
    }
    items[i] = item;
  }
  pop(): Frontier | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length === 0 || last === undefined) return top;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= items.length) break;
      const right = left + 1;
      const child = right < items.length && (items[right] as Frontier).key < (items[left] as Frontier).key ? right : left;
      if ((items[child] as Frontier).key >= last.key) break;
      items[i] = items[child] as Frontier;
      i = child;
    }
    items[i] = last;
    return top;
  }
}

/** The search crossed more books than one query may (`MAX_PATH_SEARCH_CROSSINGS`). */
export class PathSearchLimitError extends Error {
  constructor(readonly crossings: number) {
    super(`path search stopped after ${crossings} book crossings`);
    this.name = 'PathSearchLimitError';
  }
}

function visits(node: Frontier | null, asset: number): boolean {
  for (let at = node; at; at = at.from) if (at.asset === asset) return true;
  return false;
}

function assetsAfterStart(node: Frontier, assets: readonly string[]): string[] {
  const path: string[] = [];
  for (let at: Frontier | null = node; at?.from; at = at.from) path.push(assets[at.asset] as string);
  return path.reverse();
}

/**
 * Best-first search: partial paths are taken in the order of the bound on what they can still
 * reach (path_bound.ts), books are crossed only when their partial path comes first, and the
 * search stops once no partial path can beat the last of the results. Every path that could be
 * among the results is therefore completed, as in an exhaustive search.
 */
function search(graph: OrderBookGraph, dir: Direction, maxHops: number, ignore: string | null, maxCrossings: number): void {
  if (dir.targets.has(dir.start)) dir.found(dir.start, dir.amount, [dir.start]);
  const books = graph.indexed();
  const start = books.ids.get(dir.start);
  if (start === undefined) return;
  const targets = new Set<number>();
  for (const t of dir.targets) {
    const id = books.ids.get(t);
    if (id !== undefined) targets.add(id);
  }
  const bound = new PathBound({
    size: books.assets.length,
    start,
    targets,
    hops: maxHops,
    edges: dir.edges(books),
    rate: dir.rate,
    minimize: dir.minimize,
  });
  const heap = new Heap();
  // the children of a reached partial path, as one siblings entry from its `first`-th book on
  const addSiblings = (node: Frontier, first: number): void => {
    const { children, margin } = bound.children(node.asset, maxHops - node.hops - 1);
    const child = children[first];
    if (!child) return;
    // children come best first: this bounds the child and all after it
    const key = Math.max(node.key, bound.optimistic(child.factor, Number(node.amount), margin));
    if (bound.beaten(key, dir.last())) return;
    heap.push({ key, asset: node.asset, hops: node.hops, amount: node.amount, crossed: node.crossed, from: node, edge: null, next: first });
  };
  const root: Frontier = {
    key: bound.key(start, Number(dir.amount), maxHops),
    asset: start,
    hops: 0,
    amount: dir.amount,
    crossed: 0,
    from: null,
    edge: null,
    next: -1,
  };
  addSiblings(root, 0);
  let crossings = 0;
  while (heap.size > 0) {
    const entry = heap.pop() as Frontier;
    // the heap's order: nothing left can beat the results
    if (bound.beaten(entry.key, dir.last())) break;
    const from = entry.from as Frontier;
    if (entry.edge === null) {
      // siblings: queue the next child as pending, and the ones after it as siblings again
      addSiblings(from, entry.next + 1);
      const remaining = maxHops - from.hops - 1;
      const { edge } = bound.children(from.asset, remaining).children[entry.next] as BoundChild;
      if (visits(from, edge.to)) continue;
      const rough = dir.rough(Number(from.amount), edge);
      if (rough === null) continue;
      const key = bound.key(edge.to, rough, remaining);
      if (bound.beaten(key, dir.last())) continue;
      heap.push({ key, asset: edge.to, hops: from.hops + 1, amount: from.amount, crossed: from.crossed, from, edge, next: -1 });
      continue;
    }
    // pending: cross the book
    crossings += 1;
    if (crossings > maxCrossings) throw new PathSearchLimitError(maxCrossings);
    const crossing = dir.cross(entry.edge.book, from.amount, MAX_OFFERS_TO_CROSS - from.crossed, ignore);
    if (!crossing) continue;
    const remaining = maxHops - entry.hops;
    const reached: Frontier = {
      key: bound.key(entry.asset, Number(crossing.amount), remaining),
      asset: entry.asset,
      hops: entry.hops,
      amount: crossing.amount,
      crossed: from.crossed + crossing.offersCrossed,
      from,
      edge: null,
      next: -1,
    };
    if (targets.has(entry.asset)) dir.found(books.assets[entry.asset] as string, crossing.amount, assetsAfterStart(reached, books.assets));
    if (remaining > 0 && !bound.beaten(reached.key, dir.last())) addSiblings(reached, 0);
  }
}

function hopsOf(options: PathSearchOptions): number {
  const hops = options.maxPathLength ?? DEFAULT_MAX_PATH_LENGTH;
  if (!Number.isInteger(hops) || hops < 1 || hops > MAX_PATH_LENGTH) {
    throw new RangeError(`maxPathLength must be a whole number from 1 to ${MAX_PATH_LENGTH}`);
  }
  return hops;
}

export function findStrictReceivePaths(graph: OrderBookGraph, query: StrictReceiveSearch, options: PathSearchOptions = {}): FoundPath[] {
  const top = new TopPaths(options.maxResults ?? DEFAULT_MAX_PATH_RESULTS, compareStrictReceive);
  search(
    graph,
    {
      start: query.destination,
      amount: query.destinationAmount,
      targets: new Set(query.sources),
      edges: (books) => books.selling,
      cross: sendToReceive,
      rough: roughCost,
      // needed(before) ≥ needed(after) · n/d of the best offer selling `after` for `before`
      rate: (edge) => edge.price,
      minimize: true,
      found(asset, amount, path) {
        const balance = query.sourceBalances?.get(asset);
        if (balance !== undefined && amount > balance) return;
        const middle = path.slice(0, -1).reverse();
        top.offer(
          candidate({
            source: asset,
            sourceAmount: amount,
            destination: query.destination,
            destinationAmount: query.destinationAmount,
            path: middle,
          }),
        );
      },
      last: () => (top.full ? (top.last()?.sourceAmount ?? null) : null),
    },
    hopsOf(options),
    options.ignoreSeller ?? null,
    options.maxCrossings ?? MAX_PATH_SEARCH_CROSSINGS,
  );
  return top.items.map(({ hops: _hops, key: _key, ...found }) => found);
}

export function findStrictSendPaths(graph: OrderBookGraph, query: StrictSendSearch, options: PathSearchOptions = {}): FoundPath[] {
  const top = new TopPaths(options.maxResults ?? DEFAULT_MAX_PATH_RESULTS, compareStrictSend);
  search(
    graph,
    {
      start: query.source,
      amount: query.sourceAmount,
      targets: new Set(query.destinations),
      edges: (books) => books.buying,
      cross: receiveForSend,
      rough: roughGain,
      // received(after) ≤ sent(before) · d/n of the best offer selling `after` for `before` (+1 per offer)
      rate: (edge) => edge.inverse,
      minimize: false,
      found(asset, amount, path) {
        top.offer(
          candidate({
            source: query.source,
            sourceAmount: query.sourceAmount,
            destination: asset,
            destinationAmount: amount,
            path: path.slice(0, -1),
          }),
        );
      },
      last: () => (top.full ? (top.last()?.destinationAmount ?? null) : null),
    },
    hopsOf(options),
    options.ignoreSeller ?? null,
    options.maxCrossings ?? MAX_PATH_SEARCH_CROSSINGS,
  );
  return top.items.map(({ hops: _hops, key: _key, ...found }) => found);
}

/** Renders found paths as Horizon's path records. */
export function pathRecords(paths: readonly FoundPath[]): PathRecord[] {
  const assets = new Map<string, AssetValue>();
  const asset = (text: string) => {
    let value = assets.get(text);
    if (!value) assets.set(text, (value = parseCanonicalAsset(text)));
    return value;
  };
  return paths.map((p) => {
    const source = assetRecord(asset(p.source));
    const destination = assetRecord(asset(p.destination));
    return {
      sourceAssetType: source.assetType,
      ...(source.assetCode === undefined ? {} : { sourceAssetCode: source.assetCode, sourceAssetIssuer: source.assetIssuer }),
      sourceAmount: formatAmount(p.sourceAmount),
      destinationAssetType: destination.assetType,
      ...(destination.assetCode === undefined
        ? {}
        : { destinationAssetCode: destination.assetCode, destinationAssetIssuer: destination.assetIssuer }),
      destinationAmount: formatAmount(p.destinationAmount),
      path: p.path.map((a) => assetRecord(asset(a))),
    };
  });
}
