// Builders for TransactionResult / OperationResult XDR by code name (the names stellar-base uses).
import { xdr } from '@stellar/stellar-sdk/base';

type UnionCtor = new (arm: string, value?: unknown) => unknown;
const ctors = xdr as unknown as Record<string, UnionCtor | undefined>;
// the typings only declare the static arm constructors; js-xdr unions also accept (armName, value)
const OperationResult = xdr.OperationResult as unknown as new (arm: string, value?: unknown) => xdr.OperationResult;
const OperationResultTr = xdr.OperationResultTr as unknown as UnionCtor;
const TransactionResultResult = xdr.TransactionResultResult as unknown as new (arm: string, value?: unknown) => xdr.TransactionResultResult;

/** e.g. opInner('payment', 'paymentUnderfunded') */
export function opInner(opType: string, code: string, value?: unknown): xdr.OperationResult {
  const className = `${opType[0]!.toUpperCase()}${opType.slice(1)}Result`;
  const Ctor = ctors[className];
  if (!Ctor) throw new Error(`no result type for ${opType}`);
  const inner = value === undefined ? new Ctor(code) : new Ctor(code, value);
  return new OperationResult('opInner', new OperationResultTr(opType, inner));
}

/** opBadAuth, opNoAccount, opNotSupported, opTooManySubentries ... */
export function opOuter(code: string): xdr.OperationResult {
  return new OperationResult(code);
}

export function txResult(feeCharged: bigint, code: string, opResults?: xdr.OperationResult[]): xdr.TransactionResult {
  const result = opResults !== undefined ? new TransactionResultResult(code, opResults) : new TransactionResultResult(code);
  return new xdr.TransactionResult({
    feeCharged: new xdr.Int64(feeCharged),
    result,
    ext: new xdr.TransactionResultExt(0),
  });
}

/** The name of the inner code of an operation result ('paymentUnderfunded') or the outer code ('opBadAuth'). */
export function opResultCode(r: xdr.OperationResult): string {
  if (r.switch().name !== 'opInner') return r.switch().name;
  const tr = r.tr();
  return (tr.value() as unknown as { switch(): { name: string } }).switch().name;
}

const InnerTransactionResultResult = xdr.InnerTransactionResultResult as unknown as new (
  arm: string,
  value?: unknown,
) => xdr.InnerTransactionResultResult;

/** A fee-bump result: the outer code and fee around the inner transaction's result. */
export function feeBumpResult(
  feeCharged: bigint,
  innerHash: Buffer,
  innerFeeCharged: bigint,
  innerCode: string,
  innerOps?: xdr.OperationResult[],
): xdr.TransactionResult {
  const innerResult =
    innerOps !== undefined ? new InnerTransactionResultResult(innerCode, innerOps) : new InnerTransactionResultResult(innerCode);
  const pair = new xdr.InnerTransactionResultPair({
    transactionHash: innerHash,
    result: new xdr.InnerTransactionResult({
      feeCharged: new xdr.Int64(innerFeeCharged),
      result: innerResult,
      ext: new xdr.InnerTransactionResultExt(0),
    }),
  });
  const outer = innerCode === 'txSuccess' ? 'txFeeBumpInnerSuccess' : 'txFeeBumpInnerFailed';
  return new xdr.TransactionResult({
    feeCharged: new xdr.Int64(feeCharged),
    result: new TransactionResultResult(outer, pair),
    ext: new xdr.TransactionResultExt(0),
  });
}
