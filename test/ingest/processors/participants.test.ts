// The participants processor on real transactions. Horizon's scenarios: every operation (failed
// ones too) names Horizon's history_operation_participants, and each transaction's source with
// its operations' participants are Horizon's history_transaction_participants. Horizon later also
// counted the accounts whose entries a transaction's operations change (participantsForMeta at
// 096f654), which these 2019 dumps lack: the accounts that rule adds here are the sellers whose
// offers the operation crossed. The testnet ledgers (TransactionMeta v3) check that rule itself.
import { describe, expect, it } from 'vitest';
import { operationSource } from '../../../src/ingest/processors/operations.js';
import { changedAccounts, operationParticipants } from '../../../src/ingest/processors/participants.js';
import { EFFECT_TYPES } from '../../../src/stellar/index.js';
import { SCENARIOS, TEST_PASSPHRASE } from '../../core/support/scenario.js';
import { TESTNET_PASSPHRASE } from '../support/fixtures.js';
import { horizonDump, scenarioViews, testnetTransactions, transactionInput } from '../support/scenarios.js';

const sorted = (accounts: Iterable<string>) => [...new Set(accounts)].sort();

describe.each(SCENARIOS)('participants of scenario %s', (name) => {
  const expected = horizonDump(name);
  const views = scenarioViews(name);

  it('name Horizon’s participants of every operation and transaction', () => {
    let operations = 0;
    let transactions = 0;
    for (const view of views) {
      for (const tx of view.txs) {
        const { operations: ops, context, txSourceId } = transactionInput(view, tx, TEST_PASSPHRASE);
        const txAccounts = [txSourceId];
        const sellers = new Set<string>();
        ops.forEach((op, i) => {
          const id = String(context.txId + BigInt(i + 1));
          const accounts = operationParticipants(op, operationSource(op, context.txSource));
          expect(sorted(accounts), `participants of operation ${id}`).toEqual(expected.operationParticipants.get(id) ?? []);
          txAccounts.push(...accounts);
          for (const e of expected.effects.get(id) ?? []) {
            if (e.type === EFFECT_TYPES.trade) sellers.add(e.account);
          }
          operations++;
        });
        const txId = String(context.txId);
        expect(sorted(txAccounts), `participants of transaction ${txId}`).toEqual(expected.transactionParticipants.get(txId) ?? []);
        for (const account of changedAccounts(tx.operationChanges)) {
          if (!txAccounts.includes(account)) expect(sellers, `participant ${account} of transaction ${txId}`).toContain(account);
        }
        transactions++;
      }
    }
    expect(operations).toBe(expected.operations.size);
    expect(transactions).toBe(expected.transactions.size);
  });
});

const txs = await testnetTransactions();

describe('participants of the testnet datastore', () => {
  it('are the accounts the operations’ entry changes touch: their sources and destinations', () => {
    for (const { view, tx, inner, successful } of txs) {
      const { sourceIds } = transactionInput(view, tx, TESTNET_PASSPHRASE);
      const destinations = inner.operations.flatMap((op) => ('destination' in op ? [op.destination] : []));
      // a failed transaction's operations change nothing
      const touched = successful ? sorted([...sourceIds, ...destinations]) : [];
      expect(sorted(changedAccounts(tx.operationChanges)), tx.hash).toEqual(touched);
    }
    expect(txs.filter((t) => t.successful)).toHaveLength(9);
  });
});
