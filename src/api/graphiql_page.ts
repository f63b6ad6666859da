// The GraphiQL page, built on a worker thread (started by graphiql.ts): the package's ~9 MB of
// string literals are compiled there (0.6 s of a blocked event loop on the thread that serves
// requests otherwise) and stay there, and only the page's bytes come back.
import { createHash } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import { gzipSync } from 'node:zlib';
import type { GraphiQLOptions } from 'graphql-yoga';

export interface BuiltPage {
  /** as Uint8Arrays over ArrayBuffers of their own: moved to the main thread, and a Response takes them */
  html: Uint8Array<ArrayBuffer>;
  gzipped: Uint8Array<ArrayBuffer>;
  policy: string;
  etag: string;
}

/**
 * The policy of a page: its inline script by hash; styles inline ('unsafe-inline': Monaco and
 * GraphiQL add <style> elements and style attributes at run time, which no hash can name); fonts,
 * favicon and icons as data: URLs; Monaco's workers from the blob: URLs the page makes of their
 * inlined code; requests to this origin only.
 */
export function contentSecurityPolicy(html: string): string {
  const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    (match) => `'sha256-${createHash('sha256').update(match[1]!).digest('base64')}'`,
  );
  return [
    "default-src 'none'",
    `script-src ${scripts.join(' ')}`,
    "style-src 'unsafe-inline'",
    'font-src data:',
    'img-src data:',
    'worker-src blob:',
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'self'",
  ].join('; ');
}

async function buildPage(options: GraphiQLOptions): Promise<BuiltPage> {
  const { renderGraphiQL } = await import('@graphql-yoga/render-graphiql');
  const text = renderGraphiQL(options);
  const html = new Uint8Array(Buffer.from(text));
  return {
    html,
    gzipped: new Uint8Array(gzipSync(html)),
    policy: contentSecurityPolicy(text),
    etag: createHash('sha256').update(html).digest('base64url').slice(0, 27),
  };
}

/** what graphiql.ts passes as workerData */
export interface PageRequest {
  graphiqlOptions: GraphiQLOptions;
}

const request = workerData as Partial<PageRequest> | null;
const port = parentPort;
if (port && request?.graphiqlOptions) {
  buildPage(request.graphiqlOptions).then((page) => port.postMessage(page, [page.html.buffer, page.gzipped.buffer]));
}
