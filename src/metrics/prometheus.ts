// The metrics of one process in Prometheus' terms (prom-client), served on the admin port
// (admin_server.ts). They are fed at the points that feed the JSON table of GET /metrics (the
// registry owns one of these), so each measurement is taken once. Labels are bounded: a request
// is labelled with its route's pattern, never its raw path, and a submission with its outcome's kind.
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** How many database connections the process holds, and how much waits for one. */
export interface ConnectionUse {
  total: number;
  idle: number;
  waiting: number;
}

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']);

export class PrometheusMetrics {
  readonly registry = new Registry();
  /** seconds of the ledgers' processing and commit */
  private readonly ingestSeconds: Histogram;
  private readonly ledgersIngested: Counter;
  private readonly requestSeconds: Histogram<'route' | 'method' | 'status'>;
  private readonly streams: Gauge;
  private readonly subscriptions: Gauge;
  private readonly submissions: Counter<'endpoint' | 'result'>;
  /** the close time (ms) of the newest ledger this process ingested */
  private lastClose: number | null = null;
  /** where the newest ledger's close time is read when this process ingests none (an API-only process) */
  private readLatestClose: (() => Promise<number | null>) | null = null;
  private connectionUse: (() => ConnectionUse) | null = null;

  constructor() {
    const registers = [this.registry];
    // process_* and nodejs_* under their usual names, as dashboards expect them
    collectDefaultMetrics({ register: this.registry });
    const self = this;
    this.ledgersIngested = new Counter({
      name: 'zenith_ingest_ledgers_total',
      help: 'ledgers ingested by this process (rate(): ledgers per second)',
      registers,
    });
    this.ingestSeconds = new Histogram({
      name: 'zenith_ingest_ledger_duration_seconds',
      help: "one ledger's processing and commit",
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    new Gauge({
      name: 'zenith_ingest_lag_seconds',
      help: 'seconds between now and the close time of the newest ledger ingested (in this process, or in the database for an API-only one)',
      registers,
      async collect() {
        const closed = self.lastClose ?? (await self.readLatestClose?.().catch(() => null)) ?? null;
        if (closed === null) this.reset();
        else this.set(Math.max(0, (Date.now() - closed) / 1000));
      },
    });
    this.requestSeconds = new Histogram({
      name: 'zenith_http_request_duration_seconds',
      help: "API requests by route pattern, method and status, until the answer's end (a stream's when it closes)",
      labelNames: ['route', 'method', 'status'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.streams = new Gauge({ name: 'zenith_open_streams', help: 'open REST event streams (SSE)', registers });
    this.subscriptions = new Gauge({ name: 'zenith_graphql_subscriptions', help: 'open GraphQL subscriptions', registers });
    new Gauge({
      name: 'zenith_db_connections',
      help: 'database connections by state: total and idle in the pool, and waiting (callers queued for one); PGlite is one connection, busy while a query is in flight',
      labelNames: ['state'],
      registers,
      collect() {
        const use = self.connectionUse?.();
        if (!use) return;
        this.set({ state: 'total' }, use.total);
        this.set({ state: 'idle' }, use.idle);
        this.set({ state: 'waiting' }, use.waiting);
      },
    });
    this.submissions = new Counter({
      name: 'zenith_txsub_submissions_total',
      help: 'transaction submissions by endpoint (sync: /transactions, async: /transactions_async) and outcome',
      labelNames: ['endpoint', 'result'],
      registers,
    });
  }

  ledgerIngested(closeTimeMs: number, seconds: number): void {
    this.lastClose = closeTimeMs;
    this.ledgersIngested.inc();
    this.ingestSeconds.observe(seconds);
  }

  /** for a process that does not ingest: how to read the newest ledger's close time (ms) */
  readIngestLagFrom(read: () => Promise<number | null>): void {
    this.readLatestClose = read;
  }

  watchConnections(read: () => ConnectionUse): void {
    this.connectionUse = read;
  }

  request(route: string, method: string | undefined, status: number, seconds: number): void {
    // a client chooses the method: anything unusual is one label value
    const known = method && KNOWN_METHODS.has(method) ? method : 'other';
    this.requestSeconds.observe({ route, method: known, status: String(status) }, seconds);
  }

  /** counts a stream or subscription as open until the returned function is called (once) */
  opened(kind: 'stream' | 'subscription'): () => void {
    const gauge = kind === 'stream' ? this.streams : this.subscriptions;
    gauge.inc();
    let closed = false;
    return () => {
      if (closed) return;
      closed = true;
      gauge.dec();
    };
  }

  submission(endpoint: 'sync' | 'async', result: string): void {
    this.submissions.inc({ endpoint, result });
  }
}
