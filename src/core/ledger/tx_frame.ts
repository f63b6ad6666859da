// A decoded transaction envelope with everything validation and apply need, computed once.
import { hash as digest } from 'node:crypto';
import { xdr } from '@stellar/stellar-sdk/base';
import { encodeAccountIdAt, muxedAccountBase } from '../../stellar/index.js';
import { Scanner, Unsupported, readXdrAt } from '../../meta/xdr_scan.js';
import { asBuffer } from '../../stellar/bytes.js';
import type { DecoratedSig } from './signature_checker.js';

export interface ParsedOp {
  op: xdr.Operation;
  /** OperationType name from the XDR, e.g. 'payment' */
  type: string;
  /** explicit operation source (G...), or null to use the transaction's */
  sourceId: string | null;
}

/** The outer part of a fee-bump envelope. */
export interface FeeBumpPart {
  feeSourceId: string;
  /** the fee-bump's fee bid (covers the inner operations + 1) */
  fee: bigint;
  signatures: DecoratedSig[];
  verified: Map<string, boolean>;
}

export interface TxFrame {
  /** the envelope's XDR bytes, as it goes into the transaction set: v0 envelopes are converted to v1 (stellar-core's convertForV13) */
  envelopeXdr: Buffer;
  isFeeBump: boolean;
  /** contents hash: the transaction id (the outer hash for a fee bump) */
  hash: Buffer;
  hashHex: string;
  /** hash the inner signatures sign: equals `hash` except for fee bumps */
  innerHash: Buffer;
  /** set for fee-bump envelopes */
  feeBump: FeeBumpPart | null;
  /** sha256 of the envelope XDR, stellar-core's full hash (tx set order, duplicate detection) */
  fullHash: Buffer;
  sourceId: string;
  seqNum: bigint;
  fee: bigint;
  ops: ParsedOp[];
  signatures: DecoratedSig[];
  minTime: bigint;
  maxTime: bigint;
  minLedger: number;
  maxLedger: number;
  minSeqNum: bigint | null;
  minSeqAge: bigint;
  minSeqLedgerGap: number;
  extraSigners: xdr.SignerKey[];
  /** v1 tx.ext's discriminant; non-zero (Soroban data) is malformed for classic transactions */
  txExtVersion: number;
  /** signature checks already done for this envelope ("index:signerKey" → valid) */
  verified: Map<string, boolean>;
}

const ENVELOPE_TYPE_TX = Buffer.from([0, 0, 0, 2]);
const ENVELOPE_TYPE_TX_FEE_BUMP = Buffer.from([0, 0, 0, 5]);

function convertV0(v0: xdr.TransactionV0Envelope): xdr.TransactionEnvelope {
  const t = v0.tx;
  const tb = t.timeBounds;
  const tx = new xdr.Transaction({
    sourceAccount: xdr.MuxedAccount.keyTypeEd25519(t.sourceAccountEd25519),
    fee: t.fee,
    seqNum: t.seqNum,
    cond: tb ? xdr.Preconditions.precondTime(tb) : xdr.Preconditions.precondNone(),
    memo: t.memo,
    operations: t.operations,
    ext: xdr.TransactionExt.v0(),
  });
  return xdr.TransactionEnvelope.envelopeTypeTx(new xdr.TransactionV1Envelope({ tx, signatures: v0.signatures }));
}

/** Decodes an envelope (trailing bytes are rejected too); null when the bytes are not one. */
export function decodeEnvelope(blob: Uint8Array): xdr.TransactionEnvelope | null {
  try {
    return xdr.TransactionEnvelope.fromXdr(blob);
  } catch {
    return null;
  }
}

// crypto.hash is node's one-shot digest, quicker than a Hash object for a few hundred bytes
function sha256(...parts: Uint8Array[]): Buffer {
  return digest('sha256', parts.length === 1 ? parts[0]! : Buffer.concat(parts), 'buffer');
}

function paddedLength(n: number): number {
  return n + ((4 - (n % 4)) % 4);
}

function decoratedSigs(sigs: xdr.DecoratedSignature[]): DecoratedSig[] {
  return sigs.map((s) => ({ hint: asBuffer(s.hint.value), signature: asBuffer(s.signature.value) }));
}

