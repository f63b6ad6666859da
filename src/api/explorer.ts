// The network explorer's files (web/explorer/, bundled into dist/explorer/ by `npm run build`):
// its page at /explorer and under it (the page routes itself, so a deep link such as
// /explorer/accounts/G... loads the same page), and at / for a browser (Accept: text/html) while
// JSON clients keep the root document. The hashed assets under /explorer/assets/ are cached for a
// year (immutable: a new build has new names), precompressed (brotli or gzip, as accepted); the
// page itself is revalidated every time (no-cache, with an ETag) and carries the
// Content-Security-Policy that lets it run nothing but its own scripts and reach nothing but this
// server. The page learns what it cannot ask GraphQL from <meta> tags: whether /friendbot exists
// (a private network) and the network passphrase it signs payments for.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from '../logger.js';
import { problems, sendProblem } from './problems.js';
import { labelRoute } from './request_metrics.js';
import type { RequestHandler } from './rest/router.js';

/** where `npm run build` puts the bundle (from src/api/ and from dist/api/ alike) */
export const EXPLORER_DIR = fileURLToPath(new URL('../../dist/explorer/', import.meta.url));

export const EXPLORER_PATH = '/explorer';
const ASSETS_PATH = `${EXPLORER_PATH}/assets/`;
/** where the page's own script and styles come from: this server, nothing inline, nothing else */
export const EXPLORER_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');
const IMMUTABLE = 'public, max-age=31536000, immutable';
const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};
/** where the page's config goes (web/explorer/index.html) */
const CONFIG_MARK = '<!-- server:config -->';

interface Asset {
  type: string;
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
}

/** The built explorer, read once. */
export interface ExplorerBundle {
  /** index.html with the config mark still in it */
  template: string;
  assets: Map<string, Asset>;
}

/** Reads dist/explorer/ (or `dir`); null when it was not built. */
export function loadExplorer(dir: string = EXPLORER_DIR): ExplorerBundle | null {
  const manifestPath = join(dir, 'manifest.json');
  if (!existsSync(manifestPath)) return null;
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { assets: Record<string, number> };
  const assets = new Map<string, Asset>();
  for (const name of Object.keys(manifest.assets)) {
    const extension = name.slice(name.lastIndexOf('.'));
    const type = CONTENT_TYPES[extension];
    if (!type) continue;
    const path = join(dir, 'assets', name);
    assets.set(name, {
      type,
      identity: readFileSync(path),
      br: readFileSync(`${path}.br`),
      gzip: readFileSync(`${path}.gz`),
    });
  }
  return { template: readFileSync(join(dir, 'index.html'), 'utf8'), assets };
}

/** The bundle `zenith start` and `zenith serve` serve: dist/explorer/, or null with a warning when it was not built. */
export function openExplorer(logger: Logger): ExplorerBundle | null {
  const bundle = loadExplorer();
  if (!bundle) logger.warn({ dir: EXPLORER_DIR }, `the explorer is not built (npm run build): ${EXPLORER_PATH} is not served`);
  return bundle;
}

/** what the start banner adds for the explorer */
export const explorerServed = (bundle: ExplorerBundle | null): string => (bundle ? `, the explorer at ${EXPLORER_PATH}` : '');

export interface ExplorerOptions {
  /** the server has /friendbot: the page shows its fund button and payment form */
  friendbot: boolean;
  networkPassphrase: string;
}

export function createExplorerHandler(bundle: ExplorerBundle, options: ExplorerOptions): RequestHandler {
  const config = [
    `<meta name="zenith-network-passphrase" content="${escapeAttribute(options.networkPassphrase)}">`,
    `<meta name="zenith-friendbot" content="${options.friendbot ? '/friendbot' : ''}">`,
  ].join('\n');
  const page = Buffer.from(bundle.template.replace(CONFIG_MARK, config));
  const etag = `"${createHash('sha256').update(page).digest('base64url').slice(0, 27)}"`;

  return async (req, res, url) => {
    const path = url.pathname;
    if (path === '/') {
      // one URL, two answers: caches must keep them apart
      res.setHeader('Vary', 'Accept');
      if (!wantsHtml(req)) return false;
      labelRoute(res, '/');
    } else if (path.startsWith(ASSETS_PATH)) {
      labelRoute(res, `${ASSETS_PATH}*`);
    } else if (path === EXPLORER_PATH || path.startsWith(`${EXPLORER_PATH}/`)) {
      labelRoute(res, `${EXPLORER_PATH}/*`);
    } else {
      return false;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendProblem(res, problems.methodNotAllowed(['GET', 'HEAD']));
      return true;
    }
    if (path.startsWith(ASSETS_PATH)) {
      const asset = bundle.assets.get(path.slice(ASSETS_PATH.length));
      if (!asset) {
        sendProblem(res, problems.notFound());
        return true;
      }
      const encoding = acceptedEncoding(req);
      const body = encoding === 'br' ? asset.br : encoding === 'gzip' ? asset.gzip : asset.identity;
      res.writeHead(200, {
        'Content-Type': asset.type,
        'Content-Length': body.length,
        'Cache-Control': IMMUTABLE,
        Vary: 'Accept-Encoding',
        ...(encoding ? { 'Content-Encoding': encoding } : {}),
      });
      res.end(req.method === 'HEAD' ? undefined : body);
      return true;
    }
    const headers = {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-cache',
      ETag: etag,
      'Content-Security-Policy': EXPLORER_CSP,
      'Referrer-Policy': 'no-referrer',
    };
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, headers);
      res.end();
      return true;
    }
    res.writeHead(200, { ...headers, 'Content-Length': page.length });
    res.end(req.method === 'HEAD' ? undefined : page);
    return true;
  };
}

/** a browser asking for a page: text/html named in Accept (JSON clients, and curl with its any-type Accept, keep the root document) */
function wantsHtml(req: IncomingMessage): boolean {
  return /(^|,)\s*text\/html\s*(;|,|$)/i.test(req.headers.accept ?? '') && (req.method === 'GET' || req.method === 'HEAD');
}

/** br, then gzip, when Accept-Encoding names it without q=0; null: as stored */
function acceptedEncoding(req: IncomingMessage): 'br' | 'gzip' | null {
  const accepted = new Set<string>();
  for (const part of (req.headers['accept-encoding'] ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name || params.some((param) => /^\s*q=0(\.0*)?\s*$/.test(param))) continue;
    accepted.add(name);
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return null;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
