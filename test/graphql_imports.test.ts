// graphql-js is used through its public entry only: its deep modules (graphql/execution/...,
// graphql/jsutils/...) are internals an upgrade may move or change without a word. The REST
// executor once was built on them (src/api/rest/executor_run.ts writes the little it needs).
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = fileURLToPath(new URL('../src', import.meta.url));
// the Prisma client is generated, not ours
const skipped = new Set([join(src, 'generated')]);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return skipped.has(path) ? [] : sources(path);
    return /\.[cm]?[jt]s$/.test(entry.name) ? [path] : [];
  });
}

/** the graphql/... module paths a source names (import, export, import(), require()) */
const deepImports = (text: string): string[] => [...text.matchAll(/['"`](graphql\/[^'"`]*)['"`]/g)].map((match) => match[1]!);

describe('graphql-js', () => {
  it('is imported from its public entry only, everywhere under src/', () => {
    const found = sources(src).flatMap((file) => deepImports(readFileSync(file, 'utf8')).map((path) => `${relative(src, file)}: ${path}`));
    expect(found).toEqual([]);
  });

  it('(the check sees every form of a deep import)', () => {
    const text = [
      "import { collectFields } from 'graphql/execution/collectFields.js';",
      'export { inspect } from "graphql/jsutils/inspect";',
      "const Path = await import('graphql/jsutils/Path.js');",
      "require('graphql/language/index.js');",
      "import { execute } from 'graphql'; import { createYoga } from 'graphql-yoga';",
    ].join('\n');
    expect(deepImports(text)).toEqual([
      'graphql/execution/collectFields.js',
      'graphql/jsutils/inspect',
      'graphql/jsutils/Path.js',
      'graphql/language/index.js',
    ]);
  });
});
