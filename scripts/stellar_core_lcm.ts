// npx tsx scripts/stellar_core_lcm.ts <stellar-core git dir> [commit]
// Packs stellar-core's golden ledger meta (test-lcm-current/: one file per test case, each a chain of
// record-marked LedgerCloseMeta frames from ledger 2) into test/fixtures/stellar-core-lcm/: one zstd
// file of every case's bytes (74 MB of XDR, 1.5 MB packed: the cases share most of their bytes) and
// a manifest naming each case, so tests read stellar-core's own output without a network.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { ensureZstd, zstdCompress } from '../src/meta/zstd.js';
import type { CoreLcmCase, CoreLcmManifest } from '../test/support/stellar_core_lcm.js';

const [gitDir, commitArg] = process.argv.slice(2);
if (!gitDir) {
  console.error('usage: npx tsx scripts/stellar_core_lcm.ts <stellar-core git dir> [commit]');
  process.exit(2);
}
const git = (...args: string[]): Buffer => execFileSync('git', ['--git-dir', gitDir, ...args], { maxBuffer: 1 << 30 });
const commit = git('rev-parse', commitArg ?? 'HEAD')
  .toString()
  .trim();
const paths = git('ls-tree', '-r', '--name-only', commit, 'test-lcm-current/').toString().trim().split('\n');

const cases: CoreLcmCase[] = [];
const absent: string[] = [];
const chunks: Buffer[] = [];
let offset = 0;
const names = new Map<string, Record<string, string>>();
for (const p of paths.filter((p) => p.endsWith('/index.json'))) {
  names.set(p.split('/')[1]!, JSON.parse(git('cat-file', 'blob', `${commit}:${p}`).toString()));
}
for (const p of paths.filter((p) => p.endsWith('.xdr')).sort()) {
  const [, suite, file] = p.split('/') as [string, string, string];
  let bytes: Buffer;
  try {
    bytes = execFileSync('git', ['--git-dir', gitDir, 'cat-file', 'blob', `${commit}:${p}`], {
      maxBuffer: 1 << 30,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch {
    absent.push(p); // large blobs a partial mirror leaves out
    continue;
  }
  const name = names.get(suite)?.[file.replace(/\.xdr$/, '')] ?? '';
  cases.push({ suite, file, name, offset, length: bytes.length });
  chunks.push(bytes);
  offset += bytes.length;
}

await ensureZstd();
const out = new URL('../test/fixtures/stellar-core-lcm/', import.meta.url);
mkdirSync(out, { recursive: true });
writeFileSync(new URL('cases.bin.zst', out), zstdCompress(Buffer.concat(chunks), 19));
const manifest: CoreLcmManifest = {
  source: `https://github.com/stellar/stellar-core/tree/${commit}/test-lcm-current`,
  networkPassphrase: '(V) (;,,;) (V)',
  bytes: offset,
  absent,
  cases,
};
writeFileSync(new URL('manifest.json', out), `${JSON.stringify(manifest, null, 1)}\n`);
console.log(`${cases.length} cases, ${offset} bytes, ${absent.length} absent`);
