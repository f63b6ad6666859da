// HAL: links (`{href}` or `{href, templated: true}`, absolute on the host the client used) and
// the application/hal+json answer.
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface Link {
  href: string;
  templated?: true;
}

export type Links = Record<string, Link>;

export function link(href: string): Link {
  // most links have no brace at all: a page makes ~1,000 of them, so skip the pattern for those
  return href.includes('{') && /\{[^}]*\}/.test(href) ? { href, templated: true } : { href };
}

/** scheme://host of the request, honouring a proxy's X-Forwarded-Proto/Host. */
export function requestOrigin(req: IncomingMessage): string {
  const forwardedProto = headerValue(req.headers['x-forwarded-proto']);
  const forwardedHost = headerValue(req.headers['x-forwarded-host']);
  const proto = forwardedProto ?? ('encrypted' in req.socket && req.socket.encrypted ? 'https' : 'http');
  const host = forwardedHost ?? req.headers.host ?? 'localhost';
  return `${proto}://${host}`;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  return first?.split(',')[0]?.trim() || undefined;
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body, null, 2);
  res.writeHead(status, {
    'Content-Type': 'application/hal+json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}
