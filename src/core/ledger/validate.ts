// Transaction validation in stellar-core's order (TransactionFrame::commonValid / checkValid):
// envelope shape, operation count, time and ledger bounds, fee, source account, sequence,
// signatures against the source's signers and thresholds, balance for the fee, then each
// operation (support, signature threshold of its source, well-formedness), then unused signatures.
import type { xdr } from '@stellar/stellar-sdk/base';
import { INT64_MAX, startingSequenceNumber } from '../../stellar/index.js';
import { accountKey, ed25519SignerHex, signerKeyToHex } from './entries.js';
import type { AccountRec, SignerWeight } from './entries.js';
import type { EntryReader } from './ledger_txn.js';
import { feeBumpResult, opInner, opOuter, txResult } from './results.js';
import { SignatureChecker, pendingEd25519Checks } from './signature_checker.js';
import type { PendingCheck } from './signature_checker.js';
import type { TxFrame } from './tx_frame.js';
import type { HeaderView, ThresholdLevel } from '../operations/context.js';
import { SOROBAN_OPERATIONS, operationDef } from '../operations/registry.js';
import { EXCHANGE_OP_TYPES, defaultExchangeResult } from '../operations/exchange_results.js';
import type { OfferOpType, PathOpType } from '../operations/exchange_results.js';
import { minBalance } from '../operations/helpers.js';

export interface ValidationEnv {
  /** the ledger the transaction would be applied in (sequence) and the close time checks use */
  header: HeaderView;
  /** added to the close time for the max-time check (expected time until the next close) */
  upperBoundCloseTimeOffset: bigint;
}

/** Base fee × operations of the (inner) transaction. */
export function minFee(frame: TxFrame, baseFee: number): bigint {
  return BigInt(baseFee) * BigInt(Math.max(1, frame.ops.length));
}

/** A fee bump counts as one more operation. */
export function minFeeBumpFee(frame: TxFrame, baseFee: number): bigint {
  return BigInt(baseFee) * BigInt(frame.ops.length + 1);
}

/** The fee a transaction pays when applied: its bid capped at base fee × operations (no surge pricing). */
export function feeToCharge(frame: TxFrame, baseFee: number): bigint {
  if (frame.feeBump) {
    const m = minFeeBumpFee(frame, baseFee);
    return frame.feeBump.fee < m ? frame.feeBump.fee : m;
  }
  const m = minFee(frame, baseFee);
  return frame.fee < m ? frame.fee : m;
}

export function accountSigners(acc: AccountRec): SignerWeight[] {
  const master = acc.thresholds[0];
  const own: SignerWeight[] = master > 0 ? [{ key: ed25519SignerHex(acc.accountId), weight: master }] : [];
  return acc.signers.length ? own.concat(acc.signers) : own;
}

export function thresholdWeight(acc: AccountRec, level: ThresholdLevel): number {
  return level === 'low' ? acc.thresholds[1] : level === 'medium' ? acc.thresholds[2] : acc.thresholds[3];
}

export function newSignatureChecker(frame: TxFrame): SignatureChecker {
  return new SignatureChecker(frame.innerHash, frame.signatures, frame.verified);
}

// bounds the checks verified ahead for one transaction; any others are done when validating
const MAX_LIKELY_CHECKS = 40;

/** The ed25519 keys an account's signatures are weighed against: its master key and its signers. */
function addSignerKeys(keys: Set<string>, accountId: string, reader: EntryReader): void {
  keys.add(ed25519SignerHex(accountId));
  const acc = reader.get(accountKey(accountId)) as AccountRec | undefined;
  if (acc) for (const s of acc.signers) keys.add(s.key);
}

/**
 * The ed25519 checks validating `frame` will most likely ask for in the current state: each
 * signature against the keys of the accounts it names (and its extra signers) that carry its hint.
 */
export function likelyChecks(frame: TxFrame, reader: EntryReader): PendingCheck[] {
  const out: PendingCheck[] = [];
  const keys = new Set<string>();
  addSignerKeys(keys, frame.sourceId, reader);
  for (const op of frame.ops) if (op.sourceId !== null) addSignerKeys(keys, op.sourceId, reader);
  for (const k of frame.extraSigners) if (k.type === 'signerKeyTypeEd25519') keys.add(signerKeyToHex(k));
  pendingEd25519Checks(frame.innerHash, frame.signatures, frame.verified, keys, out, MAX_LIKELY_CHECKS);
  if (frame.feeBump) {
    const feeKeys = new Set<string>();
    addSignerKeys(feeKeys, frame.feeBump.feeSourceId, reader);
    pendingEd25519Checks(frame.hash, frame.feeBump.signatures, frame.feeBump.verified, feeKeys, out, MAX_LIKELY_CHECKS);
  }
  return out;
}

