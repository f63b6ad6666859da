// Reads the parts of a transaction envelope that rows need, for v0, v1 and fee-bump envelopes alike.
import { xdr } from '@stellar/stellar-sdk/base';
import { encodeAccountId, muxedAccountFromXdr, type DecodedMuxedAccount } from '../stellar/index.js';
import { asBuffer } from '../stellar/bytes.js';

export interface EnvelopeParts {
  /** the transaction's own source (the inner one for a fee bump) */
  source: DecodedMuxedAccount;
  sequence: bigint;
  /** the inner transaction's fee */
  fee: bigint;
  operations: xdr.Operation[];
  memo: xdr.Memo;
  /** the signatures of the (inner) transaction, base64 */
  signatures: string[];
  timeBounds: xdr.TimeBounds | null;
  ledgerBounds: xdr.LedgerBounds | null;
  minSeqNum: bigint | null;
  minSeqAge: bigint | null;
  minSeqLedgerGap: number | null;
  extraSigners: xdr.SignerKey[];
  feeBump: {
    feeSource: DecodedMuxedAccount;
    fee: bigint;
    signatures: string[];
    innerHash: Buffer;
  } | null;
}

const sigs = (list: xdr.DecoratedSignature[]): string[] => list.map((s) => asBuffer(s.signature.value).toString('base64'));

function ed25519Source(key: Uint8Array): DecodedMuxedAccount {
  return { accountId: encodeAccountId(key), muxedAddress: null, muxedId: null };
}

export function envelopeParts(envelope: xdr.TransactionEnvelope, innerHash?: Buffer): EnvelopeParts {
  if (envelope.type === 'envelopeTypeTxV0') {
    const v0 = envelope.v0;
    const tx = v0.tx;
    return {
      source: ed25519Source(tx.sourceAccountEd25519.value),
      sequence: tx.seqNum,
      fee: BigInt(tx.fee),
      operations: tx.operations,
      memo: tx.memo,
      signatures: sigs(v0.signatures),
      timeBounds: tx.timeBounds,
      ledgerBounds: null,
      minSeqNum: null,
      minSeqAge: null,
      minSeqLedgerGap: null,
      extraSigners: [],
      feeBump: null,
    };
  }
  if (envelope.type === 'envelopeTypeTxFeeBump') {
    const fb = envelope.feeBump;
    const outer = fb.tx;
    const inner = xdr.TransactionEnvelope.envelopeTypeTx(outer.innerTx.v1);
    const parts = envelopeParts(inner);
    return {
      ...parts,
      feeBump: {
        feeSource: muxedAccountFromXdr(outer.feeSource),
        fee: outer.fee,
        signatures: sigs(fb.signatures),
        innerHash: innerHash ?? Buffer.alloc(0),
      },
    };
  }
  const v1 = envelope.v1;
  const tx = v1.tx;
  const cond = tx.cond;
  let timeBounds: xdr.TimeBounds | null = null;
  let v2: xdr.PreconditionsV2 | null = null;
  if (cond.type === 'precondTime') timeBounds = cond.timeBounds;
  else if (cond.type === 'precondV2') {
    v2 = cond.v2;
    timeBounds = v2.timeBounds;
  }
  return {
    source: muxedAccountFromXdr(tx.sourceAccount),
    sequence: tx.seqNum,
    fee: BigInt(tx.fee),
    operations: tx.operations,
    memo: tx.memo,
    signatures: sigs(v1.signatures),
    timeBounds,
    ledgerBounds: v2?.ledgerBounds ?? null,
    minSeqNum: v2?.minSeqNum ?? null,
    minSeqAge: v2 ? v2.minSeqAge : null,
    minSeqLedgerGap: v2 ? v2.minSeqLedgerGap : null,
    extraSigners: v2?.extraSigners ?? [],
    feeBump: null,
  };
}

/** The transaction's own source as an XDR MuxedAccount (the inner one for a fee bump; a v0 source is the ed25519 arm). */
export function envelopeSourceAccount(envelope: xdr.TransactionEnvelope): xdr.MuxedAccount {
  switch (envelope.type) {
    case 'envelopeTypeTxFeeBump':
      return envelope.feeBump.tx.innerTx.v1.tx.sourceAccount;
    case 'envelopeTypeTx':
      return envelope.v1.tx.sourceAccount;
    case 'envelopeTypeTxV0':
      // a v0 source is a bare key; as a MuxedAccount it is the ed25519 arm
      return xdr.MuxedAccount.keyTypeEd25519(envelope.v0.tx.sourceAccountEd25519);
  }
}
