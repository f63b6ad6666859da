// Framing of stellar-core's --metadata-output-stream.
import { describe, expect, it } from 'vitest';
import { MetaStreamError, readFrames } from '../../src/meta/index.js';

function frame(payload: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt32BE((payload.length | 0x80000000) >>> 0, 0);
  return Buffer.concat([head, payload]);
}

async function collect(chunks: Buffer[]): Promise<Buffer[]> {
  const out: Buffer[] = [];
  async function* gen() {
    yield* chunks;
  }
  for await (const f of readFrames(gen(), 'test')) out.push(Buffer.from(f));
  return out;
}

describe('readFrames', () => {
  it('splits records across arbitrary chunk boundaries', async () => {
    const data = Buffer.concat([frame(Buffer.from('abcd')), frame(Buffer.from('')), frame(Buffer.from('0123456789ab'))]);
    const chunks = [data.subarray(0, 3), data.subarray(3, 9), data.subarray(9, 13), data.subarray(13)];
    expect((await collect(chunks)).map((b) => b.toString())).toEqual(['abcd', '', '0123456789ab']);
  });

  it('names a torn last frame and a header without the high bit', async () => {
    const torn = frame(Buffer.from('abcdefgh')).subarray(0, 9);
    await expect(collect([torn])).rejects.toThrow(MetaStreamError);
    await expect(collect([torn])).rejects.toThrow(/test ends inside a frame \(9 bytes left\)/);
    await expect(collect([Buffer.from([0, 0, 0, 4, 1, 2, 3, 4])])).rejects.toThrow(/without the high bit set at byte offset 0/);
  });
});
