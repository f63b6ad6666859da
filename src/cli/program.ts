// The `zenith` command line behind src/main.ts (which checks the Node version first): the command
// found from the words, its settings loaded, then run. Exit codes: 0 done, 1 runtime failure, 2 bad
// usage or configuration.
import { parseArgs } from './args.js';
import type { Command } from './command.js';
import { commands } from './commands/index.js';
import { commandUsage, groupUsage, programUsage } from './usage.js';
import { ConfigError, givenSettings, loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { ZENITH_VERSION } from '../version.js';

/** Runs the command line `argv` (without node and the script); resolves to the process's exit code. */
export async function runCli(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs(argv);
  } catch (error) {
    return usageError(error);
  }
  const { words, flags, help, version } = parsed;
  if (version) {
    process.stdout.write(`zenith ${ZENITH_VERSION}\n`);
    return 0;
  }
  if (words.length === 0 || words[0] === 'help') {
    const asked = words.slice(1);
    const topic = findCommand(asked);
    const group = topic ? undefined : findGroup(asked);
    process.stdout.write(`${topic ? commandUsage(topic) : group ? groupUsage(group, commands) : programUsage(commands)}\n`);
    return 0;
  }
  const command = findCommand(words);
  if (!command) {
    // `zenith db`: the words of a group of commands, without which one
    const group = findGroup(words);
    if (group?.length === words.length) {
      if (help) {
        process.stdout.write(`${groupUsage(group, commands)}\n`);
        return 0;
      }
      process.stderr.write(`zenith: missing subcommand after "${group.join(' ')}"\n\n${groupUsage(group, commands)}\n`);
      return 2;
    }
    const usage = group ? groupUsage(group, commands) : programUsage(commands);
    process.stderr.write(`zenith: unknown command "${words.join(' ')}"\n\n${usage}\n`);
    return 2;
  }
  if (help) {
    process.stdout.write(`${commandUsage(command)}\n`);
    return 0;
  }
  const positionals = words.slice(command.words.length);
  const expected = command.positionals ?? [];
  let config: ReturnType<typeof loadConfig>;
  let given: ReturnType<typeof givenSettings>;
  try {
    if (positionals.length !== expected.length) {
      throw new ConfigError(
        expected.join(' ') || command.words.join(' '),
        expected.length ? `expected ${expected.join(' ')} after "${command.words.join(' ')}"` : `unexpected "${positionals.join(' ')}"`,
      );
    }
    config = loadConfig(command.settings, flags);
    given = givenSettings(command.settings, flags);
  } catch (error) {
    return usageError(error, command);
  }
  const logger = createLogger(config.logLevel);
  try {
    return await command.run(config, logger, positionals, given);
  } catch (error) {
    if (error instanceof ConfigError) return usageError(error, command);
    logger.fatal({ err: error }, error instanceof Error ? error.message : 'failed');
    return 1;
  }
}

/** The longest beginning of `words` that begins commands with more words (`db` of `db migrate`). */
function findGroup(words: string[]): string[] | undefined {
  for (let length = words.length; length > 0; length--) {
    const prefix = words.slice(0, length);
    if (commands.some((c) => c.words.length > length && prefix.every((w, i) => c.words[i] === w))) return prefix;
  }
  return undefined;
}

/** The command whose words begin the command line, the longest such (words after it are positionals). */
function findCommand(words: string[]): Command | undefined {
  return commands.filter((c) => c.words.every((w, i) => w === words[i])).sort((a, b) => b.words.length - a.words.length)[0];
}

function usageError(error: unknown, command?: Command): number {
  if (!(error instanceof ConfigError)) throw error;
  const hint = command ? `zenith ${command.words.join(' ')} --help` : 'zenith --help';
  process.stderr.write(`zenith: ${error.message}\nSee \`${hint}\`.\n`);
  return 2;
}
