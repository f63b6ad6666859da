// The follow engine over a keyset list, with an in-memory source: catch-up across pages, `now`,
// one read at a time however many ledgers arrive during one, reads only as fast as the consumer
// takes, a stop that does not wait for the next ledger, and errors before the first record.
import { describe, expect, it } from 'vitest';
import { followKeyset, type Keyset } from '../../../src/api/follow/index.js';
import { countedEvents } from '../../support/counted_events.js';

/** numbers as records, read `pageSize` at a time; counts reads and how many run at once */
class Numbers implements Keyset<number> {
  reads: (string | null)[] = [];
  running = 0;
  mostAtOnce = 0;
  /** when set, each read waits for it */
  gate: Promise<void> | null = null;
  failure: Error | null = null;

  constructor(
    public items: number[],
    public pageSize = 2,
  ) {}

  async next(cursor: string | null): Promise<number[]> {
    this.reads.push(cursor);
    this.mostAtOnce = Math.max(this.mostAtOnce, ++this.running);
    try {
      if (cursor !== null && !/^\d+$/.test(cursor)) throw new Error(`bad cursor ${cursor}`);
      const after = cursor === null ? -1 : Number(cursor);
      // what the read sees is fixed when it starts, as a database snapshot is
      const page = this.items.filter((n) => n > after).slice(0, this.pageSize);
      await this.gate;
      if (this.failure) throw this.failure;
      return page;
    } finally {
      this.running--;
    }
  }

  async now(): Promise<string | null> {
    const last = this.items[this.items.length - 1];
    return last === undefined ? null : String(last);
  }

