// The commands' way to the configured database: open it and bring its schema up to date.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, type Config } from '../config.js';
import { databaseTarget, describeTarget, openDatabase, type Database } from '../db/database.js';
import { migrate } from '../db/migrate.js';
import type { Logger } from '../logger.js';

export interface OpenMigratedOptions {
  /**
   * May an embedded database be created where there is none? Commands that write history may;
   * `zenith serve` must not, or a mistyped --data-dir would serve an empty history.
   */
  create?: boolean;
}

export async function openMigratedDatabase(config: Config, logger: Logger, options: OpenMigratedOptions = {}): Promise<Database> {
  const target = databaseTarget(config);
  if (options.create === false && target.kind === 'pglite' && 'dataDir' in target && !existsSync(join(target.dataDir, 'PG_VERSION'))) {
    throw new ConfigError(
      'data-dir',
      `--data-dir ${config.dataDir}: no database at ${target.dataDir} — run \`zenith start\` or \`zenith ingest\` first, or give --database-url`,
    );
  }
  const db = await openDatabase(target);
  try {
    const applied = await migrate(db);
    logger.info(
      { database: describeTarget(target), applied },
      applied.length ? `applied ${applied.length} migration(s)` : 'database schema is up to date',
    );
    return db;
  } catch (error) {
    await db.close();
    throw error;
  }
}

/**
 * The read replica of --database-ro-url, or null. It needs --database-url (its primary, which
 * migrations, writes and the ledger signal go to); the replica gets the schema through replication.
 */
export async function openReadReplica(config: Config): Promise<Database | null> {
  if (!config.databaseRoUrl) return null;
  if (!config.databaseUrl) throw new ConfigError('database-ro-url', '--database-ro-url is a replica of --database-url: give both');
  return openDatabase({ kind: 'postgres', url: config.databaseRoUrl });
}
