// A decoded transaction envelope with everything validation and apply need, computed once.
import { createHash } from 'node:crypto';
import { xdr } from '@stellar/stellar-sdk/base';
import { muxedAccountBase } from '../../stellar/index.js';
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
  /** as it goes into the transaction set: v0 envelopes are converted to v1 (stellar-core's convertForV13) */
  envelope: xdr.TransactionEnvelope;
  /** the envelope's XDR bytes */
  envelopeXdr: Buffer;
  /** the v1 transaction, or the inner transaction of a fee bump */
  tx: xdr.Transaction;
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
  const innerHash = createHash('sha256').update(networkId).update(ENVELOPE_TYPE_TX).update(txXdr).digest();
  const hash = feeBumpEnv
    ? createHash('sha256').update(networkId).update(ENVELOPE_TYPE_TX_FEE_BUMP).update(feeBumpEnv.tx.toXdr()).digest()
    : innerHash;
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
    envelope: env,
    envelopeXdr: envXdr,
    tx,
    isFeeBump,
    hash,
    hashHex: hash.toString('hex'),
    innerHash,
    feeBump,
    fullHash: createHash('sha256').update(envXdr).digest(),
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
