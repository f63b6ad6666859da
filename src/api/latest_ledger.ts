// The history's heights as REST answers them without a query of their own: the last ingested
// ledger (Horizon's `Latest-Ledger` header on state answers) and the newest ledger of the history
// (what `cursor=now` stands for). Read from the database, then kept until a ledger is ingested or a
// second has passed, as Horizon keeps its ledger state (refreshed about every second): a request
// pays no extra read, and a missed signal costs at most a second.
import type { Database } from '../db/database.js';
import type { LedgerEvents } from '../events/ledger_events.js';

export interface LedgerHeights {
  /** the ingest cursor's ledger (0 before the first) */
  ingested: number;
  /** the newest ledger in the history (0 when it is empty) */
  historyLatest: number;
}

const MAX_AGE_MS = 1000;

export class LatestLedger {
  private cached: { at: number; heights: Promise<LedgerHeights> } | null = null;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly db: Database,
    events: LedgerEvents,
    private readonly maxAgeMs = MAX_AGE_MS,
  ) {
    this.unsubscribe = events.subscribe(() => {
      this.cached = null;
    });
  }

  current(): Promise<LedgerHeights> {
    const now = Date.now();
    if (!this.cached || now - this.cached.at > this.maxAgeMs) {
      const heights = this.read();
      const entry = { at: now, heights };
      this.cached = entry;
      // a failed read is not kept: the next request reads again
      heights.catch(() => {
        if (this.cached === entry) this.cached = null;
      });
    }
    return this.cached.heights;
  }

  close(): void {
    this.unsubscribe();
  }

  private async read(): Promise<LedgerHeights> {
    const [cursor, range] = await Promise.all([
      this.db.prisma.ingestCursor.findUnique({ where: { id: 1 }, select: { ledgerSequence: true } }),
      this.db.prisma.ledger.aggregate({ _max: { sequence: true } }),
    ]);
    return { ingested: cursor?.ledgerSequence ?? 0, historyLatest: range._max.sequence ?? 0 };
  }
}
