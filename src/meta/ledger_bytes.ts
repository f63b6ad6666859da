// Reads a LedgerCloseMeta from its XDR bytes into a LedgerView while keeping the byte ranges of
// the parts that are stored as XDR (envelope, result, meta, fee changes) and hashed (the
// transaction bodies): slicing the input is much cheaper than encoding the decoded values again.
// The scpInfo and later fields are not needed and are not read.
import { createHash } from 'node:crypto';
import { xdr } from '@stellar/stellar-sdk/base';
import type { LedgerTx, LedgerView, RawParts } from './ledger_view.js';
import { MetaError, splitMeta } from './ledger_view.js';
import { type MetaScan, scanChanges, scanTransactionMeta } from './meta_scan.js';
import { scanEnvelope, scanResultPair } from './tx_scan.js';
import { asBuffer } from '../stellar/bytes.js';
import { Scanner, Unsupported, readXdrAt, skipXdrAt } from './xdr_scan.js';

/** an envelope of the tx set: its bytes, where its signatures start, and the library's decoding when the scanner could not skip it */
interface RawEnvelope {
  bytes: Buffer;
  /** EnvelopeType: 0 (v0), 2 (v1) or 5 (fee bump) */
  type: number;
  /** offset of the outer signatures in `bytes` */
  signatures: number;
  decoded: xdr.TransactionEnvelope | null;
}

function signaturesSize(envelope: xdr.TransactionEnvelope): number {
  const signatures =
    envelope.type === 'envelopeTypeTxFeeBump'
      ? envelope.feeBump.signatures
      : envelope.type === 'envelopeTypeTx'
        ? envelope.v1.signatures
        : envelope.v0.signatures;
  let size = 4;
  for (const s of signatures) size += 8 + Math.ceil(s.signature.value.length / 4) * 4;
  return size;
}

function readEnvelopes(raw: Buffer, r: Scanner, out: RawEnvelope[]): void {
  const count = r.u32();
  for (let i = 0; i < count; i++) {
    const start = r.pos;
    const scan = scanEnvelope(raw, start);
    if (scan) {
      r.pos = scan.end;
      out.push({ bytes: raw.subarray(start, scan.end), type: scan.type, signatures: scan.signatures - start, decoded: null });
    } else {
      const { value: decoded, end } = readXdrAt(xdr.TransactionEnvelope, raw, start);
      r.pos = end;
      const bytes = raw.subarray(start, end);
      out.push({ bytes, type: raw.readUInt32BE(start), signatures: bytes.length - signaturesSize(decoded), decoded });
    }
  }
}

function skipOptionalInt64(r: Scanner): void {
  if (r.u32() !== 0) r.skip(8);
}

function readGeneralizedTxSet(raw: Buffer, r: Scanner, out: RawEnvelope[]): void {
  const version = r.i32();
  if (version !== 1) throw new MetaError(`unsupported GeneralizedTransactionSet version ${version}`);
  r.skip(32); // previousLedgerHash
  const phases = r.u32();
  for (let p = 0; p < phases; p++) {
    const phase = r.i32();
    if (phase === 0) {
      const components = r.u32();
      for (let c = 0; c < components; c++) {
        const type = r.i32();
        if (type !== 0) throw new MetaError(`unsupported TxSetComponent type ${type}`);
        skipOptionalInt64(r);
        readEnvelopes(raw, r, out);
      }
    } else if (phase === 1) {
      skipOptionalInt64(r);
      const stages = r.u32();
      for (let s = 0; s < stages; s++) {
        const clusters = r.u32();
        for (let c = 0; c < clusters; c++) readEnvelopes(raw, r, out);
      }
    } else {
      throw new MetaError(`unsupported TransactionPhase ${phase}`);
    }
  }
}

interface RawChanges {
  bytes: Buffer;
  /** decoded when the scanner could not skip them */
  changes: xdr.LedgerEntryChange[] | null;
}

/** LedgerEntryChanges: skipped by the byte scanner, or decoded by the library when it cannot */
function skipChanges(raw: Buffer, r: Scanner): RawChanges {
  const start = r.pos;
  const end = scanChanges(raw, start);
  if (end !== null) {
    r.pos = end;
    return { bytes: raw.subarray(start, end), changes: null };
  }
  const count = r.u32();
  const changes = new Array<xdr.LedgerEntryChange>(count);
  for (let i = 0; i < count; i++) {
    const read = readXdrAt(xdr.LedgerEntryChange, raw, r.pos);
    changes[i] = read.value;
    r.pos = read.end;
  }
  return { changes, bytes: raw.subarray(start, r.pos) };
}

/**
 * A transaction read from bytes: its parts stay bytes until a processor asks for them (a reingest
 * never needs the decoded meta: the scanner found the accounts it changed), and `release()`
 * forgets what was decoded, so a ledger's decoded transactions do not pile up while it is encoded.
 */
