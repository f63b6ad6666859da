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
  /** names of the words that follow the command, e.g. FROM and TO; all are required */
  positionals?: readonly string[];
  /**
   * resolves with the exit code when the command is done; a ConfigError means bad usage (exit 2).
   * `given`: the settings the command line or the environment set (the others are defaults).
   */
  run(config: Config, logger: Logger, positionals: string[], given: ReadonlySet<SettingName>): Promise<number>;
}
