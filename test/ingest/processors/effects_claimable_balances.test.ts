// Horizon's claimable balance effect tests (stellar-horizon internal/ingest/processors/
// effects_processor_test.go): the same operations and ledger entry changes, built from the Go
// values the tests write out, give Horizon's expected effects. A predicate is compared as
// stellar-go's ClaimPredicate.MarshalJSON writes it.
import { xdr } from '@stellar/stellar-sdk/base';
import { describe, expect, it } from 'vitest';
import {
  account,
  created,
  creditAsset,
  horizons,
  int64,
  ledgerEntry,
  muxed,
  nativeAsset,
  operationEffectsOf,
  ours,
  removed,
  state,
  transactionMeta,
} from '../support/horizon_effects.js';

const balanceId = (base64: string): xdr.ClaimableBalanceId => xdr.ClaimableBalanceId.fromXdr(base64, 'base64');
const BALANCE_0 = 'AAAAANoNV9p9SFDn/BDSqdDrxzH3r7QFdMAzlbF9SRSbkfW+';
const BALANCE_1 = 'AAAAALHcX0PDa9UefSAzitC6vQOUr802phH8OF2ahLzg6j1D';
const ISSUER = 'GDRW375MAYR46ODGF2WGANQC2RRZL7O246DYHHCGWTV2RE7IHE2QUQLD';

const claimant = (destination: string, predicate: xdr.ClaimPredicate = xdr.ClaimPredicate.claimPredicateUnconditional()): xdr.Claimant =>
  xdr.Claimant.claimantTypeV0(new xdr.ClaimantV0({ destination: account(destination), predicate }));

function balanceEntry(id: string, amount: bigint, asset: xdr.Asset, claimants: xdr.Claimant[], clawbackEnabled = false) {
  return new xdr.ClaimableBalanceEntry({
    balanceId: balanceId(id),
    claimants,
    asset,
    amount: int64(amount),
    ext: clawbackEnabled
      ? xdr.ClaimableBalanceEntryExt.v1(
          new xdr.ClaimableBalanceEntryExtensionV1({ ext: xdr.ClaimableBalanceEntryExtensionV1Ext.v0(), flags: 1 }),
        )
      : xdr.ClaimableBalanceEntryExt.v0(),
  });
}

const balanceLedgerEntry = (entry: xdr.ClaimableBalanceEntry) => ledgerEntry(xdr.LedgerEntryData.claimableBalance(entry));
const balanceKey = (id: string) => xdr.LedgerKey.claimableBalance(new xdr.LedgerKeyClaimableBalance({ balanceId: balanceId(id) }));

describe('Horizon’s CreateClaimableBalanceEffectsTestSuite', () => {
  const source = muxed(ISSUER);
  const cb0 = balanceEntry(
    BALANCE_0,
    100000000n,
    nativeAsset(),
    [claimant('GD5OVB6FKDV7P7SOJ5UB2BPLBL4XGSHPYHINR5355SY3RSXLT2BZWAKY')],
    true,
  );
  const cb1 = balanceEntry(BALANCE_1, 200000000n, creditAsset('USD', ISSUER), [
    claimant('GDMQUXK7ZUCWM5472ZU3YLDP4BMJLQQ76DEMNYDEY2ODEEGGRKLEWGW2', xdr.ClaimPredicate.claimPredicateBeforeRelativeTime(int64(1000))),
    claimant('GDQNY3PBOJOKYZSRMK2S7LHHGWZIUISD4QORETLMXEWXBI7KFZZMKTL3'),
  ]);
  const ops = [cb0, cb1].map(
    (cb) =>
      new xdr.Operation({
        sourceAccount: source,
        body: xdr.OperationBody.createClaimableBalance(
          new xdr.CreateClaimableBalanceOp({ asset: cb.asset, amount: cb.amount, claimants: cb.claimants }),
        ),
      }),
  );
  const meta = transactionMeta(2, [[created(balanceLedgerEntry(cb0))], [created(balanceLedgerEntry(cb1))]]);

  it('claimable balance with native asset', () => {
    const id = '00000000da0d57da7d4850e7fc10d2a9d0ebc731f7afb40574c03395b17d49149b91f5be';
    expect(ours(operationEffectsOf({ op: ops[0]!, meta, index: 0 }))).toEqual(
      horizons([
        {
          address: ISSUER,
          operationID: '4294967297',
          order: 1,
          effectType: 'claimable_balance_created',
          details: { asset: 'native', amount: '10.0000000', balance_id: id, claimable_balance_clawback_enabled_flag: true },
        },
        {
          address: 'GD5OVB6FKDV7P7SOJ5UB2BPLBL4XGSHPYHINR5355SY3RSXLT2BZWAKY',
          operationID: '4294967297',
          order: 2,
          effectType: 'claimable_balance_claimant_created',
          details: { asset: 'native', amount: '10.0000000', balance_id: id, predicate: { unconditional: true } },
        },
        {
          address: ISSUER,
          operationID: '4294967297',
          order: 3,
          effectType: 'account_debited',
          details: { amount: '10.0000000', asset_type: 'native' },
        },
      ]),
    );
  });

  it('claimable balance with issued asset', () => {
    const id = '00000000b1dc5f43c36bd51e7d20338ad0babd0394afcd36a611fc385d9a84bce0ea3d43';
    const asset = `USD:${ISSUER}`;
    expect(ours(operationEffectsOf({ op: ops[1]!, meta, index: 1 }))).toEqual(
      horizons([
        {
          address: ISSUER,
          operationID: '4294967298',
          order: 1,
          effectType: 'claimable_balance_created',
          details: { asset, amount: '20.0000000', balance_id: id },
        },
        {
          address: 'GDMQUXK7ZUCWM5472ZU3YLDP4BMJLQQ76DEMNYDEY2ODEEGGRKLEWGW2',
          operationID: '4294967298',
          order: 2,
          effectType: 'claimable_balance_claimant_created',
          // the operation's predicate (rel_before), not the entry's
          details: { asset, amount: '20.0000000', balance_id: id, predicate: { rel_before: '1000' } },
        },
        {
          address: 'GDQNY3PBOJOKYZSRMK2S7LHHGWZIUISD4QORETLMXEWXBI7KFZZMKTL3',
          operationID: '4294967298',
          order: 3,
          effectType: 'claimable_balance_claimant_created',
          details: { asset, amount: '20.0000000', balance_id: id, predicate: { unconditional: true } },
        },
        {
          address: ISSUER,
          operationID: '4294967298',
          order: 4,
          effectType: 'account_debited',
          details: { amount: '20.0000000', asset_code: 'USD', asset_type: 'credit_alphanum4', asset_issuer: ISSUER },
        },
      ]),
    );
  });
});

