// One ingester per database: on PostgreSQL, a session advisory lock held on its own connection
// for the ingester's lifetime (several API processes may share the database; one ingests). PGlite
// has one process per data folder already (the folder lock).
import type { Database } from '../db/database.js';

// Any constant works; it only has to be the same in every Zenith process.
const INGEST_LOCK = 0x5a494e47; // 'ZING'

export class IngestLockError extends Error {
  override name = 'IngestLockError';
}

/** Takes the lock or throws; resolves with its release. */
export async function acquireIngestLock(db: Database): Promise<() => Promise<void>> {
  if (db.kind !== 'postgres') return async () => {};
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let acquired: (ok: boolean) => void = () => {};
  const result = new Promise<boolean>((resolve) => {
    acquired = resolve;
  });
  const holder = db
    .session(async (sql) => {
      const rows = await sql.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [INGEST_LOCK]);
      const locked = rows[0]?.locked === true;
      acquired(locked);
      if (!locked) return;
      await released;
      // the connection goes back to the pool: the session lock must not go with it
      await sql.query('SELECT pg_advisory_unlock($1)', [INGEST_LOCK]);
    })
    .catch(() => acquired(false));
  if (!(await result)) {
    await holder;
    throw new IngestLockError('another ingester is running on this database (its advisory lock is taken)');
  }
  return async () => {
    release();
    await holder;
  };
}