/** Checks that do not depend on the source account (commonValidPreSeqNum); a tx result code name or null. */
export function preSeqCheck(frame: TxFrame, env: ValidationEnv, reader: EntryReader, chargeFee = true): string | null {
  if (frame.extraSigners.length === 2) {
    const [a, b] = frame.extraSigners;
    if (a && b && signerKeyToHex(a) === signerKeyToHex(b)) return 'txMalformed';
  }
  for (const s of frame.extraSigners) {
    if (s.type === 'signerKeyTypeEd25519SignedPayload' && s.ed25519SignedPayload.payload.length === 0) {
      return 'txMalformed';
    }
  }
  if (frame.ops.length === 0) return 'txMissingOperation';
  if (frame.ops.some((o) => SOROBAN_OPERATIONS.has(o.type))) return 'txMalformed';
  if (frame.txExtVersion !== 0) return 'txMalformed';
  const closeTime = env.header.closeTime;
  const ledgerSeq = env.header.ledgerSeq;
  if ((frame.minTime !== 0n && frame.minTime > closeTime) || frame.minLedger > ledgerSeq) return 'txTooEarly';
  if (
    (frame.maxTime !== 0n && frame.maxTime < closeTime + env.upperBoundCloseTimeOffset) ||
    (frame.maxLedger !== 0 && frame.maxLedger <= ledgerSeq)
  ) {
    return 'txTooLate';
  }
  if (chargeFee && frame.fee < minFee(frame, env.header.baseFee)) return 'txInsufficientFee';
  if (!reader.get(accountKey(frame.sourceId))) return 'txNoAccount';
  return null;
}

export function isBadSeq(frame: TxFrame, current: bigint, ledgerSeq: number): boolean {
  if (frame.seqNum === startingSequenceNumber(ledgerSeq)) return true;
  if (frame.minSeqNum !== null) return current < frame.minSeqNum || current >= frame.seqNum;
  return current === INT64_MAX || current + 1n !== frame.seqNum;
}

export function isTooEarlyForAccount(frame: TxFrame, acc: AccountRec, header: HeaderView): boolean {
  const seqTime = acc.extLevel >= 3 ? acc.seqTime : 0n;
  const seqLedger = acc.extLevel >= 3 ? acc.seqLedger : 0;
  if (frame.minSeqAge > header.closeTime || header.closeTime - frame.minSeqAge < seqTime) return true;
  if (frame.minSeqLedgerGap > header.ledgerSeq || header.ledgerSeq - frame.minSeqLedgerGap < seqLedger) return true;
  return false;
}

/** Source signature at the low threshold plus the extra signers precondition (checkAllTransactionSignatures). */
export function checkTxSignatures(frame: TxFrame, checker: SignatureChecker, acc: AccountRec): boolean {
  if (!checker.checkSignature(accountSigners(acc), acc.thresholds[1])) return false;
  if (frame.extraSigners.length > 0) {
    const signers = frame.extraSigners.map((k) => ({ key: signerKeyToHex(k), weight: 1 }));
    if (!checker.checkSignature(signers, signers.length)) return false;
  }
  return true;
}

/** A placeholder result for an operation that was not evaluated (stellar-core leaves them default-constructed). */
export function defaultOpResult(type: string): xdr.OperationResult {
  if (type === 'accountMerge') return opInner('accountMerge', 'accountMergeSuccess', 0n);
  if (!operationDef(type)) return opOuter('opNotSupported');
  if (EXCHANGE_OP_TYPES.has(type)) return defaultExchangeResult(type as OfferOpType | PathOpType);
  return opInner(type, `${type}Success`);
}

/** Operation signature check (OperationFrame::checkSignature, not for apply): null when it passes. */
export function checkOpSignature(
  frame: TxFrame,
  index: number,
  checker: SignatureChecker,
  reader: EntryReader,
): xdr.OperationResult | null {
  const pop = frame.ops[index]!;
  const sourceId = pop.sourceId ?? frame.sourceId;
  const acc = reader.get(accountKey(sourceId)) as AccountRec | undefined;
  const def = operationDef(pop.type);
  if (acc) {
    const level = def ? def.threshold(pop.op) : 'medium';
    if (!checker.checkSignature(accountSigners(acc), thresholdWeight(acc, level))) return opOuter('opBadAuth');
    return null;
  }
  if (pop.sourceId === null) return opOuter('opNoAccount');
  // an operation source that does not exist yet must still have signed (weight 1, needed 0)
  if (!checker.checkSignature([{ key: ed25519SignerHex(sourceId), weight: 1 }], 0)) return opOuter('opBadAuth');
  return null;
}

