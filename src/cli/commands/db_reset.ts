import { createInterface } from 'node:readline/promises';
import { ConfigError } from '../../config.js';
import { databaseTarget, describeTarget, openDatabase } from '../../db/database.js';
import { resetDatabase } from '../../db/migrate.js';
import type { Command } from '../command.js';

export const dbReset: Command = {
  words: ['db', 'reset'],
  summary: 'drop every table and migrate from scratch (all history is lost)',
  description:
    'Drops every table of the service in the database and applies all migrations again.\n' +
    'The history is gone afterwards; ingestion starts over. It asks first on a terminal;\n' +
    'elsewhere (a script, a pipe) it needs --yes.',
  settings: ['dataDir', 'databaseUrl', 'yes', 'logLevel'],
  async run(config, logger) {
    const target = databaseTarget(config);
    const where = describeTarget(target);
    if (!config.yes) {
      if (!process.stdin.isTTY) {
        throw new ConfigError(
          'yes',
          `zenith db reset drops all history in ${where}: give --yes to confirm (stdin is not a terminal to ask)`,
        );
      }
      if (!(await confirm(`This drops every table in ${where}; all history is lost. Type "yes" to go on: `))) {
        process.stderr.write('zenith: the database was not reset\n');
        return 1;
      }
    }
    const db = await openDatabase(target);
    try {
      const applied = await resetDatabase(db);
      logger.info({ database: where, applied }, 'database reset');
    } finally {
      await db.close();
    }
    return 0;
  },
};

/** Asks on the terminal; anything but "yes", Ctrl-C or Ctrl-D is a no. */
async function confirm(question: string): Promise<boolean> {
  const terminal = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await new Promise<boolean>((resolve) => {
      terminal.once('close', () => resolve(false));
      terminal.once('SIGINT', () => resolve(false));
      terminal.question(question).then(
        (answer) => resolve(answer.trim().toLowerCase() === 'yes'),
        () => resolve(false),
      );
    });
  } finally {
    terminal.close();
  }
}
