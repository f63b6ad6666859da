// Revoking a line redeems the account's pool shares in that asset into claimable balances, with
// the cases of stellar-core's src/transactions/test/SetTrustLineFlagsTests.cpp ("revoke from
// pool", through allow_trust). The issuer here is a gateway, root's role there.
import { Asset, type Keypair, Operation } from '@stellar/stellar-sdk/base';
import { describe, expect, it } from 'vitest';
import type { ClaimableBalanceRec } from '../../src/core/ledger/entries.js';
import { fromStellarAsset, poolRevokeBalanceId } from '../../src/stellar/index.js';
import { deposit, pay, poolIdOf, poolShareLineOf, poolState, sellOffer, trust, trustLineOf, trustPool } from './support/dex.js';
import { Harness } from './support/harness.js';

const XLM = Asset.native();

async function world(clawback = false) {
  const h = await Harness.create();
  const [gw, acc1] = (await h.fund(100, 2)) as [Keypair, Keypair];
  await h.succeed(gw, [Operation.setOptions({ setFlags: clawback ? 2 | 8 : 2 })]);
  const asset = (code: string, issuer = gw) => new Asset(code, issuer.publicKey());
  /** stellar-core's depositIntoPool: 200 of A and 50 of B for 100 shares */
  const depositIntoPool = async (acc: Keypair, a: Asset, b: Asset) => {
    for (const [x, amount] of [
      [a, 200],
      [b, 50],
    ] as const) {
      if (x.isNative() || x.getIssuer() === acc.publicKey()) continue;
      await h.succeed(acc, [trust(x, amount * 2)]);
      await h.succeed(x.getIssuer() === gw.publicKey() ? gw : acc1, [pay(acc, x, amount)]);
    }
    await h.succeed(acc, [trustPool(a, b, 100)]);
    await h.succeed(acc, [deposit(poolIdOf(a, b), 200, 50, [4, 1], [4, 1])]);
  };
  const account = () => h.core.account(acc1.publicKey())!;
  /** stellar-core's revoke: subentries drop by the offers and 2 per shares line; one sponsoring per balance */
  const revoke = async (acc: Keypair, a: Asset, lines: number, offers: number, balances: number) => {
    const before = h.core.account(acc.publicKey())!;
    await h.succeed(gw, [Operation.allowTrust({ trustor: acc.publicKey(), assetCode: a.getCode(), authorize: 0 })]);
    const after = h.core.account(acc.publicKey())!;
    expect(before.numSubEntries - after.numSubEntries).toBe(offers + 2 * lines);
    expect(after.numSponsoring - before.numSponsoring).toBe(balances);
    return h.seq(gw);
  };
  const balances = () => [...h.core.entries()].filter((e): e is ClaimableBalanceRec => e.type === 'claimableBalance');
  /** the balance redeemed to `acc` for `a` of `pool` by the revoking transaction */
  const balanceOf = (source: Keypair, seq: bigint, opIndex: number, pool: string, a: Asset) =>
    balances().find((b) => b.balanceId === poolRevokeBalanceId(source.publicKey(), seq, opIndex, pool, fromStellarAsset(a)));
  return { h, gw, acc1, asset, depositIntoPool, account, revoke, balances, balanceOf };
}

