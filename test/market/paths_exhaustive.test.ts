// Property: the pruned path search returns exactly what an exhaustive search returns (the same
// paths, amounts and order), on random small books, both directions, every path length 1-5, with
// ties, overflowing prices, ignored sellers and balances; and its bound never cuts a real path.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  OrderBookGraph,
  PathBound,
  PathSearchLimitError,
  findStrictReceivePaths,
  findStrictSendPaths,
  type GraphOffer,
} from '../../src/market/index.js';
import { ExhaustiveBooks, exhaustiveStrictReceive, exhaustiveStrictSend } from '../support/exhaustive_paths.js';
import { SELLERS, assetNames } from './support/books.js';

const RUNS = 2000;

const priceTerm = fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1, max: 20 }) }, fc.integer({ min: 1, max: 2 ** 31 - 1 }));
const amount = fc.oneof(fc.bigInt(1n, 100n), fc.bigInt(1n, 10_000_000n), fc.bigInt(1n, 10n ** 11n), fc.bigInt(1n, 2n ** 62n));

const offer = fc.record({ selling: fc.nat(5), buying: fc.nat(5), seller: fc.nat(1), amount, n: priceTerm, d: priceTerm });

const market = fc
  .record({ assets: fc.integer({ min: 2, max: 6 }), offers: fc.array(offer, { maxLength: 40 }) })
  .map(({ assets: count, offers }) => {
    const assets = assetNames(count);
    const book: GraphOffer[] = [];
    offers.forEach((o, i) => {
      const selling = assets[o.selling % count] as string;
      const buying = assets[o.buying % count] as string;
      if (selling === buying) return;
      book.push({ id: BigInt(i + 1), seller: SELLERS[o.seller] as string, selling, buying, amount: o.amount, price: { n: o.n, d: o.d } });
    });
    return { assets, offers: book };
  });

/**
 * The searched graph, the exhaustive search's own books and the query's assets, built in the
 * property so that a counterexample prints only offers and numbers.
 */
function built(m: { assets: readonly string[]; offers: readonly GraphOffer[] }, q: { start: number; targets: readonly number[] }) {
  const graph = new OrderBookGraph();
  graph.apply({ upserted: m.offers });
  const asset = (i: number) => m.assets[i % m.assets.length] as string;
  return { graph, books: new ExhaustiveBooks(m.offers), start: asset(q.start), targets: q.targets.map(asset) };
}

const query = fc.record({
  start: fc.nat(5),
  targets: fc.array(fc.nat(5), { minLength: 1, maxLength: 6 }),
  amount,
  maxPathLength: fc.integer({ min: 1, max: 5 }),
  maxResults: fc.constantFrom(1, 3, 20),
  ignore: fc.boolean(),
  balances: fc.option(fc.array(fc.bigInt(1n, 10n ** 12n), { minLength: 6, maxLength: 6 })),
});

