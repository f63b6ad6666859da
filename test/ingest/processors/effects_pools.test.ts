// Horizon's TestLiquidityPoolEffects (stellar-horizon internal/ingest/processors/
// effects_processor_test.go): a pool created by change_trust, a deposit, a withdrawal, a trade
// against the pool, and a revocation that removes the pool, with the same operations and changes.
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
  poolShareAsset,
  removed,
  state,
  transactionMeta,
  trustLineAsset,
  trustLineEntry,
  updated,
} from '../support/horizon_effects.js';

const SOURCE = 'GAUJETIZVEP2NRYLUESJ3LS66NVCEGMON4UDCBCSBEVPIID773P2W6AY';
const POOL_ID = 'ea4e3e63a95fd840c1394f195722ffdcb2d0d4f0a26589c6ab557d81e6b0bf9d';
const poolId = Buffer.from(POOL_ID, 'hex');
const xdrPoolId = new xdr.PoolId(poolId);
const usd = () => creditAsset('USD', SOURCE);
const USD = `USD:${SOURCE}`;

const params = () => new xdr.LiquidityPoolConstantProductParameters({ assetA: nativeAsset(), assetB: usd(), fee: 20 });

function pool(reserveA: bigint, reserveB: bigint, totalPoolShares: bigint): xdr.LedgerEntry {
  return ledgerEntry(
    xdr.LedgerEntryData.liquidityPool(
      new xdr.LiquidityPoolEntry({
        liquidityPoolId: xdrPoolId,
        body: xdr.LiquidityPoolEntryBody.liquidityPoolConstantProduct(
          new xdr.LiquidityPoolEntryConstantProduct({
            params: params(),
            reserveA: int64(reserveA),
            reserveB: int64(reserveB),
            totalPoolShares: int64(totalPoolShares),
            poolSharesTrustLineCount: int64(10),
          }),
        ),
      }),
    ),
    20,
  );
}

const basePool = () => pool(200n, 100n, 1000n);
const baseState = () => state(basePool());

/** Horizon's liquidityPoolDetails as JSON */
const poolDetails = (reserveA: string, reserveB: string, totalShares: string) => ({
  fee_bp: 20,
  id: POOL_ID,
  reserves: [
    { asset: 'native', amount: reserveA },
    { asset: USD, amount: reserveB },
  ],
  total_shares: totalShares,
  total_trustlines: '10',
  type: 'constant_product',
});

const effectsOf = (body: xdr.OperationBody, changes: xdr.LedgerEntryChange[], result?: xdr.OperationResultTr) =>
  ours(
    operationEffectsOf({
      op: new xdr.Operation({ sourceAccount: null, body }),
      txSource: muxed(SOURCE),
      meta: transactionMeta(2, [changes]),
      result,
    }),
  );

const at = { address: SOURCE, operationID: '4294967297' };

