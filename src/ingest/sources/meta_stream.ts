// A framed XDR stream, as stellar-core writes with --metadata-output-stream: each record is a
// 4-byte big-endian length with the high bit set, then one LedgerCloseMeta. Reads a file or a pipe
// (a FIFO, or /dev/stdin); a torn last frame is an error only if the stream ends there.
import { createReadStream } from 'node:fs';
import { xdr } from '@stellar/stellar-base';
import type { LedgerSource } from '../ledger_source.js';
import { rawLedgerSequence } from '../ledger_bytes.js';

export class MetaStreamError extends Error {
  override name = 'MetaStreamError';
}

/** Splits framed records out of a byte stream. */
export async function* readFrames(chunks: AsyncIterable<Buffer>, source = 'stream'): AsyncGenerator<Buffer> {
  let pending: Buffer = Buffer.alloc(0);
  for await (const chunk of chunks) {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    let offset = 0;
    while (pending.length - offset >= 4) {
      const word = pending.readUInt32BE(offset);
      if ((word & 0x80000000) === 0) {
        throw new MetaStreamError(`${source}: frame header without the high bit set at byte offset ${offset}`);
      }
      const length = word & 0x7fffffff;
      if (pending.length - offset - 4 < length) break;
      yield pending.subarray(offset + 4, offset + 4 + length);
      offset += 4 + length;
    }
    pending = pending.subarray(offset);
  }
  if (pending.length > 0) throw new MetaStreamError(`${source} ends inside a frame (${pending.length} bytes left)`);
}

export function metaStreamSource(path: string): LedgerSource {
  const streams = new Set<ReturnType<typeof createReadStream>>();
  async function* raw(fromSequence: number): AsyncGenerator<Buffer> {
    const stream = createReadStream(path, { highWaterMark: 1 << 20 });
    streams.add(stream);
    try {
      for await (const frame of readFrames(stream as AsyncIterable<Buffer>, path)) {
        if (fromSequence <= 1 || rawLedgerSequence(frame) >= fromSequence) yield frame;
      }
    } finally {
      streams.delete(stream);
      stream.destroy();
    }
  }
  return {
    rawLedgers: raw,
    async *ledgers(fromSequence: number): AsyncGenerator<xdr.LedgerCloseMeta> {
      for await (const frame of raw(fromSequence)) yield xdr.LedgerCloseMeta.fromXDR(frame);
    },
    async close() {
      for (const stream of streams) stream.destroy();
    },
  };
}
