// Every command line and flag in README.md is real. The `zenith ...`, `npx zenith ...` and
// `npm start -- ...` lines of its code blocks, its inline code and its commands table name commands
// that `zenith --help` lists, with the flags and positionals their `--help` shows; the commands
// table lists exactly the commands, and the configuration table exactly the flags the commands take
// (with their variables and defaults). The CLI's texts come from running it, as a user would.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { settings } from '../src/config.js';
import { runZenith } from './support/cli.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> };

interface Option {
  /** takes a value (a value name follows the flag in --help) */
  value: boolean;
  env: string | null;
  default: string | null;
}

interface Usage {
  positionals: string[];
  options: Map<string, Option>;
}

/** command words ('db reingest') → what its --help says */
const usages = new Map<string, Usage>();
let programHelp = '';

beforeAll(async () => {
  const program = await runZenith(['--help']);
  expect(program.code).toBe(0);
  programHelp = program.stdout;
  const listed = listedCommands(programHelp);
  const helps = await Promise.all(listed.map((words) => runZenith([...words.split(' '), '--help'])));
  listed.forEach((words, i) => {
    expect(helps[i]?.code, `zenith ${words} --help`).toBe(0);
    usages.set(words, parseUsage(words, helps[i]?.stdout ?? ''));
  });
}, 120_000);

/** the first column of the Commands: section of `zenith --help` */
function listedCommands(help: string): string[] {
  const section = help.split('\nCommands:\n')[1]?.split('\n\n')[0] ?? '';
  return section
    .split('\n')
    .map((line) => line.trim().split(/\s{2,}/)[0] ?? '')
    .filter((words) => words !== '');
}

function parseUsage(words: string, help: string): Usage {
  const head = /^Usage: zenith (.*?)(?: \[options\])?$/m.exec(help)?.[1] ?? '';
  expect(head.startsWith(words), `the usage line of zenith ${words}`).toBe(true);
  const positionals = head.slice(words.length).split(' ').filter(Boolean);
  const options = new Map<string, Option>();
  for (const line of help.split('\n')) {
    const found = /^ {2}(--[a-z][a-z-]*)( [A-Z]+)? {2,}(.*)$/.exec(line);
    if (!found) continue;
    const [, flag = '', value, text = ''] = found;
    options.set(flag, {
      value: value !== undefined,
      env: /\[([A-Z][A-Z0-9_]*)\]$/.exec(text)?.[1] ?? null,
      default: /\(default ([^)]*)\)(?: \[[A-Z0-9_]+\])?$/.exec(text)?.[1] ?? null,
    });
  }
  return { positionals, options };
}

// README.md, taken apart

const fences = [...readme.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)];
const prose = readme.replace(/^```\w*\n[\s\S]*?^```$/gm, '');
const shellLines = fences
  .filter(([, lang]) => lang === 'sh' || lang === 'bash' || lang === '')
  .flatMap(([, , body = '']) => body.replace(/\\\n\s*/g, ' ').split('\n'))
  .map((line) => line.replace(/\s+#.*$/, ''))
  .flatMap((line) => line.split(/&&|\|\||;|\|/))
  .map((part) => part.trim());
const spans = [...prose.matchAll(/`([^`\n]+)`/g)]
  // stellar-core's own flags (`--metadata-output-stream`) are not zenith's
  .filter((m) => !prose.slice(0, m.index).endsWith("stellar-core's "))
  .map((m) => m[1] ?? '');

function table(header: string[]): string[][] {
  const lines = readme.split('\n');
  const start = lines.findIndex((line) => cells(line).join('|') === header.join('|'));
  expect(start, `a table headed ${header.join(' | ')}`).toBeGreaterThanOrEqual(0);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(cells(line));
  }
  return rows;
}

function cells(line: string): string[] {
  const row = line.trim();
  return row.startsWith('|')
    ? row
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim())
    : [];
}

const code = (cell: string): string[] => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? '');

const isZenith = (text: string) => /^(npx )?zenith(\s|$)/.test(text) || /^npm start(\s|$)/.test(text);

/** what a README command line asks of the CLI; a problem as a sentence, or null */
function check(line: string): string | null {
  const tokens = line.match(/"[^"]*"|'[^']*'|\S+/g) ?? [];
  let args: string[];
  if (tokens[0] === 'npm') {
    // npm start runs `zenith start`; its options reach zenith only after `--`
    const rest = tokens.slice(2);
    if (rest.length > 0 && rest[0] !== '--') return `npm start passes options to zenith only after --`;
    args = ['start', ...rest.slice(1)];
  } else {
    args = tokens.slice(tokens[0] === 'npx' ? 2 : 1);
  }
  const leading: string[] = [];
  for (const arg of args) {
    if (arg.startsWith('-')) break;
    leading.push(arg);
  }
  const flags = args.slice(leading.length);
  if (leading.some((word) => /^<.*>$/.test(word))) {
    // a placeholder (`zenith <command> --help`): the flags must exist somewhere
    const known = new Set([...usages.values()].flatMap((usage) => [...usage.options.keys()]));
    return checkFlags(flags, (flag) => known.has(flag));
  }
  const words = [...usages.keys()]
    .filter((candidate) => candidate.split(' ').every((word, i) => leading[i] === word))
    .sort((a, b) => b.length - a.length)[0];
  if (words === undefined) {
    if (leading.length === 0) return checkFlags(flags, (flag) => flag === '--help');
    return `"zenith ${leading.join(' ')}" is no command of zenith --help`;
  }
  const usage = usages.get(words)!;
  const positionals = leading.slice(words.split(' ').length);
  // naming the command alone, or giving all its positionals
  if (positionals.length !== 0 && positionals.length !== usage.positionals.length) {
    return `zenith ${words} takes ${usage.positionals.join(' ') || 'no positionals'}, not "${positionals.join(' ')}"`;
  }
  return checkFlags(flags, (flag) => usage.options.has(flag), usage);
}

function checkFlags(flags: string[], exists: (flag: string) => boolean, usage?: Usage): string | null {
  for (let i = 0; i < flags.length; i++) {
    const token = flags[i] ?? '';
    if (/^<.*>$/.test(token)) continue; // <options>
    if (!token.startsWith('--')) return `"${token}" is neither a flag nor a flag's value`;
    const flag = token.split('=')[0] ?? token;
    if (!exists(flag)) return `${flag} is not an option here`;
    if (usage?.options.get(flag)?.value && !token.includes('=')) i++; // its value
  }
  return null;
}

