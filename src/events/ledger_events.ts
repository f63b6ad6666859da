// "A ledger was ingested": the one signal that wakes streams, subscriptions and waiting submissions.
// Within one process it is an EventEmitter; on PostgreSQL it travels by LISTEN/NOTIFY so that every
// API process on the database hears what the single ingesting process committed. Listeners
// re-read what is new from the database, so a signal only has to arrive, not to carry data.
import { EventEmitter } from 'node:events';
import pg from 'pg';
import type { Database, DatabaseTarget } from '../db/database.js';

export type LedgerListener = (sequence: number) => void;

export interface LedgerEvents {
  publish(sequence: number): Promise<void>;
  /** returns the function that unsubscribes */
  subscribe(listener: LedgerListener): () => void;
  close(): Promise<void>;
}

const CHANNEL = 'zenith_ledger';
const EVENT = 'ledger';

export function openLedgerEvents(target: DatabaseTarget, onError?: (error: Error) => void): Promise<LedgerEvents> {
  return target.kind === 'postgres' ? postgresLedgerEvents(target.url, onError) : Promise.resolve(inProcessLedgerEvents());
}

export function inProcessLedgerEvents(): LedgerEvents {
  const emitter = localEmitter();
  return {
    async publish(sequence) {
      emitter.emit(EVENT, sequence);
    },
    subscribe: (listener) => on(emitter, listener),
    async close() {
      emitter.removeAllListeners();
    },
  };
}

export async function postgresLedgerEvents(url: string, onError?: (error: Error) => void): Promise<LedgerEvents> {
  const emitter = localEmitter();
  let closed = false;
  let client: pg.Client | null = null;
  let retryTimer: NodeJS.Timeout | null = null;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url });
    next.on('notification', (message) => {
      if (message.channel === CHANNEL) emitter.emit(EVENT, Number(message.payload));
    });
    next.on('error', (error) => {
      onError?.(error);
      reconnect(next);
    });
    await next.connect();
    await next.query(`LISTEN ${CHANNEL}`);
    client = next;
  };

  // Notifications sent while disconnected are lost: after reconnecting, one signal with the newest
  // ledger lets every listener catch up from the database.
  const reconnect = (broken: pg.Client): void => {
    if (closed || client !== broken) return;
    client = null;
    void broken.end().catch(() => {});
    const attempt = () => {
      retryTimer = null;
      if (closed) return;
      connect()
        .then(async () => {
          const rows = await client?.query<{ max: number | null }>('SELECT max(sequence) AS max FROM history_ledgers');
          const newest = rows?.rows[0]?.max;
          if (newest !== null && newest !== undefined) emitter.emit(EVENT, newest);
        })
        .catch((error: Error) => {
          onError?.(error);
          retryTimer = setTimeout(attempt, 1000);
        });
    };
    retryTimer = setTimeout(attempt, 100);
  };

  await connect();
  return {
    async publish(sequence) {
      const notify = (sender: pg.Client) => sender.query('SELECT pg_notify($1, $2)', [CHANNEL, String(sequence)]);
      if (client) {
        await notify(client);
        return;
      }
      // between reconnects: a connection of its own, so other processes still hear it
      const sender = new pg.Client({ connectionString: url });
      await sender.connect();
      try {
        await notify(sender);
      } finally {
        await sender.end();
      }
    },
    subscribe: (listener) => on(emitter, listener),
    async close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      emitter.removeAllListeners();
      await client?.end().catch(() => {});
      client = null;
    },
  };
}

/**
 * The signal as a read replica sees it (`zenith serve --database-ro-url`): a ledger the primary
 * announced is passed on only once the replica shows it (its ingest cursor, committed with the
 * ledger's rows, has reached it), so that whoever wakes (a stream, a waiting submission, the
 * Latest-Ledger cache) reads it there. Replicas lag by milliseconds to seconds: the cursor is
 * polled every `pollMs` while a ledger is awaited, never otherwise.
 */
export function replicaLedgerEvents(
  primary: LedgerEvents,
  replica: Database,
  options: { pollMs?: number; onError?: (error: Error) => void } = {},
): LedgerEvents {
  const pollMs = options.pollMs ?? 10;
  const emitter = localEmitter();
  let awaited = 0;
  let shown = 0;
  let polling = false;
  let closed = false;
  const cursor = async (): Promise<number> => {
    const [row] = await replica.session((sql) =>
      sql.query<{ sequence: number }>('SELECT ledger_sequence AS sequence FROM ingest_cursor WHERE id = 1'),
    );
    return Number(row?.sequence ?? 0);
  };
  const poll = async (): Promise<void> => {
    polling = true;
    while (!closed && shown < awaited) {
      let seen = shown;
      try {
        seen = await cursor();
      } catch (error) {
        // the replica is down or restarting: try again a second later
        options.onError?.(error as Error);
        await new Promise((resolve) => setTimeout(resolve, 1000));
        continue;
      }
      if (seen > shown) {
        shown = seen;
        emitter.emit(EVENT, seen);
      }
      if (shown < awaited) await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
    polling = false;
  };
  const unsubscribe = primary.subscribe((sequence) => {
    awaited = Math.max(awaited, sequence);
    if (!polling) void poll();
  });
  return {
    publish: (sequence) => primary.publish(sequence),
    subscribe: (listener) => on(emitter, listener),
    async close() {
      closed = true;
      unsubscribe();
      emitter.removeAllListeners();
    },
  };
}

function localEmitter(): EventEmitter {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0); // one listener per open stream: thousands are expected
  return emitter;
}

function on(emitter: EventEmitter, listener: LedgerListener): () => void {
  emitter.on(EVENT, listener);
  return () => emitter.off(EVENT, listener);
}
