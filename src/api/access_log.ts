// The access log: one info line per HTTP request, written when its answer is over, so a stream (REST
// server-sent events, GraphQL over SSE) is logged when it closes, with its whole duration. The line
// holds the method, the path without its query string (GraphQL GET requests carry whole documents
// there), the status, the duration in ms and the request id; never a body. The request id is the
// client's X-Request-ID when it is a short token, else a new UUID, and is answered in X-Request-ID.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../logger.js';

const REQUEST_ID = 'X-Request-ID';
/** what a proxy's or a client's id may be: a short token, nothing a log reader could mistake */
const SAFE_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** Gives the request its id (answered in X-Request-ID) and logs it when its answer is over; `started` is process.hrtime.bigint(). */
export function logAccess(logger: Logger, req: IncomingMessage, res: ServerResponse, started: bigint): string {
  const given = req.headers['x-request-id'];
  const requestId = typeof given === 'string' && SAFE_ID.test(given) ? given : randomUUID();
  res.setHeader(REQUEST_ID, requestId);
  if (!logger.isLevelEnabled('info')) return requestId;
  // 'close' follows 'finish', and also comes alone when the client goes away first (a stream's usual end)
  res.once('close', () => {
    const durationMs = Math.round(Number(process.hrtime.bigint() - started) / 1e3) / 1e3;
    const line = {
      requestId,
      method: req.method,
      path: pathOf(req.url),
      // nothing was answered when the client left before the headers
      status: res.headersSent ? res.statusCode : null,
      durationMs,
      ...(res.writableFinished ? {} : { aborted: true }),
    };
    logger.info(line, 'request');
  });
  return requestId;
}

/** The id logAccess gave this request, for the other lines logged about it. */
export function requestIdOf(res: ServerResponse): string | undefined {
  const id = res.getHeader(REQUEST_ID);
  return typeof id === 'string' ? id : undefined;
}

function pathOf(url: string | undefined): string {
  if (url === undefined) return '/';
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}
