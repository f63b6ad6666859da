// Following a keyset list: catch up page by page from a cursor (`now`: after the newest record when
// the follow starts), then read what is new after each ingested ledger. One page at a time is held;
// the next is read when the consumer has taken the last record of this one, and `release()` drops
// what is left of it (read again from the last record taken).
import type { LedgerEvents } from '../../events/ledger_events.js';
import { DONE, Follower } from './follower.js';

export interface Keyset<R> {
  /** one page of the records after `cursor` (null: from the earliest), oldest first */
  next(cursor: string | null): Promise<readonly R[]>;
  /** the cursor that `now` means: the newest record's when the follow starts */
  now(): Promise<string | null>;
  /** the cursor after `record` */
  cursor(record: R): string;
  /** records in a full page: a shorter one means caught up (without it, only an empty page does) */
  pageSize?: number;
}

/**
 * Follows `source` from `cursor`. The cursor's reads (`now` and the first page) happen before this
 * resolves, so a bad cursor or a missing parent is the caller's error, not a broken stream.
 */
export function followKeyset<R>(events: LedgerEvents, source: Keyset<R>, cursor: string | null): Promise<Follower<R>> {
  return new KeysetFollower(events, source).open(cursor);
}

class KeysetFollower<R> extends Follower<R> {
  private position: string | null = null;
  /** the cursor the page was read after */
  private pageStart: string | null = null;
  private page: readonly R[] = [];
  private index = 0;
  private caughtUp = false;

  constructor(
    events: LedgerEvents,
    private readonly source: Keyset<R>,
  ) {
    super(events);
  }

  open(cursor: string | null): Promise<this> {
    return this.opened(async () => {
      this.position = cursor === 'now' ? await this.source.now() : cursor;
      this.take(await this.source.next(this.position));
    });
  }

  protected async produce(): Promise<IteratorResult<R, undefined>> {
    while (this.index >= this.page.length) {
      this.page = []; // a taken page is not kept while waiting for the next ledger
      if (this.caughtUp && !(await this.nextLedger())) return DONE;
      const page = await this.source.next(this.position);
      if (this.stopped) return DONE;
      this.take(page);
    }
    return { done: false, value: this.page[this.index++] as R };
  }

  override release(): void {
    if (this.index >= this.page.length) return;
    const taken = this.page[this.index - 1];
    this.position = taken === undefined ? this.pageStart : this.source.cursor(taken);
    this.page = [];
    this.index = 0;
    this.caughtUp = false;
  }

  private take(page: readonly R[]): void {
    this.pageStart = this.position;
    this.page = page;
    this.index = 0;
    this.caughtUp = page.length < (this.source.pageSize ?? 1);
    const last = page[page.length - 1];
    if (last !== undefined) this.position = this.source.cursor(last);
  }
}
