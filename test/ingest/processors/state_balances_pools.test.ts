// The state processor's claimable balances and liquidity pools: stellar-horizon's
// claimable_balances_change_processor_test.go and liquidity_pools_change_processor_test.go (2abda01),
// their changes fed as a ledger's operation changes and Horizon's expected rows as ours. Horizon's
// ingest.Change is a (pre, post) pair: no pre is `created`, both are `state` + `updated`, no post is
// `state` + `removed`. Where Horizon upserts several rows for one entry, the last is what its table
// holds, and that is our one row; a removed pool is deleted here, where Horizon flags it deleted
// and compacts it away later (no query of either shows it).
import { xdr } from '@stellar/stellar-sdk/base';
import { describe, expect, it } from 'vitest';
import { stateRows } from '../../../src/ingest/processors/state.js';
import { emptyStateRows } from '../../../src/ingest/processors/state.js';
import { ledgerKeyOf, type LedgerView } from '../../../src/meta/index.js';
import { accountIdToXdr, creditAsset, assetToXdr } from '../../../src/stellar/index.js';

const ISSUER = 'GC3C4AKRBQLHOJ45U4XG35ESVWRDECWO5XLDGYADO6DPR3L7KIDVUMML';
const USD = assetToXdr(creditAsset('USD', ISSUER));

/** xdr.MarshalHex of ClaimableBalanceId{V0, Hash{1, 2, 3}} */
const BALANCE_HEX = `00000000010203${'00'.repeat(29)}`;
const POOL_HEX = `cafebabedeadbeef${'00'.repeat(24)}`;

interface Change {
  pre: xdr.LedgerEntry | null;
  post: xdr.LedgerEntry | null;
}

/** Horizon's ingest.Change as the meta writes it */
function metaChanges({ pre, post }: Change): xdr.LedgerEntryChange[] {
  if (!pre) return [xdr.LedgerEntryChange.ledgerEntryCreated(post!)];
  if (post) return [xdr.LedgerEntryChange.ledgerEntryState(pre), xdr.LedgerEntryChange.ledgerEntryUpdated(post)];
  return [xdr.LedgerEntryChange.ledgerEntryState(pre), xdr.LedgerEntryChange.ledgerEntryRemoved(ledgerKeyOf(pre))];
}

/** a ledger whose one transaction's one operation made these changes */
function ledgerOf(...changes: Change[]): LedgerView {
  const tx = {
    index: 1,
    feeChanges: [],
    changesBefore: [],
    operationChanges: [changes.flatMap(metaChanges)],
    changesAfter: [],
    postApplyFeeChanges: [],
  };
  return { sequence: 124, txs: [tx], upgradeChanges: [] } as unknown as LedgerView;
}

function entry(data: xdr.LedgerEntryData, lastModified: number, sponsor?: string | null): xdr.LedgerEntry {
  return new xdr.LedgerEntry({
    lastModifiedLedgerSeq: lastModified,
    data,
    // Horizon's tests give the v1 extension with a nil sponsor, or none at all
    ext:
      sponsor === undefined
        ? xdr.LedgerEntryExt.v0()
        : xdr.LedgerEntryExt.v1(
            new xdr.LedgerEntryExtensionV1({
              sponsoringId: sponsor === null ? null : accountIdToXdr(sponsor),
              ext: xdr.LedgerEntryExtensionV1Ext.v0(),
            }),
          ),
  });
}

const balanceId = () => xdr.ClaimableBalanceId.claimableBalanceIdTypeV0(Buffer.concat([Buffer.from([1, 2, 3]), Buffer.alloc(29)]));

function balance(claimants: xdr.Claimant[]): xdr.LedgerEntryData {
  return xdr.LedgerEntryData.claimableBalance(
    new xdr.ClaimableBalanceEntry({ balanceId: balanceId(), claimants, asset: USD, amount: 10n, ext: xdr.ClaimableBalanceEntryExt.v0() }),
  );
}

/** Go's zero ClaimantV0 but its destination: the zero predicate is `unconditional` */
const claimant = (destination: string) =>
  xdr.Claimant.claimantTypeV0(
    new xdr.ClaimantV0({ destination: accountIdToXdr(destination), predicate: xdr.ClaimPredicate.claimPredicateUnconditional() }),
  );

