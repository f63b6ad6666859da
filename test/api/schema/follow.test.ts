// The subscriptions' adapter over the follow engine: a keyset list replayed from a cursor in pages
// of the list's own size, and a bad cursor refused as a coded error before the first event.
import type { GraphQLResolveInfo } from 'graphql';
import { describe, expect, it } from 'vitest';
import type { ApiContext } from '../../../src/api/context.js';
import { ProblemError } from '../../../src/api/problems.js';
import { SharedReads } from '../../../src/api/follow/index.js';
import { follow } from '../../../src/api/schema/follow.js';
import { MAX_PAGE_SIZE, toidKey, type KeysetSource } from '../../../src/api/schema/paging.js';
import { inProcessLedgerEvents } from '../../../src/events/ledger_events.js';

/** ids 1..count, keyed by themselves */
function ids(count: number): KeysetSource<bigint, bigint> {
  const rows = Array.from({ length: count }, (_, i) => BigInt(i + 1));
  return {
    key: toidKey,
    async fetch(range, direction, take) {
      const within = rows.filter((id) => (range.gt === undefined || id > range.gt) && (range.lt === undefined || id < range.lt));
      return (direction === 'asc' ? within : within.reverse()).slice(0, take);
    },
    cursor: (id) => String(id),
  };
}

const contextWith = (events: ApiContext['services']['events']) => ({ services: { events } }) as ApiContext;

/** what follow reads of a subscription's info: its operation and variables */
const infoOf = (operation: object, variableValues: Record<string, unknown> = {}) =>
  ({ operation, variableValues, fieldName: 'ids' }) as unknown as GraphQLResolveInfo;
const INFO = infoOf({});

/** a source that counts its reads */
function counted(source: KeysetSource<bigint, bigint>): KeysetSource<bigint, bigint> & { reads: number } {
  const wrapped = {
    ...source,
    reads: 0,
    fetch: (...args: Parameters<KeysetSource<bigint, bigint>['fetch']>) => {
      wrapped.reads++;
      return source.fetch(...args);
    },
  };
  return wrapped;
}

describe('follow (subscriptions)', () => {
  it('replays every row after the cursor across pages, in order', async () => {
    const events = inProcessLedgerEvents();
    const count = MAX_PAGE_SIZE * 2 + 5;
    const rows = (await follow(contextWith(events), INFO, ids(count), '3'))[Symbol.asyncIterator]();
    const seen: bigint[] = [];
    while (seen.length < count - 3) {
      const next = await rows.next();
      if (!next.done) seen.push(next.value);
    }
    expect(seen).toEqual(Array.from({ length: count - 3 }, (_, i) => BigInt(i + 4)));
    await rows.return?.();
  });

  it('refuses a bad cursor with a coded error before the first event', async () => {
    const events = inProcessLedgerEvents();
    const refused = follow(contextWith(events), INFO, ids(1), 'banana');
    await expect(refused).rejects.toBeInstanceOf(ProblemError);
    await expect(refused).rejects.toMatchObject({ problem: { type: 'bad_request', extras: { invalid_field: 'cursor' } } });
  });

  it('reads a page once for the subscriptions of the same operation and variables at the same position', async () => {
    const events = inProcessLedgerEvents();
    const reads = new SharedReads(events);
    // a database client whose extension (the shared Prisma reads) is itself
    const prisma = { $extends: () => prisma };
    const sharing = () => ({ services: { events }, prisma, followReads: reads }) as unknown as ApiContext;
    const operation = {};
    const first = async (ctx: ApiContext, info: GraphQLResolveInfo, source: KeysetSource<bigint, bigint>) =>
      (await (await follow(ctx, info, source, '2'))[Symbol.asyncIterator]().next()).value as unknown;
    const [a, b, c, d] = [counted(ids(5)), counted(ids(5)), counted(ids(5)), counted(ids(5))];
    const rows = await Promise.all([
      first(sharing(), infoOf(operation, { n: 1 }), a),
      first(sharing(), infoOf(operation, { n: 1 }), b),
      // another operation, other variables: their own reads
      first(sharing(), infoOf({}, { n: 1 }), c),
      first(sharing(), infoOf(operation, { n: 2 }), d),
    ]);
    expect(rows).toEqual([3n, 3n, 3n, 3n]);
    expect(a.reads + b.reads).toBe(1);
    expect([c.reads, d.reads]).toEqual([1, 1]);
    reads.close();
  });
});
