// The effects processor on real operations: every operation of Horizon's scenarios, with
// stellar-core's result and entry changes, gives Horizon's history_effects rows — accounts, types,
// order and details — and an operation of a failed transaction gives none, as in Horizon's dump.
// The testnet's operations (TransactionMeta v3) give the effects Horizon's rules derive from the
// operation as the SDK reads it.
import { type Asset, type OperationRecord, xdr } from '@stellar/stellar-sdk/base';
import { describe, expect, it } from 'vitest';
import { operationEffects } from '../../../src/ingest/processors/effects.js';
import { EFFECT_TYPES } from '../../../src/stellar/index.js';
import { SCENARIOS, TEST_PASSPHRASE } from '../../core/support/scenario.js';
import { TESTNET_PASSPHRASE } from '../support/fixtures.js';
import { type OperationInput, dumpTime, horizonDump, operationInputs, scenarioViews, testnetTransactions } from '../support/scenarios.js';

describe.each(SCENARIOS)('effects of scenario %s', (name) => {
  const expected = horizonDump(name);
  const views = scenarioViews(name);

  it('gives Horizon’s effects for every operation, in order', () => {
    let count = 0;
    const seen = new Set<string>();
    for (const view of views) {
      const closedAt = dumpTime(expected.ledgers.get(view.sequence)!.closed_at);
      for (const tx of view.txs) {
        for (const input of operationInputs(view, tx, TEST_PASSPHRASE)) {
          const id = String(input.operationId);
          seen.add(id);
          const ours = operationEffects(input);
          for (const e of ours) expect(e).toMatchObject({ operation_id: input.operationId, closed_at: closedAt, account_muxed: null });
          // Horizon added trustline_flags_updated to allow_trust after these dumps were made (it
          // follows the operation's other effects, so their order stays)
          const comparable = ours
            .filter((e) => e.type !== EFFECT_TYPES.trustline_flags_updated)
            .map(({ account, order, type, details }) => ({ account, order, type, details }));
          expect(comparable, `effects of operation ${id}`).toEqual(expected.effects.get(id) ?? []);
          count += comparable.length;
        }
      }
    }
    // the operations left are those of failed transactions: Horizon has no effects for them
    for (const id of expected.effects.keys()) expect(seen, `operation ${id}`).toContain(id);
    expect(count).toBe([...expected.effects.values()].flat().length);
  });
});

type Effect = [account: string, type: keyof typeof EFFECT_TYPES, details: Record<string, unknown>];

/** Horizon's effects (effects_processor.go) of the testnet's operation types, from the SDK's reading. */
function horizonRules(op: OperationRecord, input: OperationInput): Effect[] {
  const source = input.sourceId;
  switch (op.type) {
    case 'createAccount':
      return [
        [op.destination, 'account_created', { starting_balance: op.startingBalance }],
        [source, 'account_debited', { asset_type: 'native', amount: op.startingBalance }],
        [op.destination, 'signer_created', { public_key: op.destination, weight: 1 }],
      ];
    case 'changeTrust': {
      const line = op.line as Asset;
      // a trust line the operation's changes create, else one it updates
      const created = input.changes.some((c) => c.type === 'ledgerEntryCreated');
      const details = { limit: op.limit, asset_type: line.getAssetType(), asset_code: line.getCode(), asset_issuer: line.getIssuer() };
      return [[source, created ? 'trustline_created' : 'trustline_updated', details]];
    }
    case 'setOptions': {
      // a fresh account: master weight 1 and no other signer before
      const out: Effect[] = [];
      if (op.lowThreshold !== undefined) {
        out.push([
          source,
          'account_thresholds_updated',
          { low_threshold: op.lowThreshold, med_threshold: op.medThreshold, high_threshold: op.highThreshold },
        ]);
      }
      if (op.inflationDest) out.push([source, 'account_inflation_destination_updated', { inflation_destination: op.inflationDest }]);
      if (op.masterWeight !== undefined) out.push([source, 'signer_updated', { public_key: source, weight: op.masterWeight }]);
      if (op.signer && 'ed25519PublicKey' in op.signer) {
        out.push([source, 'signer_created', { public_key: op.signer.ed25519PublicKey, weight: op.signer.weight }]);
      }
      return out;
    }
    case 'accountMerge': {
      const merge = xdr.expectUnionVariant(input.result, 'accountMerge').accountMergeResult;
      const amount = xdr.expectUnionVariant(merge, 'accountMergeSuccess').sourceAccountBalance;
      const details = { amount: `${amount / 10_000_000n}.${String(amount % 10_000_000n).padStart(7, '0')}`, asset_type: 'native' };
      return [
        [source, 'account_debited', details],
        [op.destination, 'account_credited', details],
        [source, 'account_removed', {}],
      ];
    }
    default:
      throw new Error(`no rule for ${op.type}`);
  }
}

const txs = await testnetTransactions();

describe('effects of the testnet datastore', () => {
  it('follow Horizon’s rules for every successful operation', () => {
    const types = new Set<string>();
    for (const { view, tx, inner } of txs) {
      operationInputs(view, tx, TESTNET_PASSPHRASE).forEach((input, i) => {
        const op = inner.operations[i]!;
        const expected = horizonRules(op, input).map(([account, type, details], j) => ({
          account,
          order: j + 1,
          type: EFFECT_TYPES[type],
          details,
        }));
        const ours = operationEffects(input).map(({ account, order, type, details }) => ({ account, order, type, details }));
        expect(ours, `${tx.hash} operation ${i + 1}`).toEqual(expected);
        types.add(op.type);
      });
    }
    expect([...types].sort()).toEqual(['accountMerge', 'changeTrust', 'createAccount', 'setOptions']);
  });
});
