// The README's configuration table names every setting, by flag and by variable.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { settings } from '../src/config.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

describe('README', () => {
  it.each(Object.values(settings).map((s) => [s.flag, s.env]))('documents --%s and %s', (flag, env) => {
    expect(readme).toContain(`| \`--${flag}\` | \`${env}\` |`);
  });
});
