// Horizon's TestTrustlineSponsorshipEffects (stellar-horizon internal/ingest/processors/
// effects_processor_test.go): the sponsorship effects of an operation's changes, whatever the
// operation (here end_sponsoring_future_reserves, which has no effect of its own). Horizon's
// TestOperationEffects covers accounts' and signers' sponsorships (effects_operations.test.ts).
import { Account, MuxedAccount, xdr } from '@stellar/stellar-sdk/base';
import { describe, expect, it } from 'vitest';
import {
  account,
  created,
  creditAsset,
  int64,
  removed,
  horizons,
  ledgerEntry,
  muxed,
  operationEffectsOf,
  ours,
  poolShareAsset,
  state,
  transactionMeta,
  trustLineAsset,
  trustLineEntry,
  updated,
} from '../support/horizon_effects.js';

describe('Horizon’s TestTrustlineSponsorshipEffects', () => {
  it('gives the created, updated and removed sponsorships of an asset’s and a pool’s trust lines', () => {
    const source = 'GAUJETIZVEP2NRYLUESJ3LS66NVCEGMON4UDCBCSBEVPIID773P2W6AY';
    const poolId = '19cc788419412926a11049b9fb1f87906b8f02bc6bf8f73d8fd347ede0b79fa5';
    const sponsor1 = 'GDMQUXK7ZUCWM5472ZU3YLDP4BMJLQQ76DEMNYDEY2ODEEGGRKLEWGW2';
    const sponsor2 = 'GDRW375MAYR46ODGF2WGANQC2RRZL7O246DYHHCGWTV2RE7IHE2QUQLD';
    const assetLine = trustLineEntry(source, trustLineAsset(creditAsset('USD', source)), { balance: 100n, limit: 1000n });
    const poolLine = trustLineEntry(source, poolShareAsset(Buffer.from(poolId, 'hex')), { balance: 100n, limit: 1000n });
    const changes = [assetLine, poolLine].flatMap((line) => [
      // created
      state(ledgerEntry(line, 20)),
      updated(ledgerEntry(line, 20, sponsor1)),
      // updated
      state(ledgerEntry(line, 20, sponsor1)),
      updated(ledgerEntry(line, 20, sponsor2)),
      // removed
      state(ledgerEntry(line, 20, sponsor2)),
      updated(ledgerEntry(line, 20)),
    ]);
    const op = new xdr.Operation({ sourceAccount: null, body: xdr.OperationBody.endSponsoringFutureReserves() });
    const effects = operationEffectsOf({ op, txSource: muxed(source), meta: transactionMeta(2, [changes]) });
    const usd = `USD:${source}`;
    const pool = { liquidity_pool_id: poolId, asset_type: 'liquidity_pool' };
    expect(ours(effects)).toEqual(
      horizons([
        // `asset_type` of an asset's trust line is set in Horizon's Effect.UnmarshalDetails, not stored
        {
          address: source,
          operationID: '4294967297',
          order: 1,
          effectType: 'trustline_sponsorship_created',
          details: { asset: usd, sponsor: sponsor1 },
        },
        {
          address: source,
          operationID: '4294967297',
          order: 2,
          effectType: 'trustline_sponsorship_updated',
          details: { asset: usd, former_sponsor: sponsor1, new_sponsor: sponsor2 },
        },
        {
          address: source,
          operationID: '4294967297',
          order: 3,
          effectType: 'trustline_sponsorship_removed',
          details: { asset: usd, former_sponsor: sponsor2 },
        },
        {
          address: source,
          operationID: '4294967297',
          order: 4,
          effectType: 'trustline_sponsorship_created',
          details: { ...pool, sponsor: sponsor1 },
        },
        {
          address: source,
          operationID: '4294967297',
          order: 5,
          effectType: 'trustline_sponsorship_updated',
          details: { ...pool, former_sponsor: sponsor1, new_sponsor: sponsor2 },
        },
        {
          address: source,
          operationID: '4294967297',
          order: 6,
          effectType: 'trustline_sponsorship_removed',
          details: { ...pool, former_sponsor: sponsor2 },
        },
      ]),
    );
  });
});

describe('data and claimable balance sponsorships (Zenith’s own cases: Horizon’s tests have none)', () => {
  it('names the data entry or the balance, on the operation’s source (muxed)', () => {
    const source = 'GAUJETIZVEP2NRYLUESJ3LS66NVCEGMON4UDCBCSBEVPIID773P2W6AY';
    const sponsor = 'GDMQUXK7ZUCWM5472ZU3YLDP4BMJLQQ76DEMNYDEY2ODEEGGRKLEWGW2';
    const data = xdr.LedgerEntryData.data(
      new xdr.DataEntry({ accountId: account(source), dataName: 'name', dataValue: Buffer.from('v'), ext: xdr.DataEntryExt.v0() }),
    );
    const balanceId = xdr.ClaimableBalanceId.claimableBalanceIdTypeV0(Buffer.alloc(32, 1));
    const balance = xdr.LedgerEntryData.claimableBalance(
      new xdr.ClaimableBalanceEntry({
        balanceId,
        claimants: [],
        asset: xdr.Asset.assetTypeNative(),
        amount: int64(1),
        ext: xdr.ClaimableBalanceEntryExt.v0(),
      }),
    );
    const op = new xdr.Operation({ sourceAccount: null, body: xdr.OperationBody.endSponsoringFutureReserves() });
    const changes = [
      created(ledgerEntry(data, 0, sponsor)),
      state(ledgerEntry(balance, 0, sponsor)),
      removed(xdr.LedgerKey.claimableBalance(new xdr.LedgerKeyClaimableBalance({ balanceId }))),
    ];
    const effects = operationEffectsOf({ op, txSource: muxed(source, 7n), meta: transactionMeta(2, [changes]) });
    // the source's M address for id 7, as the SDK writes it
    const m = new MuxedAccount(new Account(source, '0'), '7').accountId();
    expect(ours(effects)).toEqual(
      horizons([
        {
          address: source,
          addressMuxed: m,
          operationID: '4294967297',
          order: 1,
          effectType: 'data_sponsorship_created',
          details: { data_name: 'name', sponsor },
        },
        {
          address: source,
          addressMuxed: m,
          operationID: '4294967297',
          order: 2,
          effectType: 'claimable_balance_sponsorship_removed',
          details: { balance_id: `00000000${'01'.repeat(32)}`, former_sponsor: sponsor },
        },
      ]),
    );
  });
});
