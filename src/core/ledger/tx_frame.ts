// A decoded transaction envelope with everything validation and apply need, computed once.
import { createHash } from 'node:crypto';
import { xdr } from '@stellar/stellar-sdk/base';
import { muxedAccountBase } from '../../stellar/index.js';
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
  /** v1 tx.ext.v(); non-zero (Soroban data) is malformed for classic transactions */
  txExtVersion: number;
  /** signature checks already done for this envelope ("index:signerKey" → valid) */
  verified: Map<string, boolean>;
}

const ENVELOPE_TYPE_TX = Buffer.from([0, 0, 0, 2]);

function convertV0(env: xdr.TransactionEnvelope): xdr.TransactionEnvelope {
  const v0 = env.v0();
  const t = v0.tx();
  const tb = t.timeBounds();
  const tx = new xdr.Transaction({
    sourceAccount: xdr.MuxedAccount.keyTypeEd25519(t.sourceAccountEd25519()),
    fee: t.fee(),
    seqNum: t.seqNum(),
    cond: tb ? xdr.Preconditions.precondTime(tb) : xdr.Preconditions.precondNone(),
    memo: t.memo(),
    operations: t.operations(),
    ext: new xdr.TransactionExt(0),
  });
  return xdr.TransactionEnvelope.envelopeTypeTx(new xdr.TransactionV1Envelope({ tx, signatures: v0.signatures() }));
}

/** Decodes an envelope (js-xdr rejects trailing bytes too); null when the bytes are not one. */
export function decodeEnvelope(blob: Buffer): xdr.TransactionEnvelope | null {
  try {
    return xdr.TransactionEnvelope.fromXDR(blob);
  } catch {
    return null;
  }
}

function paddedLength(n: number): number {
  return n + ((4 - (n % 4)) % 4);
}

/**
 * @param raw the envelope's bytes when known (submission): v1 and fee-bump envelopes are then
 * never serialized again, the transaction's bytes being a slice of them.
 */
export function makeTxFrame(input: xdr.TransactionEnvelope, networkId: Buffer, raw?: Buffer): TxFrame {
  const isV0 = input.switch().value === xdr.EnvelopeType.envelopeTypeTxV0().value;
  const env = isV0 ? convertV0(input) : input;
  const isFeeBump = env.switch().value === xdr.EnvelopeType.envelopeTypeTxFeeBump().value;
  const v1 = isFeeBump ? env.feeBump().tx().innerTx().v1() : env.v1();
  const tx = v1.tx();
  const envXdr = raw && !isV0 ? raw : env.toXDR();
  let txXdr: Buffer;
  if (!isFeeBump) {
    // TransactionV1Envelope = type (4) + Transaction + signatures (count + hint, length-prefixed signature each)
    let sigLen = 4;
    for (const s of v1.signatures()) sigLen += 4 + 4 + paddedLength(s.signature().length);
    txXdr = envXdr.subarray(4, envXdr.length - sigLen);
  } else {
    txXdr = tx.toXDR();
  }
  const innerHash = createHash('sha256').update(networkId).update(ENVELOPE_TYPE_TX).update(txXdr).digest();
  const hash = isFeeBump
    ? createHash('sha256')
        .update(networkId)
        .update(Buffer.from([0, 0, 0, 5]))
        .update(env.feeBump().tx().toXDR())
        .digest()
    : innerHash;
  const sigs = v1.signatures();
  const feeBump: FeeBumpPart | null = isFeeBump
    ? {
        feeSourceId: muxedAccountBase(env.feeBump().tx().feeSource()),
        fee: env.feeBump().tx().fee().toBigInt(),
        signatures: env
          .feeBump()
          .signatures()
          .map((s) => ({ hint: s.hint(), signature: s.signature() })),
        verified: new Map(),
      }
    : null;
  const cond = tx.cond();
  let minTime = 0n;
  let maxTime = 0n;
  let minLedger = 0;
  let maxLedger = 0;
  let minSeqNum: bigint | null = null;
  let minSeqAge = 0n;
  let minSeqLedgerGap = 0;
  let extraSigners: xdr.SignerKey[] = [];
  const condType = cond.switch().value;
  if (condType === xdr.PreconditionType.precondTime().value) {
    const tb = cond.timeBounds();
    minTime = tb.minTime().toBigInt();
    maxTime = tb.maxTime().toBigInt();
  } else if (condType === xdr.PreconditionType.precondV2().value) {
    const v2 = cond.v2();
    const tb = v2.timeBounds();
    if (tb) {
      minTime = tb.minTime().toBigInt();
      maxTime = tb.maxTime().toBigInt();
    }
    const lb = v2.ledgerBounds();
    if (lb) {
      minLedger = lb.minLedger();
      maxLedger = lb.maxLedger();
    }
    const msn = v2.minSeqNum();
    minSeqNum = msn ? msn.toBigInt() : null;
    minSeqAge = v2.minSeqAge().toBigInt();
    minSeqLedgerGap = v2.minSeqLedgerGap();
    extraSigners = v2.extraSigners();
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
    sourceId: muxedAccountBase(tx.sourceAccount()),
    seqNum: tx.seqNum().toBigInt(),
    fee: BigInt(tx.fee()),
    ops: tx.operations().map((op) => {
      const src = op.sourceAccount();
      return { op, type: op.body().switch().name, sourceId: src ? muxedAccountBase(src) : null };
    }),
    signatures: sigs.map((s) => ({ hint: s.hint(), signature: s.signature() })),
    minTime,
    maxTime,
    minLedger,
    maxLedger,
    minSeqNum,
    minSeqAge,
    minSeqLedgerGap,
    extraSigners,
    txExtVersion: tx.ext().switch(),
    verified: new Map(),
  };
}
