// Spare buffers: the smallest that fits is reused, moved (detached) ones are not kept, the pool
// stays bounded, and a COPY buffer that outgrows its buffer hands the old one back.
import { MessageChannel } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { BufferPool } from '../../../src/ingest/encode/buffer_pool.js';
import { CopyBinary } from '../../../src/ingest/encode/copy_binary.js';

describe('buffer pool', () => {
  it('reuses the smallest spare buffer that fits, and allocates when none does', () => {
    const pool = new BufferPool();
    const small = new ArrayBuffer(100);
    const large = new ArrayBuffer(1000);
    pool.give(large);
    pool.give(small);
    expect(pool.take(50)).toBe(small);
    expect(pool.take(50)).toBe(large);
    const fresh = pool.take(50);
    expect(fresh).not.toBe(small);
    expect(fresh.byteLength).toBeGreaterThanOrEqual(50);
  });

  it('does not keep a buffer that has moved to another thread', () => {
    const pool = new BufferPool();
    const buffer = new ArrayBuffer(64);
    const { port1, port2 } = new MessageChannel();
    port1.postMessage(buffer, [buffer]);
    port1.close();
    port2.close();
    pool.give(buffer);
    expect(pool.take(64)).not.toBe(buffer);
  });

  it('keeps at most its limit, dropping the smallest', () => {
    const pool = new BufferPool(2);
    const [a, b, c] = [new ArrayBuffer(10), new ArrayBuffer(30), new ArrayBuffer(20)];
    pool.give(a);
    pool.give(b);
    pool.give(c);
    expect(pool.take(1)).toBe(c);
    expect(pool.take(1)).toBe(b);
    expect(pool.take(1)).not.toBe(a);
  });

  it('gets COPY buffers from the pool and gives an outgrown one back', () => {
    const pool = new BufferPool();
    const first = new ArrayBuffer(16);
    pool.give(first);
    const out = new CopyBinary(16, pool);
    out.ascii('0123456789'); // 14 bytes: fits
    expect(out.view().buffer).toBe(first);
    out.ascii('0123456789'); // grows
    expect(out.view().buffer).not.toBe(first);
    expect(Buffer.from(out.view()).toString('latin1')).toBe('\0\0\0\x0a0123456789\0\0\0\x0a0123456789');
    expect(pool.take(16)).toBe(first);
  });
});
