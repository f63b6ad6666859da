// The history_operations rows of a transaction: failed transactions' operations included, as
// Horizon stores them (shown only with include_failed).
import { xdr } from '@stellar/stellar-sdk/base';
import { isPaymentType, muxedAccountFromXdr, operationTypeNumber, toid } from '../../stellar/index.js';
import type { OperationRow } from '../rows.js';
import { type DetailsContext, operationDetails, sacEvents } from './operation_details.js';

export interface OperationContext extends Omit<DetailsContext, 'operations'> {
  ledgerSequence: number;
  txIndex: number;
  txId: bigint;
  txHash: string;
  closedAt: string;
  results: xdr.OperationResult[];
}

export function operationSource(op: xdr.Operation, txSource: xdr.MuxedAccount): xdr.MuxedAccount {
  return op.sourceAccount ?? txSource;
}

/** An operation's result when it ran (the `opInner` arm); any other arm throws. */
function opInner(result: xdr.OperationResult | undefined): xdr.OperationResultTr | undefined {
  return result === undefined ? undefined : xdr.expectUnionVariant(result, 'opInner').tr;
}

const INVOKE_HOST_FUNCTION = operationTypeNumber('invoke_host_function');

/** Horizon's IsPayment: the payment types, and a host function that emitted a SAC transfer, mint, clawback or burn */
function isPayment(type: number, index: number, ctx: OperationContext): boolean {
  if (isPaymentType(type)) return true;
  return type === INVOKE_HOST_FUNCTION && sacEvents(ctx, index).length > 0;
}

export function operationRows(ops: xdr.Operation[], ctx: OperationContext): OperationRow[] {
  const detailsContext: DetailsContext = { ...ctx, operations: ops };
  return ops.map((op, i) => {
    const source = operationSource(op, ctx.txSource);
    const decoded = muxedAccountFromXdr(source);
    const type = xdr.OperationType.fromName(op.body.type).value;
    const result = ctx.successful ? opInner(ctx.results[i]) : undefined;
    return {
      id: toid(ctx.ledgerSequence, ctx.txIndex, i + 1),
      transaction_id: ctx.txId,
      transaction_hash: ctx.txHash,
      application_order: i + 1,
      closed_at: ctx.closedAt,
      type,
      details: operationDetails({ op, index: i, source, sourceId: decoded.accountId, result }, detailsContext),
      source_account: decoded.accountId,
      source_account_muxed: decoded.muxedAddress,
      transaction_successful: ctx.successful,
      is_payment: isPayment(type, i, ctx),
    };
  });
}
