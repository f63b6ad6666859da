// Closing a ledger the way stellar-core does for classic transactions: every fee is charged first
// (fee phase), then each transaction is re-validated, its sequence number consumed
// (txChangesBefore) and its operations applied, each in a nested LedgerTxn so a failed
// transaction keeps only its fee and sequence number. Emits LedgerCloseMeta v1 / TransactionMeta v3.
import { createHash } from 'node:crypto';
import { Writer } from '@stellar/js-xdr';
import { xdr } from '@stellar/stellar-sdk/base';
import { accountKey } from './entries.js';
import type { AccountRec } from './entries.js';
import { headerHash, headerToXdr, updateSkipList } from './header.js';
import type { LedgerHeaderRec } from './header.js';
import { LedgerTxn } from './ledger_txn.js';
import { XdrBytes } from './entry_codec.js';
import { asBuffer } from '../../stellar/bytes.js';
import type { RootState } from './ledger_txn.js';
import { feeBumpResult, opOuter, txResult, writeResultPair } from './results.js';
import { feePayer } from './queue.js';
import type { TxFrame } from './tx_frame.js';
import {
  checkOpSignature,
  checkTxSignatures,
  defaultOpResult,
  feeToCharge,
  isBadSeq,
  isTooEarlyForAccount,
  minFee,
  newSignatureChecker,
  preSeqCheck,
} from './validate.js';
import type { ValidationEnv } from './validate.js';
import type { HeaderView, OpOutcome } from '../operations/context.js';
import { availableBalance, touchSeqLedger } from '../operations/helpers.js';
import { operationDef } from '../operations/registry.js';
import { removeSignerWithPossibleSponsorship } from '../operations/sponsorship.js';

export interface AppliedTx {
  hash: string;
  code: string;
  feeCharged: bigint;
  result: xdr.TransactionResult;
}

export interface ClosedLedger {
  header: LedgerHeaderRec;
  hash: Buffer;
  /** XDR of the LedgerCloseMeta (v1) */
  metaXdr: Buffer;
  txs: AppliedTx[];
}

function u32(n: number): Buffer {
  const b = Buffer.allocUnsafe(4);
  b.writeUInt32BE(n >>> 0, 0);
  return b;
}

function i64(n: bigint): Buffer {
  const b = Buffer.allocUnsafe(8);
  b.writeBigInt64BE(n, 0);
  return b;
}

type Stage = 0 | 1 | 2 | 3; // invalid, update seq, post auth, maybe valid (stellar-core ValidationType)

// the 8th hex digit of a SignerKey: its type (1: pre-authorized transaction)
const PRE_AUTH_TX_TYPE = 0x31;

function hasPreAuthSigner(ltx: LedgerTxn, id: string): boolean {
  const acc = ltx.get(accountKey(id)) as AccountRec | undefined;
  return acc?.signers.some((s) => s.key.charCodeAt(7) === PRE_AUTH_TX_TYPE) === true;
}

// a pre-authorized transaction signer is consumed once its transaction is applied (valid or not)
function removePreAuthSigner(ltx: LedgerTxn, hash: Buffer, accountIds: Iterable<string>): void {
  const key = `00000001${hash.toString('hex')}`;
  for (const id of new Set(accountIds)) {
    const acc = ltx.get(accountKey(id)) as AccountRec | undefined;
    if (!acc?.signers.some((s) => s.key === key)) continue;
    const m = ltx.load<AccountRec>(accountKey(id))!;
    removeSignerWithPossibleSponsorship(
      ltx,
      m.signers.findIndex((s) => s.key === key),
      m,
    );
  }
}

interface TxApplied {
  result: xdr.TransactionResult;
  /** XDR of the TransactionMeta (v3) */
  meta: Buffer;
  code: string;
}

// a transaction's meta is assembled here and copied out
const metaWriter = new XdrBytes(64 * 1024);

const EMPTY_META_V3 = new XdrBytes(24).u32(3).u32(0).u32(0).u32(0).u32(0).u32(0).toBuffer();

