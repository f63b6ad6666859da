// Direct XDR encoding of ledger entries and entry changes from the plain records: the meta of a
// busy ledger holds thousands of entries, and building XDR value objects for each dominated closes.
// Byte-for-byte equal to entryToXdr(...).toXdr() (checked in test/core/entry_codec.test.ts).
import { accountIdKey, assetCodeBytes, type AssetValue, type CreditAsset } from '../../stellar/index.js';
import type { EntryRec, TrustLineAsset } from './entries.js';

/** A growable big-endian XDR byte writer. */
export class XdrBytes {
  private buf: Buffer;
  // a DataView writes a bigint several times faster than Buffer.writeBigInt64BE
  private view: DataView;
  private pos = 0;

  constructor(size = 1024) {
    this.buf = Buffer.allocUnsafe(size);
    this.view = new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.length);
  }

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
    this.view = new DataView(next.buffer, next.byteOffset, next.length);
  }

  u32(v: number): this {
    this.ensure(4);
    this.view.setUint32(this.pos, v >>> 0);
    this.pos += 4;
    return this;
  }

  i32(v: number): this {
    this.ensure(4);
    this.view.setInt32(this.pos, v);
    this.pos += 4;
    return this;
  }

  i64(v: bigint): this {
    this.ensure(8);
    this.view.setBigInt64(this.pos, v);
    this.pos += 8;
    return this;
  }

  u64(v: bigint): this {
    this.ensure(8);
    this.view.setBigUint64(this.pos, v);
    this.pos += 8;
    return this;
  }

  /** fixed-size opaque (caller pads) */
  raw(b: Uint8Array): this {
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
    return this;
  }

  /** bytes, one each (an account's thresholds) */
  bytes(values: readonly number[]): this {
    this.ensure(values.length);
    for (const v of values) this.buf[this.pos++] = v;
    return this;
  }

  /** variable opaque / string: length, bytes, zero padding */
  varBytes(b: Uint8Array): this {
    const pad = (4 - (b.length % 4)) % 4;
    this.u32(b.length);
    this.ensure(b.length + pad);
    this.buf.set(b, this.pos);
    this.pos += b.length;
    this.buf.fill(0, this.pos, this.pos + pad);
    this.pos += pad;
    return this;
  }

  /** a string of one byte per character (home domains, data names), as varBytes */
  latin1(text: string): this {
    const pad = (4 - (text.length % 4)) % 4;
    this.u32(text.length);
    this.ensure(text.length + pad);
    this.pos += this.buf.write(text, this.pos, 'latin1');
    this.buf.fill(0, this.pos, this.pos + pad);
    this.pos += pad;
    return this;
  }

  accountId(id: string): this {
    return this.u32(0).raw(accountIdKey(id));
  }

  get length(): number {
    return this.pos;
  }

  /** empties the writer, keeping its buffer */
  reset(): this {
    this.pos = 0;
    return this;
  }

  toBuffer(): Buffer {
    return Buffer.from(this.buf.subarray(0, this.pos));
  }
}

function writeCode(w: XdrBytes, a: CreditAsset): void {
  const code = assetCodeBytes(a);
  w.u32(code.length === 4 ? 1 : 2)
    .raw(code)
    .accountId(a.issuer);
}

function writeAsset(w: XdrBytes, a: AssetValue): void {
  if (a.type === 'native') w.u32(0);
  else writeCode(w, a);
}

function writeTrustLineAsset(w: XdrBytes, a: TrustLineAsset): void {
  if (a.type === 'pool_share') w.u32(3).raw(Buffer.from(a.poolId, 'hex'));
  else writeCode(w, a);
}

/** an optional AccountID (sponsoring ids) */
function writeSponsor(w: XdrBytes, id: string | null | undefined): void {
  if (id) w.u32(1).accountId(id);
  else w.u32(0);
}

