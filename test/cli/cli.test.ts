// The command line as a user meets it: help texts, exit code 2 for bad usage naming the setting.
import { describe, expect, it } from 'vitest';
import { ZENITH_VERSION } from '../../src/version.js';
import { runZenith } from '../support/cli.js';

// every test starts zenith processes, seconds each on a busy machine: the timeout bounds a hang
describe('zenith', { timeout: 120_000 }, () => {
  it('prints usage with --help, listing its commands', async () => {
    const { code, stdout } = await runZenith(['--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/Usage: zenith <command>/);
    expect(stdout).toMatch(/start/);
    expect(stdout).toMatch(/db migrate/);
  });

  it('prints a command’s options with db migrate --help', async () => {
    const { code, stdout } = await runZenith(['db', 'migrate', '--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/Usage: zenith db migrate/);
    expect(stdout).toMatch(/--database-url URL/);
    expect(stdout).toMatch(/DATABASE_URL/);
  });

  it('exits 2 naming port for start --port abc', async () => {
    const { code, stderr } = await runZenith(['start', '--port', 'abc']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/port/);
    expect(stderr).toMatch(/abc/);
  });

  it('exits 2 for a bad environment value, an unknown option or command', async () => {
    expect((await runZenith(['start'], { LOG_LEVEL: 'loud' })).code).toBe(2);
    const unknownOption = await runZenith(['db', 'migrate', '--port', '1']);
    expect(unknownOption.code).toBe(2);
    expect(unknownOption.stderr).toMatch(/unknown option --port/);
    const unknownCommand = await runZenith(['launch']);
    expect(unknownCommand.code).toBe(2);
    expect(unknownCommand.stderr).toMatch(/unknown command "launch"/);
  });

  it('prints the version with --version or -v, anywhere on the command line', async () => {
    for (const args of [['--version'], ['start', '--version'], ['db', 'migrate', '-v']]) {
      const { code, stdout } = await runZenith(args);
      expect(code, args.join(' ')).toBe(0);
      expect(stdout).toBe(`zenith ${ZENITH_VERSION}\n`);
    }
  });

  it('names an unknown option of a command: exit 2, not a missing value', async () => {
    const { code, stderr } = await runZenith(['start', '--bogus']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^zenith: unknown option --bogus$/m);
  });

  it('lists a group’s subcommands: db --help exits 0, db alone exits 2', async () => {
    const help = await runZenith(['db', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Usage: zenith db <subcommand>/);
    for (const sub of ['db migrate', 'db reset', 'db reingest FROM TO']) expect(help.stdout).toContain(`  ${sub}  `);
    const alone = await runZenith(['db']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toMatch(/^zenith: missing subcommand after "db"/m);
    expect(alone.stderr).toMatch(/db reingest FROM TO/);
  });
});
