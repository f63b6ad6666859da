#!/usr/bin/env node
// The `zenith` command line. Exit codes: 0 done, 1 runtime failure, 2 bad usage or configuration.
import { parseArgs } from './cli/args.js';
import type { Command } from './cli/command.js';
import { commands } from './cli/commands/index.js';
import { commandUsage, programUsage } from './cli/usage.js';
import { ConfigError, loadConfig } from './config.js';
import { createLogger } from './logger.js';

async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs(argv);
  } catch (error) {
    return usageError(error);
  }
  const { words, flags, help } = parsed;
  if (words.length === 0 || words[0] === 'help') {
    if (words.length === 0 && !help && flags.size === 0) {
      process.stdout.write(`${programUsage(commands)}\n`);
      return 0;
    }
    const topic = words[0] === 'help' ? findCommand(words.slice(1)) : undefined;
    process.stdout.write(`${topic ? commandUsage(topic) : programUsage(commands)}\n`);
    return 0;
  }
  const command = findCommand(words);
  if (!command) {
    process.stderr.write(`zenith: unknown command "${words.join(' ')}"\n\n${programUsage(commands)}\n`);
    return 2;
  }
  if (help) {
    process.stdout.write(`${commandUsage(command)}\n`);
    return 0;
  }
  const positionals = words.slice(command.words.length);
  const expected = command.positionals ?? [];
  let config: ReturnType<typeof loadConfig>;
  try {
    if (positionals.length !== expected.length) {
      throw new ConfigError(
        expected.join(' ') || command.words.join(' '),
        expected.length ? `expected ${expected.join(' ')} after "${command.words.join(' ')}"` : `unexpected "${positionals.join(' ')}"`,
      );
    }
    config = loadConfig(command.settings, flags);
  } catch (error) {
    return usageError(error, command);
  }
  const logger = createLogger(config.logLevel);
  try {
    return await command.run(config, logger, positionals);
  } catch (error) {
    if (error instanceof ConfigError) return usageError(error, command);
    logger.fatal({ err: error }, error instanceof Error ? error.message : 'failed');
    return 1;
  }
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

process.exitCode = await main(process.argv.slice(2));
