import { databaseTarget, openDatabase } from '../../db/database.js';
import { resetDatabase } from '../../db/migrate.js';
import type { Command } from '../command.js';

export const dbReset: Command = {
  words: ['db', 'reset'],
  summary: 'drop every table and migrate from scratch (all history is lost)',
  description:
    'Drops every table of the service in the database and applies all migrations again.\nThe history is gone afterwards; ingestion starts over.',
  settings: ['dataDir', 'databaseUrl', 'logLevel'],
  async run(config, logger) {
    const db = await openDatabase(databaseTarget(config));
    try {
      const applied = await resetDatabase(db);
      logger.info({ applied }, 'database reset');
    } finally {
      await db.close();
    }
    return 0;
  },
};