export function writeEntry(w: XdrBytes, e: EntryRec): void {
  w.u32(e.lastModified);
  switch (e.type) {
    case 'account': {
      w.u32(0).accountId(e.accountId).i64(e.balance).i64(e.seqNum).u32(e.numSubEntries);
      if (e.inflationDest) w.u32(1).accountId(e.inflationDest);
      else w.u32(0);
      w.u32(e.flags).latin1(e.homeDomain).bytes(e.thresholds);
      w.u32(e.signers.length);
      for (const s of e.signers) w.raw(Buffer.from(s.key, 'hex')).u32(s.weight);
      if (e.extLevel >= 1) {
        w.u32(1).i64(e.buyingLiabilities).i64(e.sellingLiabilities);
        if (e.extLevel >= 2) {
          w.u32(2).u32(e.numSponsored).u32(e.numSponsoring).u32(e.signers.length);
          for (const s of e.signers) writeSponsor(w, s.sponsor);
          if (e.extLevel >= 3) w.u32(3).u32(0).u32(e.seqLedger).u64(e.seqTime);
          else w.u32(0);
        } else {
          w.u32(0);
        }
      } else {
        w.u32(0);
      }
      break;
    }
    case 'trustline':
      w.u32(1).accountId(e.accountId);
      writeTrustLineAsset(w, e.asset);
      w.i64(e.balance).i64(e.limit).u32(e.flags);
      if (e.extLevel >= 1) {
        w.u32(1).i64(e.buyingLiabilities).i64(e.sellingLiabilities);
        if (e.extLevel >= 2) w.u32(2).i32(e.liquidityPoolUseCount).u32(0);
        else w.u32(0);
      } else {
        w.u32(0);
      }
      break;
    case 'offer':
      w.u32(2).accountId(e.sellerId).i64(e.offerId);
      writeAsset(w, e.selling);
      writeAsset(w, e.buying);
      w.i64(e.amount).i32(e.priceN).i32(e.priceD).u32(e.flags).u32(0);
      break;
    case 'data':
      w.u32(3).accountId(e.accountId).latin1(e.name).varBytes(Buffer.from(e.value, 'base64')).u32(0);
      break;
    case 'claimableBalance':
      w.u32(4).u32(0).raw(Buffer.from(e.balanceId, 'hex')).u32(e.claimants.length);
      for (const c of e.claimants) w.u32(0).accountId(c.destination).raw(c.predicate.toXdr());
      writeAsset(w, e.asset);
      w.i64(e.amount);
      if (e.extLevel >= 1) w.u32(1).u32(0).u32(e.flags);
      else w.u32(0);
      break;
    case 'liquidityPool':
      w.u32(5).raw(Buffer.from(e.poolId, 'hex')).u32(0);
      writeAsset(w, e.assetA);
      writeAsset(w, e.assetB);
      w.i32(e.fee).i64(e.reserveA).i64(e.reserveB).i64(e.totalPoolShares).i64(e.poolSharesTrustLineCount);
      break;
  }
  // LedgerEntry ext: v1 carries the sponsoring id
  if (e.sponsor === undefined) w.u32(0);
  else {
    w.u32(1);
    writeSponsor(w, e.sponsor);
    w.u32(0);
  }
}

export function writeKey(w: XdrBytes, e: EntryRec): void {
  switch (e.type) {
    case 'account':
      w.u32(0).accountId(e.accountId);
      break;
    case 'trustline':
      w.u32(1).accountId(e.accountId);
      writeTrustLineAsset(w, e.asset);
      break;
    case 'offer':
      w.u32(2).accountId(e.sellerId).i64(e.offerId);
      break;
    case 'data':
      w.u32(3).accountId(e.accountId).latin1(e.name);
      break;
    case 'claimableBalance':
      w.u32(4).u32(0).raw(Buffer.from(e.balanceId, 'hex'));
      break;
    case 'liquidityPool':
      w.u32(5).raw(Buffer.from(e.poolId, 'hex'));
      break;
  }
}

export function encodeEntry(e: EntryRec): Buffer {
  const w = new XdrBytes(256);
  writeEntry(w, e);
  return w.toBuffer();
}

export function encodeKey(e: EntryRec): Buffer {
  const w = new XdrBytes(128);
  writeKey(w, e);
  return w.toBuffer();
}

// LedgerEntryChangeType
export const CHANGE_CREATED = 0;
export const CHANGE_UPDATED = 1;
export const CHANGE_REMOVED = 2;
export const CHANGE_STATE = 3;
