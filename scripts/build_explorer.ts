// Bundles the network explorer (web/explorer/) into dist/explorer/ with esbuild, at install and
// build time (`npm run build`), so the server reads nothing from the internet and builds nothing:
// assets/ holds every file under a name carrying its content's hash (the server gives them a year
// of immutable caching), each also precompressed (.br, .gz), index.html names the entry's script
// and stylesheet, and manifest.json lists what the server may serve. The SDK that signs payments
// is imported dynamically by the page, so it is a chunk of its own, loaded only when used.
// `npm run build` (so `npm start`) skips it when the manifest says it was made from the same files.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SOURCE = join(ROOT, 'web', 'explorer');
const ENTRY = join(SOURCE, 'src', 'main.tsx');
export const EXPLORER_OUT = join(ROOT, 'dist', 'explorer');
/** where the assets are served from (src/api/explorer.ts) */
const ASSETS_URL = '/explorer/assets/';

/** dist/explorer/manifest.json */
export interface ExplorerManifest {
  /** the entry script, the chunks it imports and its stylesheet, as index.html names them */
  entry: { script: string; preload: string[]; style: string };
  /** every file under assets/ with its size in bytes (before compression) */
  assets: Record<string, number>;
  /** what it was made from (`sourceDigest`) */
  source: string;
}

/** A digest of what the bundle is made of: web/explorer/, this script, and the lock file (the packages it bundles). */
export function sourceDigest(): string {
  const hash = createHash('sha256');
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true })
      .sort((a, b) => a.name.localeCompare(b.name))
      .flatMap((entry) => (entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)]));
  for (const file of [...files(SOURCE), fileURLToPath(import.meta.url), join(ROOT, 'package-lock.json')]) {
    hash.update(relative(ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

/** Bundles the explorer into `outdir` (emptied first); answers its manifest. */
export async function buildExplorer(outdir = EXPLORER_OUT): Promise<ExplorerManifest> {
  const source = sourceDigest();
  rmSync(outdir, { recursive: true, force: true });
  const assetsDir = join(outdir, 'assets');
  mkdirSync(assetsDir, { recursive: true });
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: { main: ENTRY },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    sourcemap: false,
    jsx: 'automatic',
    jsxImportSource: 'preact',
    // the GraphQL documents, as the text the page sends
    loader: { '.graphql': 'text' },
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    assetNames: '[name]-[hash]',
    outdir: assetsDir,
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
    tsconfig: join(SOURCE, 'tsconfig.json'),
  });
  const assets: Record<string, number> = {};
  let script = '';
  let style = '';
  let preload: string[] = [];
  for (const [path, output] of Object.entries(result.metafile.outputs)) {
    const name = basename(path);
    assets[name] = output.bytes;
    // (a module the page imports dynamically is an entry point of esbuild's too)
    if (output.entryPoint && join(ROOT, output.entryPoint) === ENTRY) {
      script = name;
      if (output.cssBundle) style = basename(output.cssBundle);
      // the chunks the entry needs before it runs (not those it imports when a form is used)
      preload = output.imports.filter((found) => found.kind === 'import-statement').map((found) => basename(found.path));
    }
  }
  if (!script || !style) throw new Error(`esbuild gave no entry script or stylesheet: ${Object.keys(assets).join(', ')}`);
  for (const name of Object.keys(assets)) {
    const bytes = readFileSync(join(assetsDir, name));
    writeFileSync(join(assetsDir, `${name}.br`), brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
    writeFileSync(join(assetsDir, `${name}.gz`), gzipSync(bytes, { level: 9 }));
  }
  const template = readFileSync(join(SOURCE, 'index.html'), 'utf8');
  const head = [
    `<link rel="stylesheet" href="${ASSETS_URL}${style}">`,
    ...preload.map((name) => `<link rel="modulepreload" href="${ASSETS_URL}${name}">`),
    `<script type="module" src="${ASSETS_URL}${script}"></script>`,
  ].join('\n');
  if (!template.includes('<!-- build:head -->')) throw new Error('web/explorer/index.html has no <!-- build:head --> mark');
  writeFileSync(join(outdir, 'index.html'), template.replace('<!-- build:head -->', head));
  const manifest: ExplorerManifest = { entry: { script, preload, style }, assets, source };
  writeFileSync(join(outdir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const outdir = process.argv[2] ?? EXPLORER_OUT;
  const manifestPath = join(outdir, 'manifest.json');
  const built = existsSync(manifestPath) ? (JSON.parse(readFileSync(manifestPath, 'utf8')) as Partial<ExplorerManifest>) : null;
  if (built?.source !== sourceDigest()) {
    const manifest = await buildExplorer(outdir);
    const total = (names: string[]) => names.reduce((sum, name) => sum + (manifest.assets[name] ?? 0), 0);
    const first = total([manifest.entry.script, ...manifest.entry.preload, manifest.entry.style]);
    console.log(
      `explorer: ${relative(process.cwd(), outdir) || '.'} (${Object.keys(manifest.assets).length} files, first load ${(first / 1024).toFixed(1)} KB before compression)`,
    );
  }
}
