import type { Command } from '../command.js';
import { core } from './core.js';
import { dbMigrate } from './db_migrate.js';
import { dbReset } from './db_reset.js';
import { start } from './start.js';

export const commands: Command[] = [start, core, dbMigrate, dbReset];