/**
 * @param raw the envelope's bytes when known (submission): v1 and fee-bump envelopes are then
 * never serialized again, the transaction's bytes being a slice of them.
 */
export function makeTxFrame(input: xdr.TransactionEnvelope, networkId: Buffer, raw?: Buffer): TxFrame {
  const isV0 = input.type === 'envelopeTypeTxV0';
  const env = input.type === 'envelopeTypeTxV0' ? convertV0(input.v0) : input;
  const feeBumpEnv = env.type === 'envelopeTypeTxFeeBump' ? env.feeBump : null;
  const isFeeBump = feeBumpEnv !== null;
  let v1: xdr.TransactionV1Envelope;
  if (env.type === 'envelopeTypeTxFeeBump') v1 = env.feeBump.tx.innerTx.v1;
  else if (env.type === 'envelopeTypeTx') v1 = env.v1;
  else throw new Error(`unexpected envelope ${env.type}`);
  const tx = v1.tx;
  const envXdr = raw && !isV0 ? raw : asBuffer(env.toXdr());
  let txXdr: Uint8Array;
  if (!feeBumpEnv) {
    // TransactionV1Envelope = type (4) + Transaction + signatures (count + hint, length-prefixed signature each)
    let sigLen = 4;
    for (const s of v1.signatures) sigLen += 4 + 4 + paddedLength(s.signature.value.length);
    txXdr = envXdr.subarray(4, envXdr.length - sigLen);
  } else {
    txXdr = tx.toXdr();
  }
  const innerHash = sha256(networkId, ENVELOPE_TYPE_TX, txXdr);
  const hash = feeBumpEnv ? sha256(networkId, ENVELOPE_TYPE_TX_FEE_BUMP, feeBumpEnv.tx.toXdr()) : innerHash;
  const feeBump: FeeBumpPart | null = feeBumpEnv
    ? {
        feeSourceId: muxedAccountBase(feeBumpEnv.tx.feeSource),
        fee: feeBumpEnv.tx.fee,
        signatures: decoratedSigs(feeBumpEnv.signatures),
        verified: new Map(),
      }
    : null;
  const cond = tx.cond;
  let minTime = 0n;
  let maxTime = 0n;
  let minLedger = 0;
  let maxLedger = 0;
  let minSeqNum: bigint | null = null;
  let minSeqAge = 0n;
  let minSeqLedgerGap = 0;
  let extraSigners: xdr.SignerKey[] = [];
  if (cond.type === 'precondTime') {
    minTime = cond.timeBounds.minTime;
    maxTime = cond.timeBounds.maxTime;
  } else if (cond.type === 'precondV2') {
    const v2 = cond.v2;
    const tb = v2.timeBounds;
    if (tb) {
      minTime = tb.minTime;
      maxTime = tb.maxTime;
    }
    const lb = v2.ledgerBounds;
    if (lb) {
      minLedger = lb.minLedger;
      maxLedger = lb.maxLedger;
    }
    minSeqNum = v2.minSeqNum;
    minSeqAge = v2.minSeqAge;
    minSeqLedgerGap = v2.minSeqLedgerGap;
    extraSigners = v2.extraSigners;
  }
  return {
    envelopeXdr: envXdr,
    isFeeBump,
    hash,
    hashHex: hash.toString('hex'),
    innerHash,
    feeBump,
    fullHash: sha256(envXdr),
    sourceId: muxedAccountBase(tx.sourceAccount),
    seqNum: tx.seqNum,
    fee: BigInt(tx.fee),
    ops: tx.operations.map((op) => {
      const src = op.sourceAccount;
      return { op, type: op.body.type, sourceId: src ? muxedAccountBase(src) : null };
    }),
    signatures: decoratedSigs(v1.signatures),
    minTime,
    maxTime,
    minLedger,
    maxLedger,
    minSeqNum,
    minSeqAge,
    minSeqLedgerGap,
    extraSigners,
    txExtVersion: tx.ext.type === 'v0' ? 0 : 1,
    verified: new Map(),
  };
}

// OperationType discriminants read by EnvelopeReader itself
const OP_CREATE_ACCOUNT = 0;
const OP_PAYMENT = 1;

/** the library's wrapping of an Operation's plain decoded form (what its own reader builds) */
interface PlainOperationCodec {
  fromXdrObject(plain: { sourceAccount: object | null; body: object }): xdr.Operation;
}

