// A request's body as text, read up to a bound: a larger body is a 400 naming the field it was to
// carry, and the rest of it is not read (the request is destroyed).
import type { IncomingMessage } from 'node:http';
import { ProblemError, problems } from './problems.js';

export async function readBody(req: IncomingMessage, bound: { maxBytes: number; field: string }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  // leaving the loop early destroys the request
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > bound.maxBytes) {
      throw new ProblemError(problems.badRequest(bound.field, `the body is larger than ${bound.maxBytes} bytes`));
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