function applyOne(frame: TxFrame, ledgerLtx: LedgerTxn, view: HeaderView, feeCharged: bigint): TxApplied {
  const env: ValidationEnv = { header: view, upperBoundCloseTimeOffset: 0n };
  // a fee bump only consumes its own pre-auth signer on the fee source, then applies the inner
  // transaction without charging it (FeeBumpTransactionFrame::apply)
  let feeBumpBefore: Buffer | null = null;
  if (frame.feeBump) {
    const fbl = new LedgerTxn(ledgerLtx, view.ledgerSeq);
    removePreAuthSigner(fbl, frame.hash, [frame.feeBump.feeSourceId]);
    feeBumpBefore = fbl.encodeChanges();
    fbl.commit();
  }
  const chargeFee = !frame.feeBump;
  const txl = new LedgerTxn(ledgerLtx, view.ledgerSeq);
  const checker = newSignatureChecker(frame);
  let stage: Stage = 0;
  let code: string | null = preSeqCheck(frame, env, txl, chargeFee);
  if (!code) {
    const acc = txl.get(accountKey(frame.sourceId)) as AccountRec;
    if (isBadSeq(frame, acc.seqNum, view.ledgerSeq)) code = 'txBadSeq';
    else {
      stage = 1;
      if (isTooEarlyForAccount(frame, acc, view)) code = 'txBadMinSeqAgeOrGap';
      else if (!checkTxSignatures(frame, checker, acc)) code = 'txBadAuth';
      else {
        stage = 2;
        // the fee is already taken: the remaining balance must still cover the reserve
        if (chargeFee && availableBalance(view, acc) < 0n) code = 'txInsufficientBalance';
        else stage = 3;
      }
    }
  }
  if (stage >= 1) {
    const acc = txl.load<AccountRec>(accountKey(frame.sourceId))!;
    acc.seqNum = frame.seqNum;
    touchSeqLedger(acc, view);
  }
  let opResults: xdr.OperationResult[] | undefined;
  if (stage === 3) {
    opResults = [];
    let allOk = true;
    for (let i = 0; i < frame.ops.length; i++) {
      const bad = checkOpSignature(frame, i, checker, txl);
      opResults.push(bad ?? defaultOpResult(frame.ops[i]!.type));
      if (bad) allOk = false;
    }
    removeTxPreAuthSigners(txl, frame.innerHash, frame);
    if (!allOk) code = 'txFailed';
    else if (!checker.allSignaturesUsed()) {
      code = 'txBadAuthExtra';
      opResults = undefined;
    }
  } else {
    removeTxPreAuthSigners(txl, frame.innerHash, frame);
  }
  const txChangesBefore = mergeChanges(feeBumpBefore, txl.encodeChanges());
  txl.commit();

  let operations: Buffer[] = [];
  if (!code && opResults) {
    const opsLtx = new LedgerTxn(ledgerLtx, view.ledgerSeq);
    const metas: Buffer[] = [];
    let success = true;
    for (let i = 0; i < frame.ops.length; i++) {
      const opl = new LedgerTxn(opsLtx, view.ledgerSeq);
      const outcome = applyOperation(frame, i, opl, view);
      opResults[i] = outcome.result;
      if (!outcome.success) success = false;
      if (success) metas.push(opl.encodeChanges());
      // from protocol 14 a failed operation's own changes are dropped
      if (outcome.success) opl.commit();
    }
    if (success && opsLtx.hasFutureSponsorships()) {
      // a begin_sponsoring_future_reserves without its end fails the whole transaction
      code = 'txBadSponsorship';
      opResults = undefined;
    } else if (success) {
      opsLtx.commit();
      operations = metas;
      code = 'txSuccess';
    } else {
      code = 'txFailed';
    }
  }
  const innerCode = code ?? 'txFailed';
  const ops = innerCode === 'txSuccess' || innerCode === 'txFailed' ? (opResults ?? []) : undefined;
  let result: xdr.TransactionResult;
  let finalCode = innerCode;
  if (frame.feeBump) {
    // before protocol 25 the inner result reports the fee the inner transaction would have paid
    const innerFee = frame.fee < minFee(frame, view.baseFee) ? frame.fee : minFee(frame, view.baseFee);
    result = feeBumpResult(feeCharged, frame.innerHash, innerFee, innerCode, ops);
    finalCode = result.result.type;
  } else {
    result = txResult(feeCharged, innerCode, ops);
  }
  // TransactionMeta v3: ext, txChangesBefore, operations (each its changes), txChangesAfter, no sorobanMeta
  const w = metaWriter.reset().u32(3).u32(0).raw(txChangesBefore).u32(operations.length);
  for (const m of operations) w.raw(m);
  const meta = w.u32(0).u32(0).toBuffer();
  return { result, meta, code: finalCode };
}

