// The process's one in-memory order-book graph for path finding: loaded at first use, then
// refreshed after every ingested ledger (only offers changed since its ledger are re-read).
// Loads and refreshes are chained, so a search never sees a half-applied update.
import type { Database } from '../db/database.js';
import type { LedgerEvents } from '../events/ledger_events.js';
import { OrderBookGraph } from '../market/index.js';

export class LiveOrderBook {
  private readonly graph = new OrderBookGraph();
  private pending: Promise<OrderBookGraph> | null = null;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly db: Database,
    events: LedgerEvents,
  ) {
    // not loaded yet: nothing to refresh, the first search loads it whole
    this.unsubscribe = events.subscribe(() => {
      if (this.pending) this.update((graph) => graph.refresh(this.db)).catch(() => undefined);
    });
  }

  /** the graph as of the last refreshed ledger */
  current(): Promise<OrderBookGraph> {
    return this.pending ?? this.update((graph) => graph.reload(this.db));
  }

  close(): void {
    this.unsubscribe();
  }

  private update(step: (graph: OrderBookGraph) => Promise<void>): Promise<OrderBookGraph> {
    const next = (this.pending ?? Promise.resolve(this.graph))
      .catch(() => this.graph)
      .then(() => step(this.graph))
      .then(() => this.graph);
    this.pending = next;
    // a failed read (database away) must not stick: the next search loads again
    next.catch(() => {
      if (this.pending === next) this.pending = null;
    });
    return next;
  }
}
