// Worker thread entry (started by verify_pool.ts): packed ed25519 checks in, one byte per check out.
import { parentPort } from 'node:worker_threads';
import { verifyEd25519 } from './ed25519.js';
import type { VerifyReply, VerifyRequest } from './verify_pool.js';

const port = parentPort;
if (!port) throw new Error('verify_worker.ts runs as a worker thread');

port.on('message', (request: VerifyRequest) => {
  const bytes = Buffer.from(request.checks);
  const results = new Uint8Array(request.count);
  let pos = 0;
  for (let i = 0; i < request.count; i++) {
    const length = bytes.readUInt32BE(pos);
    const key = bytes.subarray(pos + 4, pos + 36);
    const signature = bytes.subarray(pos + 36, pos + 100);
    pos += 100 + length;
    results[i] = verifyEd25519(key, bytes.subarray(pos - length, pos), signature) ? 1 : 0;
  }
  port.postMessage({ id: request.id, results } satisfies VerifyReply, [results.buffer]);
});
