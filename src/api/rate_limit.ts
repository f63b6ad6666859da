// Rate limits as Horizon's (stellar/throttled's GCRA, which Horizon builds with `--per-hour-rate-limit`
// and a burst of 100): each key (a client IP, a friendbot address) has a theoretical arrival time;
// a request moves it one emission interval on, and is refused while that would put it more than
// (burst + 1) intervals ahead of now. Its answer carries throttled's headers: X-RateLimit-Limit
// (burst + 1), X-RateLimit-Remaining, X-RateLimit-Reset (seconds until the key is fresh again) and,
// when refused, Retry-After. Keys live in an LRU of 50,000 as Horizon's do, so a flood of addresses
// costs bounded memory (an evicted key starts afresh, as in Horizon).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { GraphQLError } from 'graphql';
import { LRUCache } from 'lru-cache';
import type { ChargeCost } from './graphql_limits.js';
import { ProblemError, problems } from './problems.js';

/** Horizon's lruCacheSize */
const MAX_KEYS = 50_000;
const HOUR_MS = 3_600_000;

export interface RateQuota {
  /** requests per hour once the burst is spent; 0 disables the limit */
  perHour: number;
  /** requests beyond the first that may come at once (Horizon's MaxBurst) */
  maxBurst: number;
}

export interface RateLimitResult {
  limited: boolean;
  /** burst + 1 */
  limit: number;
  remaining: number;
  /** ms until the key has its whole burst again */
  resetAfterMs: number;
  /** ms until a refused request would pass; null when it passed */
  retryAfterMs: number | null;
}

export class RateLimiter {
  private readonly emissionMs: number;
  private readonly toleranceMs: number;
  private readonly limit: number;
  /** key → theoretical arrival time (ms since the epoch) */
  private readonly tats = new LRUCache<string, number>({ max: MAX_KEYS });

  constructor(
    quota: RateQuota,
    private readonly now: () => number = Date.now,
  ) {
    if (!(quota.perHour > 0) || !Number.isInteger(quota.maxBurst) || quota.maxBurst < 0) {
      throw new RangeError(`invalid rate quota ${quota.perHour}/hour, burst ${quota.maxBurst}`);
    }
    this.emissionMs = HOUR_MS / quota.perHour;
    this.limit = quota.maxBurst + 1;
    this.toleranceMs = this.emissionMs * this.limit;
  }

  /** Counts `quantity` requests of `key` (throttled's GCRARateLimiter.RateLimit; the server counts 1). */
  take(key: string, quantity = 1): RateLimitResult {
    const now = this.now();
    const tat = Math.max(this.tats.get(key) ?? now, now);
    const increment = quantity * this.emissionMs;
    const newTat = tat + increment;
    const early = newTat - this.toleranceMs - now;
    const limited = early > 0;
    const ttl = limited ? tat - now : newTat - now;
    if (!limited) this.tats.set(key, newTat);
    const next = this.toleranceMs - ttl;
    return {
      limited,
      limit: this.limit,
      remaining: next > -this.emissionMs ? Math.max(0, Math.trunc(next / this.emissionMs)) : 0,
      resetAfterMs: ttl,
      // a request larger than the whole burst never passes: no time to wait for
      retryAfterMs: limited && increment <= this.toleranceMs ? early : null,
    };
  }
}

/** A limiter for `quota`, or null when its rate is 0 (no limit). */
export function rateLimiter(quota: RateQuota): RateLimiter | null {
  return quota.perHour > 0 ? new RateLimiter(quota) : null;
}

/** Counts `quantity` requests of `key` and answers throttled's headers. */
function count(limiter: RateLimiter, key: string, res: ServerResponse, quantity: number): RateLimitResult {
  const result = limiter.take(key, quantity);
  res.setHeader('X-RateLimit-Limit', String(result.limit));
  res.setHeader('X-RateLimit-Remaining', String(result.remaining));
  res.setHeader('X-RateLimit-Reset', String(Math.ceil(result.resetAfterMs / 1000)));
  if (result.retryAfterMs !== null) res.setHeader('Retry-After', String(Math.ceil(result.retryAfterMs / 1000)));
  return result;
}

/**
 * Counts a request against `limiter` under `key`, answering throttled's headers; a refused one is
 * thrown as Horizon's rate_limit_exceeded problem (429).
 */
export function enforceRateLimit(limiter: RateLimiter | null, key: string, res: ServerResponse): void {
  if (limiter && count(limiter, key, res, 1).limited) throw new ProblemError(problems.rateLimitExceeded());
}

/**
 * GraphQL is counted by cost: one request for every started 1,000 of an operation's cost (a page
 * of 100 records of ten fields), so a query at the 50,000 budget counts as 50 requests while a
 * small one counts as one, as a REST request does.
 */
export const GRAPHQL_COST_PER_REQUEST = 1_000;

/**
 * What an operation costs beyond the request its start was charged (server.ts), charged to the
 * client's key; a refusal is Horizon's problem as a GraphQL error, answered 429.
 */
export function chargeGraphQLCost(limiter: RateLimiter | null, keyOf: (req: IncomingMessage) => string): ChargeCost | undefined {
  if (!limiter) return undefined;
  return (serverContext, complexity) => {
    const { req, res } = serverContext as { req?: IncomingMessage; res?: ServerResponse };
    const beyond = Math.ceil(complexity / GRAPHQL_COST_PER_REQUEST) - 1;
    if (!req || !res || beyond <= 0 || !count(limiter, keyOf(req), res, beyond).limited) return null;
    const { type, detail } = problems.rateLimitExceeded();
    return new GraphQLError(detail, { extensions: { code: type, http: { status: 429 } } });
  };
}