describe('Horizon’s TestLiquidityPoolEffects', () => {
  it('liquidity pool creation', () => {
    const body = xdr.OperationBody.changeTrust(
      new xdr.ChangeTrustOp({
        line: xdr.ChangeTrustAsset.assetTypePoolShare(xdr.LiquidityPoolParameters.liquidityPoolConstantProduct(params())),
        limit: int64(1000),
      }),
    );
    const changes = [created(basePool()), created(ledgerEntry(trustLineEntry(SOURCE, poolShareAsset(poolId)), 20))];
    expect(effectsOf(body, changes)).toEqual(
      horizons([
        {
          ...at,
          order: 1,
          effectType: 'trustline_created',
          details: { asset_type: 'liquidity_pool_shares', limit: '0.0001000', liquidity_pool_id: POOL_ID },
        },
        {
          ...at,
          order: 2,
          effectType: 'liquidity_pool_created',
          details: { liquidity_pool: poolDetails('0.0000200', '0.0000100', '0.0001000') },
        },
      ]),
    );
  });

  it('liquidity pool deposit', () => {
    const body = xdr.OperationBody.liquidityPoolDeposit(
      new xdr.LiquidityPoolDepositOp({
        liquidityPoolId: xdrPoolId,
        maxAmountA: int64(100),
        maxAmountB: int64(200),
        minPrice: new xdr.Price({ n: 50, d: 3 }),
        maxPrice: new xdr.Price({ n: 100, d: 2 }),
      }),
    );
    expect(effectsOf(body, [baseState(), updated(pool(250n, 160n, 1010n))])).toEqual(
      horizons([
        {
          ...at,
          order: 1,
          effectType: 'liquidity_pool_deposited',
          details: {
            liquidity_pool: poolDetails('0.0000250', '0.0000160', '0.0001010'),
            reserves_deposited: [
              { asset: 'native', amount: '0.0000050' },
              { asset: USD, amount: '0.0000060' },
            ],
            shares_received: '0.0000010',
          },
        },
      ]),
    );
  });

  it('liquidity pool withdrawal', () => {
    const body = xdr.OperationBody.liquidityPoolWithdraw(
      new xdr.LiquidityPoolWithdrawOp({ liquidityPoolId: xdrPoolId, amount: int64(10), minAmountA: int64(10), minAmountB: int64(5) }),
    );
    expect(effectsOf(body, [baseState(), updated(pool(189n, 94n, 990n))])).toEqual(
      horizons([
        {
          ...at,
          order: 1,
          effectType: 'liquidity_pool_withdrew',
          details: {
            liquidity_pool: poolDetails('0.0000189', '0.0000094', '0.0000990'),
            reserves_received: [
              { asset: 'native', amount: '0.0000011' },
              { asset: USD, amount: '0.0000006' },
            ],
            shares_redeemed: '0.0000010',
          },
        },
      ]),
    );
  });

  it('liquidity pool trade', () => {
    const body = xdr.OperationBody.pathPaymentStrictSend(
      new xdr.PathPaymentStrictSendOp({
        sendAsset: nativeAsset(),
        sendAmount: int64(10),
        destination: muxed(SOURCE),
        destAsset: usd(),
        destMin: int64(5),
        path: [],
      }),
    );
    const result = xdr.OperationResultTr.pathPaymentStrictSend(
      xdr.PathPaymentStrictSendResult.pathPaymentStrictSendSuccess(
        new xdr.PathPaymentStrictSendResultSuccess({
          offers: [
            xdr.ClaimAtom.claimAtomTypeLiquidityPool(
              new xdr.ClaimLiquidityAtom({
                liquidityPoolId: xdrPoolId,
                assetSold: nativeAsset(),
                amountSold: int64(10),
                assetBought: usd(),
                amountBought: int64(5),
              }),
            ),
          ],
          last: new xdr.SimplePaymentResult({ destination: account(SOURCE), asset: usd(), amount: int64(5) }),
        }),
      ),
    );
    expect(effectsOf(body, [baseState(), updated(pool(189n, 94n, 990n))], result)).toEqual(
      horizons([
        {
          ...at,
          order: 1,
          effectType: 'account_credited',
          details: { amount: '0.0000005', asset_code: 'USD', asset_issuer: SOURCE, asset_type: 'credit_alphanum4' },
        },
        { ...at, order: 2, effectType: 'account_debited', details: { amount: '0.0000010', asset_type: 'native' } },
        {
          ...at,
          order: 3,
          effectType: 'liquidity_pool_trade',
          details: {
            bought: { amount: '0.0000005', asset: USD },
            liquidity_pool: poolDetails('0.0000189', '0.0000094', '0.0000990'),
            sold: { amount: '0.0000010', asset: 'native' },
          },
        },
      ]),
    );
  });

  it('liquidity pool revocation', () => {
    // the asset deauthorized is also in a pool the trustor has shares of: the shares are redeemed
    // into a claimable balance, and the pool, whose last trust line this was, is removed
    const body = xdr.OperationBody.setTrustLineFlags(
      new xdr.SetTrustLineFlagsOp({ trustor: account(SOURCE), asset: usd(), clearFlags: 1, setFlags: 0 }),
    );
    const balanceId = xdr.ClaimableBalanceId.claimableBalanceIdTypeV0(Buffer.concat([Buffer.from([0xa, 0xb]), Buffer.alloc(30)]));
    const changes = [
      state(ledgerEntry(trustLineEntry(SOURCE, trustLineAsset(usd()), { balance: 5n, limit: 100n, flags: 1 }), 20)),
      updated(ledgerEntry(trustLineEntry(SOURCE, trustLineAsset(usd()), { balance: 5n, limit: 100n, flags: 0 }), 20)),
      state(ledgerEntry(trustLineEntry(SOURCE, poolShareAsset(poolId), { balance: 1000n, limit: 2000n, flags: 1 }), 20)),
      removed(xdr.LedgerKey.trustline(new xdr.LedgerKeyTrustLine({ accountId: account(SOURCE), asset: poolShareAsset(poolId) }))),
      created(
        ledgerEntry(
          xdr.LedgerEntryData.claimableBalance(
            new xdr.ClaimableBalanceEntry({
              balanceId,
              claimants: [
                xdr.Claimant.claimantTypeV0(
                  new xdr.ClaimantV0({ destination: account(SOURCE), predicate: xdr.ClaimPredicate.claimPredicateUnconditional() }),
                ),
              ],
              asset: usd(),
              amount: int64(100),
              ext: xdr.ClaimableBalanceEntryExt.v0(),
            }),
          ),
          20,
        ),
      ),
      baseState(),
      removed(xdr.LedgerKey.liquidityPool(new xdr.LedgerKeyLiquidityPool({ liquidityPoolId: xdrPoolId }))),
    ];
    const id = '000000000a0b000000000000000000000000000000000000000000000000000000000000';
    expect(effectsOf(body, changes)).toEqual(
      horizons([
        {
          ...at,
          order: 1,
          effectType: 'trustline_flags_updated',
          details: { asset_code: 'USD', asset_issuer: SOURCE, asset_type: 'credit_alphanum4', authorized_flag: false, trustor: SOURCE },
        },
        { ...at, order: 2, effectType: 'claimable_balance_created', details: { amount: '0.0000100', asset: USD, balance_id: id } },
        {
          ...at,
          order: 3,
          effectType: 'claimable_balance_claimant_created',
          // Horizon's expected predicate is the zero ClaimPredicate: unconditional
          details: { amount: '0.0000100', asset: USD, balance_id: id, predicate: { unconditional: true } },
        },
        {
          ...at,
          order: 4,
          effectType: 'liquidity_pool_revoked',
          details: {
            liquidity_pool: poolDetails('0.0000200', '0.0000100', '0.0001000'),
            reserves_revoked: [{ amount: '0.0000100', asset: USD, claimable_balance_id: id }],
            shares_revoked: '0.0001000',
          },
        },
        { ...at, order: 5, effectType: 'liquidity_pool_removed', details: { liquidity_pool_id: POOL_ID } },
      ]),
    );
  });
});
