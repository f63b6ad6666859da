// What every follow shares, REST streams and GraphQL subscriptions alike: an async iterator woken
// by the "ledger ingested" signal. It is pulled, never pushed: the next read happens only when the
// consumer has taken what the last one gave, so a slow consumer slows its own reads instead of
// piling records up in memory. Reads never overlap: signals that arrive during a read coalesce into
// one more read. `return()` (the client left) unsubscribes at once, even while waiting for a ledger.
import type { LedgerEvents } from '../../events/ledger_events.js';

export const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

export abstract class Follower<T> implements AsyncIterableIterator<T, undefined> {
  private unsubscribe: (() => void) | null;
  /** a ledger came while nobody waited: the next wait returns at once */
  private signalled = false;
  private waiter: ((woken: boolean) => void) | null = null;
  /** calls of next() not answered yet, and the last one's answer: a call made before it is answered waits for it */
  private pending = 0;
  private lastAnswer: Promise<unknown> | null = null;

  // subscribed before the first read, so that a ledger committed during it is not missed
  protected constructor(events: LedgerEvents) {
    this.unsubscribe = events.subscribe(() => {
      const waiter = this.waiter;
      this.waiter = null;
      if (waiter) waiter(true);
      else this.signalled = true;
    });
  }

  get stopped(): boolean {
    return this.unsubscribe === null;
  }

  next(): Promise<IteratorResult<T, undefined>> {
    // one step at a time, even when a consumer asks again before an answer; the usual consumer
    // does not, and its steps cost no extra promise (a thousand streams wait in next() at once)
    const after = this.pending++ === 0 ? null : this.lastAnswer;
    const result = after
      ? after.then(
          () => this.step(),
          () => this.step(),
        )
      : this.step();
    this.lastAnswer = result;
    return result;
  }

  async return(): Promise<IteratorResult<T, undefined>> {
    this.stop();
    return DONE;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  /**
   * Frees what was read but not yet taken, to be read again when the consumer next asks: a
   * consumer whose client does not take what it was sent holds nothing while it waits.
   */
  release(): void {}

  /** the next item, or DONE when `nextLedger` answered false (stopped) */
  protected abstract produce(): Promise<IteratorResult<T, undefined>>;

  /** Runs the reads that come before the first item: their errors are the caller's (a 4xx, a coded GraphQL error), and stop the follower. */
  protected async opened(reads: () => Promise<void>): Promise<this> {
    try {
      await reads();
      return this;
    } catch (error) {
      this.stop();
      throw error;
    }
  }

  /** true after a ledger was ingested (at once if one came since the last wait), false once stopped */
  protected nextLedger(): Promise<boolean> {
    if (this.stopped) return Promise.resolve(false);
    if (this.signalled) {
      this.signalled = false;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => (this.waiter = resolve));
  }

  private async step(): Promise<IteratorResult<T, undefined>> {
    try {
      if (this.stopped) return DONE;
      const result = await this.produce();
      // stopped during a read: what it found is nobody's any more
      return this.stopped ? DONE : result;
    } catch (error) {
      this.stop();
      throw error;
    } finally {
      if (--this.pending === 0) this.lastAnswer = null;
    }
  }

  private stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    const waiter = this.waiter;
    this.waiter = null;
    waiter?.(false);
  }
}
