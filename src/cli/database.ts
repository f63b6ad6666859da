// The commands' way to the configured database: open it and bring its schema up to date.
import type { Config } from '../config.js';
import { databaseTarget, describeTarget, openDatabase, type Database } from '../db/database.js';
import { migrate } from '../db/migrate.js';
import type { Logger } from '../logger.js';

export async function openMigratedDatabase(config: Config, logger: Logger): Promise<Database> {
  const target = databaseTarget(config);
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
