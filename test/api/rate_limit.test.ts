// The GCRA of rate_limit.ts against stellar/throttled's own table (rate_test.go, TestRateLimit):
// PerSec(1) with MaxBurst 4 on a fixed clock, each row a call with its volume and what throttled
// answers (limited, remaining, reset after, retry after; -1 there is null here).
import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src/api/rate_limit.js';

describe('RateLimiter (GCRA)', () => {
  it("answers stellar/throttled's TestRateLimit table", () => {
    let now = 0;
    const limiter = new RateLimiter({ perHour: 3600, maxBurst: 4 }, () => now);
    // [now ms, volume, remaining, reset ms, retry ms | null, limited]
    const cases: [number, number, number, number, number | null, boolean][] = [
      [0, 6, 5, 0, null, true],
      [0, 1, 4, 1000, null, false],
      [0, 1, 3, 2000, null, false],
      [0, 1, 2, 3000, null, false],
      [0, 1, 1, 4000, null, false],
      [0, 1, 0, 5000, null, false],
      [0, 1, 0, 5000, 1000, true],
      [3000, 1, 2, 3000, null, false],
      [3100, 1, 1, 3900, null, false],
      [4000, 1, 1, 4000, null, false],
      [8000, 1, 4, 1000, null, false],
      [9500, 1, 4, 1000, null, false],
      [9500, 0, 4, 1000, null, false],
      [9500, 2, 2, 3000, null, false],
      [9500, 5, 2, 3000, 3000, true],
    ];
    cases.forEach(([at, volume, remaining, resetAfterMs, retryAfterMs, limited], i) => {
      now = at;
      expect(limiter.take('foo', volume), `case ${i}`).toEqual({ limited, limit: 5, remaining, resetAfterMs, retryAfterMs });
    });
  });

  it("lets Horizon's default through as it does: 101 at once, then one a second", () => {
    let now = 0;
    const limiter = new RateLimiter({ perHour: 3600, maxBurst: 100 }, () => now);
    for (let i = 0; i < 101; i++) expect(limiter.take('ip').limited).toBe(false);
    expect(limiter.take('ip')).toMatchObject({ limited: true, remaining: 0, retryAfterMs: 1000 });
    // another key has its own budget
    expect(limiter.take('other')).toMatchObject({ limited: false, remaining: 100 });
    now = 1000;
    expect(limiter.take('ip').limited).toBe(false);
    expect(limiter.take('ip').limited).toBe(true);
  });
});
