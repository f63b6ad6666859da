// A fresh, migrated database for one test file: PGlite in memory, or a new database on the
// PostgreSQL server (TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres),
// chosen by ZENITH_TEST_DB (set per vitest project). drop() removes it again.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database, type DatabaseTarget } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrate.js';

export interface TestDatabase {
  db: Database;
  target: DatabaseTarget;
  drop(): Promise<void>;
}

export const testDbKind = (process.env.ZENITH_TEST_DB ?? 'pglite') as 'pglite' | 'postgres';

const serverUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export async function createTestDatabase(options: { migrated?: boolean } = {}): Promise<TestDatabase> {
  const migrated = options.migrated ?? true;
  if (testDbKind === 'pglite') {
    const target: DatabaseTarget = { kind: 'pglite', inMemory: true };
    const db = await openDatabase(target);
    if (migrated) await migrate(db);
    return { db, target, drop: () => db.close() };
  }
  const url = await createServerDatabase();
  const target: DatabaseTarget = { kind: 'postgres', url };
  const db = await openDatabase(target);
  if (migrated) await migrate(db);
  return {
    db,
    target,
    async drop() {
      await db.close();
      await dropServerDatabase(url);
    },
  };
}

/** Creates an empty database on the server and returns its URL. */
export async function createServerDatabase(): Promise<string> {
  const name = `zenith_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await withAdmin((admin) => admin.query(`CREATE DATABASE ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropServerDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

async function withAdmin<T>(work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}
