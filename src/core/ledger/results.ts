// Builders for TransactionResult / OperationResult XDR by code name (the XDR's arm names, e.g.
// 'paymentUnderfunded', 'txBadSeq').
import type { Writer } from '@stellar/js-xdr';
import { xdr } from '@stellar/stellar-sdk/base';

type ArmFactory = (...args: unknown[]) => unknown;

/**
 * A union's static arm factory by arm name (`xdr.PaymentResult.paymentUnderfunded`, ...): the
 * codes here are chosen at run time, so they are looked up by name.
 */
export function armFactory(union: object, arm: string, what: string): ArmFactory {
  const f = (union as Record<string, unknown>)[arm];
  if (typeof f !== 'function') throw new Error(`no ${what} arm ${arm}`);
  return f as ArmFactory;
}

/** The union class of an operation's result by its name (e.g. 'PaymentResult'). */
export function resultUnion(className: string): object {
  const c = (xdr as unknown as Record<string, unknown>)[className];
  if (typeof c !== 'function') throw new Error(`no result type ${className}`);
  return c;
}

/** OperationResult opInner around an operation's own result (`inner` of the class of `opType`). */
export function opInnerResult(opType: string, inner: unknown): xdr.OperationResult {
  const tr = armFactory(xdr.OperationResultTr, opType, 'OperationResultTr')(inner) as xdr.OperationResultTr;
  return xdr.OperationResult.opInner(tr);
}

// Results without a value are shared (nothing changes a result once made), with their bytes.
const sharedOuter = new Map<string, xdr.OperationResult>();
/** a shared result's bytes once written (null before: a placeholder may never be) */
const sharedBytes = new WeakMap<xdr.OperationResult, Uint8Array | null>();

function share(r: xdr.OperationResult): xdr.OperationResult {
  sharedBytes.set(r, null);
  return r;
}

function makeOpInner(opType: string, code: string, value?: unknown): xdr.OperationResult {
  const make = armFactory(resultUnion(`${opType[0]!.toUpperCase()}${opType.slice(1)}Result`), code, opType);
  return opInnerResult(opType, value === undefined ? make() : make(value));
}

// the shared opInner results by operation type and code (no key string to build and hash per call)
const sharedInner = new Map<string, Map<string, xdr.OperationResult>>();

/** e.g. opInner('payment', 'paymentUnderfunded') */
export function opInner(opType: string, code: string, value?: unknown): xdr.OperationResult {
  if (value !== undefined) return makeOpInner(opType, code, value);
  let byCode = sharedInner.get(opType);
  if (!byCode) sharedInner.set(opType, (byCode = new Map()));
  let r = byCode.get(code);
  if (!r) byCode.set(code, (r = share(makeOpInner(opType, code))));
  return r;
}

/** opBadAuth, opNoAccount, opNotSupported, opTooManySubentries ... */
export function opOuter(code: string): xdr.OperationResult {
  let r = sharedOuter.get(code);
  if (!r) sharedOuter.set(code, (r = share(armFactory(xdr.OperationResult, code, 'OperationResult')() as xdr.OperationResult)));
  return r;
}

/**
 * Writes a TransactionResultPair. A plain transaction's result is written here, its shared
 * operation results as their bytes; the library writes the rest (fee bumps, results with values).
 */
export function writeResultPair(w: Writer, hash: Uint8Array, r: xdr.TransactionResult): void {
  w.writeBytes(hash);
  const arm = r.result;
  if (arm.type !== 'txSuccess' && arm.type !== 'txFailed') {
    xdr.TransactionResult.schema._write(r.toXdrObject(), w, 'TransactionResult');
    return;
  }
  w.writeBigInt64(r.feeCharged);
  w.writeInt32(arm.type === 'txSuccess' ? 0 : -1);
  w.writeUint32(arm.results.length);
  for (const op of arm.results) {
    let bytes = sharedBytes.get(op);
    if (bytes === null) sharedBytes.set(op, (bytes = op.toXdr()));
    if (bytes) w.writeBytes(bytes);
    else xdr.OperationResult.schema._write(op.toXdrObject(), w, 'OperationResult');
  }
  w.writeUint32(0); // ext v0
}

export function txResult(feeCharged: bigint, code: string, opResults?: xdr.OperationResult[]): xdr.TransactionResult {
  const make = armFactory(xdr.TransactionResultResult, code, 'TransactionResultResult');
  const result = (opResults !== undefined ? make(opResults) : make()) as xdr.TransactionResultResult;
  return new xdr.TransactionResult({ feeCharged, result, ext: xdr.TransactionResultExt.v0() });
}

/** The name of the inner code of an operation result ('paymentUnderfunded') or the outer code ('opBadAuth'). */
export function opResultCode(r: xdr.OperationResult): string {
  if (r.type !== 'opInner') return r.type;
  return r.tr.value.type;
}

/** A fee-bump result: the outer code and fee around the inner transaction's result. */
export function feeBumpResult(
  feeCharged: bigint,
  innerHash: Buffer,
  innerFeeCharged: bigint,
  innerCode: string,
  innerOps?: xdr.OperationResult[],
): xdr.TransactionResult {
  const make = armFactory(xdr.InnerTransactionResultResult, innerCode, 'InnerTransactionResultResult');
  const innerResult = (innerOps !== undefined ? make(innerOps) : make()) as xdr.InnerTransactionResultResult;
  const pair = new xdr.InnerTransactionResultPair({
    transactionHash: innerHash,
    result: new xdr.InnerTransactionResult({
      feeCharged: innerFeeCharged,
      result: innerResult,
      ext: xdr.InnerTransactionResultExt.v0(),
    }),
  });
  const result =
    innerCode === 'txSuccess'
      ? xdr.TransactionResultResult.txFeeBumpInnerSuccess(pair)
      : xdr.TransactionResultResult.txFeeBumpInnerFailed(pair);
  return new xdr.TransactionResult({ feeCharged, result, ext: xdr.TransactionResultExt.v0() });
}