export interface QueueCheckInput {
  frame: TxFrame;
  reader: EntryReader;
  env: ValidationEnv;
  /** the sequence number the transaction follows: the last queued one for its source, or the account's */
  currentSeq: bigint | null;
  /** fee bids of queued transactions paid by the same account (they must all be payable) */
  queuedFees: bigint;
}

interface InnerError {
  code: string;
  ops?: xdr.OperationResult[];
}

/** Validation before queueing (TransactionFrame / FeeBumpTransactionFrame ::checkValid): null when valid. */
export function checkValid(input: QueueCheckInput): xdr.TransactionResult | null {
  const { frame, env } = input;
  if (frame.feeBump) return checkValidFeeBump(input);
  const e = checkValidInner(input, true);
  if (!e) return null;
  const fee = e.code === 'txMalformed' ? 0n : minFee(frame, env.header.baseFee);
  return txResult(fee, e.code, e.ops);
}

function checkValidFeeBump(input: QueueCheckInput): xdr.TransactionResult | null {
  const { frame, reader, env } = input;
  const fb = frame.feeBump!;
  const outerMin = minFeeBumpFee(frame, env.header.baseFee);
  if (fb.fee < outerMin) return txResult(outerMin, 'txInsufficientFee');
  // the fee per operation must not be lower than the inner transaction's
  const innerMin = minFee(frame, env.header.baseFee);
  if (fb.fee * innerMin < frame.fee * outerMin) {
    const needed = (frame.fee * outerMin + innerMin - 1n) / innerMin;
    return txResult(needed, 'txInsufficientFee');
  }
  const payer = reader.get(accountKey(fb.feeSourceId)) as AccountRec | undefined;
  if (!payer) return txResult(outerMin, 'txNoAccount');
  const checker = new SignatureChecker(frame.hash, fb.signatures, fb.verified);
  if (!checker.checkSignature(accountSigners(payer), payer.thresholds[1])) return txResult(outerMin, 'txBadAuth');
  const available = payer.balance - minBalance(env.header, payer) - payer.sellingLiabilities;
  if (available < input.queuedFees + fb.fee) return txResult(outerMin, 'txInsufficientBalance');
  if (!checker.allSignaturesUsed()) return txResult(outerMin, 'txBadAuthExtra');
  const e = checkValidInner(input, false);
  if (!e) return null;
  return feeBumpResult(outerMin, frame.innerHash, 0n, e.code, e.ops);
}

function checkValidInner(input: QueueCheckInput, chargeFee: boolean): InnerError | null {
  const { frame, reader, env } = input;
  const pre = preSeqCheck(frame, env, reader, chargeFee);
  if (pre) return { code: pre };
  const acc = reader.get(accountKey(frame.sourceId)) as AccountRec;
  const current = input.currentSeq ?? acc.seqNum;
  if (isBadSeq(frame, current, env.header.ledgerSeq)) return { code: 'txBadSeq' };
  if (isTooEarlyForAccount(frame, acc, env.header)) return { code: 'txBadMinSeqAgeOrGap' };
  const checker = newSignatureChecker(frame);
  if (!checkTxSignatures(frame, checker, acc)) return { code: 'txBadAuth' };
  if (chargeFee) {
    const available = acc.balance - minBalance(env.header, acc) - acc.sellingLiabilities;
    if (available < input.queuedFees + frame.fee) return { code: 'txInsufficientBalance' };
  }
  for (let i = 0; i < frame.ops.length; i++) {
    const bad = checkOpWellFormedFirst(frame, i, checker, reader, env.header.ledgerVersion);
    if (bad) {
      const ops = frame.ops.map((o) => defaultOpResult(o.type));
      ops[i] = bad;
      return { code: 'txFailed', ops };
    }
  }
  if (!checker.allSignaturesUsed()) return { code: 'txBadAuthExtra' };
  return null;
}

// OperationFrame::checkValid order: support, then signature, then doCheckValid
function checkOpWellFormedFirst(
  frame: TxFrame,
  i: number,
  checker: SignatureChecker,
  reader: EntryReader,
  ledgerVersion: number,
): xdr.OperationResult | null {
  const pop = frame.ops[i]!;
  const def = operationDef(pop.type);
  if (!def?.supported) return opOuter('opNotSupported');
  return checkOpSignature(frame, i, checker, reader) ?? def.checkValid(pop.op, pop.sourceId ?? frame.sourceId, ledgerVersion);
}