class BytesTx implements LedgerTx {
  #envelope: xdr.TransactionEnvelope | null;
  #result: xdr.TransactionResultPair | null;
  #meta: xdr.TransactionMeta | null;
  #parts: ReturnType<typeof splitMeta> | null = null;
  #fee: xdr.LedgerEntryChange[] | null;
  #postFee: xdr.LedgerEntryChange[] | null;
  readonly operationAccounts: string[][] | undefined;
  readonly operationSponsored: boolean[] | undefined;

  constructor(
    readonly index: number,
    readonly hash: string,
    private readonly envelopeRaw: RawEnvelope,
    private readonly resultBytes: Buffer,
    result: xdr.TransactionResultPair | null,
    private readonly feeRaw: RawChanges,
    private readonly metaBytes: Buffer,
    meta: xdr.TransactionMeta | null,
    private readonly postFeeRaw: RawChanges | null,
    scan: MetaScan | null,
  ) {
    this.operationAccounts = scan?.operationAccounts;
    this.operationSponsored = scan?.operationSponsored;
    this.#envelope = envelopeRaw.decoded;
    this.#result = result;
    this.#meta = meta;
    this.#fee = feeRaw.changes;
    this.#postFee = postFeeRaw?.changes ?? null;
  }

  get envelope(): xdr.TransactionEnvelope {
    return (this.#envelope ??= xdr.TransactionEnvelope.fromXdr(this.envelopeRaw.bytes));
  }

  get result(): xdr.TransactionResultPair {
    return (this.#result ??= xdr.TransactionResultPair.fromXdr(this.resultBytes));
  }

  get raw(): RawParts {
    // the pair is the 32-byte hash followed by the TransactionResult
    return new RawXdr(this.envelopeRaw.bytes, this.resultBytes.subarray(32), this.metaBytes, this.feeRaw.bytes);
  }

  get meta(): xdr.TransactionMeta {
    return (this.#meta ??= xdr.TransactionMeta.fromXdr(this.metaBytes));
  }

  get feeChanges(): xdr.LedgerEntryChange[] {
    return (this.#fee ??= xdr.decodeArray(xdr.LedgerEntryChange, this.feeRaw.bytes));
  }

  get postApplyFeeChanges(): xdr.LedgerEntryChange[] {
    return (this.#postFee ??= this.postFeeRaw ? xdr.decodeArray(xdr.LedgerEntryChange, this.postFeeRaw.bytes) : []);
  }

  private get parts(): ReturnType<typeof splitMeta> {
    return (this.#parts ??= splitMeta(this.meta));
  }

  get changesBefore(): xdr.LedgerEntryChange[] {
    return this.parts.before;
  }

  get operationChanges(): xdr.LedgerEntryChange[][] {
    return this.parts.ops;
  }

  get changesAfter(): xdr.LedgerEntryChange[] {
    return this.parts.after;
  }

  release(): void {
    this.#envelope = this.#result = this.#meta = this.#parts = this.#fee = this.#postFee = null;
  }
}

/** The stored blobs as base64, encoded when read (once, by the transaction processor). */
class RawXdr implements RawParts {
  constructor(
    private readonly envelope: Buffer,
    private readonly result: Buffer,
    private readonly meta: Buffer,
    private readonly fee: Buffer,
  ) {}

  get envelopeXdr(): string {
    return this.envelope.toString('base64');
  }

  get resultXdr(): string {
    return this.result.toString('base64');
  }

  get resultMetaXdr(): string {
    return this.meta.toString('base64');
  }

  get feeMetaXdr(): string {
    return this.fee.toString('base64');
  }
}

const HASH_PREFIX = { tx: Buffer.from([0, 0, 0, 2]), v0: Buffer.from([0, 0, 0, 2, 0, 0, 0, 0]), feeBump: Buffer.from([0, 0, 0, 5]) };

/** sha256(network id ‖ envelope type ‖ transaction) from the envelope's bytes minus its signatures */
function hashOf(env: RawEnvelope, network: Buffer): string {
  // a v0 transaction hashes as v1: its source gains the 4-byte key type (0 = ed25519)
  const prefix = env.type === 5 ? HASH_PREFIX.feeBump : env.type === 0 ? HASH_PREFIX.v0 : HASH_PREFIX.tx;
  return createHash('sha256').update(network).update(prefix).update(env.bytes.subarray(4, env.signatures)).digest('hex');
}

export function viewLedgerBytes(raw: Buffer, network: Buffer): LedgerView {
  try {
    return readLedgerBytes(raw, network);
  } catch (error) {
    // the cursor ran past the end of the bytes (the library's decoding throws its XdrError)
    if (error instanceof Unsupported) throw new MetaError(`truncated LedgerCloseMeta (${raw.length} bytes)`);
    throw error;
  }
}

function readLedgerBytes(raw: Buffer, network: Buffer): LedgerView {
  const r = new Scanner(raw, 0);
  const version = r.i32();
  if (version !== 0 && version !== 1 && version !== 2) throw new MetaError(`unsupported LedgerCloseMeta version ${version}`);
  if (version !== 0) r.pos = skipXdrAt(xdr.LedgerCloseMetaExt, raw, r.pos);
  const headerRead = readXdrAt(xdr.LedgerHeaderHistoryEntry, raw, r.pos);
  r.pos = headerRead.end;
  const headerEntry = headerRead.value;
  const header = headerEntry.header;
  const sequence = header.ledgerSeq;
  const envelopes: RawEnvelope[] = [];
  if (version === 0) {
    r.skip(32);
    readEnvelopes(raw, r, envelopes);
  } else {
    readGeneralizedTxSet(raw, r, envelopes);
  }
  const count = r.u32();
  let byHash: Map<string, RawEnvelope> | null = null;
  const txs: LedgerTx[] = [];
  for (let i = 0; i < count; i++) {
    if (version === 2 && r.u32() !== 0) throw new MetaError(`ledger ${sequence}: unsupported TransactionResultMetaV1 extension`);
    const resultStart = r.pos;
    const scannedEnd = scanResultPair(raw, resultStart);
    let result: xdr.TransactionResultPair | null = null;
    if (scannedEnd !== null) r.pos = scannedEnd;
    else {
      const read = readXdrAt(xdr.TransactionResultPair, raw, resultStart);
      result = read.value;
      r.pos = read.end;
    }
    const resultEnd = r.pos;
    const fee = skipChanges(raw, r);
    const metaStart = r.pos;
    const scan = scanTransactionMeta(raw, metaStart);
    let meta: xdr.TransactionMeta | null = null;
    if (scan) r.pos = scan.end;
    else {
      const read = readXdrAt(xdr.TransactionMeta, raw, metaStart);
      meta = read.value;
      r.pos = read.end;
    }
    const metaEnd = r.pos;
    const postFee = version === 2 ? skipChanges(raw, r) : null;
    const hash = raw.toString('hex', resultStart, resultStart + 32);
    byHash ??= new Map(envelopes.map((e) => [hashOf(e, network), e]));
    const env = byHash.get(hash);
    if (!env) {
      throw new MetaError(`ledger ${sequence}: transaction ${hash} has no envelope in the tx set (wrong network passphrase?)`);
    }
    const metaBytes = raw.subarray(metaStart, metaEnd);
    txs.push(new BytesTx(i + 1, hash, env, raw.subarray(resultStart, resultEnd), result, fee, metaBytes, meta, postFee, scan));
  }
  const upgrades = r.u32();
  const upgradeChanges: xdr.LedgerEntryChange[] = [];
  for (let i = 0; i < upgrades; i++) {
    const upgrade = readXdrAt(xdr.UpgradeEntryMeta, raw, r.pos);
    r.pos = upgrade.end;
    upgradeChanges.push(...upgrade.value.changes);
  }
  return { sequence, hash: asBuffer(headerEntry.hash.value).toString('hex'), header, headerEntry, txs, upgradeChanges, networkId: network };
}

/**
 * The sequence of a LedgerCloseMeta (any version) in bytes, read from its header without decoding
 * it: the bytes up to the header's ledgerSeq are enough (a few hundred).
 */
export function rawLedgerSequence(raw: Buffer): number {
  const s = new Scanner(raw, 0);
  // LedgerCloseMetaExt (v1 and later); its v1 holds an ExtensionPoint and sorobanFeeWrite1KB
  if (s.i32() !== 0 && s.u32() === 1) s.skip(4 + 8);
  s.skip(32 + 4 + 32); // LedgerHeaderHistoryEntry.hash, ledgerVersion, previousLedgerHash
  s.skip(32 + 8); // StellarValue: txSetHash, closeTime
  s.array(6, () => s.skipVarOpaque(128)); // upgrades
  const ext = s.u32();
  if (ext > 2) throw new MetaError(`unsupported StellarValue ext ${ext}`);
  // STELLAR_VALUE_EMPTY_TX_SET: the proposed value's txSetHash, previousLedgerHash and previousLedgerVersion, then its signature
  if (ext === 2) s.skip(32 + 32 + 4);
  if (ext !== 0) {
    // STELLAR_VALUE_SIGNED: a LedgerCloseValueSignature
    s.skipAccountId();
    s.skipVarOpaque(64);
  }
  s.skip(32 + 32); // txSetResultHash, bucketListHash
  return s.u32();
}
