// The SDK's XDR values hold plain Uint8Arrays; our codecs, hashes and hex strings work on Buffers.

/** Views bytes as a Buffer without copying. */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