describe('Horizon’s ClaimClaimableBalanceEffectsTestSuite', () => {
  const claimant1 = 'GD5OVB6FKDV7P7SOJ5UB2BPLBL4XGSHPYHINR5355SY3RSXLT2BZWAKY';
  const claimant2 = 'GDMQUXK7ZUCWM5472ZU3YLDP4BMJLQQ76DEMNYDEY2ODEEGGRKLEWGW2';
  const ops = [
    [claimant1, BALANCE_0],
    [claimant2, BALANCE_1],
  ].map(
    ([source, id]) =>
      new xdr.Operation({
        sourceAccount: muxed(source!),
        body: xdr.OperationBody.claimClaimableBalance(new xdr.ClaimClaimableBalanceOp({ balanceId: balanceId(id!) })),
      }),
  );
  const success = xdr.OperationResultTr.claimClaimableBalance(xdr.ClaimClaimableBalanceResult.claimClaimableBalanceSuccess());
  const meta = transactionMeta(2, [
    [
      state(balanceLedgerEntry(balanceEntry(BALANCE_0, 100000000n, nativeAsset(), [claimant(claimant1)], true))),
      removed(balanceKey(BALANCE_0)),
    ],
    [
      state(
        balanceLedgerEntry(
          balanceEntry(BALANCE_1, 200000000n, creditAsset('USD', ISSUER), [
            claimant(claimant2),
            claimant('GDQNY3PBOJOKYZSRMK2S7LHHGWZIUISD4QORETLMXEWXBI7KFZZMKTL3'),
          ]),
        ),
      ),
      removed(balanceKey(BALANCE_1)),
    ],
  ]);

  it('claimable balance with native asset', () => {
    expect(ours(operationEffectsOf({ op: ops[0]!, meta, index: 0, result: success }))).toEqual(
      horizons([
        {
          address: claimant1,
          operationID: '4294967297',
          order: 1,
          effectType: 'claimable_balance_claimed',
          details: {
            asset: 'native',
            amount: '10.0000000',
            balance_id: '00000000da0d57da7d4850e7fc10d2a9d0ebc731f7afb40574c03395b17d49149b91f5be',
            claimable_balance_clawback_enabled_flag: true,
          },
        },
        {
          address: claimant1,
          operationID: '4294967297',
          order: 2,
          effectType: 'account_credited',
          details: { asset_type: 'native', amount: '10.0000000' },
        },
      ]),
    );
  });

  it('claimable balance with issued asset', () => {
    expect(ours(operationEffectsOf({ op: ops[1]!, meta, index: 1, result: success }))).toEqual(
      horizons([
        {
          address: claimant2,
          operationID: '4294967298',
          order: 1,
          effectType: 'claimable_balance_claimed',
          details: {
            asset: `USD:${ISSUER}`,
            amount: '20.0000000',
            balance_id: '00000000b1dc5f43c36bd51e7d20338ad0babd0394afcd36a611fc385d9a84bce0ea3d43',
          },
        },
        {
          address: claimant2,
          operationID: '4294967298',
          order: 2,
          effectType: 'account_credited',
          details: { amount: '20.0000000', asset_code: 'USD', asset_type: 'credit_alphanum4', asset_issuer: ISSUER },
        },
      ]),
    );
  });
});

describe('Horizon’s TestOperationEffectsClawbackClaimableBalance', () => {
  it('gives claimable_balance_clawed_back (and no credit: the test’s meta has no change)', () => {
    const op = new xdr.Operation({
      sourceAccount: muxed(ISSUER),
      body: xdr.OperationBody.clawbackClaimableBalance(new xdr.ClawbackClaimableBalanceOp({ balanceId: balanceId(BALANCE_0) })),
    });
    expect(ours(operationEffectsOf({ op, meta: transactionMeta(2, []) }))).toEqual(
      horizons([
        {
          address: ISSUER,
          operationID: '4294967297',
          order: 1,
          effectType: 'claimable_balance_clawed_back',
          details: { balance_id: '00000000da0d57da7d4850e7fc10d2a9d0ebc731f7afb40574c03395b17d49149b91f5be' },
        },
      ]),
    );
  });
});
