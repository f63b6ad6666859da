// --help texts, made from the command list and the settings table.
import { settings } from '../config.js';
import type { Command } from './command.js';

export function programUsage(commands: readonly Command[]): string {
  const width = Math.max(...commands.map((c) => c.words.join(' ').length));
  return [
    'Zenith: a Horizon-compatible history, query and submission service for Stellar networks.',
    '',
    'Usage: zenith <command> [options]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.words.join(' ').padEnd(width)}  ${c.summary}`),
    '',
    'Run `zenith <command> --help` for its options. Every option can also be set by an environment variable.',
    '`zenith --version` prints the version.',
  ].join('\n');
}

/** The commands that begin with `prefix` (e.g. `db`): what `zenith db --help` lists. */
export function groupUsage(prefix: readonly string[], commands: readonly Command[]): string {
  const group = prefix.join(' ');
  const members = commands.filter((c) => c.words.length > prefix.length && prefix.every((w, i) => c.words[i] === w));
  const names = members.map((c) => [...c.words, ...(c.positionals ?? [])].join(' '));
  const width = Math.max(...names.map((name) => name.length));
  return [
    `Usage: zenith ${group} <subcommand> [options]`,
    '',
    'Subcommands:',
    ...members.map((c, i) => `  ${(names[i] ?? '').padEnd(width)}  ${c.summary}`),
    '',
    `Run \`zenith ${group} <subcommand> --help\` for its options.`,
  ].join('\n');
}

export function commandUsage(command: Command): string {
  const rows = command.settings.map((name) => {
    const setting = settings[name];
    const flag = `--${setting.flag}${setting.valueName ? ` ${setting.valueName}` : ''}`;
    const unset = setting.default === null || setting.default === false || (Array.isArray(setting.default) && setting.default.length === 0);
    const fallback = unset ? '' : ` (default ${String(setting.default)})`;
    return { flag, text: `${setting.help}${fallback} [${setting.env}]` };
  });
  const width = Math.max(0, ...rows.map((r) => r.flag.length));
  return [
    `Usage: zenith ${[...command.words, ...(command.positionals ?? [])].join(' ')}${rows.length ? ' [options]' : ''}`,
    '',
    command.description,
    ...(rows.length ? ['', 'Options:', ...rows.map((r) => `  ${r.flag.padEnd(width)}  ${r.text}`)] : []),
    `  ${'--help'.padEnd(width)}  show this text`,
  ].join('\n');
}
