// The history_operations rows of a transaction: failed transactions' operations included, as
// Horizon stores them (shown only with include_failed).
import type { xdr } from '@stellar/stellar-base';
import { isPaymentType, muxedAccountFromXdr, toid } from '../../stellar/index.js';
import type { OperationRow } from '../rows.js';
import { operationDetails } from './operation_details.js';

export interface OperationContext {
  ledgerSequence: number;
  txIndex: number;
  txId: bigint;
  txHash: string;
  closedAt: string;
  successful: boolean;
  txSource: xdr.MuxedAccount;
  results: xdr.OperationResult[];
}

export function operationSource(op: xdr.Operation, txSource: xdr.MuxedAccount): xdr.MuxedAccount {
  return op.sourceAccount() ?? txSource;
}

export function operationRows(ops: xdr.Operation[], ctx: OperationContext): OperationRow[] {
  return ops.map((op, i) => {
    const source = operationSource(op, ctx.txSource);
    const decoded = muxedAccountFromXdr(source);
    const type = op.body().switch().value;
    const result = ctx.successful ? ctx.results[i]?.tr() : undefined;
    return {
      id: toid(ctx.ledgerSequence, ctx.txIndex, i + 1),
      transaction_id: ctx.txId,
      transaction_hash: ctx.txHash,
      application_order: i + 1,
      closed_at: ctx.closedAt,
      type,
      details: operationDetails(op, source, decoded.accountId, result),
      source_account: decoded.accountId,
      source_account_muxed: decoded.muxedAddress,
      transaction_successful: ctx.successful,
      is_payment: isPaymentType(type),
    };
  });
}
