// A tiny seeded PRNG (mulberry32) so property tests are reproducible: a failure prints its seed.
export interface Random {
  /** uniform in [0, 1) */
  next(): number;
  /** integer in [min, max] */
  int(min: number, max: number): number;
  bigint(min: bigint, max: bigint): bigint;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
}

export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    bigint: (min, max) => min + (BigInt(Math.floor(next() * 2 ** 52)) * (max - min + 1n)) / 2n ** 52n,
    pick: <T>(items: readonly T[]) => {
      const item = items[int(0, items.length - 1)];
      if (item === undefined) throw new Error('pick from an empty list');
      return item;
    },
    chance: (p) => next() < p,
  };
}