  cursor(record: number): string {
    return String(record);
  }
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

async function take<T>(iterator: AsyncIterator<T>, count: number): Promise<T[]> {
  const items: T[] = [];
  while (items.length < count) {
    const result = await iterator.next();
    if (result.done) break;
    items.push(result.value);
  }
  return items;
}

/** a follow from the start that has taken every record there is and waits for a ledger */
async function caughtUpOn(items: number[]) {
  const events = countedEvents();
  const source = new Numbers(items);
  const records = await followKeyset(events, source, null);
  expect(await take(records, items.length)).toEqual(items);
  return { events, source, records };
}

describe('followKeyset', () => {
  it('catches up across several pages, then waits for a ledger and reads what is new', async () => {
    const events = countedEvents();
    const source = new Numbers([1, 2, 3, 4, 5]);
    const records = await followKeyset(events, source, null);
    expect(await take(records, 5)).toEqual([1, 2, 3, 4, 5]);
    // pages of 2, 2, 1: the short page means caught up, no empty read after it
    expect(source.reads).toEqual([null, '2', '4']);

    const waiting = records.next();
    await settle();
    expect(source.reads).toHaveLength(3);
    source.items.push(6, 7, 8);
    await events.publish(2);
    expect(await waiting).toEqual({ done: false, value: 6 });
    expect(await take(records, 2)).toEqual([7, 8]);
    await records.return();
    expect(events.listeners()).toBe(0);
  });

  it('lets go of a page it holds, and reads it again from the last record taken without waiting for a ledger', async () => {
    const events = countedEvents();
    const source = new Numbers([1, 2, 3, 4, 5], 3);
    const records = await followKeyset(events, source, null);
    expect(await take(records, 1)).toEqual([1]);
    records.release();
    expect(await take(records, 4)).toEqual([2, 3, 4, 5]);
    expect(source.reads).toEqual([null, '1', '4']);
    // released before anything of a page was taken: read again from where that page began
    source.items.push(6, 7);
    await events.publish(2);
    const fresh = await followKeyset(events, source, '5');
    fresh.release();
    expect(await take(fresh, 2)).toEqual([6, 7]);
    expect(source.reads.slice(-2)).toEqual(['5', '5']);
    await records.return();
    await fresh.return();
  });

  it('starts after a cursor, or at now after the newest record', async () => {
    const events = countedEvents();
    const fromCursor = await followKeyset(events, new Numbers([1, 2, 3]), '1');
    expect(await take(fromCursor, 2)).toEqual([2, 3]);
    await fromCursor.return();

    const source = new Numbers([1, 2, 3]);
    const fromNow = await followKeyset(events, source, 'now');
    expect(source.reads).toEqual(['3']);
    const next = fromNow.next();
    source.items.push(4);
    await events.publish(2);
    expect(await next).toEqual({ done: false, value: 4 });
    await fromNow.return();

    // nothing yet: `now` is the start, the first record is read after a ledger
    const empty = new Numbers([]);
    const fromEmpty = await followKeyset(events, empty, 'now');
    const first = fromEmpty.next();
    empty.items.push(1);
    await events.publish(3);
    expect(await first).toEqual({ done: false, value: 1 });
    await fromEmpty.return();
    expect(events.listeners()).toBe(0);
  });

  it('never overlaps reads: ledgers during a read ask for one more read, not one each', async () => {
    const { events, source, records } = await caughtUpOn([1]);

    const gate = deferred();
    source.gate = gate.promise;
    const next = records.next();
    await events.publish(2); // starts a read, which waits at the gate
    await settle();
    expect(source.reads).toEqual([null, '1']);
    source.items.push(2);
    await events.publish(3);
    await events.publish(4);
    await events.publish(5);
    // a second call while the first waits does not start a read of its own
    const after = records.next();
    await settle();
    expect(source.reads).toHaveLength(2);

    source.gate = null;
    gate.resolve();
    // the read in flight started before 2 was there: the ledgers during it ask for exactly one more
    expect(await next).toEqual({ done: false, value: 2 });
    source.items.push(3);
    await events.publish(6);
    expect(await after).toEqual({ done: false, value: 3 });
    expect(source.reads).toEqual([null, '1', '1', '2']);
    expect(source.mostAtOnce).toBe(1);
    await records.return();
  });

  it('answers next() calls made before an answer one at a time, in order, with one read each page', async () => {
    const events = countedEvents();
    const source = new Numbers([1, 2, 3, 4, 5]);
    const records = await followKeyset(events, source, null);
    const gate = deferred();
    source.gate = gate.promise;
    const answers = [records.next(), records.next(), records.next(), records.next(), records.next()];
    gate.resolve();
    expect((await Promise.all(answers)).map((a) => a.value)).toEqual([1, 2, 3, 4, 5]);
    expect(source.mostAtOnce).toBe(1);
    // and after them, a lone call is answered as usual
    source.gate = null;
    const waiting = records.next();
    source.items.push(6);
    await events.publish(2);
    expect(await waiting).toEqual({ done: false, value: 6 });
    await records.return();
  });

  it('reads the next page only when the consumer has taken the last one', async () => {
    const events = countedEvents();
    const source = new Numbers([1, 2, 3, 4, 5, 6], 2);
    const records = await followKeyset(events, source, null);
    await take(records, 2);
    await settle();
    expect(source.reads).toEqual([null]);
    await take(records, 1);
    expect(source.reads).toEqual([null, '2']);
    await records.return();
  });

  it('stops at once while waiting for a ledger, and reads nothing after', async () => {
    const { events, source, records } = await caughtUpOn([1]);
    const waiting = records.next();
    expect(events.listeners()).toBe(1);
    await records.return();
    expect(await waiting).toEqual({ done: true, value: undefined });
    expect(events.listeners()).toBe(0);
    await events.publish(2);
    expect(await records.next()).toEqual({ done: true, value: undefined });
    expect(source.reads).toEqual([null]);
  });

  it('drops what a read in flight finds once stopped', async () => {
    const { events, source, records } = await caughtUpOn([1]);
    const gate = deferred();
    source.gate = gate.promise;
    const next = records.next();
    source.items.push(2);
    await events.publish(2);
    await records.return();
    gate.resolve();
    expect(await next).toEqual({ done: true, value: undefined });
  });

  it('a bad cursor fails before the first record, and leaves no subscription behind', async () => {
    const events = countedEvents();
    await expect(followKeyset(events, new Numbers([1]), 'banana')).rejects.toThrow('bad cursor banana');
    expect(events.listeners()).toBe(0);
  });

  it('a read that fails after the start ends the follow with its error and unsubscribes', async () => {
    const { events, source, records } = await caughtUpOn([1]);
    const next = records.next();
    source.failure = new Error('database away');
    await events.publish(2);
    await expect(next).rejects.toThrow('database away');
    expect(events.listeners()).toBe(0);
    expect(await records.next()).toEqual({ done: true, value: undefined });
  });
});
