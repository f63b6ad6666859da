// Builders for TransactionResult / OperationResult XDR by code name (the XDR's arm names, e.g.
// 'paymentUnderfunded', 'txBadSeq').
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

/** e.g. opInner('payment', 'paymentUnderfunded') */
export function opInner(opType: string, code: string, value?: unknown): xdr.OperationResult {
  const union = resultUnion(`${opType[0]!.toUpperCase()}${opType.slice(1)}Result`);
  const make = armFactory(union, code, opType);
  return opInnerResult(opType, value === undefined ? make() : make(value));
}

/** opBadAuth, opNoAccount, opNotSupported, opTooManySubentries ... */
export function opOuter(code: string): xdr.OperationResult {
  return armFactory(xdr.OperationResult, code, 'OperationResult')() as xdr.OperationResult;
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
