// Property: path search equals an exhaustive search (every sequence of distinct assets, crossed
// with stellar-core's exchange math by a separate loop) on random books, both directions.
import { describe, expect, it } from 'vitest';
import { INT64_MAX, exchangeV10 } from '../../src/stellar/index.js';
import {
  OrderBookGraph,
  findStrictReceivePaths,
  findStrictSendPaths,
  pathRecords,
  type FoundPath,
  type GraphOffer,
} from '../../src/market/index.js';
import { seededRandom } from './support/random.js';
import { SELLERS, assetNames, randomBook } from './support/books.js';

function bookOf(offers: readonly GraphOffer[], selling: string, buying: string, ignore: string | null): GraphOffer[] {
  return offers
    .filter((o) => o.selling === selling && o.buying === buying && o.seller !== ignore)
    .sort((a, b) => {
      const x = BigInt(a.price.n) * BigInt(b.price.d) - BigInt(b.price.n) * BigInt(a.price.d);
      return x < 0n ? -1 : x > 0n ? 1 : Number(a.id - b.id);
    });
}

// returns [amount, offers used] or null
function crossReceive(book: GraphOffer[], want: bigint, budget: number): [bigint, number] | null {
  let sent = 0n;
  let used = 0;
  for (const o of book) {
    if (want === 0n) break;
    if (used === budget) return null;
    let ex: ReturnType<typeof exchangeV10>;
    try {
      ex = exchangeV10(o.price, o.amount, want, INT64_MAX, INT64_MAX, 'strictReceive');
    } catch {
      return null;
    }
    used += 1;
    sent += ex.sheepSend;
    want -= ex.wheatReceive;
    if (want > 0n && ex.wheatStays) return null;
  }
  return want === 0n && sent > 0n && sent <= INT64_MAX ? [sent, used] : null;
}

function crossSend(book: GraphOffer[], give: bigint, budget: number): [bigint, number] | null {
  let got = 0n;
  let used = 0;
  for (const o of book) {
    if (give === 0n) break;
    if (used === budget) return null;
    let ex: ReturnType<typeof exchangeV10>;
    try {
      ex = exchangeV10(o.price, o.amount, INT64_MAX, give, INT64_MAX, 'strictSend');
    } catch {
      return null;
    }
    used += 1;
    got += ex.wheatReceive;
    give -= ex.sheepSend;
    if (give > 0n && ex.wheatStays) return null;
  }
  return give === 0n && got > 0n && got <= INT64_MAX ? [got, used] : null;
}

function* sequences(pool: readonly string[], maxLength: number, prefix: string[] = []): Generator<string[]> {
  yield prefix;
  if (prefix.length === maxLength) return;
  for (const asset of pool) if (!prefix.includes(asset)) yield* sequences(pool, maxLength, [...prefix, asset]);
}

const key = (p: FoundPath) => [p.source, ...p.path, p.destination].join('\u0000');
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function bruteReceive(
  offers: GraphOffer[],
  assets: string[],
  sources: string[],
  destination: string,
  amount: bigint,
  maxIntermediate: number,
  ignore: string | null,
  balances?: Map<string, bigint>,
) {
  const found: FoundPath[] = [];
  for (const source of sources) {
    const balance = balances?.get(source);
    if (source === destination) {
      if (balance === undefined || amount <= balance)
        found.push({ source, sourceAmount: amount, destination, destinationAmount: amount, path: [] });
      continue;
    }
    const pool = assets.filter((a) => a !== source && a !== destination);
    for (const middle of sequences(pool, maxIntermediate)) {
      const chain = [source, ...middle, destination];
      let need: bigint | null = amount;
      let budget = 1000;
      for (let i = chain.length - 1; i > 0 && need !== null; i -= 1) {
        const r = crossReceive(bookOf(offers, chain[i] as string, chain[i - 1] as string, ignore), need, budget);
        need = r ? r[0] : null;
        budget -= r ? r[1] : 0;
      }
      if (need === null) continue;
      if (balance !== undefined && need > balance) continue;
      found.push({ source, sourceAmount: need, destination, destinationAmount: amount, path: middle });
    }
  }
  return found.sort((a, b) =>
    a.sourceAmount < b.sourceAmount ? -1 : a.sourceAmount > b.sourceAmount ? 1 : a.path.length - b.path.length || byText(key(a), key(b)),
  );
}

function bruteSend(
  offers: GraphOffer[],
  assets: string[],
  source: string,
  amount: bigint,
  destinations: string[],
  maxIntermediate: number,
) {
  const found: FoundPath[] = [];
  for (const destination of destinations) {
    if (source === destination) {
      found.push({ source, sourceAmount: amount, destination, destinationAmount: amount, path: [] });
      continue;
    }
    const pool = assets.filter((a) => a !== source && a !== destination);
    for (const middle of sequences(pool, maxIntermediate)) {
      const chain = [source, ...middle, destination];
      let have: bigint | null = amount;
      let budget = 1000;
      for (let i = 0; i < chain.length - 1 && have !== null; i += 1) {
        const r = crossSend(bookOf(offers, chain[i + 1] as string, chain[i] as string, null), have, budget);
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
        : a.path.length - b.path.length || byText(key(a), key(b)),
  );
}

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
      const expected = bruteReceive(offers, assets, sources, destination, amount, maxIntermediate, ignore, balances).slice(0, maxResults);
      const actual = findStrictReceivePaths(
        graph,
        { destination, destinationAmount: amount, sources, ...(balances ? { sourceBalances: balances } : {}) },
        { maxIntermediate, maxResults, ignoreSeller: ignore },
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
      const expected = bruteSend(offers, assets, source, amount, destinations, maxIntermediate).slice(0, maxResults);
      const actual = findStrictSendPaths(graph, { source, sourceAmount: amount, destinations }, { maxIntermediate, maxResults });
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
