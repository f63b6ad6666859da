// The layout's rules, read from the sources. Data flows one way (docs/ARCHITECTURE.md): each folder
// of src/ imports only the folders below it — the protocol floor at the bottom, the command line
// at the top — and REST depends on the GraphQL schema, never the reverse. And graphql-js is used
// through its public entry only: its deep modules (graphql/execution/..., graphql/jsutils/...) are
// internals an upgrade may move without a word (src/api/rest/executor_run.ts writes the little the
// REST executor needs).
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
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

/** what each folder may import (besides itself, src/generated and the process-level files at the root of src/) */
const LAYERS: Record<string, readonly string[]> = {
  stellar: [],
  meta: ['stellar'],
  support: [],
  metrics: [],
  core: ['stellar', 'meta', 'support'],
  db: ['support'],
  events: ['db'],
  ingest: ['stellar', 'meta', 'db', 'metrics', 'support'],
  market: ['stellar', 'db'],
  txsub: ['stellar', 'metrics'],
  friendbot: ['stellar', 'txsub', 'events'],
  'api/follow': ['events'],
  'api/schema': ['api', 'api/follow', 'stellar', 'db', 'events', 'market', 'txsub'],
  'api/rest': ['api', 'api/follow', 'api/schema', 'stellar', 'db', 'events', 'market', 'metrics', 'txsub', 'friendbot'],
  api: ['api/follow', 'api/schema', 'api/rest', 'stellar', 'db', 'events', 'market', 'metrics', 'support', 'txsub', 'friendbot'],
  cli: ['api', 'stellar', 'meta', 'core', 'db', 'events', 'ingest', 'market', 'metrics', 'support', 'txsub', 'friendbot'],
};

/** the layer of a file under src/: its top folder (api's subfolders apart), or null for the root files */
function layer(file: string): string | null {
  const parts = relative(src, file).split(sep);
  if (parts.length === 1) return null;
  return parts[0] === 'api' && parts.length > 2 ? `api/${parts[1]}` : parts[0]!;
}

/** the relative module paths a source imports or re-exports (`from '…'`, `import '…'`, `import('…')`) */
const relativeImports = (text: string): string[] =>
  [...text.matchAll(/\b(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']*)'/g)].map((match) => match[1]!);

describe('the layout', () => {
  it('has every folder of src/ in the layer table', () => {
    const folders = new Set(sources(src).flatMap((file) => layer(file) ?? []));
    expect([...folders].filter((folder) => !(folder in LAYERS))).toEqual([]);
  });

  it('(the check sees every form of a relative import)', () => {
    const text =
      "import { a } from './a.js';\nimport type { B } from '../b.js';\nimport './c.js';\nexport * from '../d/e.js';\nawait import('./f.js');";
    expect(relativeImports(text)).toEqual(['./a.js', '../b.js', './c.js', '../d/e.js', './f.js']);
  });

  it('imports only downward', () => {
    const wrong = sources(src).flatMap((file) => {
      const from = layer(file);
      if (from === null) return [];
      return relativeImports(readFileSync(file, 'utf8')).flatMap((path) => {
        const target = resolve(dirname(file), path);
        if (target.startsWith(join(src, 'generated'))) return [];
        const to = layer(target);
        if (to === null || to === from || LAYERS[from]?.includes(to)) return [];
        return [`${relative(src, file)} (${from}) imports ${path} (${to})`];
      });
    });
    expect(wrong).toEqual([]);
  });
});

describe('the explorer', () => {
  const web = fileURLToPath(new URL('../web/explorer', import.meta.url));
  const browserSources = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return browserSources(path);
      return /\.tsx?$/.test(entry.name) ? [path] : [];
    });

  it('is a client of the API only: its sources import nothing outside web/explorer/', () => {
    const outside = browserSources(web).flatMap((file) =>
      relativeImports(readFileSync(file, 'utf8'))
        .filter((path) => !resolve(dirname(file), path).startsWith(web + sep))
        .map((path) => `${relative(web, file)} imports ${path}`),
    );
    expect(outside).toEqual([]);
  });

  it('is served, not imported, by the server', () => {
    const found = sources(src).filter((file) => relativeImports(readFileSync(file, 'utf8')).some((path) => path.includes('web/')));
    expect(found).toEqual([]);
  });
});

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
