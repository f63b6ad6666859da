import type { Command } from '../command.js';
import { openMigratedDatabase } from '../database.js';

export const dbMigrate: Command = {
  words: ['db', 'migrate'],
  summary: 'apply the database migrations that are missing',
  description:
    'Applies the migrations of prisma/migrations that the database does not have yet, each in\none transaction. Running it again does nothing.',
  settings: ['dataDir', 'databaseUrl', 'logLevel'],
  async run(config, logger) {
    const db = await openMigratedDatabase(config, logger);
    await db.close();
    return 0;
  },
};
