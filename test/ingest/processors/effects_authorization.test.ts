// Horizon's tests of an issuer's operations on its asset (stellar-horizon internal/ingest/
// processors/effects_processor_test.go): allow_trust, set_trust_line_flags and clawback, with the
// same operations (their transactions' meta has no operation changes) and Horizon's expected effects.
import { xdr } from '@stellar/stellar-sdk/base';
import { describe, expect, it } from 'vitest';
import { account, creditAsset, horizons, int64, muxed, operationEffectsOf, ours, transactionMeta } from '../support/horizon_effects.js';

const ISSUER = 'GDRW375MAYR46ODGF2WGANQC2RRZL7O246DYHHCGWTV2RE7IHE2QUQLD';
const AUTHORIZED = 1;
const AUTHORIZED_TO_MAINTAIN_LIABILITIES = 2;
const TRUSTLINE_CLAWBACK_ENABLED = 4;

const effectsOf = (body: xdr.OperationBody) =>
  ours(operationEffectsOf({ op: new xdr.Operation({ sourceAccount: muxed(ISSUER), body }), meta: transactionMeta(2, []) }));

describe('Horizon’s issuer operation tests', () => {
  it('TestOperationEffectsAllowTrustAuthorizedToMaintainLiabilities', () => {
    const trustor = 'GDQNY3PBOJOKYZSRMK2S7LHHGWZIUISD4QORETLMXEWXBI7KFZZMKTL3';
    const body = xdr.OperationBody.allowTrust(
      new xdr.AllowTrustOp({
        trustor: account(trustor),
        asset: xdr.AssetCode.assetTypeCreditAlphanum4(Buffer.from('COP\0', 'latin1')),
        authorize: AUTHORIZED_TO_MAINTAIN_LIABILITIES,
      }),
    );
    const asset = { asset_code: 'COP', asset_issuer: ISSUER, asset_type: 'credit_alphanum4' };
    expect(effectsOf(body)).toEqual(
      horizons([
        {
          address: ISSUER,
          operationID: '4294967297',
          order: 1,
          effectType: 'trustline_authorized_to_maintain_liabilities',
          details: { ...asset, trustor },
        },
        {
          address: ISSUER,
          operationID: '4294967297',
          order: 2,
          effectType: 'trustline_flags_updated',
          details: { ...asset, authorized_to_maintain_liabilites: true, trustor },
        },
      ]),
    );
  });

  it('TestOperationEffectsClawback', () => {
    const body = xdr.OperationBody.clawback(
      new xdr.ClawbackOp({
        asset: creditAsset('COP', ISSUER),
        from: muxed('GDQNY3PBOJOKYZSRMK2S7LHHGWZIUISD4QORETLMXEWXBI7KFZZMKTL3'),
        amount: int64(34),
      }),
    );
    const details = { asset_code: 'COP', asset_issuer: ISSUER, asset_type: 'credit_alphanum4', amount: '0.0000034' };
    expect(effectsOf(body)).toEqual(
      horizons([
        { address: ISSUER, operationID: '4294967297', order: 1, effectType: 'account_credited', details },
        {
          address: 'GDQNY3PBOJOKYZSRMK2S7LHHGWZIUISD4QORETLMXEWXBI7KFZZMKTL3',
          operationID: '4294967297',
          order: 2,
          effectType: 'account_debited',
          details,
        },
      ]),
    );
  });

  it('TestOperationEffectsSetTrustLineFlags', () => {
    const trustor = 'GAUJETIZVEP2NRYLUESJ3LS66NVCEGMON4UDCBCSBEVPIID773P2W6AY';
    const body = xdr.OperationBody.setTrustLineFlags(
      new xdr.SetTrustLineFlagsOp({
        trustor: account(trustor),
        asset: creditAsset('USD', ISSUER),
        clearFlags: TRUSTLINE_CLAWBACK_ENABLED | AUTHORIZED,
        setFlags: AUTHORIZED_TO_MAINTAIN_LIABILITIES,
      }),
    );
    expect(effectsOf(body)).toEqual(
      horizons([
        {
          address: ISSUER,
          operationID: '4294967297',
          order: 1,
          effectType: 'trustline_flags_updated',
          details: {
            asset_code: 'USD',
            asset_issuer: ISSUER,
            asset_type: 'credit_alphanum4',
            authorized_flag: false,
            authorized_to_maintain_liabilites: true,
            clawback_enabled_flag: false,
            trustor,
          },
        },
      ]),
    );
  });
});
