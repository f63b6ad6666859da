// Append-only log of closed ledgers' LedgerCloseMeta, framed like stellar-core's
// --metadata-output-stream (4-byte big-endian length with the high bit set, then the XDR).
// Each append is fsync'd before the close is acknowledged; a torn final frame is cut off on open.
import fs from 'node:fs';
import { frameHeader, frameLength, rawLedgerSequence } from '../../meta/index.js';

export interface MetaStore {
  /** first and last ledger stored, or null when empty */
  range(): { first: number; last: number } | null;
  append(seq: number, xdrBytes: Buffer): void;
  read(seq: number): Buffer | undefined;
  close(): void;
}

export class MemoryMetaStore implements MetaStore {
  private first = 0;
  private readonly frames: Buffer[] = [];

  range(): { first: number; last: number } | null {
    return this.frames.length ? { first: this.first, last: this.first + this.frames.length - 1 } : null;
  }

  append(seq: number, xdrBytes: Buffer): void {
    if (this.frames.length === 0) this.first = seq;
    else if (seq !== this.first + this.frames.length) throw new Error(`meta log gap: ${seq}`);
    this.frames.push(xdrBytes);
  }

  read(seq: number): Buffer | undefined {
    return this.frames[seq - this.first];
  }

  close(): void {}
}

export class FileMetaStore implements MetaStore {
  private readonly fd: number;
  private readonly offsets: number[] = [];
  private first = 0;
  private size = 0;

  constructor(readonly path: string) {
    this.fd = fs.openSync(path, fs.existsSync(path) ? 'r+' : 'w+');
    this.scan();
  }

  private scan(): void {
    const total = fs.fstatSync(this.fd).size;
    const head = Buffer.alloc(4);
    let off = 0;
    while (off + 4 <= total) {
      fs.readSync(this.fd, head, 0, 4, off);
      const len = frameLength(head.readUInt32BE(0));
      if (len === null || off + 4 + len > total) break;
      if (this.offsets.length === 0) {
        const body = Buffer.alloc(Math.min(len, 4096));
        fs.readSync(this.fd, body, 0, body.length, off + 4);
        this.first = rawLedgerSequence(body);
      }
      this.offsets.push(off);
      off += 4 + len;
    }
    if (off !== total) fs.ftruncateSync(this.fd, off); // torn tail from a crash mid-append
    this.size = off;
  }

  range(): { first: number; last: number } | null {
    return this.offsets.length ? { first: this.first, last: this.first + this.offsets.length - 1 } : null;
  }

  append(seq: number, xdrBytes: Buffer): void {
    if (this.offsets.length === 0) this.first = seq;
    else if (seq !== this.first + this.offsets.length) throw new Error(`meta log gap: ${seq}`);
    const frame = Buffer.concat([frameHeader(xdrBytes.length), xdrBytes]);
    fs.writeSync(this.fd, frame, 0, frame.length, this.size);
    fs.fsyncSync(this.fd);
    this.offsets.push(this.size);
    this.size += frame.length;
  }

  read(seq: number): Buffer | undefined {
    const off = this.offsets[seq - this.first];
    if (off === undefined) return undefined;
    const head = Buffer.alloc(4);
    fs.readSync(this.fd, head, 0, 4, off);
    const len = frameLength(head.readUInt32BE(0))!;
    const body = Buffer.alloc(len);
    fs.readSync(this.fd, body, 0, len, off + 4);
    return body;
  }

  close(): void {
    fs.closeSync(this.fd);
  }
}
