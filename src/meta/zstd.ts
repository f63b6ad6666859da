// zstd through zstd-wasm, for datastore files. Its module must be initialized once per process:
// initializing it again breaks later decompression.
import { compress, decompress, init } from '@bokuweb/zstd-wasm';

// Kept in the global symbol registry, so that two copies of this module in one process (the
// built code and the TypeScript sources, as bench/ingest.ts loads them) still initialize once.
const ZSTD_READY = Symbol.for('zenith.zstd-wasm.ready');

/** Initializes zstd-wasm once per process. */
export function ensureZstd(): Promise<void> {
  const registry = globalThis as { [ZSTD_READY]?: Promise<void> };
  registry[ZSTD_READY] ??= init();
  return registry[ZSTD_READY];
}

export async function zstdDecompress(data: Buffer): Promise<Buffer> {
  await ensureZstd();
  return Buffer.from(decompress(data));
}

/** Compresses at `level`; ensureZstd() must have been awaited once before. */
export function zstdCompress(data: Buffer, level: number): Buffer {
  return Buffer.from(compress(data, level));
}
