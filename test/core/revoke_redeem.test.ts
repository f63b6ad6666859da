// The claimable balances a revocation redeems pool shares into are claimed and clawed back like any
// other (stellar-core SetTrustLineFlagsTests.cpp "revoke from pool", its redeemBalance): only
// under the revoke id, claimable by the trustor, clawback-enabled as the trustor's asset line was.
import { Asset, type Keypair, Operation } from '@stellar/stellar-sdk/base';
import { describe, expect, it } from 'vitest';
import { claimableBalanceHash, fromStellarAsset, poolRevokeBalanceId } from '../../src/stellar/index.js';
import { claimBalanceOp, clawbackBalanceOp } from './support/claimable.js';
import { balanceOf, deposit, pay, poolIdOf, trust, trustPool } from './support/dex.js';
import { Harness } from './support/harness.js';
import {
  AUTH_CLAWBACK_ENABLED,
  AUTH_REVOCABLE,
  AUTHORIZED,
  MAINTAIN_LIABILITIES,
  allowTrustOp,
  setTrustLineFlagsOp,
} from './support/trust_flags.js';

const XLM = Asset.native();

const REVOKES = [
  { name: 'allow_trust', revoke: (t: Keypair, a: Asset) => allowTrustOp(t, a.getCode(), 0) },
  { name: 'set_trust_line_flags', revoke: (t: Keypair, a: Asset) => setTrustLineFlagsOp(t, a, 0, AUTHORIZED | MAINTAIN_LIABILITIES) },
] as const;

describe.each(REVOKES)('redeemed balances after $name', ({ revoke }) => {
  it.each([false, true])('clawback enabled: %s', async (clawback) => {
    const h = await Harness.create();
    const [gw, acc1, wrong] = (await h.fund(100, 3)) as [Keypair, Keypair, Keypair];
    const cur1 = new Asset('CUR1', gw.publicKey());
    const pool = poolIdOf(XLM, cur1);
    await h.succeed(gw, [
      Operation.setOptions({ setFlags: (clawback ? AUTH_REVOCABLE | AUTH_CLAWBACK_ENABLED : AUTH_REVOCABLE) as never }),
    ]);
    // stellar-core's depositIntoPool: 200 of A and 50 of B for 100 shares
    await h.succeed(acc1, [trust(cur1, 100)]);
    await h.succeed(gw, [pay(acc1, cur1, 50)]);
    await h.succeed(acc1, [trustPool(XLM, cur1, 100), deposit(pool, 200, 50, [4, 1], [4, 1])]);
    await h.succeed(gw, [revoke(acc1, cur1)]);
    const seq = h.seq(gw);
    const id = (source: Keypair, opIndex: number, a: Asset) =>
      Buffer.from(poolRevokeBalanceId(source.publicKey(), seq, opIndex, pool, fromStellarAsset(a)), 'hex');
    // the same transaction's ENVELOPE_TYPE_OP_ID id, another operation index, another source
    const wrongIds = [claimableBalanceHash(gw.publicKey(), seq, 0), id(gw, 1, cur1), id(wrong, 0, cur1)];
    if (clawback) {
      for (const w of wrongIds) expect((await h.run(gw, [clawbackBalanceOp(w)])).ops).toEqual(['clawbackClaimableBalanceDoesNotExist']);
      expect((await h.run(gw, [clawbackBalanceOp(id(gw, 0, XLM))])).ops).toEqual(['clawbackClaimableBalanceNotIssuer']);
      expect((await h.run(gw, [clawbackBalanceOp(id(gw, 0, cur1))])).ops).toEqual(['clawbackClaimableBalanceSuccess']);
      return;
    }
    for (const w of wrongIds) expect((await h.run(acc1, [claimBalanceOp(w)])).ops).toEqual(['claimClaimableBalanceDoesNotExist']);
    expect((await h.run(gw, [clawbackBalanceOp(id(gw, 0, cur1))])).ops).toEqual(['clawbackClaimableBalanceNotClawbackEnabled']);
    // the asset line is authorized again before its balance can be claimed
    await h.succeed(gw, [allowTrustOp(acc1, 'CUR1', AUTHORIZED)]);
    const [native, credit] = [balanceOf(h.core, acc1, XLM), balanceOf(h.core, acc1, cur1)];
    await h.succeed(acc1, [claimBalanceOp(id(gw, 0, cur1))]);
    expect(balanceOf(h.core, acc1, cur1)).toBe(credit + 50n);
    await h.succeed(acc1, [claimBalanceOp(id(gw, 0, XLM))]);
    // 200 stroops, less the two claims' fees
    expect(balanceOf(h.core, acc1, XLM)).toBe(native + 200n - 200n);
  });
});