describe('path search equals an exhaustive search', () => {
  it('strict receive', () => {
    fc.assert(
      fc.property(market, query, (m, q) => {
        const { graph, books, start: destination, targets: sources } = built(m, q);
        const balances = q.balances ? new Map(sources.map((s, i) => [s, q.balances?.[i] as bigint])) : undefined;
        const ignoreSeller = q.ignore ? (SELLERS[0] as string) : null;
        const expected = exhaustiveStrictReceive(books, {
          sources,
          destination,
          amount: q.amount,
          maxPathLength: q.maxPathLength,
          ignoreSeller,
          ...(balances ? { balances } : {}),
        }).slice(0, q.maxResults);
        const actual = findStrictReceivePaths(
          graph,
          { destination, destinationAmount: q.amount, sources, ...(balances ? { sourceBalances: balances } : {}) },
          { maxPathLength: q.maxPathLength, maxResults: q.maxResults, ignoreSeller },
        );
        expect(actual).toEqual(expected);
      }),
      { numRuns: RUNS },
    );
  });

  it('strict send', () => {
    fc.assert(
      fc.property(market, query, (m, q) => {
        const { graph, books, start: source, targets: destinations } = built(m, q);
        const expected = exhaustiveStrictSend(books, { source, amount: q.amount, destinations, maxPathLength: q.maxPathLength }).slice(
          0,
          q.maxResults,
        );
        const actual = findStrictSendPaths(
          graph,
          { source, sourceAmount: q.amount, destinations },
          { maxPathLength: q.maxPathLength, maxResults: q.maxResults },
        );
        expect(actual).toEqual(expected);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('the bound of the path search', () => {
  it('is never worse than a path that exists (strict send: gains, strict receive: costs)', () => {
    fc.assert(
      fc.property(market, query, (m, q) => {
        const { graph, books, start, targets } = built(m, q);
        const indexed = graph.indexed();
        const startId = indexed.ids.get(start);
        if (startId === undefined) return;
        const targetIds = new Set(targets.flatMap((t) => indexed.ids.get(t) ?? []));
        const common = { size: indexed.assets.length, start: startId, targets: targetIds, hops: q.maxPathLength };
        const send = new PathBound({ ...common, edges: indexed.buying, rate: (e) => e.inverse, minimize: false });
        const receive = new PathBound({ ...common, edges: indexed.selling, rate: (e) => e.price, minimize: true });
        const paths = (sendSide: boolean) =>
          sendSide
            ? exhaustiveStrictSend(books, { source: start, amount: q.amount, destinations: targets, maxPathLength: q.maxPathLength })
            : exhaustiveStrictReceive(books, { sources: targets, destination: start, amount: q.amount, maxPathLength: q.maxPathLength });
        for (const p of paths(true).filter((p) => p.path.length > 0 || p.source !== p.destination)) {
          expect(-send.key(startId, Number(q.amount), q.maxPathLength)).toBeGreaterThanOrEqual(Number(p.destinationAmount));
        }
        for (const p of paths(false).filter((p) => p.path.length > 0 || p.source !== p.destination)) {
          expect(receive.key(startId, Number(q.amount), q.maxPathLength)).toBeLessThanOrEqual(Number(p.sourceAmount));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('follows the best price and the rounding slack of one book', () => {
    const [xlm, usd] = assetNames(2) as [string, string];
    const graph = new OrderBookGraph();
    // sells 2 USD per XLM: 100 XLM get at most 2 · (100 + (1 offer + 1) / 2) = 202 USD, plus the unit rounded outwards
    graph.apply({
      upserted: [{ id: 1n, seller: SELLERS[0] as string, selling: usd, buying: xlm, amount: 10n ** 9n, price: { n: 1, d: 2 } }],
    });
    const books = graph.indexed();
    const x = books.ids.get(xlm) as number;
    const u = books.ids.get(usd) as number;
    const bound = new PathBound({
      size: 2,
      start: x,
      targets: new Set([u]),
      hops: 3,
      edges: books.buying,
      rate: (e) => e.inverse,
      minimize: false,
    });
    expect(-bound.key(x, 100, 1)).toBeCloseTo(203, 6);
    // more hops left cannot make it worse; no hop left reaches nothing from XLM
    expect(bound.key(x, 100, 3)).toBeLessThanOrEqual(bound.key(x, 100, 1));
    expect(bound.key(x, 100, 0)).toBe(Infinity);
    expect(bound.beaten(bound.key(x, 100, 1), 203n)).toBe(false);
    expect(bound.beaten(bound.key(x, 100, 1), 204n)).toBe(true);
    expect(bound.children(x, 0).children.map((c) => c.edge.to)).toEqual([u]);
  });
});

describe('the work budget of a query', () => {
  it('stops a search over its crossings with PathSearchLimitError', () => {
    const assets = assetNames(6);
    const offers: GraphOffer[] = [];
    let id = 0n;
    for (const selling of assets)
      for (const buying of assets)
        if (selling !== buying)
          offers.push({ id: (id += 1n), seller: SELLERS[0] as string, selling, buying, amount: 10n ** 9n, price: { n: 1, d: 1 } });
    const graph = new OrderBookGraph();
    graph.apply({ upserted: offers });
    const search = (maxCrossings: number) =>
      findStrictSendPaths(
        graph,
        { source: assets[0] as string, sourceAmount: 1000n, destinations: [assets[1] as string] },
        { maxPathLength: 5, maxCrossings },
      );
    expect(() => search(3)).toThrow(PathSearchLimitError);
    expect(search(100_000).length).toBeGreaterThan(0);
  });
});