/** removePreAuthSigner for the transaction's accounts, looked at first for any pre-auth signer (most have none). */
function removeTxPreAuthSigners(ltx: LedgerTxn, hash: Buffer, frame: TxFrame): void {
  let any = hasPreAuthSigner(ltx, frame.sourceId);
  for (let i = 0; !any && i < frame.ops.length; i++) {
    const id = frame.ops[i]!.sourceId;
    any = id !== null && hasPreAuthSigner(ltx, id);
  }
  if (any) removePreAuthSigner(ltx, hash, [frame.sourceId, ...frame.ops.map((o) => o.sourceId ?? frame.sourceId)]);
}

/** Concatenates two XDR LedgerEntryChanges arrays (count-prefixed). */
function mergeChanges(a: Buffer | null, b: Buffer): Buffer {
  if (!a) return b;
  const out = Buffer.concat([a, b.subarray(4)]);
  out.writeUInt32BE(a.readUInt32BE(0) + b.readUInt32BE(0), 0);
  return out;
}

function applyOperation(frame: TxFrame, i: number, opl: LedgerTxn, view: HeaderView): OpOutcome {
  const pop = frame.ops[i]!;
  const def = operationDef(pop.type);
  if (!def?.supported) return { success: false, result: opOuter('opNotSupported') };
  const sourceId = pop.sourceId ?? frame.sourceId;
  // an earlier operation may have merged the source away
  if (!opl.get(accountKey(sourceId))) return { success: false, result: opOuter('opNoAccount') };
  const bad = def.checkValid(pop.op, sourceId, view.ledgerVersion);
  if (bad) return { success: false, result: bad };
  return def.apply({ ltx: opl, header: view, frame, op: pop.op, opIndex: i, sourceId });
}

export interface CloseInput {
  root: RootState;
  lcl: LedgerHeaderRec;
  /** transactions in apply order */
  frames: TxFrame[];
  closeTime: bigint;
}

