// Random order books for path finding tests and benches.
import type { GraphOffer } from '../../../src/market/index.js';
import type { Random } from './random.js';

const ISSUER = 'GAXMF43TGZHW3QN3REOUA2U5PW5BTARXGGYJ3JIFHW3YT6QRKRL3CPPU';

export function assetNames(count: number): string[] {
  return ['native', ...Array.from({ length: count - 1 }, (_, i) => `A${String(i).padStart(3, '0')}:${ISSUER}`)];
}

export const SELLERS = [
  'GBXGQJWVLWOYHFLVTKWV5FGHA3LNYY2JQKM7OAJAUEQFU6LPCSEFVXON',
  'GAXMF43TGZHW3QN3REOUA2U5PW5BTARXGGYJ3JIFHW3YT6QRKRL3CPPU',
];

export function randomBook(
  random: Random,
  options: { assets: readonly string[]; offers: number; maxPrice: number; minAmount: bigint; maxAmount: bigint },
): GraphOffer[] {
  const offers: GraphOffer[] = [];
  for (let i = 0; i < options.offers; i += 1) {
    const selling = random.pick(options.assets);
    let buying = random.pick(options.assets);
    while (buying === selling) buying = random.pick(options.assets);
    offers.push({
      id: BigInt(i + 1),
      seller: random.pick(SELLERS),
      selling,
      buying,
      amount: random.bigint(options.minAmount, options.maxAmount),
      price: { n: random.int(1, options.maxPrice), d: random.int(1, options.maxPrice) },
    });
  }
  return offers;
}

/**
 * A book as markets make it: every asset has a fair value and offers ask a little more than it
 * (0.1% to 5%), so no pair is crossed and no cycle of trades gains (stellar-core would have
 * matched crossed offers; arbitrage does not last).
 */
export function marketBook(
  random: Random,
  options: { assets: readonly string[]; offers: number; minAmount: bigint; maxAmount: bigint },
): GraphOffer[] {
  const value = new Map(options.assets.map((a) => [a, 10 ** (random.next() * 4 - 2)]));
  const offers: GraphOffer[] = [];
  for (let i = 0; i < options.offers; i += 1) {
    const selling = random.pick(options.assets);
    let buying = random.pick(options.assets);
    while (buying === selling) buying = random.pick(options.assets);
    // price = buying per selling
    const fair = (value.get(selling) ?? 1) / (value.get(buying) ?? 1);
    const price = fair * (1 + 0.001 + random.next() * 0.049);
    // n/d precise to ~1e-6, so rounding does not create arbitrage either
    const d = price >= 1 ? Math.floor(1e9 / price) : 1_000_000_000;
    offers.push({
      id: BigInt(i + 1),
      seller: random.pick(SELLERS),
      selling,
      buying,
      amount: random.bigint(options.minAmount, options.maxAmount),
      price: { n: Math.max(1, Math.min(2 ** 31 - 1, Math.round(price * d))), d },
    });
  }
  return offers;
}