// XDR limits: MAX_OPS_PER_TX, DecoratedSignature signatures<20>, extraSigners<2>, memo text<28>
const MAX_OPS = 100;
const MAX_SIGNATURES = 20;

/**
 * Reads a v1 or fee-bump envelope of classic shape straight from its bytes: the frame's fields,
 * with the library decoding only each operation (and extra signer), which apply needs as objects.
 * Anything else it throws on (Unsupported, or the library's XdrError), and the caller decodes the
 * whole envelope with the library instead, which also judges what is malformed: every check here
 * is one the library makes too, so whatever this accepts, the library reads the same.
 */
class EnvelopeReader extends Scanner {
  /** a u32 that must be 0 or 1 (XDR bool, optional) */
  flag(): boolean {
    const v = this.u32();
    if (v > 1) throw new Unsupported();
    return v === 1;
  }

  u64(): bigint {
    this.skip(8);
    return this.buf.readBigUInt64BE(this.pos - 8);
  }

  i64(): bigint {
    this.skip(8);
    return this.buf.readBigInt64BE(this.pos - 8);
  }

  /** var opaque or string of at most `max` bytes with zero padding: its bytes */
  varOpaque(max: number): Buffer {
    const n = this.u32();
    if (n > max) throw new Unsupported();
    const start = this.pos;
    this.skip((n + 3) & ~3);
    for (let i = start + n; i < this.pos; i++) if (this.buf[i] !== 0) throw new Unsupported();
    return this.buf.subarray(start, start + n);
  }

  /** a MuxedAccount: the G... of its ed25519 key */
  muxedBase(): string {
    const type = this.u32();
    if (type === 0x100) this.skip(8);
    else if (type !== 0) throw new Unsupported();
    this.skip(32);
    return encodeAccountIdAt(this.buf, this.pos - 32);
  }

  signatures(): DecoratedSig[] {
    const n = this.u32();
    if (n > MAX_SIGNATURES) throw new Unsupported();
    const out: DecoratedSig[] = [];
    for (let i = 0; i < n; i++) {
      this.skip(4);
      const hint = this.buf.subarray(this.pos - 4, this.pos);
      out.push({ hint, signature: this.varOpaque(64) });
    }
    return out;
  }

  memo(): void {
    const type = this.u32();
    if (type === 1) this.varOpaque(28);
    else if (type === 2) this.skip(8);
    else if (type === 3 || type === 4) this.skip(32);
    else if (type !== 0) throw new Unsupported();
  }

  /** a Transaction (v1): everything but its bytes, start and end, which the caller knows */
  transaction(frame: ReadFrame): void {
    frame.sourceId = this.muxedBase();
    frame.fee = BigInt(this.u32());
    frame.seqNum = this.i64();
    const cond = this.u32();
    if (cond === 1) {
      frame.minTime = this.u64();
      frame.maxTime = this.u64();
    } else if (cond === 2) {
      if (this.flag()) {
        frame.minTime = this.u64();
        frame.maxTime = this.u64();
      }
      if (this.flag()) {
        frame.minLedger = this.u32();
        frame.maxLedger = this.u32();
      }
      frame.minSeqNum = this.flag() ? this.i64() : null;
      frame.minSeqAge = this.u64();
      frame.minSeqLedgerGap = this.u32();
      const n = this.u32();
      if (n > 2) throw new Unsupported();
      for (let i = 0; i < n; i++) frame.extraSigners.push(this.library(xdr.SignerKey));
    } else if (cond !== 0) throw new Unsupported();
    this.memo();
    const n = this.u32();
    if (n > MAX_OPS) throw new Unsupported();
    for (let i = 0; i < n; i++) {
      const op = this.operation();
      const src = op.sourceAccount;
      frame.ops.push({ op, type: op.body.type, sourceId: src ? muxedAccountBase(src) : null });
    }
    // tx.ext v1 (Soroban data) is left to the library
    if (this.u32() !== 0) throw new Unsupported();
  }