/** Applies `frames` on top of `root` (mutating it) and returns the new header and its meta. */
export function closeLedger(input: CloseInput): ClosedLedger {
  const { root, lcl, frames, closeTime } = input;
  const prevHash = headerHash(lcl);
  const header: LedgerHeaderRec = {
    ...lcl,
    skipList: [...lcl.skipList],
    ledgerSeq: lcl.ledgerSeq + 1,
    previousLedgerHash: prevHash,
    closeTime,
  };
  const view: HeaderView = {
    ledgerSeq: header.ledgerSeq,
    closeTime,
    baseFee: header.baseFee,
    baseReserve: header.baseReserve,
    ledgerVersion: header.ledgerVersion,
  };
  const ledgerLtx = new LedgerTxn(root, header.ledgerSeq);

  // fee phase
  const fees: { fee: bigint; changes: Buffer }[] = [];
  for (const frame of frames) {
    const t = new LedgerTxn(ledgerLtx, header.ledgerSeq);
    const acc = t.load<AccountRec>(accountKey(feePayer(frame).accountId));
    let fee = 0n;
    if (acc) {
      fee = feeToCharge(frame, header.baseFee);
      if (fee > acc.balance) fee = acc.balance;
      acc.balance -= fee;
      header.feePool += fee;
    }
    fees.push({ fee, changes: t.encodeChanges() });
    t.commit();
  }

  // apply phase
  const txs: AppliedTx[] = [];
  // the result pairs go into one writer (each toXdr() would allocate a buffer of its own)
  const pairWriter = new Writer();
  const pairEnds: number[] = [];
  const metas: Buffer[] = [];
  frames.forEach((frame, idx) => {
    const fee = fees[idx]!;
    let applied: TxApplied;
    try {
      applied = applyOne(frame, ledgerLtx, view, fee.fee);
    } catch {
      // stellar-core reports an exception while applying as txINTERNAL_ERROR and keeps the fee
      applied = { result: txResult(fee.fee, 'txInternalError'), meta: EMPTY_META_V3, code: 'txInternalError' };
    }
    writeResultPair(pairWriter, frame.hash, applied.result);
    pairEnds.push(pairWriter.offset);
    metas.push(applied.meta);
    txs.push({ hash: frame.hashHex, code: applied.code, feeCharged: fee.fee, result: applied.result });
  });
  const pairBytes = asBuffer(pairWriter.toUint8Array());
  // TransactionResultMeta XDR pieces: result pair, fee changes, TransactionMeta
  const pairs: Buffer[] = [];
  const processing: Uint8Array[] = [];
  for (let i = 0, start = 0; i < frames.length; start = pairEnds[i++]!) {
    const pair = pairBytes.subarray(start, pairEnds[i]);
    pairs.push(pair);
    processing.push(pair, fees[i]!.changes, metas[i]!);
  }
  header.idPool = ledgerLtx.idPool;
  ledgerLtx.commit();

  // The meta is assembled from byte pieces so envelopes are written as received, never re-encoded.
  // The transaction set lists envelopes sorted by full hash, as stellar-core requires.
  const sorted = [...frames].sort((a, b) => Buffer.compare(a.fullHash, b.fullHash));
  const classicPhase = sorted.length
    ? [u32(0), u32(1), u32(0), u32(1), i64(BigInt(header.baseFee)), u32(sorted.length), ...sorted.map((f) => f.envelopeXdr)]
    : [u32(0), u32(0)];
  const txSetXdr = Buffer.concat([u32(1), prevHash, u32(2), ...classicPhase, u32(0), u32(0)]);
  header.txSetHash = createHash('sha256').update(txSetXdr).digest();
  const resultSet = createHash('sha256').update(u32(pairs.length));
  for (const p of pairs) resultSet.update(p);
  header.txSetResultHash = resultSet.digest();
  // not a BucketList hash: a chain over the previous one and this ledger's tx set and results
  header.bucketListHash = createHash('sha256').update(lcl.bucketListHash).update(header.txSetHash).update(header.txSetResultHash).digest();
  updateSkipList(header);
  const hash = headerHash(header);
  const headerEntry = new xdr.LedgerHeaderHistoryEntry({ hash, header: headerToXdr(header), ext: xdr.LedgerHeaderHistoryEntryExt.v0() });
  const metaXdr = Buffer.concat([
    u32(1), // LedgerCloseMeta v1
    u32(0), // ext
    headerEntry.toXdr(),
    txSetXdr,
    u32(pairs.length),
    ...processing,
    u32(0), // upgradesProcessing
    u32(0), // scpInfo
    i64(0n), // totalByteSizeOfLiveSorobanState
    u32(0), // evictedKeys
    u32(0), // unused
  ]);
  return { header, hash, metaXdr, txs };
}

export function buildMeta(
  header: LedgerHeaderRec,
  hash: Buffer,
  txSet: xdr.GeneralizedTransactionSet,
  processing: xdr.TransactionResultMeta[],
): xdr.LedgerCloseMeta {
  return xdr.LedgerCloseMeta.v1(
    new xdr.LedgerCloseMetaV1({
      ext: xdr.LedgerCloseMetaExt.v0(),
      ledgerHeader: new xdr.LedgerHeaderHistoryEntry({
        hash,
        header: headerToXdr(header),
        ext: xdr.LedgerHeaderHistoryEntryExt.v0(),
      }),
      txSet,
      txProcessing: processing,
      upgradesProcessing: [],
      scpInfo: [],
      totalByteSizeOfLiveSorobanState: 0n,
      evictedKeys: [],
      unused: [],
    }),
  );
}
