// Property: path search equals an exhaustive search (test/support/exhaustive_paths.ts) on seeded
// random books, both directions (paths_exhaustive.test.ts draws thousands more with fast-check).
import { describe, expect, it } from 'vitest';
import { OrderBookGraph, findStrictReceivePaths, findStrictSendPaths, pathRecords } from '../../src/market/index.js';
import { ExhaustiveBooks, exhaustiveStrictReceive, exhaustiveStrictSend } from '../support/exhaustive_paths.js';
import { seededRandom } from './support/random.js';
import { SELLERS, assetNames, randomBook } from './support/books.js';

describe('path search equals exhaustive search on random books', () => {
  it('strict receive', () => {
    for (let seed = 1; seed <= 150; seed += 1) {
      const random = seededRandom(seed);
      const assets = assetNames(random.int(3, 7));
      const offers = randomBook(random, {
        assets,
        offers: random.int(5, 60),
        maxPrice: 20,
        minAmount: 1n,
        maxAmount: random.pick([100n, 10_000_000n, 10n ** 11n]),
      });
      const graph = new OrderBookGraph();
      graph.apply({ upserted: offers });
      const destination = random.pick(assets);
      const sources = assets.filter(() => random.chance(0.5));
      const amount = random.bigint(1n, random.pick([50n, 10_000_000n, 10n ** 10n]));
      const maxIntermediate = random.int(0, 4);
      const maxResults = random.pick([1, 3, 20]);
      const ignore = random.chance(0.2) ? (SELLERS[0] as string) : null;
      const balances = random.chance(0.3) ? new Map(sources.map((s) => [s, random.bigint(1n, 10n ** 10n)])) : undefined;
      const expected = exhaustiveStrictReceive(new ExhaustiveBooks(offers), {
        sources,
        destination,
        amount,
        maxPathLength: maxIntermediate + 1,
        ignoreSeller: ignore,
        ...(balances ? { balances } : {}),
      }).slice(0, maxResults);
      const actual = findStrictReceivePaths(
        graph,
        { destination, destinationAmount: amount, sources, ...(balances ? { sourceBalances: balances } : {}) },
        { maxPathLength: maxIntermediate + 1, maxResults, ignoreSeller: ignore },
      );
      expect(actual, `seed ${seed}`).toEqual(expected);
    }
  });

  it('strict send', () => {
    for (let seed = 1; seed <= 150; seed += 1) {
      const random = seededRandom(1000 + seed);
      const assets = assetNames(random.int(3, 7));
      const offers = randomBook(random, {
        assets,
        offers: random.int(5, 60),
        maxPrice: 20,
        minAmount: 1n,
        maxAmount: random.pick([100n, 10_000_000n, 10n ** 11n]),
      });
      const graph = new OrderBookGraph();
      graph.apply({ upserted: offers });
      const source = random.pick(assets);
      const destinations = assets.filter(() => random.chance(0.5));
      const amount = random.bigint(1n, random.pick([50n, 10_000_000n, 10n ** 10n]));
      const maxIntermediate = random.int(0, 4);
      const maxResults = random.pick([1, 3, 20]);
      const expected = exhaustiveStrictSend(new ExhaustiveBooks(offers), {
        source,
        amount,
        destinations,
        maxPathLength: maxIntermediate + 1,
      }).slice(0, maxResults);
      const actual = findStrictSendPaths(
        graph,
        { source, sourceAmount: amount, destinations },
        { maxPathLength: maxIntermediate + 1, maxResults },
      );
      expect(actual, `seed ${seed}`).toEqual(expected);
    }
  });

  it('finds nothing when no book connects the assets', () => {
    const [xlm, a, b] = assetNames(3) as [string, string, string];
    const graph = new OrderBookGraph();
    graph.apply({ upserted: [{ id: 1n, seller: SELLERS[0] as string, selling: a, buying: xlm, amount: 100n, price: { n: 1, d: 1 } }] });
    expect(findStrictReceivePaths(graph, { destination: b, destinationAmount: 1n, sources: [xlm] })).toEqual([]);
    expect(findStrictReceivePaths(graph, { destination: a, destinationAmount: 101n, sources: [xlm] })).toEqual([]);
    expect(findStrictSendPaths(graph, { source: xlm, sourceAmount: 1n, destinations: [b] })).toEqual([]);
  });

  it('renders Horizon path records', () => {
    const [xlm, a, b] = assetNames(3) as [string, string, string];
    const graph = new OrderBookGraph();
    graph.apply({
      upserted: [
        { id: 1n, seller: SELLERS[0] as string, selling: a, buying: xlm, amount: 1000_0000000n, price: { n: 2, d: 1 } },
        { id: 2n, seller: SELLERS[0] as string, selling: b, buying: a, amount: 1000_0000000n, price: { n: 1, d: 4 } },
      ],
    });
    const found = findStrictReceivePaths(graph, { destination: b, destinationAmount: 10_0000000n, sources: [xlm] });
    const [record] = pathRecords(found);
    expect(record).toEqual({
      sourceAssetType: 'native',
      sourceAmount: '5.0000000',
      destinationAssetType: 'credit_alphanum4',
      destinationAssetCode: 'A001',
      destinationAssetIssuer: b.split(':')[1],
      destinationAmount: '10.0000000',
      path: [{ assetType: 'credit_alphanum4', assetCode: 'A000', assetIssuer: a.split(':')[1] }],
    });
  });
});
