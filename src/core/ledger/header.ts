// Ledger headers as plain objects, their XDR form, hash and skip list (stellar-core LedgerManager).
import { createHash } from 'node:crypto';
import { xdr } from '@stellar/stellar-sdk/base';
import { asBuffer } from '../../stellar/bytes.js';

export interface LedgerHeaderRec {
  ledgerVersion: number;
  previousLedgerHash: Buffer;
  txSetHash: Buffer;
  closeTime: bigint;
  txSetResultHash: Buffer;
  bucketListHash: Buffer;
  ledgerSeq: number;
  totalCoins: bigint;
  feePool: bigint;
  inflationSeq: number;
  idPool: bigint;
  baseFee: number;
  baseReserve: number;
  maxTxSetSize: number;
  skipList: [Buffer, Buffer, Buffer, Buffer];
}

export const ZERO_HASH: Buffer = Buffer.alloc(32);

export function headerToXdr(h: LedgerHeaderRec): xdr.LedgerHeader {
  return new xdr.LedgerHeader({
    ledgerVersion: h.ledgerVersion,
    previousLedgerHash: h.previousLedgerHash,
    scpValue: new xdr.StellarValue({
      txSetHash: h.txSetHash,
      closeTime: h.closeTime,
      upgrades: [],
      ext: xdr.StellarValueExt.stellarValueBasic(),
    }),
    txSetResultHash: h.txSetResultHash,
    bucketListHash: h.bucketListHash,
    ledgerSeq: h.ledgerSeq,
    totalCoins: h.totalCoins,
    feePool: h.feePool,
    inflationSeq: h.inflationSeq,
    idPool: h.idPool,
    baseFee: h.baseFee,
    baseReserve: h.baseReserve,
    maxTxSetSize: h.maxTxSetSize,
    skipList: [...h.skipList],
    ext: xdr.LedgerHeaderExt.v0(),
  });
}

export function headerFromXdr(x: xdr.LedgerHeader): LedgerHeaderRec {
  const sl = x.skipList;
  const hash = (v: xdr.Hash | undefined): Buffer => (v ? asBuffer(v.value) : ZERO_HASH);
  return {
    ledgerVersion: x.ledgerVersion,
    previousLedgerHash: asBuffer(x.previousLedgerHash.value),
    txSetHash: asBuffer(x.scpValue.txSetHash.value),
    closeTime: x.scpValue.closeTime,
    txSetResultHash: asBuffer(x.txSetResultHash.value),
    bucketListHash: asBuffer(x.bucketListHash.value),
    ledgerSeq: x.ledgerSeq,
    totalCoins: x.totalCoins,
    feePool: x.feePool,
    inflationSeq: x.inflationSeq,
    idPool: x.idPool,
    baseFee: x.baseFee,
    baseReserve: x.baseReserve,
    maxTxSetSize: x.maxTxSetSize,
    skipList: [hash(sl[0]), hash(sl[1]), hash(sl[2]), hash(sl[3])],
  };
}

export function headerHash(h: LedgerHeaderRec): Buffer {
  return createHash('sha256').update(headerToXdr(h).toXdr()).digest();
}

const SKIP_1 = 50;
const SKIP_2 = 5000;
const SKIP_3 = 50000;
const SKIP_4 = 500000;

/** stellar-core's skip list update, applied to a header whose bucketListHash is final. */
export function updateSkipList(h: LedgerHeaderRec): void {
  const seq = h.ledgerSeq;
  if (seq % SKIP_1 !== 0) return;
  let v = seq - SKIP_1;
  if (v > 0 && v % SKIP_2 === 0) {
    v = seq - SKIP_2 - SKIP_1;
    if (v > 0 && v % SKIP_3 === 0) {
      v = seq - SKIP_3 - SKIP_2 - SKIP_1;
      if (v > 0 && v % SKIP_4 === 0) h.skipList[3] = h.skipList[2];
      h.skipList[2] = h.skipList[1];
    }
    h.skipList[1] = h.skipList[0];
  }
  h.skipList[0] = h.bucketListHash;
}
