// Reads shared by followers that ask the same question at once: after a ledger every stream or
// subscription at the same position reads the same page, and one read answers them all. Only a
// read in flight is shared, and only among callers that heard the same ledgers: a read begun before
// a ledger's signal may not see that ledger, so a follower that signal woke does not join it.
import type { LedgerEvents } from '../../events/ledger_events.js';

export class SharedReads {
  private readonly inFlight = new Map<string, Promise<unknown>>();
  /** signals heard: part of every key */
  private epoch = 0;
  private readonly unsubscribe: () => void;

  constructor(events: LedgerEvents) {
    this.unsubscribe = events.subscribe(() => {
      this.epoch++;
    });
  }

  /** `load()`'s answer, or that of the same read (`key`) in flight since the last ledger */
  read<T>(key: string, load: () => PromiseLike<T>): Promise<T> {
    const shared = `${this.epoch} ${key}`;
    let pending = this.inFlight.get(shared) as Promise<T> | undefined;
    if (!pending) {
      pending = Promise.resolve(load()).finally(() => this.inFlight.delete(shared));
      this.inFlight.set(shared, pending);
    }
    return pending;
  }

  close(): void {
    this.unsubscribe();
  }
}
