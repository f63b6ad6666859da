import type { Command } from '../command.js';
import { core } from './core.js';
import { dbMigrate } from './db_migrate.js';
import { dbReingest } from './db_reingest.js';
import { dbReset } from './db_reset.js';
import { ingest } from './ingest.js';
import { start } from './start.js';

export const commands: Command[] = [start, core, ingest, dbMigrate, dbReset, dbReingest];
