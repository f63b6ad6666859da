// Reads a LedgerCloseMeta from its XDR bytes into a LedgerView while keeping the byte ranges of
// the parts that are stored as XDR (envelope, result, meta, fee changes) and hashed (the
// transaction bodies): slicing the input is much cheaper than encoding the decoded values again.
// The scpInfo and later fields are not needed and are not read.
import { createHash } from 'node:crypto';
import { cereal, xdr } from '@stellar/stellar-sdk/base';
import type { LedgerTx, LedgerView, RawParts } from './ledger_view.js';
import { MetaError, splitMeta } from './ledger_view.js';
import { type MetaScan, scanChanges, scanTransactionMeta } from './meta_scan.js';
import { scanEnvelope, scanResultPair } from './tx_scan.js';
import { Scanner } from './xdr_scan.js';

type Reader = InstanceType<typeof cereal.XdrReader>;
interface Readable<T> {
  read(io: Buffer): T;
}

// stellar-base types `read` as taking a Buffer; at run time it takes the reader
const readWith = <T>(type: Readable<T>, r: Reader): T => type.read(r as unknown as Buffer);
const at = (r: Reader): number => r.advance(0);

/** an envelope of the tx set: its bytes, where its signatures start, and js-xdr's decoding when the scanner could not skip it */
interface RawEnvelope {
  bytes: Buffer;
  /** EnvelopeType: 0 (v0), 2 (v1) or 5 (fee bump) */
  type: number;
  /** offset of the outer signatures in `bytes` */
  signatures: number;
  decoded: xdr.TransactionEnvelope | null;
}

function signaturesSize(envelope: xdr.TransactionEnvelope): number {
  const kind = envelope.switch().name;
  const signatures =
    kind === 'envelopeTypeTxFeeBump'
      ? envelope.feeBump().signatures()
      : kind === 'envelopeTypeTx'
        ? envelope.v1().signatures()
        : envelope.v0().signatures();
  let size = 4;
  for (const s of signatures) size += 8 + Math.ceil(s.signature().length / 4) * 4;
  return size;
}

function readEnvelopes(raw: Buffer, r: Reader, out: RawEnvelope[]): void {
  const count = r.readUInt32BE();
  for (let i = 0; i < count; i++) {
    const start = at(r);
    const scan = scanEnvelope(raw, start);
    if (scan) {
      r.advance(scan.end - start);
      out.push({ bytes: raw.subarray(start, scan.end), type: scan.type, signatures: scan.signatures - start, decoded: null });
    } else {
      const decoded = readWith(xdr.TransactionEnvelope, r);
      const bytes = raw.subarray(start, at(r));
      out.push({ bytes, type: decoded.switch().value, signatures: bytes.length - signaturesSize(decoded), decoded });
    }
  }
}

function skipOptionalInt64(r: Reader): void {
  if (r.readUInt32BE() !== 0) r.advance(8);
}

