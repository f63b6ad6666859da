import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../src/cli/args.js';

describe('parseArgs', () => {
  it('reads words, valued flags in both forms, boolean flags and help', () => {
    const parsed = parseArgs(['db', 'migrate', '--port', '9', '--data-dir=/x', '--manual-close', '--help']);
    expect(parsed.words).toEqual(['db', 'migrate']);
    expect(Object.fromEntries(parsed.flags)).toEqual({ port: '9', 'data-dir': '/x', 'manual-close': true });
    expect(parsed.help).toBe(true);
  });

  it('does not let a boolean flag swallow the next word', () => {
    expect(parseArgs(['--manual-close', 'start']).words).toEqual(['start']);
  });

  it('names a flag that lacks its value, and an unknown short option', () => {
    expect(() => parseArgs(['start', '--port'])).toThrow(/--port needs a value/);
    expect(() => parseArgs(['start', '--port', '--host', 'x'])).toThrow(/--port needs a value/);
    expect(() => parseArgs(['-x'])).toThrow(/unknown option -x/);
  });

  it('names an unknown long option instead of asking for its value', () => {
    expect(() => parseArgs(['start', '--bogus'])).toThrow(/^unknown option --bogus$/);
    expect(() => parseArgs(['start', '--bogus', '1'])).toThrow(/^unknown option --bogus$/);
    expect(() => parseArgs(['start', '--bogus=1'])).toThrow(/^unknown option --bogus$/);
  });

  it('reads --version and -v anywhere', () => {
    expect(parseArgs(['--version']).version).toBe(true);
    expect(parseArgs(['start', '--port', '1', '-v']).version).toBe(true);
    expect(parseArgs(['start']).version).toBe(false);
  });
});
