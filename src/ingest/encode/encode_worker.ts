// Worker thread entry (started by parallel_encode.ts): LedgerCloseMeta bytes in, EncodedLedger out.
import { parentPort } from 'node:worker_threads';
import { viewLedgerBytes } from '../../meta/index.js';
import { encodeLedger } from './encoded_ledger.js';
import { historyBuffers, recycleHistory } from './history.js';
import type { EncodeReply, EncodeRequest } from './parallel_encode.js';

const port = parentPort;
if (!port) throw new Error('encode_worker.ts runs as a worker thread');

port.on('message', (request: EncodeRequest) => {
  if ('recycle' in request) return recycleHistory(request.recycle);
  let reply: EncodeReply;
  const raw = request.raw.buffer as ArrayBuffer;
  try {
    reply = {
      id: request.id,
      raw,
      ledger: encodeLedger(viewLedgerBytes(Buffer.from(raw, request.raw.byteOffset, request.raw.length), Buffer.from(request.network))),
    };
  } catch (error) {
    const err = error instanceof Error ? error : new Error(String(error));
    reply = { id: request.id, raw, error: { name: err.name, message: err.message } };
  }
  // the COPY bytes move to the main thread instead of being copied, and the ledger's buffer goes back
  port.postMessage(reply, [raw, ...('ledger' in reply ? historyBuffers(reply.ledger.history) : [])]);
});
