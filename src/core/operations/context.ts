// What an operation sees while it is validated and applied, and the shape every operation file exports.
import type { xdr } from '@stellar/stellar-sdk/base';
import type { LedgerTxn } from '../ledger/ledger_txn.js';
import type { TxFrame } from '../ledger/tx_frame.js';

export type ThresholdLevel = 'low' | 'medium' | 'high';

export interface HeaderView {
  ledgerSeq: number;
  closeTime: bigint;
  baseFee: number;
  baseReserve: number;
  ledgerVersion: number;
}

export interface OpContext {
  ltx: LedgerTxn;
  header: HeaderView;
  frame: TxFrame;
  op: xdr.Operation;
  opIndex: number;
  /** the operation's effective source account (G...) */
  sourceId: string;
}

export interface OpOutcome {
  success: boolean;
  result: xdr.OperationResult;
}

export interface OperationDef {
  threshold(op: xdr.Operation): ThresholdLevel;
  /** stellar-core's isOpSupported; false answers opNOT_SUPPORTED */
  supported: boolean;
  /** state-independent checks (stellar-core doCheckValid): a failure result, or null when well formed */
  checkValid(op: xdr.Operation, sourceId: string, ledgerVersion: number): xdr.OperationResult | null;
  apply(ctx: OpContext): OpOutcome;
}
