// Following one object (an order book): what it is when the follow starts, then again after an
// ingested ledger only when it changed (compared as JSON).
import type { LedgerEvents } from '../../events/ledger_events.js';
import { DONE, Follower } from './follower.js';

/** The first read happens before this resolves, so its error is the caller's, not a broken stream. */
export function followChanges<T>(events: LedgerEvents, read: () => Promise<T>): Promise<Follower<T>> {
  return new ChangesFollower(events, read).open();
}

class ChangesFollower<T> extends Follower<T> {
  private first: { value: T } | null = null;
  private last: string | null = null;

  constructor(
    events: LedgerEvents,
    private readonly read: () => Promise<T>,
  ) {
    super(events);
  }

  open(): Promise<this> {
    return this.opened(async () => {
      const value = await this.read();
      this.last = JSON.stringify(value);
      this.first = { value };
    });
  }

  protected async produce(): Promise<IteratorResult<T, undefined>> {
    if (this.first) {
      const { value } = this.first;
      this.first = null;
      return { done: false, value };
    }
    while (await this.nextLedger()) {
      const value = await this.read();
      const text = JSON.stringify(value);
      if (text !== this.last) {
        this.last = text;
        return { done: false, value };
      }
    }
    return DONE;
  }
}
