// All rows of one ledger, built in memory from its meta by the processors (pure: no database).
import { xdr } from '@stellar/stellar-base';
import { toid } from '../stellar/index.js';
import type { LedgerView } from './ledger_view.js';
import { operationEffects } from './processors/effects.js';
import { closedAt, ledgerRow } from './processors/ledgers.js';
import { operationRows, operationSource } from './processors/operations.js';
import { changedAccounts, operationParticipants } from './processors/participants.js';
import { emptyStateRows, stateRows } from './processors/state.js';
import { operationTrades } from './processors/trades.js';
import { isSuccessful, operationResults, transactionParts, transactionRow } from './processors/transactions.js';
import type { LedgerRows } from './rows.js';

function txSourceAccount(envelope: xdr.TransactionEnvelope): xdr.MuxedAccount {
  switch (envelope.switch().name) {
    case 'envelopeTypeTxFeeBump':
      return envelope.feeBump().tx().innerTx().v1().tx().sourceAccount();
    case 'envelopeTypeTx':
      return envelope.v1().tx().sourceAccount();
    default:
      // a v0 source is a bare key; as a MuxedAccount it is the ed25519 arm
      return xdr.MuxedAccount.keyTypeEd25519(envelope.v0().tx().sourceAccountEd25519());
  }
}

export interface LedgerRowsOptions {
  /** build the state rows (default true); a reingest writes only history and skips them */
  state?: boolean;
}


/** `seed`: ledger entries that exist before this ledger's changes (the genesis state for ledger 1). */
export function ledgerRows(view: LedgerView, seed: xdr.LedgerEntry[] = [], options: LedgerRowsOptions = {}): LedgerRows {
  const at = closedAt(view);
  const rows: LedgerRows = {
    ledger: ledgerRow(view),
    transactions: [],
    operations: [],
    effects: [],
    trades: [],
    transactionParticipants: [],
    operationParticipants: [],
    state: options.state === false ? emptyStateRows() : stateRows(view, seed),
  };
  for (const tx of view.txs) {
    const txId = toid(view.sequence, tx.index, 0);
    const parts = transactionParts(tx);
    const txRow = transactionRow(tx, txId, view.sequence, at, parts);
    rows.transactions.push(txRow);
    const txSource = txSourceAccount(tx.envelope);
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
        rows.operationParticipants.push({ account, id: opId });
      }
      if (!successful) return;
      const result = results[i]!.tr();
      const input = {
        operationId: opId,
        closedAt: at,
        op,
        source,
        sourceId: ops[i]!.source_account,
        result,
        // few operations look at their changes: decoding the meta waits until one does
        get changes() {
          return tx.operationChanges[i] ?? [];
        },
      };
      rows.effects.push(...operationEffects(input));
      rows.trades.push(...operationTrades(input));
    });
    if (tx.operationAccounts) {
      for (const accounts of tx.operationAccounts) for (const account of accounts) txParticipants.add(account);
    } else {
      for (const account of changedAccounts(tx.operationChanges)) txParticipants.add(account);
    }
    for (const account of txParticipants) rows.transactionParticipants.push({ account, id: txId });
  }
  return rows;
}
