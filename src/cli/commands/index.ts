import type { Command } from '../command.js';
import { core } from './core.js';
import { dbMigrate } from './db_migrate.js';
import { dbReingest } from './db_reingest.js';
import { dbReset } from './db_reset.js';
import { ingest } from './ingest.js';
import { serve } from './serve.js';
import { start } from './start.js';

export const commands: Command[] = [start, serve, core, ingest, dbMigrate, dbReset, dbReingest];
