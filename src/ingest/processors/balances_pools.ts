// The claimable balances and liquidity pools each transaction and operation touched (stellar-horizon
// 2abda01's claimable_balances_transaction_processor.go and liquidity_pools_transaction_processor.go):
// every entry of the type in the transaction's changes (before, its operations', after; not the fee
// changes) and in each operation's changes, once per transaction or operation. A failed
// transaction's operations changed nothing, so only its own changes can name one.
import type { xdr } from '@stellar/stellar-sdk/base';
import type { LedgerTx } from '../../meta/index.js';
import { balanceIdHex, poolIdHex } from '../../stellar/index.js';
import type { TransactionHistoryRows } from '../rows.js';

export interface TouchedEntries {
  claimableBalances: Set<string>;
  liquidityPools: Set<string>;
}

/** Adds the balances and pools that `changes` name, in any change (created, updated, removed, state, restored), to `out`. */
export function addTouchedEntries(out: TouchedEntries, changes: readonly xdr.LedgerEntryChange[]): TouchedEntries {
  for (const change of changes) {
    if (change.type === 'ledgerEntryRemoved') {
      const key = change.removed;
      if (key.type === 'claimableBalance') out.claimableBalances.add(balanceIdHex(key.claimableBalance.balanceId));
      else if (key.type === 'liquidityPool') out.liquidityPools.add(poolIdHex(key.liquidityPool.liquidityPoolId));
      continue;
    }
    const data = change.value.data;
    if (data.type === 'claimableBalance') out.claimableBalances.add(balanceIdHex(data.claimableBalance.balanceId));
    else if (data.type === 'liquidityPool') out.liquidityPools.add(poolIdHex(data.liquidityPool.liquidityPoolId));
  }
  return out;
}

const touched = (): TouchedEntries => ({ claimableBalances: new Set(), liquidityPools: new Set() });

/** Appends the history link rows of one transaction (`operationIds` in envelope order) to `rows`. */
export function addBalancePoolRows(
  rows: TransactionHistoryRows,
  tx: LedgerTx,
  transactionId: bigint,
  operationIds: readonly bigint[],
): void {
  // read from bytes, the scanner understood every entry of the meta: none is a balance or a pool,
  // and the meta need not be decoded
  if (tx.operationAccounts) return;
  const inTransaction = addTouchedEntries(touched(), tx.changesBefore);
  tx.operationChanges.forEach((changes, i) => {
    const operationId = operationIds[i];
    const inOperation = addTouchedEntries(touched(), changes);
    for (const id of inOperation.claimableBalances) {
      inTransaction.claimableBalances.add(id);
      if (operationId !== undefined) rows.operationClaimableBalances.push({ claimable_balance_id: id, operation_id: operationId });
    }
    for (const id of inOperation.liquidityPools) {
      inTransaction.liquidityPools.add(id);
      if (operationId !== undefined) rows.operationLiquidityPools.push({ liquidity_pool_id: id, operation_id: operationId });
    }
  });
  addTouchedEntries(inTransaction, tx.changesAfter);
  for (const id of inTransaction.claimableBalances) {
    rows.transactionClaimableBalances.push({ claimable_balance_id: id, transaction_id: transactionId });
  }
  for (const id of inTransaction.liquidityPools)
    rows.transactionLiquidityPools.push({ liquidity_pool_id: id, transaction_id: transactionId });
}
