// The subscriptions' adapter over the follow engine: a keyset list replayed from a cursor in pages
// of the list's own size, and a bad cursor refused as a coded error before the first event.
import { describe, expect, it } from 'vitest';
import type { ApiContext } from '../../../src/api/context.js';
import { ProblemError } from '../../../src/api/problems.js';
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

describe('follow (subscriptions)', () => {
  it('replays every row after the cursor across pages, in order', async () => {
    const events = inProcessLedgerEvents();
    const count = MAX_PAGE_SIZE * 2 + 5;
    const rows = (await follow(contextWith(events), ids(count), '3'))[Symbol.asyncIterator]();
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
    const refused = follow(contextWith(events), ids(1), 'banana');
    await expect(refused).rejects.toBeInstanceOf(ProblemError);
    await expect(refused).rejects.toMatchObject({ problem: { type: 'bad_request', extras: { invalid_field: 'cursor' } } });
  });
});
