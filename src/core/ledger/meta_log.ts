// Append-only log of closed ledgers' LedgerCloseMeta, framed like stellar-core's
// --metadata-output-stream (4-byte big-endian length with the high bit set, then the XDR).
// Each append is fsync'd before the close is acknowledged; a torn final frame is cut off on open.
import fs from 'node:fs';

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

const HIGH_BIT = 0x80000000;

/** Reads the sequence number of a LedgerCloseMeta v0/v1/v2 without decoding it all. */
export function metaLedgerSeq(x: Buffer): number {
  // union discriminant (4) + [v1/v2: ext union (4, v0 only here)] + LedgerHeaderHistoryEntry: hash (32) + header
  const arm = x.readUInt32BE(0);
  let off = 4;
  if (arm >= 1) off += 4;
  off += 32; // LedgerHeaderHistoryEntry.hash
  // LedgerHeader: ledgerVersion(4) previousLedgerHash(32) StellarValue(txSetHash 32, closeTime 8, upgrades var, ext union)
  off += 4 + 32 + 32 + 8;
  const nUpgrades = x.readUInt32BE(off);
  off += 4;
  for (let i = 0; i < nUpgrades; i++) {
    const len = x.readUInt32BE(off);
    off += 4 + len + ((4 - (len % 4)) % 4);
  }
  const extArm = x.readUInt32BE(off);
  off += 4;
  if (extArm === 1) off += 36 + 68; // LedgerCloseValueSignature: nodeID (type + 32) + signature (len + 64)
  off += 32 + 32; // txSetResultHash, bucketListHash
  return x.readUInt32BE(off);
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
      const word = head.readUInt32BE(0);
      const len = (word & ~HIGH_BIT) >>> 0;
      if ((word & HIGH_BIT) === 0 || off + 4 + len > total) break;
      if (this.offsets.length === 0) {
        const body = Buffer.alloc(Math.min(len, 4096));
        fs.readSync(this.fd, body, 0, body.length, off + 4);
        this.first = metaLedgerSeq(body);
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
    const head = Buffer.alloc(4);
    head.writeUInt32BE((HIGH_BIT | xdrBytes.length) >>> 0, 0);
    const frame = Buffer.concat([head, xdrBytes]);
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
    const len = (head.readUInt32BE(0) & ~HIGH_BIT) >>> 0;
    const body = Buffer.alloc(len);
    fs.readSync(this.fd, body, 0, len, off + 4);
    return body;
  }

  close(): void {
    fs.closeSync(this.fd);
  }
}
