// The history_ledgers row of a ledger.
import type { xdr } from '@stellar/stellar-sdk/base';
import type { LedgerView } from '../../meta/index.js';
import type { LedgerRow } from '../rows.js';
import { isSuccessful } from './transactions.js';

export function closedAt(view: LedgerView): string {
  return new Date(Number(view.header.scpValue.closeTime) * 1000).toISOString();
}

/** How many transactions and operations a ledger applied. */
export interface LedgerCounts {
  successful: number;
  failed: number;
  /** operations of successful transactions */
  operations: number;
  /** operations of every applied transaction */
  txSetOperations: number;
}

export function ledgerCounts(view: LedgerView): LedgerCounts {
  const counts: LedgerCounts = { successful: 0, failed: 0, operations: 0, txSetOperations: 0 };
  for (const tx of view.txs) countTransaction(counts, isSuccessful(tx.result), operationCount(tx.envelope));
  return counts;
}

export function countTransaction(counts: LedgerCounts, successful: boolean, operations: number): void {
  counts.txSetOperations += operations;
  if (successful) {
    counts.successful++;
    counts.operations += operations;
  } else {
    counts.failed++;
  }
}

/** `counts`: the ledger's counts when the caller has them (a reingest counts as it builds rows) */
export function ledgerRow(view: LedgerView, counts: LedgerCounts = ledgerCounts(view)): LedgerRow {
  const h = view.header;
  const prev = Buffer.from(h.previousLedgerHash.value).toString('hex');
  return {
    sequence: view.sequence,
    hash: view.hash,
    prev_hash: /^0+$/.test(prev) ? null : prev,
    closed_at: closedAt(view),
    successful_transaction_count: counts.successful,
    failed_transaction_count: counts.failed,
    operation_count: counts.operations,
    tx_set_operation_count: counts.txSetOperations,
    total_coins: h.totalCoins,
    fee_pool: h.feePool,
    base_fee: h.baseFee,
    base_reserve: h.baseReserve,
    max_tx_set_size: h.maxTxSetSize,
    protocol_version: h.ledgerVersion,
    header_xdr: h.toXdr('base64'),
  };
}

function operationCount(envelope: xdr.TransactionEnvelope): number {
  switch (envelope.type) {
    case 'envelopeTypeTxV0':
      return envelope.v0.tx.operations.length;
    case 'envelopeTypeTxFeeBump':
      return envelope.feeBump.tx.innerTx.v1.tx.operations.length;
    default:
      return envelope.v1.tx.operations.length;
  }
}