  /**
   * An Operation: payments and account creations (most of a network's traffic) are read here into
   * the library's plain form, which it only wraps (its generic reader cost a tenth of a
   * submission); other bodies it reads itself.
   */
  private operation(): xdr.Operation {
    const start = this.pos;
    const sourceAccount = this.flag() ? this.plainMuxed() : null;
    const type = this.u32();
    let body: object;
    if (type === OP_PAYMENT) {
      const destination = this.plainMuxed();
      const asset = this.plainAsset();
      body = { type, paymentOp: { destination, asset, amount: this.i64() } };
    } else if (type === OP_CREATE_ACCOUNT) {
      const destination = this.plainAccountId();
      body = { type, createAccountOp: { destination, startingBalance: this.i64() } };
    } else {
      this.pos = start;
      return this.library(xdr.Operation);
    }
    return (xdr.Operation as unknown as PlainOperationCodec).fromXdrObject({ sourceAccount, body });
  }

  /** fixed opaque bytes, copied as the library copies them */
  private bytes(n: number): Uint8Array {
    this.skip(n);
    return new Uint8Array(this.buf.subarray(this.pos - n, this.pos));
  }

  private plainAccountId(): object {
    if (this.u32() !== 0) throw new Unsupported();
    return { type: 0, ed25519: this.bytes(32) };
  }

  private plainMuxed(): object {
    const type = this.u32();
    if (type === 0) return { type, ed25519: this.bytes(32) };
    if (type !== 0x100) throw new Unsupported();
    const id = this.u64();
    return { type, med25519: { id, ed25519: this.bytes(32) } };
  }

  private plainAsset(): object {
    const type = this.u32();
    if (type === 0) return { type };
    if (type === 1) return { type, alphaNum4: { assetCode: this.bytes(4), issuer: this.plainAccountId() } };
    if (type === 2) return { type, alphaNum12: { assetCode: this.bytes(12), issuer: this.plainAccountId() } };
    throw new Unsupported();
  }

  private library<W, T extends xdr.XdrValue>(type: xdr.XdrValueConstructor<W, T>): T {
    const { value, end } = readXdrAt(type, this.buf, this.pos);
    this.pos = end;
    return value;
  }
}

type ReadFrame = Omit<TxFrame, 'hash' | 'hashHex' | 'innerHash' | 'fullHash' | 'feeBump' | 'isFeeBump' | 'envelopeXdr'>;

/** The frame of a v1 or fee-bump envelope read from its bytes, or null for the library to decode (see EnvelopeReader). */
export function readTxFrame(blob: Buffer, networkId: Buffer): TxFrame | null {
  const r = new EnvelopeReader(blob, 0);
  const frame: ReadFrame = {
    sourceId: '',
    seqNum: 0n,
    fee: 0n,
    ops: [],
    signatures: [],
    minTime: 0n,
    maxTime: 0n,
    minLedger: 0,
    maxLedger: 0,
    minSeqNum: null,
    minSeqAge: 0n,
    minSeqLedgerGap: 0,
    extraSigners: [],
    txExtVersion: 0,
    verified: new Map(),
  };
  try {
    const type = r.u32();
    let feeBump: FeeBumpPart | null = null;
    let feeBumpTx: Buffer | null = null;
    if (type === 5) {
      const feeSourceId = r.muxedBase();
      const fee = r.i64();
      if (r.u32() !== 2) throw new Unsupported();
      feeBump = { feeSourceId, fee, signatures: [], verified: new Map() };
    } else if (type !== 2) {
      return null;
    }
    const txStart = r.pos;
    r.transaction(frame);
    const txXdr = blob.subarray(txStart, r.pos);
    frame.signatures = r.signatures();
    if (feeBump) {
      if (r.u32() !== 0) throw new Unsupported(); // FeeBumpTransaction.ext
      feeBumpTx = blob.subarray(4, r.pos);
      feeBump.signatures = r.signatures();
    }
    if (r.pos !== blob.length) return null;
    const innerHash = sha256(networkId, ENVELOPE_TYPE_TX, txXdr);
    const hash = feeBumpTx ? sha256(networkId, ENVELOPE_TYPE_TX_FEE_BUMP, feeBumpTx) : innerHash;
    return {
      ...frame,
      envelopeXdr: blob,
      isFeeBump: feeBump !== null,
      hash,
      hashHex: hash.toString('hex'),
      innerHash,
      feeBump,
      fullHash: sha256(blob),
    };
  } catch {
    return null;
  }
}
