// Applies the hand-written migrations of prisma/migrations in name order, each in its own
// transaction together with its row in zenith_migrations, so a crash leaves each one either
// applied and recorded or not at all. Running it again applies nothing new. An advisory lock keeps
// several processes starting at once on one PostgreSQL from racing.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Database, SqlSession } from './database.js';

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

/** prisma/migrations, from src/db (tsx, tests) and from dist/db (built) alike */
export const MIGRATIONS_DIR = fileURLToPath(new URL('../../prisma/migrations', import.meta.url));

export const MIGRATIONS_TABLE = 'zenith_migrations';

// Any constant works; it only has to be the same in every Zenith process.
const MIGRATION_LOCK = 0x5a454e; // 'ZEN'

export function readMigrations(dir: string = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && /^\d{4}_[a-z0-9_]+$/.test(entry.name))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(`${dir}/${name}/migration.sql`, 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

export class MigrationError extends Error {
  override name = 'MigrationError';
}

/** Applies what is missing; returns the names of the migrations it applied. */
export async function migrate(db: Database, migrations: Migration[] = readMigrations()): Promise<string[]> {
  const applied: string[] = [];
  for (const migration of migrations) {
    const didApply = await db.transaction(async (sql) => {
      await sql.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      await sql.exec(
        `CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE} (
           name TEXT PRIMARY KEY,
           checksum TEXT NOT NULL,
           applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
         )`,
      );
      const done = await appliedChecksum(sql, migration.name);
      if (done !== undefined) {
        if (done !== migration.checksum) {
          throw new MigrationError(`migration ${migration.name} was changed after it was applied; add a new migration instead`);
        }
        return false;
      }
      await sql.exec(migration.sql);
      await sql.query(`INSERT INTO ${MIGRATIONS_TABLE} (name, checksum) VALUES ($1, $2)`, [migration.name, migration.checksum]);
      return true;
    });
    if (didApply) applied.push(migration.name);
  }
  return applied;
}

/** Drops every table of the service, then migrates from scratch. */
export async function resetDatabase(db: Database): Promise<string[]> {
  await db.transaction(async (sql) => {
    await sql.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await sql.exec('DROP SCHEMA public CASCADE; CREATE SCHEMA public;');
  });
  return migrate(db);
}

async function appliedChecksum(sql: SqlSession, name: string): Promise<string | undefined> {
  const rows = await sql.query<{ checksum: string }>(`SELECT checksum FROM ${MIGRATIONS_TABLE} WHERE name = $1`, [name]);
  return rows[0]?.checksum;
}
