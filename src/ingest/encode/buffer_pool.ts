// Spare ArrayBuffers for the bytes a reingest moves between threads (ledgers to the encoding
// worker, COPY input back). Every new ArrayBuffer counts as external memory of the thread that
// holds it, and V8 answers each few dozen MB of it with a full collection: with buffers handed back
// and reused, a long reingest allocates a few and its threads stop collecting for them.

export class BufferPool {
  private readonly free: ArrayBuffer[] = [];

  constructor(private readonly limit = 16) {}

  /** a buffer of at least `bytes`: the smallest spare one that fits, or a new one */
  take(bytes: number): ArrayBuffer {
    let best = -1;
    for (let i = 0; i < this.free.length; i++) {
      const size = this.free[i]!.byteLength;
      if (size >= bytes && (best < 0 || size < this.free[best]!.byteLength)) best = i;
    }
    if (best >= 0) return this.free.splice(best, 1)[0]!;
    // not zero-filled: every byte read is written first
    return Buffer.allocUnsafeSlow(bytes).buffer;
  }

  /** keeps a buffer for a later take(); beyond the limit, the smallest spare one is dropped */
  give(buffer: ArrayBuffer): void {
    if (buffer.byteLength === 0) return; // detached: moved to another thread
    this.free.push(buffer);
    if (this.free.length > this.limit) {
      let smallest = 0;
      for (let i = 1; i < this.free.length; i++) if (this.free[i]!.byteLength < this.free[smallest]!.byteLength) smallest = i;
      this.free.splice(smallest, 1);
    }
  }
}
