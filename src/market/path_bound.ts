// The optimistic bound of the path search (paths.ts): for each asset and number of hops left, what
// any path from there could still reach, from the books' best prices and depths. A branch whose
// bound is strictly worse than the current last result cannot enter the results, so cutting it
// keeps the search exact. The tables are computed once per query (they depend on its start and
// targets) in O(hops × books), and the books to try from an asset are sorted once per
// (asset, hops left).
import type { GraphEdge } from './order_book_graph.js';

/** relative float error allowed for: the bound is widened by it, so rounding never cuts a path */
const SAFE = 1e-12;

export interface BoundQuery {
  /** number of assets (edges' `to` are below it) */
  readonly size: number;
  /** where every path begins (no walk may come back to it); -1 when it has no books */
  readonly start: number;
  readonly targets: ReadonlySet<number>;
  /** most hops of a path */
  readonly hops: number;
  /** the books to cross from an asset */
  readonly edges: readonly (readonly GraphEdge[])[];
  /** the rate of a hop as its best offer gives it: cost per unit received (minimizing) or gain per unit sent */
  rate(edge: GraphEdge): number;
  /** strict receive minimizes the source amount; strict send maximizes the destination amount */
  readonly minimize: boolean;
}

/** A book to cross from an asset, with the bound factor of walks through it. */
export interface BoundChild {
  readonly edge: GraphEdge;
  /** rate of the hop × factor of the asset reached */
  readonly factor: number;
}

/**
 * With r(x,y) the best offer's rate of the hop x→y and k(x,y) its number of offers:
 *   factor_h(x) = best(factor_{h-1}(x), best over y of r(x,y)·factor_{h-1}(y)), best = min for costs,
 *   slack_h(x)  = max(slack_{h-1}(x), max over y of (k(x,y) + extra + slack_{h-1}(y)) / r(x,y)).
 * A hop gives back less than one unit per crossed offer (stellar-core's rounding of fully taken
 * offers), so along any walk w: cost ≥ product_w·(amount − slack) when minimizing, and
 * gain ≤ product_w·(amount + slack) when maximizing; the same holds for the extremes over walks,
 * and every simple path is a walk. When maximizing, a hop also delivers at most its book's depth
 * d(x,y) (what all its offers sell):
 *   reach_h(x) = max(reach_{h-1}(x), max over y of min(factor_{h-1}(y)·(d(x,y) + slack_{h-1}(y)), reach_{h-1}(y))).
 */
export class PathBound {
  private readonly factor: Float64Array[];
  private readonly slack: Float64Array[];
  private readonly reach: Float64Array[] | null;
  private readonly orders = new Map<number, { children: BoundChild[]; margin: number }>();

  constructor(private readonly query: BoundQuery) {
    const { size, start, targets, hops, edges, minimize } = query;
    const none = minimize ? Infinity : -Infinity;
    const extra = minimize ? 0 : 1;
    const f0 = new Float64Array(size).fill(none);
    for (const t of targets) if (t !== start) f0[t] = 1;
    this.factor = [f0];
    this.slack = [new Float64Array(size)];
    this.reach = minimize ? null : [f0.map((f) => (f === 1 ? Infinity : -Infinity))];
    for (let h = 1; h <= hops; h += 1) {
      const fPrev = this.factor[h - 1] as Float64Array;
      const sPrev = this.slack[h - 1] as Float64Array;
      const rPrev = this.reach?.[h - 1];
      const f = Float64Array.from(fPrev);
      const s = Float64Array.from(sPrev);
      const m = rPrev ? Float64Array.from(rPrev) : null;
      for (let i = 0; i < size; i += 1) {
        for (const edge of edges[i] ?? []) {
          const j = edge.to;
          const fj = fPrev[j] as number;
          if (j === start || !Number.isFinite(fj)) continue;
          const q = query.rate(edge);
          const through = q * fj;
          f[i] = minimize ? Math.min(f[i] as number, through) : Math.max(f[i] as number, through);
          s[i] = Math.max(s[i] as number, (edge.book.length + extra + (sPrev[j] as number)) / q);
          if (m && rPrev) m[i] = Math.max(m[i] as number, Math.min(fj * (edge.depth + (sPrev[j] as number)), rPrev[j] as number));
        }
      }
      this.factor.push(f);
      this.slack.push(s);
      if (m) this.reach?.push(m);
    }
  }

  /**
   * The bound on every path from `asset` holding `amount` with `remaining` hops left, as a heap key
   * (smaller is more promising: the cost when minimizing, the negated gain when maximizing);
   * +Infinity when no target is reachable.
   */
  key(asset: number, amount: number, remaining: number): number {
    const factor = this.factor[remaining]?.[asset];
    if (factor === undefined || !Number.isFinite(factor)) return Infinity;
    const slack = this.slack[remaining]?.[asset] ?? 0;
    const key = this.optimistic(factor, amount, slack);
    if (!this.reach) return key;
    // maximizing: no more than the books' depth lets through
    const reach = this.reach[remaining]?.[asset] ?? -Infinity;
    return Math.max(key, -(reach * (1 + SAFE) + 1));
  }

  /** factor·(amount ∓ slack), rounded outwards, as a heap key */
  optimistic(factor: number, amount: number, slack: number): number {
    if (this.query.minimize) return amount > slack ? factor * (amount - slack) * (1 - SAFE) - 1 : -Infinity;
    return -(factor * (amount + slack) * (1 + SAFE) + 1);
  }

  /** whether a heap key cannot beat `last` (the value of the current last result) */
  beaten(key: number, last: bigint | null): boolean {
    if (key === Infinity) return true;
    if (last === null) return false;
    return this.query.minimize ? key > Number(last) * (1 + SAFE) : -key < Number(last) * (1 - SAFE);
  }

  /**
   * The books to cross from `asset` with `remaining` hops left after the crossing, most promising
   * first (rate × the factor of the asset reached), and a margin covering every rounding term of
   * any of them: `optimistic(child.factor, amount, margin)` bounds that child and all after it.
   */
  children(asset: number, remaining: number): { children: BoundChild[]; margin: number } {
    const id = remaining * this.query.size + asset;
    let order = this.orders.get(id);
    if (order) return order;
    const children: BoundChild[] = [];
    let margin = 0;
    const factors = this.factor[remaining] as Float64Array;
    const slacks = this.slack[remaining] as Float64Array;
    for (const edge of this.query.edges[asset] ?? []) {
      const m = factors[edge.to] as number;
      if (edge.to === this.query.start || !Number.isFinite(m)) continue;
      const q = this.query.rate(edge);
      children.push({ edge, factor: q * m });
      // what rounding can change before and after this hop, in units of `asset`
      margin = Math.max(margin, (edge.book.length + 2 + (slacks[edge.to] as number)) / q);
    }
    const minimize = this.query.minimize;
    children.sort((a, b) => (minimize ? a.factor - b.factor : b.factor - a.factor));
    order = { children, margin: margin * (1 + SAFE) };
    this.orders.set(id, order);
    return order;
  }
}
