// Payment path search over the in-memory order book graph.
//
// Strict receive walks backwards from the destination asset: the amount of the asset before each
// hop is what crossing that hop's book costs to receive the amount after it (stellar-core's
// exchange math, strict-receive rounding). Strict send walks forwards from the source amount.
// Every simple path (no asset twice) with at most `maxIntermediate` intermediate assets is a
// candidate; the result is the best `maxResults` by cost (strict receive: lowest source amount;
// strict send: highest destination amount), then fewer hops, then asset text, so it is exactly
// what an exhaustive search returns. To avoid enumerating every path of a dense book, a branch is
// cut when a bound on what it could still reach (best prices along any walk to a target, minus the
// at most one unit per crossed offer that stellar-core's rounding can give back) is strictly worse
// than the current last result.
import {
  assetRecord,
  formatAmount,
  MAX_OFFERS_TO_CROSS,
  parseCanonicalAsset,
  type AssetRecord,
  type AssetValue,
} from '../stellar/index.js';
import type { GraphOffer, OrderBookGraph } from './order_book_graph.js';
import { receiveForSend, sendToReceive } from './path_exchange.js';

export const DEFAULT_MAX_INTERMEDIATE = 4;
export const DEFAULT_MAX_PATH_RESULTS = 20;

export interface PathSearchOptions {
  /** most intermediate assets in a path (default 4) */
  readonly maxIntermediate?: number;
  /** most paths returned (default 20) */
  readonly maxResults?: number;
  /** offers of this account are skipped (a payment cannot cross its own source's offers) */
  readonly ignoreSeller?: string | null;
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

interface Bound {
  /** best product of best-offer rates over walks of at most r hops to a target; ±Infinity when none */
  readonly factor: Float64Array[];
  /** largest rounding give-back over those walks, in units of the asset itself */
  readonly slack: Float64Array[];
  /**
   * Maximizing only: the most a walk of at most r hops from the asset can deliver to a target
   * whatever the amount, as the books' depth allows (+Infinity at a target: stopping there keeps
   * the amount in hand). A large amount through thin books is bounded by this, not by the rates.
   */
  readonly reach: Float64Array[] | null;
}

const SAFE = 1e-12;

function at(rows: readonly Float64Array[], remaining: number, i: number | undefined, none: number): number {
  if (i === undefined) return none;
  return rows[remaining]?.[i] ?? none;
}

/**
 * With rate r(x,y) the best offer's rate of the hop x→y and k(x,y) its number of offers:
 *   factor_r(x) = best(factor_{r-1}(x), best over y of r(x,y)·factor_{r-1}(y)), best = min for costs,
 *   slack_r(x)  = max(slack_{r-1}(x), max over y of (k(x,y) + extra + slack_{r-1}(y)) / r(x,y)).
 * A hop gives back less than one unit per crossed offer (stellar-core's rounding of fully taken
 * offers), so along any walk w: cost ≥ product_w·(amount − slack) when minimizing, and
 * gain ≤ product_w·(amount + slack) when maximizing; the same holds for the extremes over walks.
 * When maximizing, a hop also delivers at most its book's depth d(x,y) (what all its offers sell):
 *   reach_r(x) = max(reach_{r-1}(x), max over y of min(factor_{r-1}(y)·(d(x,y) + slack_{r-1}(y)), reach_{r-1}(y))).
 */
function bounds(
  assets: readonly string[],
  start: string,
  targets: ReadonlySet<string>,
  hops: number,
  edges: (asset: string) => Iterable<[string, readonly GraphOffer[]]>,
  rate: (best: GraphOffer) => number,
  minimize: boolean,
): { index: Map<string, number>; bound: Bound } {
  const index = new Map(assets.map((a, i) => [a, i]));
  const size = assets.length;
  const none = minimize ? Infinity : -Infinity;
  const extra = minimize ? 0 : 1;
  const f0 = new Float64Array(size).fill(none);
  // every path begins at `start`, so no walk may come back to it
  for (const [asset, i] of index) if (targets.has(asset) && asset !== start) f0[i] = 1;
  const factor: Float64Array[] = [f0];
  const slack: Float64Array[] = [new Float64Array(size)];
  const reach: Float64Array[] | null = minimize ? null : [f0.map((f) => (f === 1 ? Infinity : -Infinity))];
  for (let r = 1; r <= hops; r += 1) {
    const fPrev = factor[r - 1] as Float64Array;
    const sPrev = slack[r - 1] as Float64Array;
    const f = Float64Array.from(fPrev);
    const s = Float64Array.from(sPrev);
    const rPrev = reach?.[r - 1];
    const m = rPrev ? Float64Array.from(rPrev) : null;
    for (const [asset, i] of index) {
      for (const [next, book] of edges(asset)) {
        const j = index.get(next);
        const best = book[0];
        if (next === start || j === undefined || best === undefined || !Number.isFinite(fPrev[j] as number)) continue;
        const q = rate(best);
        const through = q * (fPrev[j] as number);
        f[i] = minimize ? Math.min(f[i] as number, through) : Math.max(f[i] as number, through);
        s[i] = Math.max(s[i] as number, (book.length + extra + (sPrev[j] as number)) / q);
        if (m && rPrev) {
          const depth = book.reduce((sum, offer) => sum + Number(offer.amount), 0);
          const delivered = Math.min((fPrev[j] as number) * (depth + (sPrev[j] as number)), rPrev[j] as number);
          m[i] = Math.max(m[i] as number, delivered);
        }
      }
    }
    factor.push(f);
    slack.push(s);
    if (m) reach?.push(m);
  }
  return { index, bound: { factor, slack, reach } };
}

// A lower bound on what receiving `amount` through `book` costs (≥ amount·n/d − one unit per offer).
function roughCost(amount: bigint, best: GraphOffer, offers: number): bigint {
  const cost = (amount * BigInt(best.price.n)) / BigInt(best.price.d) - BigInt(offers);
  return cost > 0n ? cost : 0n;
}

// An upper bound on what sending `amount` through `book` receives (≤ amount·d/n + one unit per offer).
function roughGain(amount: bigint, best: GraphOffer, offers: number): bigint {
  return (amount * BigInt(best.price.d)) / BigInt(best.price.n) + 1n + BigInt(offers);
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
  /** books to cross from an asset, by the asset reached */
  edges(asset: string): ReadonlyMap<string, readonly GraphOffer[]>;
  cross(
    book: readonly GraphOffer[],
    amount: bigint,
    maxOffers: number,
    ignore: string | null,
  ): { amount: bigint; offersCrossed: number } | null;
  /** the amount after one hop as the best offer's price alone bounds it */
  rough(amount: bigint, best: GraphOffer, offers: number): bigint;
  rate(best: GraphOffer): number;
  readonly minimize: boolean;
  /** a path reached a target: `path` holds the assets after the start, the target last */
  found(asset: string, amount: bigint, path: readonly string[]): void;
  /** the value of the current last result, or null while there are fewer than maxResults */
  last(): bigint | null;
}

interface Frontier {
  /** bound on every path through this partial path (negated for maximizing), for the heap */
  readonly key: number;
  readonly asset: string;
  readonly amount: bigint;
  readonly crossed: number;
  readonly path: readonly string[];
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

/**
 * Best-first search: partial paths are expanded in the order of the bound on what they can still
 * reach, and the search stops once no partial path can beat the last of the results. Every path
 * that could be among the results is therefore completed, as in an exhaustive search.
 */
function search(graph: OrderBookGraph, dir: Direction, maxHops: number, ignore: string | null): void {
  // the bound as a heap key (smaller is more promising): factor·(amount ∓ slack), rounded outwards
  const optimistic = (factor: number, amount: number, slack: number): number => {
    if (dir.minimize) return amount > slack ? factor * (amount - slack) * (1 - SAFE) - 1 : -Infinity;
    return -(factor * (amount + slack) * (1 + SAFE) + 1);
  };
  const assets = [...new Set([...graph.assets(), dir.start, ...dir.targets])];
  const { index, bound } = bounds(assets, dir.start, dir.targets, maxHops, (a) => dir.edges(a), dir.rate, dir.minimize);
  // the bound as a heap key (smaller is more promising), or null when no target is reachable
  const keyOf = (asset: string, amount: bigint, remaining: number): number | null => {
    const i = index.get(asset);
    const factor = at(bound.factor, remaining, i, dir.minimize ? Infinity : -Infinity);
    if (!Number.isFinite(factor)) return null;
    const key = optimistic(factor, Number(amount), at(bound.slack, remaining, i, 0));
    // maximizing: no more than the books' depth lets through (keys are negated gains)
    const reach = bound.reach ? at(bound.reach, remaining, i, -Infinity) : Infinity;
    return Math.max(key, -(reach * (1 + SAFE) + 1));
  };
  const beaten = (key: number): boolean => {
    const last = dir.last();
    if (last === null) return false;
    return dir.minimize ? key > Number(last) * (1 + SAFE) : -key < Number(last) * (1 - SAFE);
  };
  // Per (asset, remaining hops): the books to cross, most promising first by best rate × bound
  // factor, and a margin covering every rounding term of any of them, so a scan can stop at the
  // first child whose most optimistic bound is beaten.
  const orders = new Map<string, { children: { next: string; book: readonly GraphOffer[]; factor: number }[]; margin: number }>();
  const childrenOf = (asset: string, remaining: number) => {
    const id = `${remaining}\u0000${asset}`;
    let order = orders.get(id);
    if (!order) {
      const children: { next: string; book: readonly GraphOffer[]; factor: number }[] = [];
      let margin = 0;
      for (const [next, book] of dir.edges(asset)) {
        const best = book[0];
        const m = at(bound.factor, remaining, index.get(next), NaN);
        if (best === undefined || !Number.isFinite(m)) continue;
        const q = dir.rate(best);
        children.push({ next, book, factor: q * m });
        // what rounding can change before and after this hop, in units of `asset`
        margin = Math.max(margin, (book.length + 2 + at(bound.slack, remaining, index.get(next), 0)) / q);
      }
      children.sort((a, b) => (dir.minimize ? a.factor - b.factor : b.factor - a.factor));
      orders.set(id, (order = { children, margin: margin * (1 + SAFE) }));
    }
    return order;
  };
  const heap = new Heap();
  if (dir.targets.has(dir.start)) dir.found(dir.start, dir.amount, [dir.start]);
  const first = keyOf(dir.start, dir.amount, maxHops);
  if (first !== null) heap.push({ key: first, asset: dir.start, amount: dir.amount, crossed: 0, path: [] });
  while (heap.size > 0) {
    const node = heap.pop() as Frontier;
    if (beaten(node.key)) break;
    const remaining = maxHops - node.path.length - 1;
    if (remaining < 0) continue;
    const { children, margin } = childrenOf(node.asset, remaining);
    const amount = Number(node.amount);
    for (const { next, book, factor } of children) {
      // children come best first: once the most optimistic bound is beaten, so are the rest
      const bestCase = optimistic(factor, amount, margin);
      if (beaten(bestCase)) break;
      if (next === dir.start || node.path.includes(next)) continue;
      const best = book[0] as GraphOffer;
      const rough = keyOf(next, dir.rough(node.amount, best, book.length), remaining);
      if (rough === null || beaten(rough)) continue;
      const crossing = dir.cross(book, node.amount, MAX_OFFERS_TO_CROSS - node.crossed, ignore);
      if (!crossing) continue;
      const path = [...node.path, next];
      if (dir.targets.has(next)) dir.found(next, crossing.amount, path);
      const key = keyOf(next, crossing.amount, remaining);
      if (key === null || beaten(key)) continue;
      heap.push({ key, asset: next, amount: crossing.amount, crossed: node.crossed + crossing.offersCrossed, path });
    }
  }
}

export function findStrictReceivePaths(graph: OrderBookGraph, query: StrictReceiveSearch, options: PathSearchOptions = {}): FoundPath[] {
  const top = new TopPaths(options.maxResults ?? DEFAULT_MAX_PATH_RESULTS, compareStrictReceive);
  search(
    graph,
    {
      start: query.destination,
      amount: query.destinationAmount,
      targets: new Set(query.sources),
      edges: (asset) => graph.booksSelling(asset),
      cross: sendToReceive,
      rough: roughCost,
      // needed(before) ≥ needed(after) · n/d of the best offer selling `after` for `before`
      rate: (best) => best.price.n / best.price.d,
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
    (options.maxIntermediate ?? DEFAULT_MAX_INTERMEDIATE) + 1,
    options.ignoreSeller ?? null,
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
      edges: (asset) => graph.booksBuying(asset),
      cross: receiveForSend,
      rough: roughGain,
      // received(after) ≤ sent(before) · d/n of the best offer selling `after` for `before` (+1 per offer)
      rate: (best) => best.price.d / best.price.n,
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
    (options.maxIntermediate ?? DEFAULT_MAX_INTERMEDIATE) + 1,
    options.ignoreSeller ?? null,
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
