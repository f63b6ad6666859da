// One ingester per database: on PostgreSQL, a session advisory lock held on a connection of its
// own for the ingester's lifetime (several API processes may share the database; one ingests).
// The lock goes with its connection, so a killed ingester frees it at once and a standby, polling
// for it, takes over. PGlite has one process per data folder already (the folder lock).
//
// The lock is for liveness, not for correctness: each ledger's commit moves the ingest cursor
// from the ledger it read (cursor.ts, the row locked FOR UPDATE), so even two ingesters writing
// at once could not skip a ledger or write one twice; the second would fail on the moved cursor.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Database, DedicatedConnection } from '../db/database.js';
import type { Logger } from '../logger.js';

// Any constant works; it only has to be the same in every Zenith process.
const INGEST_LOCK = 0x5a494e47; // 'ZING'

/** How often a standby tries the lock: the longest a takeover waits after the active one died. */
export const STANDBY_RETRY_MS = 1000;

export class IngestLockError extends Error {
  override name = 'IngestLockError';
}

export interface IngestLock {
  /** resolves with the reason if the lock is lost while held (its connection ended); never after release() */
  readonly lost: Promise<IngestLockError>;
  release(): Promise<void>;
}

const never = new Promise<never>(() => {});
const unlocked: IngestLock = { lost: never, release: async () => {} };

/** Takes the lock or throws (another ingester holds it). */
export async function acquireIngestLock(db: Database): Promise<IngestLock> {
  if (!db.connect) return unlocked;
  const connection = await db.connect();
  if (await tryLock(connection)) return held(connection);
  await connection.close();
  throw new IngestLockError('another ingester is running on this database (its advisory lock is taken)');
}

export interface StandbyOptions {
  /** ends the wait: the result is then null */
  signal?: AbortSignal;
  logger?: Logger;
  retryMs?: number;
}

/**
 * Takes the lock, waiting as a standby while another ingester holds it (and while the database
 * is unreachable): tries again every `retryMs` on one connection, a new one if it broke. Null
 * once `signal` aborts.
 */
export async function waitForIngestLock(db: Database, options: StandbyOptions = {}): Promise<IngestLock | null> {
  if (!db.connect) return unlocked;
  const { signal, logger } = options;
  let connection: DedicatedConnection | null = null;
  let standingBy = false;
  let failing = false;
  try {
    while (!signal?.aborted) {
      try {
        connection ??= await db.connect();
        if (await tryLock(connection)) {
          const lock = held(connection);
          connection = null;
          if (standingBy) logger?.info('took the ingest lock: this ingester is now the active one');
          return lock;
        }
        failing = false;
        if (!standingBy) logger?.info('standing by: another ingester holds the ingest lock; taking over when it stops');
        standingBy = true;
      } catch (error) {
        // the database is unreachable or the connection broke: a new one on the next try
        if (!failing) logger?.warn({ err: error }, 'standing by: the database connection failed; trying again');
        failing = true;
        await connection?.close();
        connection = null;
      }
      await sleep(options.retryMs ?? STANDBY_RETRY_MS, undefined, { signal }).catch(() => {});
    }
    return null;
  } finally {
    await connection?.close();
  }
}

async function tryLock(connection: DedicatedConnection): Promise<boolean> {
  try {
    const rows = await connection.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [INGEST_LOCK]);
    if (rows[0]?.locked === true) return true;
  } catch (error) {
    await connection.close();
    throw error;
  }
  return false;
}

function held(connection: DedicatedConnection): IngestLock {
  let released = false;
  return {
    lost: connection.ended.then(() =>
      released ? never : new IngestLockError('the ingest lock was lost (its database connection ended): another ingester may take over'),
    ),
    async release() {
      released = true;
      // the lock ends with its session
      await connection.close();
    },
  };
}