function readGeneralizedTxSet(raw: Buffer, r: Reader, out: RawEnvelope[]): void {
  const version = r.readInt32BE();
  if (version !== 1) throw new MetaError(`unsupported GeneralizedTransactionSet version ${version}`);
  r.advance(32); // previousLedgerHash
  const phases = r.readUInt32BE();
  for (let p = 0; p < phases; p++) {
    const phase = r.readInt32BE();
    if (phase === 0) {
      const components = r.readUInt32BE();
      for (let c = 0; c < components; c++) {
        const type = r.readInt32BE();
        if (type !== 0) throw new MetaError(`unsupported TxSetComponent type ${type}`);
        skipOptionalInt64(r);
        readEnvelopes(raw, r, out);
      }
    } else if (phase === 1) {
      skipOptionalInt64(r);
      const stages = r.readUInt32BE();
      for (let s = 0; s < stages; s++) {
        const clusters = r.readUInt32BE();
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

/** LedgerEntryChanges: skipped by the byte scanner, or decoded by js-xdr when it cannot */
function skipChanges(raw: Buffer, r: Reader): RawChanges {
  const start = at(r);
  const end = scanChanges(raw, start);
  if (end !== null) {
    r.advance(end - start);
    return { bytes: raw.subarray(start, end), changes: null };
  }
  const count = r.readUInt32BE();
  const changes = new Array<xdr.LedgerEntryChange>(count);
  for (let i = 0; i < count; i++) changes[i] = readWith(xdr.LedgerEntryChange, r);
  return { changes, bytes: raw.subarray(start, at(r)) };
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
    return (this.#envelope ??= xdr.TransactionEnvelope.fromXDR(this.envelopeRaw.bytes));
  }

  get result(): xdr.TransactionResultPair {
    return (this.#result ??= xdr.TransactionResultPair.fromXDR(this.resultBytes));
  }

  get raw(): RawParts {
    // the pair is the 32-byte hash followed by the TransactionResult
    return new RawXdr(this.envelopeRaw.bytes, this.resultBytes.subarray(32), this.metaBytes, this.feeRaw.bytes);
  }

  get meta(): xdr.TransactionMeta {
    return (this.#meta ??= xdr.TransactionMeta.fromXDR(this.metaBytes));
  }

  get feeChanges(): xdr.LedgerEntryChange[] {
    return (this.#fee ??= xdr.LedgerEntryChanges.fromXDR(this.feeRaw.bytes));
  }

  get postApplyFeeChanges(): xdr.LedgerEntryChange[] {
    return (this.#postFee ??= this.postFeeRaw ? xdr.LedgerEntryChanges.fromXDR(this.postFeeRaw.bytes) : []);
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
  const r = new cereal.XdrReader(raw);
  const version = r.readInt32BE();
  if (version !== 0 && version !== 1 && version !== 2) throw new MetaError(`unsupported LedgerCloseMeta version ${version}`);
  if (version !== 0) readWith(xdr.LedgerCloseMetaExt, r);
  const headerEntry = readWith(xdr.LedgerHeaderHistoryEntry, r);
  const header = headerEntry.header();
  const sequence = header.ledgerSeq();
  const envelopes: RawEnvelope[] = [];
  if (version === 0) {
    r.advance(32);
    readEnvelopes(raw, r, envelopes);
  } else {
    readGeneralizedTxSet(raw, r, envelopes);
  }
  const count = r.readUInt32BE();
  let byHash: Map<string, RawEnvelope> | null = null;
  const txs: LedgerTx[] = [];
  for (let i = 0; i < count; i++) {
    if (version === 2) readWith(xdr.ExtensionPoint, r);
    const resultStart = at(r);
    const scannedEnd = scanResultPair(raw, resultStart);
    const result = scannedEnd === null ? readWith(xdr.TransactionResultPair, r) : null;
    if (scannedEnd !== null) r.advance(scannedEnd - resultStart);
    const resultEnd = at(r);
    const fee = skipChanges(raw, r);
    const metaStart = at(r);
    const scan = scanTransactionMeta(raw, metaStart);
    const meta = scan ? null : readWith(xdr.TransactionMeta, r);
    if (scan) r.advance(scan.end - metaStart);
    const metaEnd = at(r);
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
  const upgrades = r.readUInt32BE();
  const upgradeChanges: xdr.LedgerEntryChange[] = [];
  for (let i = 0; i < upgrades; i++) upgradeChanges.push(...readWith(xdr.UpgradeEntryMeta, r).changes());
  return { sequence, hash: headerEntry.hash().toString('hex'), header, headerEntry, txs, upgradeChanges, networkId: network };
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
  if (s.u32() === 1) {
    // STELLAR_VALUE_SIGNED: a LedgerCloseValueSignature
    s.skipAccountId();
    s.skipVarOpaque(64);
  }
  s.skip(32 + 32); // txSetResultHash, bucketListHash
  return s.u32();
}
