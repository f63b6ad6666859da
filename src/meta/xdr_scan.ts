// A cursor over XDR bytes for the scanners that walk ledger meta without js-xdr objects
// (meta_scan.ts, tx_scan.ts): primitives and the classic types both of them meet. A value the
// scanners do not know throws Unsupported, and their callers fall back to js-xdr.
import { encodeAccountIdAt } from '../stellar/index.js';

export class Unsupported extends Error {}

const pad = (n: number): number => (n + 3) & ~3;

export class Scanner {
  constructor(
    readonly buf: Buffer,
    public pos: number,
  ) {}

  u32(): number {
    if (this.pos + 4 > this.buf.length) throw new Unsupported();
    const v = this.buf.readUInt32BE(this.pos);
    this.pos += 4;
    return v;
  }

  i32(): number {
    if (this.pos + 4 > this.buf.length) throw new Unsupported();
    const v = this.buf.readInt32BE(this.pos);
    this.pos += 4;
    return v;
  }

  skip(n: number): void {
    if (this.pos + n > this.buf.length) throw new Unsupported();
    this.pos += n;
  }

  /** a PublicKey (ed25519 only) as its G... address */
  accountId(): string {
    if (this.u32() !== 0) throw new Unsupported();
    const start = this.pos;
    this.skip(32);
    return encodeAccountIdAt(this.buf, start);
  }

  skipAccountId(): void {
    if (this.u32() !== 0) throw new Unsupported();
    this.skip(32);
  }

  skipOptionalAccountId(): void {
    if (this.u32() !== 0) this.skipAccountId();
  }

  skipVarOpaque(max: number): void {
    const n = this.u32();
    if (n > max) throw new Unsupported();
    this.skip(pad(n));
  }

  /** an optional value of `size` bytes */
  skipOptional(size: number): void {
    if (this.u32() !== 0) this.skip(size);
  }

  /** an array whose items `item` skips, of at most `max` */
  array(max: number, item: () => void): void {
    const n = this.u32();
    if (n > max) throw new Unsupported();
    for (let i = 0; i < n; i++) item();
  }

  /** an ExtensionPoint or an empty ext union: only arm 0 exists */
  emptyExt(): void {
    if (this.u32() !== 0) throw new Unsupported();
  }

  asset(trustLine: boolean): void {
    const type = this.u32();
    if (type === 0) return;
    if (type === 3 && trustLine) {
      this.skip(32); // a pool id
      return;
    }
    if (type === 1) this.skip(4);
    else if (type === 2) this.skip(12);
    else throw new Unsupported();
    this.skipAccountId();
  }

  muxedAccount(): void {
    const type = this.u32();
    if (type === 0) this.skip(32);
    else if (type === 0x100) this.skip(8 + 32);
    else throw new Unsupported();
  }

  signerKey(): void {
    const type = this.u32();
    if (type > 3) throw new Unsupported();
    this.skip(32);
    if (type === 3) this.skipVarOpaque(64);
  }

  offer(): void {
    this.skipAccountId();
    this.skip(8);
    this.asset(false);
    this.asset(false);
    this.skip(8 + 8 + 4); // amount, price, flags
    this.emptyExt();
  }
}

/** `scan(scanner)`, or null when it meets a value the scanners do not know */
export function scanOrNull<S extends Scanner, T>(scanner: S, scan: (s: S) => T): T | null {
  try {
    return scan(scanner);
  } catch (error) {
    if (error instanceof Unsupported) return null;
    throw error;
  }
}
