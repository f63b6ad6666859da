// The follow engine over one object: sent at the start, then after a ledger only when it changed;
// a failed first read is the caller's error; a stop does not wait for the next ledger.
import { describe, expect, it } from 'vitest';
import { followChanges } from '../../../src/api/follow/index.js';
import { countedEvents } from '../../support/counted_events.js';

describe('followChanges', () => {
  it('gives the object, then again only after a ledger that changed it', async () => {
    const events = countedEvents();
    let book = { bids: [1] };
    let reads = 0;
    const changes = await followChanges(events, async () => {
      reads++;
      return book;
    });
    expect(await changes.next()).toEqual({ done: false, value: { bids: [1] } });
    const next = changes.next();
    await events.publish(1); // unchanged: read, not sent
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(reads).toBe(2);
    book = { bids: [2] };
    await events.publish(2);
    expect(await next).toEqual({ done: false, value: { bids: [2] } });
    const waiting = changes.next();
    await changes.return();
    expect(await waiting).toEqual({ done: true, value: undefined });
    expect(events.listeners()).toBe(0);
  });

  it('a failed first read fails the follow before anything is given, and leaves no subscription', async () => {
    const events = countedEvents();
    await expect(followChanges(events, () => Promise.reject(new Error('no such book')))).rejects.toThrow('no such book');
    expect(events.listeners()).toBe(0);
  });
});