describe('README', () => {
  it('runs only commands and flags the CLI has, in its code blocks and its inline code', () => {
    const lines = [...shellLines.filter(isZenith), ...spans.filter(isZenith)];
    expect(lines.length).toBeGreaterThan(3);
    expect(lines.map((line) => [line, check(line)]).filter(([, problem]) => problem !== null)).toEqual([]);
  });

  it('lists every command of zenith --help in its commands table, and no other', () => {
    const rows = table(['command', 'what it does']);
    const documented = rows.map(([command = '']) => code(command)[0] ?? '');
    expect(documented.map((line) => [line, check(line)]).filter(([, problem]) => problem !== null)).toEqual([]);
    const names = documented.map((line) => line.replace(/^zenith /, '').replace(/( [A-Z]+)+$/, ''));
    expect([...names].sort()).toEqual([...usages.keys()].sort());
    // the flags a row mentions are that command's
    for (const [i, row] of rows.entries()) {
      const usage = usages.get(names[i] ?? '')!;
      for (const flag of code(row.join(' ')).filter((text) => text.startsWith('--'))) {
        expect(usage.options.has(flag.split(' ')[0] ?? ''), `${flag} in the row of zenith ${names[i]}`).toBe(true);
      }
    }
  });

  it('lists exactly the flags the commands take in its configuration table, with their variables and defaults', () => {
    const rows = table(['flag', 'variable', 'default', 'meaning']);
    const options = new Map<string, Option>();
    for (const usage of usages.values()) for (const [flag, option] of usage.options) if (flag !== '--help') options.set(flag, option);
    const documented = rows.map(([flag = '']) => code(flag)[0] ?? flag);
    expect([...documented].sort()).toEqual([...options.keys()].sort());
    for (const [flag = '', variable = '', fallback = ''] of rows) {
      const option = options.get(code(flag)[0] ?? '');
      if (!option) continue;
      expect(code(variable)[0] ?? variable, `the variable of ${flag}`).toBe(option.env ?? '—');
      if (option.default !== null) expect(fallback, `the default of ${flag}`).toBe(option.default);
      else expect(['—', 'false'], `the default of ${flag}`).toContain(fallback);
    }
  });

  it.each(Object.values(settings).map((s) => [s.flag, s.env]))('documents --%s and %s', (flag, env) => {
    expect(readme).toContain(`| \`--${flag}\` | \`${env}\` |`);
  });

  it('mentions flags only where a command takes them, and npm scripts that exist', () => {
    const known = new Set([...usages.values()].flatMap((usage) => [...usage.options.keys()]));
    const flags = spans.filter((span) => /^--[a-z]/.test(span)).map((span) => span.split(/[ =]/)[0] ?? span);
    expect(flags.filter((flag) => !known.has(flag))).toEqual([]);
    const scripts = [...readme.matchAll(/npm run (?:--silent )?([a-z][\w:-]*)/g)].map((m) => m[1] ?? '');
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((script) => !(script in packageJson.scripts))).toEqual([]);
    expect(programHelp).toContain('Usage: zenith <command>');
  });
});
