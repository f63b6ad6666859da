// Operation details (operation_details.ts with the builders of details.ts) on real operations:
// for each operation type of Horizon's scenarios, every operation's details equal Horizon's JSON,
// failed transactions' operations (no result to read amounts from) included; the testnet's
// operations give the accounts, amounts and assets the SDK reads from their envelopes.
import { type Asset, type OperationRecord, xdr } from '@stellar/stellar-sdk/base';
import { describe, expect, it } from 'vitest';
import { type DetailsContext, type OperationInTx, operationDetails } from '../../../src/ingest/processors/operation_details.js';
import { operationSource } from '../../../src/ingest/processors/operations.js';
import { SCENARIOS, TEST_PASSPHRASE } from '../../core/support/scenario.js';
import { TESTNET_PASSPHRASE } from '../support/fixtures.js';
import { horizonDump, scenarioViews, testnetTransactions, transactionInput } from '../support/scenarios.js';

interface Case {
  id: string;
  operation: OperationInTx;
  context: DetailsContext;
  horizon: unknown;
}

/** every operation of every scenario, by operation type */
function casesByType(): Map<string, Case[]> {
  const out = new Map<string, Case[]>();
  for (const name of SCENARIOS) {
    const expected = horizonDump(name);
    for (const view of scenarioViews(name)) {
      for (const tx of view.txs) {
        const { operations, context, sourceIds } = transactionInput(view, tx, TEST_PASSPHRASE);
        operations.forEach((op, i) => {
          const id = String(context.txId + BigInt(i + 1));
          const list = out.get(op.body.type) ?? [];
          list.push({
            id: `${name} ${id}`,
            operation: {
              op,
              index: i,
              source: operationSource(op, context.txSource),
              sourceId: sourceIds[i]!,
              result: context.successful ? xdr.expectUnionVariant(context.results[i]!, 'opInner').tr : undefined,
            },
            context: { ...context, operations },
            horizon: JSON.parse(String(expected.operations.get(id)?.details)),
          });
          out.set(op.body.type, list);
        });
      }
    }
  }
  return out;
}

const cases = casesByType();

describe('operation details of Horizon’s scenarios', () => {
  it('cover the classic operations these protocol 11/12 scenarios use', () => {
    expect([...cases.keys()].sort()).toEqual([
      'accountMerge',
      'allowTrust',
      'changeTrust',
      'createAccount',
      'manageSellOffer',
      'pathPaymentStrictReceive',
      'pathPaymentStrictSend',
      'payment',
      'setOptions',
    ]);
  });

  it.each([...cases.keys()].sort())('%s: Horizon’s details for every operation', (type) => {
    for (const c of cases.get(type)!) {
      expect(operationDetails(c.operation, c.context), c.id).toEqual(c.horizon);
    }
  });

  it('give a failed path payment the amounts of its envelope only', () => {
    const failed = [...cases.values()]
      .flat()
      .filter((c) => c.operation.result === undefined && c.operation.op.body.type.startsWith('pathPayment'));
    expect(failed.length).toBeGreaterThan(0);
    for (const c of failed) expect(operationDetails(c.operation, c.context), c.id).toEqual(c.horizon);
  });
});

/** Horizon's asset fields of an SDK asset, with a prefix */
function assetFields(asset: Asset, prefix = ''): Record<string, string> {
  if (asset.isNative()) return { [`${prefix}asset_type`]: 'native' };
  return {
    [`${prefix}asset_type`]: asset.getAssetType(),
    [`${prefix}asset_code`]: asset.getCode(),
    [`${prefix}asset_issuer`]: asset.getIssuer() ?? '',
  };
}

/** The details the SDK's reading of an operation implies, for the testnet's operation types. */
function fromStellarBase(op: OperationRecord, source: string): Record<string, unknown> {
  switch (op.type) {
    case 'createAccount':
      return { funder: source, account: op.destination, starting_balance: op.startingBalance };
    case 'payment':
      return { from: source, to: op.destination, amount: op.amount, ...assetFields(op.asset) };
    case 'changeTrust': {
      const line = op.line as Asset;
      return { ...assetFields(line), trustee: line.getIssuer(), trustor: source, limit: op.limit };
    }
    case 'setOptions':
      return {
        inflation_dest: op.inflationDest,
        master_key_weight: op.masterWeight,
        low_threshold: op.lowThreshold,
        med_threshold: op.medThreshold,
        high_threshold: op.highThreshold,
        signer_key: op.signer && 'ed25519PublicKey' in op.signer ? op.signer.ed25519PublicKey : undefined,
        signer_weight: op.signer?.weight,
      };
    case 'accountMerge':
      return { account: source, into: op.destination };
    default:
      throw new Error(`no SDK reading for ${op.type}`);
  }
}

const txs = await testnetTransactions();

describe('operation details of the testnet datastore', () => {
  it('name the accounts, amounts and assets the SDK reads', () => {
    const types = new Set<string>();
    for (const { view, tx, inner } of txs) {
      const { operations, context, sourceIds } = transactionInput(view, tx, TESTNET_PASSPHRASE);
      operations.forEach((op, i) => {
        const result = context.successful ? xdr.expectUnionVariant(context.results[i]!, 'opInner').tr : undefined;
        const operation = { op, index: i, source: operationSource(op, context.txSource), sourceId: sourceIds[i]!, result };
        const details = operationDetails(operation, { ...context, operations });
        const expected = Object.fromEntries(
          Object.entries(fromStellarBase(inner.operations[i]!, sourceIds[i]!)).filter(([, v]) => v !== undefined),
        );
        expect(details, `${tx.hash} operation ${i + 1}`).toEqual(expected);
        types.add(inner.operations[i]!.type);
      });
    }
    expect([...types].sort()).toEqual(['accountMerge', 'changeTrust', 'createAccount', 'payment', 'setOptions']);
  });
});
