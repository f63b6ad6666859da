// The claimable balances and liquidity pools of each transaction and operation: stellar-horizon's
// claimable_balances_transaction_processor_test.go and liquidity_pools_transaction_processor_test.go
// (2abda01). Their transaction is createTransaction(true, 1, 2) of ledger 20 (application index 0,
// as Go's zero value), one operation whose meta holds a `state` of the entry, the change, and both
// again (the duplicate must not give a second row).
import { xdr } from '@stellar/stellar-sdk/base';
import { describe, expect, it } from 'vitest';
import { addBalancePoolRows } from '../../../src/ingest/processors/balances_pools.js';
import { emptyTransactionRows } from '../../../src/ingest/ledger_rows.js';
import type { LedgerTx } from '../../../src/meta/index.js';
import { toid } from '../../../src/stellar/index.js';

const TX_ID = toid(20, 0, 0);
const OP_ID = toid(20, 0, 1);

function txWith(parts: Partial<Pick<LedgerTx, 'changesBefore' | 'operationChanges' | 'changesAfter' | 'operationAccounts'>>): LedgerTx {
  return { changesBefore: [], operationChanges: [], changesAfter: [], ...parts } as unknown as LedgerTx;
}

function rowsOf(tx: LedgerTx, operations = 1) {
  const rows = emptyTransactionRows();
  addBalancePoolRows(
    rows,
    tx,
    TX_ID,
    Array.from({ length: operations }, (_, i) => toid(20, 0, i + 1)),
  );
  return rows;
}

/** testOperationInserts: state, change, state, change */
const operationMeta = (state: xdr.LedgerEntry, change: xdr.LedgerEntryChange) => [
  [xdr.LedgerEntryChange.ledgerEntryState(state), change, xdr.LedgerEntryChange.ledgerEntryState(state), change],
];

const entry = (data: xdr.LedgerEntryData) => new xdr.LedgerEntry({ lastModifiedLedgerSeq: 0, data, ext: xdr.LedgerEntryExt.v0() });

describe('claimable balances of transactions and operations (claimable_balances_transaction_processor_test.go)', () => {
  const balanceId = xdr.ClaimableBalanceId.claimableBalanceIdTypeV0(Buffer.concat([Buffer.from([1, 2, 3]), Buffer.alloc(29)]));
  // xdr.MarshalHex(balanceID)
  const HEX = `00000000010203${'00'.repeat(29)}`;
  const balance = entry(
    xdr.LedgerEntryData.claimableBalance(
      new xdr.ClaimableBalanceEntry({
        balanceId,
        claimants: [],
        asset: xdr.Asset.assetTypeNative(),
        amount: 0n,
        ext: xdr.ClaimableBalanceEntryExt.v0(),
      }),
    ),
  );
  const expected = {
    transactionClaimableBalances: [{ claimable_balance_id: HEX, transaction_id: TX_ID }],
    operationClaimableBalances: [{ claimable_balance_id: HEX, operation_id: OP_ID }],
    transactionLiquidityPools: [],
    operationLiquidityPools: [],
  };

  it('TestEmptyClaimableBalances: none', () => {
    expect(rowsOf(txWith({ operationChanges: [[]] }))).toEqual(emptyTransactionRows());
  });

  it('TestIngestClaimableBalancesInsertsClaimClaimableBalance: a removed balance', () => {
    const removed = xdr.LedgerEntryChange.ledgerEntryRemoved(
      xdr.LedgerKey.claimableBalance(new xdr.LedgerKeyClaimableBalance({ balanceId })),
    );
    expect(rowsOf(txWith({ operationChanges: operationMeta(balance, removed) }))).toMatchObject(expected);
  });

  it('TestIngestClaimableBalancesInsertsClawbackClaimableBalance: an updated balance', () => {
    const updated = xdr.LedgerEntryChange.ledgerEntryUpdated(balance);
    expect(rowsOf(txWith({ operationChanges: operationMeta(balance, updated) }))).toMatchObject(expected);
  });

  it('TestIngestClaimableBalancesInsertsCreateClaimableBalance: a created balance', () => {
    const created = xdr.LedgerEntryChange.ledgerEntryCreated(balance);
    expect(rowsOf(txWith({ operationChanges: operationMeta(balance, created) }))).toMatchObject(expected);
  });

  it("the transaction's own changes count for the transaction only; operations without changes have no row", () => {
    const created = xdr.LedgerEntryChange.ledgerEntryCreated(balance);
    const rows = rowsOf(txWith({ changesAfter: [created], operationChanges: [[], []] }), 2);
    expect(rows.transactionClaimableBalances).toEqual(expected.transactionClaimableBalances);
    expect(rows.operationClaimableBalances).toEqual([]);
  });

  it('reads nothing when the byte scanner understood every entry of the meta (none is a balance or a pool)', () => {
    const tx = txWith({ operationAccounts: [[]] });
    Object.defineProperty(tx, 'operationChanges', {
      get: () => {
        throw new Error('decoded');
      },
    });
    expect(rowsOf(tx)).toEqual(emptyTransactionRows());
  });
});

describe('liquidity pools of transactions and operations (liquidity_pools_transaction_processor_test.go)', () => {
  // xdr.PoolId{0xca, 0xfe, 0xba, 0xbe}
  const poolId = xdr.PoolId.fromXdrObject(Buffer.concat([Buffer.from([0xca, 0xfe, 0xba, 0xbe]), Buffer.alloc(28)]));
  const HEX = `cafebabe${'00'.repeat(28)}`;
  const pool = entry(
    xdr.LedgerEntryData.liquidityPool(
      new xdr.LiquidityPoolEntry({
        liquidityPoolId: poolId,
        body: xdr.LiquidityPoolEntryBody.liquidityPoolConstantProduct(
          new xdr.LiquidityPoolEntryConstantProduct({
            params: new xdr.LiquidityPoolConstantProductParameters({
              assetA: xdr.Asset.assetTypeNative(),
              assetB: xdr.Asset.assetTypeNative(),
              fee: 0,
            }),
            reserveA: 0n,
            reserveB: 0n,
            totalPoolShares: 0n,
            poolSharesTrustLineCount: 0n,
          }),
        ),
      }),
    ),
  );
  const expected = {
    transactionClaimableBalances: [],
    operationClaimableBalances: [],
    transactionLiquidityPools: [{ liquidity_pool_id: HEX, transaction_id: TX_ID }],
    operationLiquidityPools: [{ liquidity_pool_id: HEX, operation_id: OP_ID }],
  };

  it('TestEmptyLiquidityPools: none', () => {
    expect(rowsOf(txWith({ operationChanges: [[]] }))).toEqual(emptyTransactionRows());
  });

  it('TestIngestLiquidityPoolsRemoval', () => {
    const removed = xdr.LedgerEntryChange.ledgerEntryRemoved(
      xdr.LedgerKey.liquidityPool(new xdr.LedgerKeyLiquidityPool({ liquidityPoolId: poolId })),
    );
    expect(rowsOf(txWith({ operationChanges: operationMeta(pool, removed) }))).toMatchObject(expected);
  });

  it('TestIngestLiquidityPoolsUpdate', () => {
    const updated = xdr.LedgerEntryChange.ledgerEntryUpdated(pool);
    expect(rowsOf(txWith({ operationChanges: operationMeta(pool, updated) }))).toMatchObject(expected);
  });

  it('TestIngestLiquidityPoolsCreate', () => {
    const created = xdr.LedgerEntryChange.ledgerEntryCreated(pool);
    expect(rowsOf(txWith({ operationChanges: operationMeta(pool, created) }))).toMatchObject(expected);
  });
});
