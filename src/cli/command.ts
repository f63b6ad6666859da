// What a CLI command is: its words, the settings it reads, and what it does.
import type { Config, SettingName } from '../config.js';
import type { Logger } from '../logger.js';

export interface Command {
  /** e.g. ['db', 'migrate'] */
  words: string[];
  summary: string;
  /** a paragraph shown by --help */
  description: string;
  settings: SettingName[];
  /** resolves with the exit code when the command is done */
  run(config: Config, logger: Logger): Promise<number>;
}