describe('revoke from pool (SetTrustLineFlagsTests.cpp, allow_trust)', () => {
  it.each([
    ['claim', 'both non-native', 'pool is deleted'],
    ['claim', 'both non-native', 'pool still exists'],
    ['clawback', 'both non-native', 'pool is deleted'],
    ['clawback', 'both non-native', 'pool still exists'],
    ['claim', 'one non-native', 'pool is deleted'],
    ['claim', 'one non-native', 'pool still exists'],
    ['clawback', 'one non-native', 'pool is deleted'],
    ['clawback', 'one non-native', 'pool still exists'],
  ])('%s - %s: %s', async (mode, assets, poolFate) => {
    const w = await world(mode === 'clawback');
    const cur1 = w.asset('CUR1');
    const [a, b] = assets === 'both non-native' ? [cur1, w.asset('CUR2')] : [XLM, cur1];
    const pool = poolIdOf(a, b);
    await w.depositIntoPool(w.acc1, a, b);
    expect(poolState(w.h.core, pool)).toEqual([200n, 50n, 100n, 1n]);
    if (poolFate === 'pool still exists') {
      const [acc2] = await w.h.fund(100);
      await w.depositIntoPool(acc2!, a, b);
      expect(poolState(w.h.core, pool)).toEqual([400n, 100n, 200n, 2n]);
    }
    const seq = await w.revoke(w.acc1, b, 1, 0, 2);
    expect(poolShareLineOf(w.h.core, w.acc1, pool)).toBeUndefined();
    for (const x of [a, b]) if (!x.isNative()) expect(trustLineOf(w.h.core, w.acc1, x)?.liquidityPoolUseCount).toBe(0);
    expect(poolState(w.h.core, pool)).toEqual(poolFate === 'pool is deleted' ? null : [200n, 50n, 100n, 1n]);
    expect(w.balances()).toHaveLength(2);
    for (const [x, amount] of [
      [a, 200n],
      [b, 50n],
    ] as const) {
      const balance = w.balanceOf(w.gw, seq, 0, pool, x)!;
      expect(balance.amount).toBe(amount);
      expect(balance.claimants.map((c) => [c.destination, c.predicate.type])).toEqual([
        [w.acc1.publicKey(), 'claimPredicateUnconditional'],
      ]);
      // clawback follows the asset line; the reserve is the shares line's, so the account sponsors it
      expect(balance.flags).toBe(mode === 'clawback' && !x.isNative() ? 1 : 0);
      expect(balance.sponsor).toBe(w.acc1.publicKey());
    }
  });

  it('validate op num and tx account is used in hash', async () => {
    const w = await world();
    const cur1 = w.asset('CUR1');
    const pool = poolIdOf(XLM, cur1);
    await w.depositIntoPool(w.acc1, XLM, cur1);
    expect(poolState(w.h.core, pool)).toEqual([200n, 50n, 100n, 1n]);
    await w.h.succeed(w.gw, [Operation.setOptions({ signer: { ed25519PublicKey: w.acc1.publicKey(), weight: 100 } })]);
    const source = w.gw.publicKey();
    await w.h.succeed(w.acc1, [
      Operation.payment({ source, destination: w.acc1.publicKey(), asset: XLM, amount: '0.0000001' }),
      Operation.allowTrust({ source, trustor: w.acc1.publicKey(), assetCode: 'CUR1', authorize: 0 }),
    ]);
    const seq = w.h.seq(w.acc1);
    expect(w.balanceOf(w.acc1, seq, 1, pool, XLM)?.amount).toBe(200n);
    expect(w.balanceOf(w.acc1, seq, 1, pool, cur1)?.amount).toBe(50n);
  });

  it.each(['assetA issuer', 'assetB issuer'])('claimable balance created for issuer: %s', async (which) => {
    const w = await world();
    const cur1 = w.asset('CUR1');
    const own = w.asset(which === 'assetA issuer' ? 'BTC' : 'USD1', w.acc1);
    const [a, b] = which === 'assetA issuer' ? [own, cur1] : [cur1, own];
    const pool = poolIdOf(a, b);
    await w.depositIntoPool(w.acc1, a, b);
    const seq = await w.revoke(w.acc1, cur1, 1, 0, 1);
    expect(trustLineOf(w.h.core, w.acc1, cur1)?.liquidityPoolUseCount).toBe(0);
    expect(poolState(w.h.core, pool)).toBeNull();
    expect(w.balanceOf(w.gw, seq, 0, pool, cur1)?.amount).toBe(which === 'assetA issuer' ? 50n : 200n);
    // none for the account's own asset
    expect(w.balanceOf(w.gw, seq, 0, pool, own)).toBeUndefined();
    // one balance reserved (stellar-core checks 0 once it is claimed)
    expect(w.account().numSponsoring).toBe(1);
  });

  it('revoke from 0 balance pool share trustline', async () => {
    const w = await world();
    const [cur1, cur2] = [w.asset('CUR1'), w.asset('CUR2')];
    const pool = poolIdOf(cur1, cur2);
    await w.h.succeed(w.acc1, [trust(cur1, 1), trust(cur2, 1), trustPool(cur1, cur2, 1)]);
    expect(poolState(w.h.core, pool)).toEqual([0n, 0n, 0n, 1n]);
    await w.revoke(w.acc1, cur1, 1, 0, 0);
    expect(trustLineOf(w.h.core, w.acc1, cur1)?.liquidityPoolUseCount).toBe(0);
    expect(trustLineOf(w.h.core, w.acc1, cur2)?.liquidityPoolUseCount).toBe(0);
    expect(w.balances()).toEqual([]);
    expect(poolState(w.h.core, pool)).toBeNull();
    expect(w.account().numSponsoring).toBe(0);
  });

  it('revoke leads to redeemed pool shares and pulled offers', async () => {
    const w = await world();
    const [cur1, cur2] = [w.asset('CUR1'), w.asset('CUR2')];
    await w.depositIntoPool(w.acc1, cur1, cur2);
    await w.h.succeed(w.gw, [pay(w.acc1, cur1, 10)]);
    await w.h.succeed(w.acc1, [sellOffer(cur1, XLM, 10, 1, 1)]);
    await w.revoke(w.acc1, cur1, 1, 1, 2);
  });

  it('revoke from multiple pools', async () => {
    const w = await world();
    const [usd, btc, eur] = [w.asset('usd'), w.asset('btc'), w.asset('eur')];
    const [btcUsd, eurUsd, btcEur] = [poolIdOf(btc, usd), poolIdOf(eur, usd), poolIdOf(btc, eur)];
    const accounts = await w.h.fund(100, 3);
    for (const acc of accounts) {
      await w.depositIntoPool(acc, btc, usd);
      await w.depositIntoPool(acc, eur, usd);
      await w.depositIntoPool(acc, btc, eur);
    }
    const last = accounts[2]!;
    for (const p of [btcUsd, eurUsd, btcEur]) expect(poolState(w.h.core, p)).toEqual([600n, 150n, 300n, 3n]);
    const seq = await w.revoke(last, btc, 2, 0, 4);
    expect(
      [
        [btcUsd, btc],
        [btcEur, btc],
        [btcUsd, usd],
        [btcEur, eur],
      ].map(([p, a]) => w.balanceOf(w.gw, seq, 0, p as string, a as Asset)?.amount),
    ).toEqual([200n, 200n, 50n, 50n]);
    expect([btc, usd, eur].map((a) => trustLineOf(w.h.core, last, a)?.liquidityPoolUseCount)).toEqual([0, 1, 1]);
    expect(poolState(w.h.core, btcUsd)).toEqual([400n, 100n, 200n, 2n]);
    expect(poolState(w.h.core, eurUsd)).toEqual([600n, 150n, 300n, 3n]);
    expect(poolState(w.h.core, btcEur)).toEqual([400n, 100n, 200n, 2n]);
  });
});
