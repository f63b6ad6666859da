// The history_ledgers row of a ledger.
import type { xdr } from '@stellar/stellar-base';
import type { LedgerView } from '../ledger_view.js';
import type { LedgerRow } from '../rows.js';
import { isSuccessful } from './transactions.js';

export function closedAt(view: LedgerView): string {
  return new Date(Number(view.header.scpValue().closeTime().toString()) * 1000).toISOString();
}

export function ledgerRow(view: LedgerView): LedgerRow {
  const h = view.header;
  let successful = 0;
  let failed = 0;
  let operations = 0;
  let txSetOperations = 0;
  for (const tx of view.txs) {
    const count = operationCount(tx.envelope);
    txSetOperations += count;
    if (isSuccessful(tx.result)) {
      successful++;
      operations += count;
    } else {
      failed++;
    }
  }
  const prev = h.previousLedgerHash().toString('hex');
  return {
    sequence: view.sequence,
    hash: view.hash,
    prev_hash: /^0+$/.test(prev) ? null : prev,
    closed_at: closedAt(view),
    successful_transaction_count: successful,
    failed_transaction_count: failed,
    operation_count: operations,
    tx_set_operation_count: txSetOperations,
    total_coins: BigInt(h.totalCoins().toString()),
    fee_pool: BigInt(h.feePool().toString()),
    base_fee: h.baseFee(),
    base_reserve: h.baseReserve(),
    max_tx_set_size: h.maxTxSetSize(),
    protocol_version: h.ledgerVersion(),
    header_xdr: h.toXDR('base64'),
  };
}

function operationCount(envelope: xdr.TransactionEnvelope): number {
  switch (envelope.switch().name) {
    case 'envelopeTypeTxV0':
      return envelope.v0().tx().operations().length;
    case 'envelopeTypeTxFeeBump':
      return envelope.feeBump().tx().innerTx().v1().tx().operations().length;
    default:
      return envelope.v1().tx().operations().length;
  }
}
