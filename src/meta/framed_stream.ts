// A framed XDR stream, as stellar-core writes with --metadata-output-stream: each record is a
// 4-byte big-endian length with the high bit set, then one LedgerCloseMeta. The reader reads a
// file or a pipe (a FIFO, or /dev/stdin); a torn last frame is an error only if the stream ends there.
import { createReadStream } from 'node:fs';
import { rawLedgerSequence } from './ledger_bytes.js';

export class MetaStreamError extends Error {
  override name = 'MetaStreamError';
}

const HIGH_BIT = 0x80000000;

/** The 4-byte header of a frame of `length` bytes. */
export function frameHeader(length: number): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt32BE((HIGH_BIT | length) >>> 0, 0);
  return head;
}

/** The length a frame header announces; null when the word is no frame header (high bit not set). */
export function frameLength(header: number): number | null {
  return (header & HIGH_BIT) === 0 ? null : header & 0x7fffffff;
}

/** Splits framed records out of a byte stream. */
export async function* readFrames(chunks: AsyncIterable<Buffer>, source = 'stream'): AsyncGenerator<Buffer> {
  let pending: Buffer = Buffer.alloc(0);
  for await (const chunk of chunks) {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    let offset = 0;
    while (pending.length - offset >= 4) {
      const length = frameLength(pending.readUInt32BE(offset));
      if (length === null) {
        throw new MetaStreamError(`${source}: frame header without the high bit set at byte offset ${offset}`);
      }
      if (pending.length - offset - 4 < length) break;
      yield pending.subarray(offset + 4, offset + 4 + length);
      offset += 4 + length;
    }
    pending = pending.subarray(offset);
  }
  if (pending.length > 0) throw new MetaStreamError(`${source} ends inside a frame (${pending.length} bytes left)`);
}

/** The LedgerCloseMeta bytes of a framed stream's ledgers. */
export class MetaStreamReader {
  private readonly streams = new Set<ReturnType<typeof createReadStream>>();

  constructor(readonly path: string) {}

  /** the stream's ledgers, skipping those before `fromSequence` */
  async *ledgers(fromSequence: number): AsyncGenerator<Buffer> {
    const stream = createReadStream(this.path, { highWaterMark: 1 << 20 });
    this.streams.add(stream);
    try {
      for await (const frame of readFrames(stream as AsyncIterable<Buffer>, this.path)) {
        if (fromSequence <= 1 || rawLedgerSequence(frame) >= fromSequence) yield frame;
      }
    } finally {
      this.streams.delete(stream);
      stream.destroy();
    }
  }

  /** ends the reads in progress (a pipe may otherwise wait for its writer forever) */
  async close(): Promise<void> {
    for (const stream of this.streams) stream.destroy();
  }
}
