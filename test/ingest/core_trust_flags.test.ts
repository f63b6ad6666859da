// The ingester takes the ledgers the embedded core closes with clawback and set_trust_line_flags:
// Horizon's effects for a clawback (the issuer credited, the holder debited), for new trust line
// flags, and for a revocation that redeems pool shares into claimable balances.
import { Asset, type Keypair, Operation } from '@stellar/stellar-sdk/base';
import { describe, expect, it } from 'vitest';
import type { LedgerRows } from '../../src/ingest/index.js';
import { effectTypeName, fromStellarAsset, poolRevokeBalanceId } from '../../src/stellar/index.js';
import { deposit, pay, poolIdOf, trust, trustPool } from '../core/support/dex.js';
import { coreLedgerRows } from './support/core_rows.js';
import { Harness } from '../core/support/harness.js';
import { AUTHORIZED, AUTH_CLAWBACK_ENABLED, AUTH_REVOCABLE, clawbackOp, setTrustLineFlagsOp } from '../core/support/trust_flags.js';

const XLM = Asset.native();

const effectsOfLast = (all: LedgerRows[]) =>
  all.at(-1)!.effects.map((e) => ({ account: e.account, type: effectTypeName(e.type), details: e.details }));

describe('ingesting clawback and set_trust_line_flags from the embedded core', () => {
  it('clawback: account_credited for the issuer, account_debited for the holder', async () => {
    const h = await Harness.create();
    const [gw, a1] = (await h.fund(100, 2)) as [Keypair, Keypair];
    const idr = new Asset('IDR', gw.publicKey());
    await h.succeed(gw, [Operation.setOptions({ setFlags: (AUTH_REVOCABLE | AUTH_CLAWBACK_ENABLED) as never })]);
    await h.succeed(a1, [trust(idr)]);
    await h.succeed(gw, [pay(a1, idr, 100)]);
    await h.succeed(gw, [clawbackOp(a1, idr, 75)]);
    const asset = { asset_code: 'IDR', asset_issuer: gw.publicKey(), asset_type: 'credit_alphanum4' };
    expect(effectsOfLast(coreLedgerRows(h))).toEqual([
      { account: gw.publicKey(), type: 'account_credited', details: { amount: '0.0000075', ...asset } },
      { account: a1.publicKey(), type: 'account_debited', details: { amount: '0.0000075', ...asset } },
    ]);
  });

  it('set_trust_line_flags revoking a line with pool shares: flags updated, balances created, pool revoked', async () => {
    const h = await Harness.create();
    const [gw, a1] = (await h.fund(100, 2)) as [Keypair, Keypair];
    const idr = new Asset('IDR', gw.publicKey());
    const pool = poolIdOf(XLM, idr);
    await h.succeed(gw, [Operation.setOptions({ setFlags: AUTH_REVOCABLE as never })]);
    await h.succeed(a1, [trust(idr)]);
    await h.succeed(gw, [pay(a1, idr, 100)]);
    await h.succeed(a1, [trustPool(XLM, idr), deposit(pool, 10, 10, [1, 1], [1, 1])]);
    await h.succeed(gw, [setTrustLineFlagsOp(a1, idr, 0, AUTHORIZED)]);
    const seq = h.seq(gw);
    const effects = effectsOfLast(coreLedgerRows(h));
    expect(effects[0]).toEqual({
      account: gw.publicKey(),
      type: 'trustline_flags_updated',
      details: {
        trustor: a1.publicKey(),
        asset_code: 'IDR',
        asset_issuer: gw.publicKey(),
        asset_type: 'credit_alphanum4',
        authorized_flag: false,
      },
    });
    const balanceId = (a: Asset) => `00000000${poolRevokeBalanceId(gw.publicKey(), seq, 0, pool, fromStellarAsset(a))}`;
    expect(
      effects
        .filter((e) => e.type === 'claimable_balance_created')
        .map((e) => (e.details as { balance_id: string }).balance_id)
        .sort(),
    ).toEqual([balanceId(XLM), balanceId(idr)].sort());
    const revoked = effects.find((e) => e.type === 'liquidity_pool_revoked');
    expect(revoked?.details).toMatchObject({
      reserves_revoked: [
        { asset: 'native', amount: '0.0000010', claimable_balance_id: balanceId(XLM) },
        { asset: `IDR:${gw.publicKey()}`, amount: '0.0000010', claimable_balance_id: balanceId(idr) },
      ],
      shares_revoked: '0.0000010',
    });
  });
});
