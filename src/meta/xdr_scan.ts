// A cursor over XDR bytes for the scanners that walk ledger meta without the library's XDR objects
// (meta_scan.ts, tx_scan.ts): primitives and the classic types both of them meet. A value the
// scanners do not know throws Unsupported, and their callers fall back to the library
// (readXdrAt, skipXdrAt below).
import { Reader } from '@stellar/js-xdr';
import type { xdr } from '@stellar/stellar-sdk/base';
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

/**
 * The library's decoding of the `type` whose XDR starts at `pos`, and where it ends. The library
 * decodes whole buffers only (`fromXdr` refuses trailing bytes); its schemas read from js-xdr's
 * Reader, as its own `xdr.decodeStream` does, and a Reader over the bytes from `pos` tells where
 * the value ends. Throws the library's XdrError on bytes that are not a `type`.
 */
export function readXdrAt<W, T extends xdr.XdrValue>(
  type: xdr.XdrValueConstructor<W, T>,
  buf: Uint8Array,
  pos: number,
): { value: T; end: number } {
  const reader = new Reader(buf.subarray(pos));
  const value = type.fromXdrObject(type.schema._read(reader, type.name));
  return { value, end: pos + reader.offset };
}

/** Where the `type` whose XDR starts at `pos` ends: read by the library's schema, without making its objects. */
export function skipXdrAt<W>(type: { readonly schema: xdr.XdrType<W>; readonly name: string }, buf: Uint8Array, pos: number): number {
  const reader = new Reader(buf.subarray(pos));
  type.schema._read(reader, type.name);
  return pos + reader.offset;
}
