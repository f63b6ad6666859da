// CORS as Horizon's (rs/cors with every origin and every header allowed): any page may call the API,
// REST, /transactions, /friendbot and /graphql alike, but never with the user's credentials (no
// Access-Control-Allow-Credentials, so a browser sends no cookies). A preflight OPTIONS is answered
// 204 here, before any route: browser wallets send X-Client-Name and the like, which need one.
import type { IncomingMessage, ServerResponse } from 'node:http';

const ALLOWED_METHODS = 'GET, HEAD, POST';
/** always allowed, whatever the preflight names: the SDKs' own headers and a JSON or form body */
const ALLOWED_HEADERS = [
  'Accept',
  'Content-Type',
  'Last-Event-ID',
  'X-Client-Name',
  'X-Client-Version',
  'X-App-Name',
  'X-App-Version',
  'X-Request-ID',
];
/** what a page's script may read of an answer: Horizon's two, and the rate limit's */
const EXPOSED_HEADERS = 'Date, Latest-Ledger, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, X-Request-ID';
/** a list of header names, as a preflight's Access-Control-Request-Headers may hold */
const HEADER_NAMES = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+(?:\s*,\s*[A-Za-z0-9!#$%&'*+.^_`|~-]+)*$/;

/** The CORS headers of every answer. */
export function setCorsHeaders(res: ServerResponse): void {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
}

/** Answers a preflight (any OPTIONS request) with 204; true when it did. */
export function answerPreflight(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method !== 'OPTIONS') return false;
  // Horizon allows any header: those the preflight names are allowed too, when they are header names
  const requested = req.headers['access-control-request-headers']?.trim();
  const headers = requested && HEADER_NAMES.test(requested) ? `${ALLOWED_HEADERS.join(', ')}, ${requested}` : ALLOWED_HEADERS.join(', ');
  res.writeHead(204, {
    'Access-Control-Allow-Methods': ALLOWED_METHODS,
    'Access-Control-Allow-Headers': headers,
    'Access-Control-Max-Age': '600',
    Vary: 'Access-Control-Request-Headers',
  });
  res.end();
  return true;
}
