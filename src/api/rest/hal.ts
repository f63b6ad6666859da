// HAL: links (`{href}` or `{href, templated: true}`, absolute on the host the client used, as
// ../client_address.ts finds it) and the application/hal+json answer.
import type { ServerResponse } from 'node:http';

export interface Link {
  href: string;
  templated?: true;
}

export type Links = Record<string, Link>;

export function link(href: string): Link {
  // most links have no brace at all: a page makes ~1,000 of them, so skip the pattern for those
  return href.includes('{') && /\{[^}]*\}/.test(href) ? { href, templated: true } : { href };
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body, null, 2);
  res.writeHead(status, {
    'Content-Type': 'application/hal+json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}
