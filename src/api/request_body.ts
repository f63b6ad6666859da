// A request's body as text, read up to Horizon's bound (its --max-http-request-size, 200 KB). A
// larger body is a 413 problem, answered, never a reset: the rest of a body up to DRAIN_BYTES is
// read and dropped so the client, still sending, can read the answer; past that (or when
// Content-Length already says so) the answer closes the connection and nothing more is read.
// The bound holds for every route: a body declared larger is refused before its handler (GraphQL's
// included, which yoga reads itself).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ProblemError, problems } from './problems.js';

/** Horizon's default --max-http-request-size */
export const MAX_REQUEST_BYTES = 200 * 1024;
/** how much of a too large body is read and dropped before the connection is closed instead */
const DRAIN_BYTES = 1024 * 1024;

export function readBody(req: IncomingMessage, res: ServerResponse, maxBytes = MAX_REQUEST_BYTES): Promise<string> {
  const tooLarge = () => new ProblemError(problems.payloadTooLarge(maxBytes));
  const declared = Number(req.headers['content-length']);
  if (declared > DRAIN_BYTES) {
    res.setHeader('Connection', 'close');
    return Promise.reject(tooLarge());
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
      else if (size > DRAIN_BYTES) {
        req.off('data', onData);
        req.off('end', onEnd);
        req.pause();
        res.setHeader('Connection', 'close');
        reject(tooLarge());
      }
    };
    const onEnd = () => (size > maxBytes ? reject(tooLarge()) : resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', reject);
  });
}

/** Refuses (413) a request whose Content-Length is over the bound, whatever its route, its body drained as readBody's. */
export async function refuseDeclaredOversize(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (Number(req.headers['content-length']) > MAX_REQUEST_BYTES) await readBody(req, res);
}
