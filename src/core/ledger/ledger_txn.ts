// Nested change tracker in the manner of stellar-core's LedgerTxn: a child sees its parent's
// entries, records its own writes, and either commits them into the parent or is dropped.
import { cloneEntry, entryKey } from './entries.js';
import type { EntryRec } from './entries.js';
import { CHANGE_CREATED, CHANGE_REMOVED, CHANGE_STATE, CHANGE_UPDATED, XdrBytes, writeEntry, writeKey } from './entry_codec.js';

export interface EntryReader {
  get(key: string): EntryRec | undefined;
}

export interface EntryStore extends EntryReader {
  write(key: string, value: EntryRec | null): void;
  idPool: bigint;
}

/** The closed ledger's entries. */
export class RootState implements EntryStore {
  readonly entries = new Map<string, EntryRec>();
  idPool = 0n;

  get(key: string): EntryRec | undefined {
    return this.entries.get(key);
  }

  write(key: string, value: EntryRec | null): void {
    if (value) this.entries.set(key, value);
    else this.entries.delete(key);
  }
}

export class LedgerTxn implements EntryStore {
  private readonly own = new Map<string, EntryRec | null>();
  idPool: bigint;

  constructor(
    private readonly parent: EntryStore,
    readonly ledgerSeq: number,
  ) {
    this.idPool = parent.idPool;
  }

  get(key: string): EntryRec | undefined {
    const v = this.own.get(key);
    if (v !== undefined) return v ?? undefined;
    return this.parent.get(key);
  }

  write(key: string, value: EntryRec | null): void {
    this.own.set(key, value);
  }

  /** The entry as a mutable copy owned by this transaction (marks it modified, as stellar-core does). */
  load<T extends EntryRec>(key: string): T | undefined {
    const v = this.own.get(key);
    if (v !== undefined) return (v ?? undefined) as T | undefined;
    const p = this.parent.get(key);
    if (!p) return undefined;
    const c = cloneEntry(p);
    c.lastModified = this.ledgerSeq;
    this.own.set(key, c);
    return c as T;
  }

  create(e: EntryRec): void {
    e.lastModified = this.ledgerSeq;
    this.own.set(entryKey(e), e);
  }

  erase(key: string): void {
    this.own.set(key, null);
  }

  commit(): void {
    for (const [k, v] of this.own) this.parent.write(k, v);
    this.parent.idPool = this.idPool;
    this.own.clear();
  }

  /** Keys written by this transaction, in first-touch order. */
  touched(): IterableIterator<[string, EntryRec | null]> {
    return this.own.entries();
  }

  /**
   * The XDR LedgerEntryChanges relative to the parent, as stellar-core emits them: created; state
   * then updated; state then removed. Entries are listed in first-touch order.
   */
  encodeChanges(): Buffer {
    const w = new XdrBytes(512);
    this.writeChanges(w);
    return w.toBuffer();
  }

  writeChanges(w: XdrBytes): void {
    let count = 0;
    const items: [EntryRec | undefined, EntryRec | null][] = [];
    for (const [k, after] of this.own) {
      const before = this.parent.get(k);
      if (!before && !after) continue;
      count += before ? 2 : 1;
      items.push([before, after]);
    }
    w.u32(count);
    for (const [before, after] of items) {
      if (!before) {
        w.u32(CHANGE_CREATED);
        writeEntry(w, after!);
      } else if (!after) {
        w.u32(CHANGE_STATE);
        writeEntry(w, before);
        w.u32(CHANGE_REMOVED);
        writeKey(w, before);
      } else {
        w.u32(CHANGE_STATE);
        writeEntry(w, before);
        w.u32(CHANGE_UPDATED);
        writeEntry(w, after);
      }
    }
  }
}
