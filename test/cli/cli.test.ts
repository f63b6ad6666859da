// The command line as a user meets it: help texts, exit code 2 for bad usage naming the setting.
import { describe, expect, it } from 'vitest';
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
});
