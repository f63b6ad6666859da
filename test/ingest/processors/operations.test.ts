// The operations processor on real transactions: every operation of Horizon's scenarios, failed
// transactions' too, gives Horizon's history_operations row (id, transaction, order, type, source
// and details); the testnet operations get their TOIDs, types and sources as the SDK reads them.
import { extractBaseAddress, type OperationRecord, xdr } from '@stellar/stellar-sdk/base';
import { describe, expect, it } from 'vitest';
import { operationRows } from '../../../src/ingest/processors/operations.js';
import { SCENARIOS, TEST_PASSPHRASE } from '../../core/support/scenario.js';
import { TESTNET_PASSPHRASE } from '../support/fixtures.js';
import { dumpTime, horizonDump, scenarioViews, testnetTransactions, transactionInput } from '../support/scenarios.js';

/** Horizon's payment operations (IsPayment at 096f654): create_account, payment, both path payments, account_merge */
const HORIZON_PAYMENTS = new Set(['createAccount', 'payment', 'pathPaymentStrictReceive', 'pathPaymentStrictSend', 'accountMerge']);

describe.each(SCENARIOS)('operations of scenario %s', (name) => {
  const expected = horizonDump(name);
  const views = scenarioViews(name);

  it('gives Horizon’s row for every operation', () => {
    let count = 0;
    for (const view of views) {
      const ledger = expected.ledgers.get(view.sequence)!;
      for (const tx of view.txs) {
        const input = transactionInput(view, tx, TEST_PASSPHRASE);
        const rows = operationRows(input.operations, input.context);
        expect(rows).toHaveLength(input.operations.length);
        rows.forEach((ours, i) => {
          const theirs = expected.operations.get(String(ours.id));
          expect(theirs, `operation ${ours.id}`).toBeDefined();
          const theirTx = expected.transactions.get(String(theirs!.transaction_id))!;
          // the dump's is_payment column is a default added to its schema, not Horizon's value
          expect(ours, `operation ${ours.id}`).toEqual({
            id: BigInt(String(theirs!.id)),
            transaction_id: BigInt(String(theirs!.transaction_id)),
            transaction_hash: theirTx.transaction_hash,
            application_order: Number(theirs!.application_order),
            closed_at: dumpTime(ledger.closed_at),
            type: Number(theirs!.type),
            details: JSON.parse(String(theirs!.details)),
            source_account: theirs!.source_account,
            source_account_muxed: null,
            transaction_successful: String(theirTx.successful) === 'true',
            is_payment: HORIZON_PAYMENTS.has(input.operations[i]!.body.type),
          });
          count++;
        });
      }
    }
    expect(count).toBe(expected.operations.size);
  });
});

const txs = await testnetTransactions();

/** The XDR operation type of the SDK's reading of an operation (its revoke*Sponsorship readings are one type). */
function xdrOperationType(type: OperationRecord['type']): number {
  return xdr.OperationType.fromName(type.startsWith('revoke') ? 'revokeSponsorship' : (type as xdr.OperationTypeName)).value;
}

describe('operations of the testnet datastore', () => {
  it('number, type and attribute every operation as the SDK reads it', () => {
    let count = 0;
    for (const { view, tx, inner, successful } of txs) {
      const input = transactionInput(view, tx, TESTNET_PASSPHRASE);
      const rows = operationRows(input.operations, input.context);
      const txId = (BigInt(view.sequence) << 32n) | (BigInt(tx.index) << 12n);
      expect(
        rows.map(({ id, transaction_id, application_order, type, source_account, transaction_successful }) => ({
          id,
          transaction_id,
          application_order,
          type,
          source_account,
          transaction_successful,
        })),
      ).toEqual(
        inner.operations.map((op, i) => ({
          id: txId | BigInt(i + 1),
          transaction_id: txId,
          application_order: i + 1,
          type: xdrOperationType(op.type),
          source_account: extractBaseAddress(op.source ?? inner.source),
          transaction_successful: successful,
        })),
      );
      count += rows.length;
    }
    expect(count).toBeGreaterThan(20);
  });
});
