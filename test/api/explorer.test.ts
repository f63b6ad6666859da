// How the explorer's files are served (src/api/explorer.ts), on a bundle made here: the page at
// /explorer and under it (deep links), at / only for a browser, with its CSP and no-cache (an ETag
// answered 304); hashed assets immutable and precompressed as accepted; anything else refused.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExplorerHandler, EXPLORER_CSP, loadExplorer } from '../../src/api/explorer.js';

const SCRIPT = 'main-ABCDEFGH.js';
const SCRIPT_TEXT = 'console.log("explorer");'.repeat(20);
const PASSPHRASE = 'Zenith "quoted" <network>';

let dir: string;
const servers: Server[] = [];

/** a server with the explorer before a stand-in for REST (a JSON root document, 404 elsewhere) */
async function serve(friendbot: boolean): Promise<string> {
  const bundle = loadExplorer(dir);
  if (!bundle) throw new Error('no bundle');
  const handle = createExplorerHandler(bundle, { friendbot, networkPassphrase: PASSPHRASE });
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (await handle(req, res, url)) return;
    res.writeHead(url.pathname === '/' ? 200 : 404, { 'Content-Type': 'application/json' }).end('{"rest":true}');
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

let base = '';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'zenith-explorer-bundle-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><head><!-- server:config --></head><body></body>');
  writeFileSync(join(dir, 'assets', SCRIPT), SCRIPT_TEXT);
  writeFileSync(join(dir, 'assets', `${SCRIPT}.br`), brotliCompressSync(SCRIPT_TEXT));
  writeFileSync(join(dir, 'assets', `${SCRIPT}.gz`), gzipSync(SCRIPT_TEXT));
  writeFileSync(
    join(dir, 'manifest.json'),
    JSON.stringify({ entry: { script: SCRIPT, preload: [], style: '' }, assets: { [SCRIPT]: 480 } }),
  );
  base = await serve(true);
});

afterAll(async () => {
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe('the explorer page', () => {
  it('is served at /explorer and every path under it, with its CSP, revalidated each time', async () => {
    for (const path of ['/explorer', '/explorer/', '/explorer/accounts/GABC', '/explorer/search?q=x']) {
      const response = await fetch(base + path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(response.headers.get('content-security-policy')).toBe(EXPLORER_CSP);
      expect(await response.text()).toContain('<meta name="zenith-friendbot" content="/friendbot">');
    }
    expect(EXPLORER_CSP).toContain("default-src 'none'");
    expect(EXPLORER_CSP).toContain("connect-src 'self'");
  });

  it('carries the passphrase escaped, and says when there is no friendbot', async () => {
    const page = await (await fetch(`${base}/explorer`)).text();
    expect(page).toContain('<meta name="zenith-network-passphrase" content="Zenith &quot;quoted&quot; &lt;network&gt;">');
    const without = await serve(false);
    expect(await (await fetch(`${without}/explorer`)).text()).toContain('<meta name="zenith-friendbot" content="">');
  });

  it('answers 304 to its ETag, and HEAD without a body', async () => {
    const etag = (await fetch(`${base}/explorer`)).headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await fetch(`${base}/explorer/ledgers/3`, { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    const head = await fetch(`${base}/explorer`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(0);
    expect(await head.text()).toBe('');
  });

  it('is what / answers a browser; any other client gets the root document', async () => {
    const browser = await fetch(`${base}/`, { headers: { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(browser.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(browser.headers.get('vary')).toBe('Accept');
    for (const accept of ['application/json', '*/*', 'application/hal+json', '']) {
      const client = await fetch(`${base}/`, { headers: accept ? { Accept: accept } : {} });
      expect(await client.text(), accept).toBe('{"rest":true}');
      expect(client.headers.get('vary')).toBe('Accept');
    }
    // a POST to / is no page view
    expect(await (await fetch(`${base}/`, { method: 'POST', headers: { Accept: 'text/html' } })).text()).toBe('{"rest":true}');
  });

  it('refuses other methods', async () => {
    const response = await fetch(`${base}/explorer/accounts`, { method: 'POST' });
    expect(response.status).toBe(405);
    expect(((await response.json()) as { type: string }).type).toMatch(/method_not_allowed$/);
  });

  it('leaves other paths alone', async () => {
    for (const path of ['/explorers', '/accounts', '/graphql']) expect((await fetch(base + path)).status, path).toBe(404);
  });
});

describe('the explorer assets', () => {
  it('are cached for a year, immutable, and sent compressed as the client accepts', async () => {
    const cases: [string, string | null, (body: Buffer) => Buffer][] = [
      ['br, gzip', 'br', brotliDecompressSync],
      ['gzip, deflate', 'gzip', gunzipSync],
      ['gzip;q=0, br;q=0', null, (body) => body],
      ['identity', null, (body) => body],
    ];
    for (const [accepted, encoding, decode] of cases) {
      // undici would decode the answer itself: node:http shows the bytes as sent
      const { headers, body } = await rawGet(`${base}/explorer/assets/${SCRIPT}`, accepted);
      expect(headers['cache-control'], accepted).toBe('public, max-age=31536000, immutable');
      expect(headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(headers['content-encoding']).toBe(encoding ?? undefined);
      expect(headers.vary).toBe('Accept-Encoding');
      expect(decode(body).toString()).toBe(SCRIPT_TEXT);
    }
  });

  it('are only those the manifest names', async () => {
    for (const path of [`${SCRIPT}.br`, 'manifest.json', '..%2Findex.html', 'main-OTHER.js', '']) {
      const response = await fetch(`${base}/explorer/assets/${path}`);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('content-type')).toContain('application/problem+json');
    }
  });
});

describe('loadExplorer', () => {
  it('is null where nothing was built', () => {
    expect(loadExplorer(join(dir, 'nothing-here'))).toBeNull();
  });
});

async function rawGet(url: string, acceptEncoding: string): Promise<{ headers: Record<string, string | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { 'Accept-Encoding': acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ headers: res.headers as Record<string, string | undefined>, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}
