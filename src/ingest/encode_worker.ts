// Worker thread entry (started by parallel_encode.ts): LedgerCloseMeta bytes in, EncodedLedger out.
import { parentPort } from 'node:worker_threads';
import { encodeLedger } from './encoded_ledger.js';
import { viewLedgerBytes } from './ledger_bytes.js';
import type { EncodeReply, EncodeRequest } from './parallel_encode.js';

const port = parentPort;
if (!port) throw new Error('encode_worker.ts runs as a worker thread');

port.on('message', (request: EncodeRequest) => {
  let reply: EncodeReply;
  try {
    reply = { id: request.id, ledger: encodeLedger(viewLedgerBytes(Buffer.from(request.raw), Buffer.from(request.network))) };
  } catch (error) {
    const err = error instanceof Error ? error : new Error(String(error));
    reply = { id: request.id, error: { name: err.name, message: err.message } };
  }
  // the COPY bytes move to the main thread instead of being copied
  const buffers = 'ledger' in reply ? new Set(Object.values(reply.ledger.history.copy).map((bytes) => bytes.buffer)) : [];
  port.postMessage(reply, [...buffers]);
});
