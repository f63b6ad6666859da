// All rows of one ledger, built in memory from its meta by the processors (pure: no database).
import { xdr } from '@stellar/stellar-sdk/base';
import { envelopeSourceAccount, type LedgerTx, type LedgerView } from '../meta/index.js';
import { toid } from '../stellar/index.js';
import { addBalancePoolRows } from './processors/balances_pools.js';
import { operationEffects, type EffectInput } from './processors/effects.js';
import { closedAt, ledgerRow } from './processors/ledgers.js';
import { operationRows, operationSource } from './processors/operations.js';
import { changedAccounts, operationParticipants } from './processors/participants.js';
import { emptyStateRows, stateRows } from './processors/state.js';
import { operationTrades, type TradeInput } from './processors/trades.js';
import { isSuccessful, operationResults, transactionParts, transactionRow } from './processors/transactions.js';
import type { LedgerRows, TransactionHistoryRows } from './rows.js';

/**
 * One operation as the effect and trade processors see it. Few operations look at their changes,
 * so decoding the meta waits until one does. The getter belongs to the class: an object literal
 * with its own getter closure gets a hidden class of its own, and V8's map transitions kept each
 * one, with all the rows its closure could reach, alive through young-generation collections.
 */
class OperationInput implements EffectInput, TradeInput {
  constructor(
    readonly operationId: bigint,
    readonly closedAt: string,
    readonly op: xdr.Operation,
    readonly source: xdr.MuxedAccount,
    readonly sourceId: string,
    readonly result: xdr.OperationResultTr,
    readonly networkId: Buffer,
    private readonly tx: LedgerTx,
    private readonly index: number,
  ) {}

  get changes(): xdr.LedgerEntryChange[] {
    return this.tx.operationChanges[this.index] ?? [];
  }

  get meta(): xdr.TransactionMeta {
    return this.tx.meta;
  }

  get sponsored(): boolean | undefined {
    return this.tx.operationSponsored?.[this.index];
  }
}

export interface LedgerRowsOptions {
  /** build the state rows (default true); a reingest writes only history and skips them */
  state?: boolean;
}

/** `seed`: ledger entries that exist before this ledger's changes (the genesis state for ledger 1). */
export function ledgerRows(view: LedgerView, seed: xdr.LedgerEntry[] = [], options: LedgerRowsOptions = {}): LedgerRows {
  const rows: LedgerRows = {
    ledger: ledgerRow(view),
    ...emptyTransactionRows(),
    state: options.state === false ? emptyStateRows() : stateRows(view, seed),
  };
  const at = closedAt(view);
  for (const tx of view.txs) addTransactionRows(rows, view, tx, at);
  return rows;
}

export function emptyTransactionRows(): TransactionHistoryRows {
  return {
    transactions: [],
    operations: [],
    effects: [],
    trades: [],
    transactionParticipants: [],
    operationParticipants: [],
    transactionClaimableBalances: [],
    operationClaimableBalances: [],
    transactionLiquidityPools: [],
    operationLiquidityPools: [],
  };
}

/** Appends the history rows of one of the ledger's transactions to `rows`; `at` is the ledger's close time. */
export function addTransactionRows(rows: TransactionHistoryRows, view: LedgerView, tx: LedgerTx, at: string): void {
  const txId = toid(view.sequence, tx.index, 0);
  const parts = transactionParts(tx);
  const txRow = transactionRow(tx, txId, view.sequence, at, parts);
  rows.transactions.push(txRow);
  const txSource = envelopeSourceAccount(tx.envelope);
  const successful = isSuccessful(tx.result);
  const results = operationResults(tx.result);
  const ops = operationRows(parts.operations, {
    ledgerSequence: view.sequence,
    txIndex: tx.index,
    txId,
    txHash: tx.hash,
    closedAt: at,
    successful,
    txSource,
    results,
    networkId: view.networkId,
    tx,
  });
  rows.operations.push(...ops);
  const txParticipants = new Set<string>([txRow.account]);
  if (txRow.fee_account) txParticipants.add(txRow.fee_account);
  parts.operations.forEach((op, i) => {
    const opId = ops[i]!.id;
    const source = operationSource(op, txSource);
    const opAccounts = operationParticipants(op, source);
    for (const account of opAccounts) {
      txParticipants.add(account);
      rows.operationParticipants.push({ account, operation_id: opId });
    }
    if (!successful) return;
    const result = xdr.expectUnionVariant(results[i]!, 'opInner').tr;
    const input = new OperationInput(opId, at, op, source, ops[i]!.source_account, result, view.networkId, tx, i);
    rows.effects.push(...operationEffects(input));
    rows.trades.push(...operationTrades(input));
  });
  if (tx.operationAccounts) {
    for (const accounts of tx.operationAccounts) for (const account of accounts) txParticipants.add(account);
  } else {
    for (const account of changedAccounts(tx.operationChanges)) txParticipants.add(account);
  }
  for (const account of txParticipants) rows.transactionParticipants.push({ account, transaction_id: txId });
  addBalancePoolRows(
    rows,
    tx,
    txId,
    ops.map((op) => op.id),
  );
}