describe('claimable balances (claimable_balances_change_processor_test.go)', () => {
  it('TestNoEntries / TestNoTransactions: nothing', () => {
    expect(stateRows(ledgerOf())).toEqual(emptyStateRows());
  });

  it('TestCreatesClaimableBalances: the balance and its claimant', () => {
    const rows = stateRows(ledgerOf({ pre: null, post: entry(balance([claimant(ISSUER)]), 123) }));
    expect(rows.claimableBalances).toEqual([
      {
        id: BALANCE_HEX,
        asset: `USD:${ISSUER}`,
        amount: 10n,
        sponsor: null,
        flags: 0,
        claimants: [{ destination: ISSUER, predicate: { unconditional: true } }],
        last_modified_ledger: 123,
      },
    ]);
    expect(rows.claimableBalanceClaimants).toEqual([{ id: BALANCE_HEX, destination: ISSUER, last_modified_ledger: 123 }]);
    expect(rows.removedClaimableBalances).toEqual([]);
  });

  it('TestNewClaimableBalance: the sponsor', () => {
    const rows = stateRows(ledgerOf({ pre: null, post: entry(balance([]), 123, ISSUER) }));
    expect(rows.claimableBalances).toEqual([
      { id: BALANCE_HEX, asset: `USD:${ISSUER}`, amount: 10n, sponsor: ISSUER, flags: 0, claimants: [], last_modified_ledger: 123 },
    ]);
    expect(rows.claimableBalanceClaimants).toEqual([]);
  });

  it('TestRemoveClaimableBalance: removes the balance (and its claimants)', () => {
    const rows = stateRows(ledgerOf({ pre: entry(balance([]), 122, null), post: null }));
    expect(rows.removedClaimableBalances).toEqual([BALANCE_HEX]);
    expect(rows.claimableBalances).toEqual([]);
  });

  it('TestUpdateClaimableBalanceAddSponsor: upserts the balance', () => {
    const rows = stateRows(ledgerOf({ pre: entry(balance([]), 122, null), post: entry(balance([]), 123, ISSUER) }));
    expect(rows.claimableBalances).toEqual([
      { id: BALANCE_HEX, asset: `USD:${ISSUER}`, amount: 10n, sponsor: ISSUER, flags: 0, claimants: [], last_modified_ledger: 123 },
    ]);
    expect(rows.removedClaimableBalances).toEqual([]);
  });

  it('flags of the v1 extension (clawback enabled), and predicates as Horizon writes them', () => {
    const predicate = xdr.ClaimPredicate.claimPredicateAnd([
      xdr.ClaimPredicate.claimPredicateBeforeAbsoluteTime(1_600_000_000n),
      xdr.ClaimPredicate.claimPredicateNot(xdr.ClaimPredicate.claimPredicateBeforeRelativeTime(3600n)),
    ]);
    const data = xdr.LedgerEntryData.claimableBalance(
      new xdr.ClaimableBalanceEntry({
        balanceId: balanceId(),
        claimants: [xdr.Claimant.claimantTypeV0(new xdr.ClaimantV0({ destination: accountIdToXdr(ISSUER), predicate }))],
        asset: xdr.Asset.assetTypeNative(),
        amount: 5n,
        ext: xdr.ClaimableBalanceEntryExt.v1(
          new xdr.ClaimableBalanceEntryExtensionV1({ ext: xdr.ClaimableBalanceEntryExtensionV1Ext.v0(), flags: 1 }),
        ),
      }),
    );
    const [row] = stateRows(ledgerOf({ pre: null, post: entry(data, 9) })).claimableBalances;
    expect(row).toMatchObject({ asset: 'native', flags: 1 });
    // stellar-go's ClaimPredicate MarshalJSON
    expect(row!.claimants).toEqual([
      {
        destination: ISSUER,
        predicate: { and: [{ abs_before: '2020-09-13T12:26:40Z', abs_before_epoch: '1600000000' }, { not: { rel_before: '3600' } }] },
      },
    ]);
  });
});

function pool(reserveB = 500n): xdr.LedgerEntryData {
  return xdr.LedgerEntryData.liquidityPool(
    new xdr.LiquidityPoolEntry({
      liquidityPoolId: xdr.PoolId.fromXdrObject(
        Buffer.concat([Buffer.from([0xca, 0xfe, 0xba, 0xbe, 0xde, 0xad, 0xbe, 0xef]), Buffer.alloc(24)]),
      ),
      body: xdr.LiquidityPoolEntryBody.liquidityPoolConstantProduct(
        new xdr.LiquidityPoolEntryConstantProduct({
          params: new xdr.LiquidityPoolConstantProductParameters({ assetA: USD, assetB: xdr.Asset.assetTypeNative(), fee: 34 }),
          reserveA: 450n,
          reserveB,
          totalPoolShares: 412241n,
          poolSharesTrustLineCount: 52115n,
        }),
      ),
    }),
  );
}

const poolRow = (lastModified: number) => ({
  id: POOL_HEX,
  type: 0,
  fee: 34,
  trustline_count: 52115n,
  share_count: 412241n,
  asset_a: `USD:${ISSUER}`,
  asset_b: 'native',
  reserve_a: 450n,
  reserve_b: 500n,
  last_modified_ledger: lastModified,
});

describe('liquidity pools (liquidity_pools_change_processor_test.go)', () => {
  it('TestNoEntries / TestNoTransactions: nothing', () => {
    expect(stateRows(ledgerOf())).toEqual(emptyStateRows());
  });

  it('TestCreatesLiquidityPools: the pool', () => {
    expect(stateRows(ledgerOf({ pre: null, post: entry(pool(), 123) })).liquidityPools).toEqual([poolRow(123)]);
  });

  it('TestNewLiquidityPool: created, then updated in the same ledger: the update is the row', () => {
    const created = entry(pool(), 123, null);
    const rows = stateRows(ledgerOf({ pre: null, post: created }, { pre: entry(pool(), 122, null), post: entry(pool(), 124, ISSUER) }));
    expect(rows.liquidityPools).toEqual([poolRow(124)]);
    expect(rows.removedLiquidityPools).toEqual([]);
  });

  it('TestUpdateLiquidityPool: upserts the pool', () => {
    const rows = stateRows(ledgerOf({ pre: entry(pool(), 122, null), post: entry(pool(), 123, ISSUER) }));
    expect(rows.liquidityPools).toEqual([poolRow(123)]);
  });

  it('TestRemoveLiquidityPool: removes the pool', () => {
    const rows = stateRows(ledgerOf({ pre: entry(pool(123n), 122, null), post: null }));
    expect(rows.removedLiquidityPools).toEqual([POOL_HEX]);
    expect(rows.liquidityPools).toEqual([]);
  });
});
