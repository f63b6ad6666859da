// Ledger headers as plain objects, their XDR form, hash and skip list (stellar-core LedgerManager).
import { createHash } from 'node:crypto';
import { xdr } from '@stellar/stellar-sdk/base';

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
      closeTime: new xdr.Uint64(h.closeTime),
      upgrades: [],
      ext: xdr.StellarValueExt.stellarValueBasic(),
    }),
    txSetResultHash: h.txSetResultHash,
    bucketListHash: h.bucketListHash,
    ledgerSeq: h.ledgerSeq,
    totalCoins: new xdr.Int64(h.totalCoins),
    feePool: new xdr.Int64(h.feePool),
    inflationSeq: h.inflationSeq,
    idPool: new xdr.Uint64(h.idPool),
    baseFee: h.baseFee,
    baseReserve: h.baseReserve,
    maxTxSetSize: h.maxTxSetSize,
    skipList: [...h.skipList],
    ext: new xdr.LedgerHeaderExt(0),
  });
}

export function headerFromXdr(x: xdr.LedgerHeader): LedgerHeaderRec {
  const sl = x.skipList();
  return {
    ledgerVersion: x.ledgerVersion(),
    previousLedgerHash: x.previousLedgerHash(),
    txSetHash: x.scpValue().txSetHash(),
    closeTime: x.scpValue().closeTime().toBigInt(),
    txSetResultHash: x.txSetResultHash(),
    bucketListHash: x.bucketListHash(),
    ledgerSeq: x.ledgerSeq(),
    totalCoins: x.totalCoins().toBigInt(),
    feePool: x.feePool().toBigInt(),
    inflationSeq: x.inflationSeq(),
    idPool: x.idPool().toBigInt(),
    baseFee: x.baseFee(),
    baseReserve: x.baseReserve(),
    maxTxSetSize: x.maxTxSetSize(),
    skipList: [sl[0] ?? ZERO_HASH, sl[1] ?? ZERO_HASH, sl[2] ?? ZERO_HASH, sl[3] ?? ZERO_HASH],
  };
}

export function headerHash(h: LedgerHeaderRec): Buffer {
  return createHash('sha256').update(headerToXdr(h).toXDR()).digest();
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
