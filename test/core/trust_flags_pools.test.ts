// Revocation by allow_trust and by set_trust_line_flags redeems pool shares into claimable
// balances, whose reserve falls on the shares line's backer or on a sandwich's sponsor, with
// stellar-core's SetTrustLineFlagsTests.cpp cases ("revoke from pool" sponsorships, "pool share
// revocation order test", "revocation result test across validators", "too many sponsoring"):
// LOW_RESERVE of both operations and opTOO_MANY_SPONSORING. The issuer is a gateway here, root's role there.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Asset, Keypair, Operation, xdr } from '@stellar/stellar-sdk/base';
import { describe, expect, it } from 'vitest';
import type { ClaimableBalanceRec } from '../../src/core/ledger/entries.js';
import { fromStellarAsset, poolRevokeBalanceId } from '../../src/stellar/index.js';
import { deposit, pay, poolIdOf, poolShareLineOf, poolState, trust, trustPool } from './support/dex.js';
import { Harness, patchSnapshotAccount } from './support/harness.js';
import { AUTHORIZED, AUTH_REVOCABLE, MAINTAIN_LIABILITIES, allowTrustOp, setTrustLineFlagsOp } from './support/trust_flags.js';

const XLM = Asset.native();
const FEE = 100n;

const from = (kp: Keypair, o: xdr.Operation): xdr.Operation =>
  new xdr.Operation({ sourceAccount: xdr.MuxedAccount.keyTypeEd25519(kp.rawPublicKey()), body: o.body });
const begin = (sponsor: Keypair, sponsored: Keypair) =>
  Operation.beginSponsoringFutureReserves({ sponsoredId: sponsored.publicKey(), source: sponsor.publicKey() });
const end = (sponsored: Keypair) => Operation.endSponsoringFutureReserves({ source: sponsored.publicKey() });

/** The two ways to revoke a line completely (TestAccount::denyTrust). */
const REVOKES = [
  { name: 'allow_trust', op: (trustor: Keypair, a: Asset) => allowTrustOp(trustor, a.getCode(), 0), lowReserve: 'allowTrustLowReserve' },
  {
    name: 'set_trust_line_flags',
    op: (trustor: Keypair, a: Asset) => setTrustLineFlagsOp(trustor, a, 0, AUTHORIZED | MAINTAIN_LIABILITIES),
    lowReserve: 'setTrustLineFlagsLowReserve',
  },
] as const;

/** Pays everything above the reserve (and the fee of this payment) to `to`. */
async function drain(h: Harness, kp: Keypair, to: Keypair, keep = 0n): Promise<void> {
  await h.succeed(kp, [pay(to, XLM, h.available(kp) - FEE - keep)]);
  expect(h.available(kp)).toBe(keep);
}

async function create(h: Harness, kp: Keypair, xlm: number): Promise<Keypair> {
  await h.succeed(h.root, [Operation.createAccount({ destination: kp.publicKey(), startingBalance: String(xlm) })]);
  return kp;
}

const balances = (h: Harness) => [...h.core.entries()].filter((e): e is ClaimableBalanceRec => e.type === 'claimableBalance');

describe.each(REVOKES)('revoke from pool through $name (SetTrustLineFlagsTests sponsorships)', (revoke) => {
  // acc1 holds 10 shares of the CUR1/CUR2 pool, its shares line sponsored by acc3 or not, and has
  // no native balance left above its reserve
  async function world(sponsoredLine: boolean) {
    const h = await Harness.create();
    const [gw, acc1, acc2, acc3] = (await h.fund(100, 4)) as [Keypair, Keypair, Keypair, Keypair];
    const cur1 = new Asset('CUR1', gw.publicKey());
    const cur2 = new Asset('CUR2', gw.publicKey());
    const pool12 = poolIdOf(cur1, cur2);
    await h.succeed(gw, [Operation.setOptions({ setFlags: AUTH_REVOCABLE as never })]);
    await h.succeed(acc1, [trust(cur1, 10), trust(cur2, 10)]);
    await h.succeed(gw, [pay(acc1, cur1, 10), pay(acc1, cur2, 10)]);
    if (sponsoredLine) {
      expect(
        (await h.run(acc3, [begin(acc3, acc1), from(acc1, trustPool(cur1, cur2, 10)), end(acc1)], { signers: [acc3, acc1] })).code,
      ).toBe('txSuccess');
      expect(poolShareLineOf(h.core, acc1, pool12)?.sponsor).toBe(acc3.publicKey());
      expect(h.core.account(acc3.publicKey())).toMatchObject({ numSponsoring: 2 });
      await drain(h, acc3, h.root);
    } else {
      await h.succeed(acc1, [trustPool(cur1, cur2, 10)]);
    }
    expect(h.core.account(acc1.publicKey())!.numSubEntries).toBe(4);
    await h.succeed(acc1, [deposit(pool12, 10, 10, [1, 1], [1, 1])]);
    expect(poolState(h.core, pool12)).toEqual([10n, 10n, 10n, 1n]);
    await drain(h, acc1, h.root);
    return { h, gw, acc1, acc2, acc3, cur1, cur2, pool12 };
  }
  type World = Awaited<ReturnType<typeof world>>;

  /** The two balances redeemed to acc1 by the revoking transaction of `source` at `opIndex`: 10 of each asset, backed by `sponsor`. */
  function expectRedeemed(w: World, source: Keypair, opIndex: number, sponsor: Keypair): void {
    const seq = w.h.seq(source);
    const found = balances(w.h).map((b) => [b.balanceId, b.amount, b.sponsor, b.claimants.map((c) => c.destination)]);
    const id = (a: Asset) => poolRevokeBalanceId(source.publicKey(), seq, opIndex, w.pool12, fromStellarAsset(a));
    expect(found.sort()).toEqual(
      [
        [id(w.cur1), 10n, sponsor.publicKey(), [w.acc1.publicKey()]],
        [id(w.cur2), 10n, sponsor.publicKey(), [w.acc1.publicKey()]],
      ].sort(),
    );
    expect(poolShareLineOf(w.h.core, w.acc1, w.pool12)).toBeUndefined();
    expect(poolState(w.h.core, w.pool12)).toBeNull();
  }

  // the sandwich: `sponsoring` sponsors `sponsored`'s future reserves around the gateway's revoke
  const sandwich = (w: World, sponsoring: Keypair, sponsored: Keypair) =>
    w.h.run(sponsoring, [begin(sponsoring, sponsored), from(w.gw, revoke.op(w.acc1, w.cur1)), end(sponsored)], {
      signers: [sponsoring, w.gw, sponsored],
    });

  it('same reserve, no sandwich: the account backs the balances with the reserve its shares line freed', async () => {
    const w = await world(false);
    await w.h.succeed(w.gw, [revoke.op(w.acc1, w.cur1)]);
    expectRedeemed(w, w.gw, 0, w.acc1);
    expect(w.h.core.account(w.acc1.publicKey())).toMatchObject({ numSubEntries: 2, numSponsoring: 2, numSponsored: 0 });
  });

  it('same reserve, sponsored shares line, no sandwich: its sponsor backs the balances', async () => {
    const w = await world(true);
    await w.h.succeed(w.gw, [revoke.op(w.acc1, w.cur1)]);
    expectRedeemed(w, w.gw, 0, w.acc3);
    expect(w.h.core.account(w.acc1.publicKey())).toMatchObject({ numSubEntries: 2, numSponsoring: 0, numSponsored: 0 });
    expect(w.h.core.account(w.acc3.publicKey())).toMatchObject({ numSponsoring: 2, numSponsored: 0 });
  });

  it('same reserve, sandwich on revoke: success, the sandwich sponsor backs them', async () => {
    const w = await world(false);
    expect((await sandwich(w, w.acc2, w.acc1)).code).toBe('txSuccess');
    expectRedeemed(w, w.acc2, 1, w.acc2);
    expect(w.h.core.account(w.acc2.publicKey())).toMatchObject({ numSponsoring: 2 });
    expect(w.h.core.account(w.acc1.publicKey())).toMatchObject({ numSubEntries: 2, numSponsoring: 0 });
  });

  it('same reserve, sandwich around the sponsor of the shares line: success', async () => {
    const w = await world(true);
    expect((await sandwich(w, w.acc2, w.acc3)).code).toBe('txSuccess');
    expectRedeemed(w, w.acc2, 1, w.acc2);
    expect(w.h.core.account(w.acc3.publicKey())).toMatchObject({ numSponsoring: 0 });
  });

  it('same reserve, sandwich on revoke without the reserve: LOW_RESERVE, nothing changes', async () => {
    const w = await world(false);
    // enough for this transaction's fee only
    await drain(w.h, w.acc2, w.h.root, 3n * FEE);
    const r = await sandwich(w, w.acc2, w.acc1);
    expect(r.code).toBe('txFailed');
    expect(r.ops).toEqual(['beginSponsoringFutureReservesSuccess', revoke.lowReserve, 'endSponsoringFutureReservesSuccess']);
    expect(balances(w.h)).toEqual([]);
    expect(poolState(w.h.core, w.pool12)).toEqual([10n, 10n, 10n, 1n]);
  });
});

// stellar-core "pool share revocation order test" and "revocation result test across validators":
// shares lines are redeemed in pool id order, so whether the freed reserve of an empty pool's line
// is there before a funded pool's balances need it decides the result
describe.each(REVOKES)('revocation order through $name', (revoke) => {
  /** A gateway key whose pool ids of A/C and A/D come in the wanted order. */
  function gatewayWith(fundedFirst: boolean): Keypair {
    for (;;) {
      const kp = Keypair.random();
      const asset = (code: string) => new Asset(code, kp.publicKey());
      const funded = poolIdOf(asset('AAAA'), asset('DDDD'));
      const empty = poolIdOf(asset('AAAA'), asset('CCCC'));
      if (funded < empty === fundedFirst) return kp;
    }
  }

  it.each([
    [true, 'LOW_RESERVE'],
    [false, 'success'],
  ])('the funded pool first: %s gives %s', async (fundedFirst) => {
    const h = await Harness.create();
    const gw = await create(h, gatewayWith(fundedFirst), 100);
    const [trustor, sponsor1, sponsor2] = (await h.fund(100, 3)) as [Keypair, Keypair, Keypair];
    const [a, c, d] = ['AAAA', 'CCCC', 'DDDD'].map((code) => new Asset(code, gw.publicKey())) as [Asset, Asset, Asset];
    await h.succeed(gw, [Operation.setOptions({ setFlags: AUTH_REVOCABLE as never })]);
    await h.succeed(trustor, [trust(a), trust(c), trust(d)]);
    await h.succeed(gw, [pay(trustor, a, 2000), pay(trustor, d, 2000)]);
    // sponsor1 backs the empty A/C shares line, sponsor2 the funded A/D one
    for (const [sponsor, other] of [
      [sponsor1, c],
      [sponsor2, d],
    ] as const) {
      const r = await h.run(sponsor, [begin(sponsor, trustor), from(trustor, trustPool(a, other)), end(trustor)], {
        signers: [sponsor, trustor],
      });
      expect(r.code).toBe('txSuccess');
    }
    await h.succeed(trustor, [deposit(poolIdOf(a, d), 100, 100, [1, 1], [1, 1])]);
    expect(h.core.account(sponsor1.publicKey())!.numSponsoring).toBe(2);
    await drain(h, sponsor1, h.root);
    // sponsor1 sponsors sponsor2's future reserves around the revoke
    const r = await h.run(gw, [begin(sponsor1, sponsor2), revoke.op(trustor, a), end(sponsor2)], { signers: [gw, sponsor1, sponsor2] });
    if (fundedFirst) {
      // the A/D balances need two reserves from sponsor1, who has none yet
      expect(r.code).toBe('txFailed');
      expect(r.ops[1]).toBe(revoke.lowReserve);
    } else {
      // the A/C line's two reserves come back to sponsor1 first
      expect(r.code).toBe('txSuccess');
      expect(balances(h).map((b) => b.sponsor)).toEqual([sponsor1.publicKey(), sponsor1.publicKey()]);
      expect(h.core.account(sponsor1.publicKey())!.numSponsoring).toBe(2);
      expect(h.core.account(sponsor2.publicKey())!.numSponsoring).toBe(0);
    }
  });
});

// stellar-core "too many sponsoring" (two claimable balances) through SponsorshipTestUtils'
// tooManySponsoring: root sponsors the revoked account's future reserves with room for two more,
// so the first revoke's two balances fit and the second's do not. As there, root's count is set in
// the ledger directly: here through a snapshot.
describe.each(REVOKES)('too many sponsoring through $name', (revoke) => {
  it('the second revoke in a root sandwich is opTOO_MANY_SPONSORING', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zenith-revoke-sponsoring-'));
    try {
      const first = await Harness.create({ dataDir });
      const [gw, acc1] = (await first.fund(100, 2)) as [Keypair, Keypair];
      const [cur1, cur2, cur3] = ['CUR1', 'CUR2', 'CUR3'].map((code) => new Asset(code, gw.publicKey())) as [Asset, Asset, Asset];
      await first.succeed(gw, [Operation.setOptions({ setFlags: AUTH_REVOCABLE as never })]);
      await first.succeed(acc1, [trust(cur1), trust(cur2), trust(cur3)]);
      await first.succeed(gw, [pay(acc1, cur1, 10), pay(acc1, cur2, 20), pay(acc1, cur3, 10)]);
      await first.succeed(acc1, [trustPool(cur1, cur2), trustPool(cur2, cur3)]);
      await first.succeed(acc1, [
        deposit(poolIdOf(cur1, cur2), 10, 10, [1, 1], [1, 1]),
        deposit(poolIdOf(cur2, cur3), 10, 10, [1, 1], [1, 1]),
      ]);
      const root = first.root;
      await first.core.stop();
      patchSnapshotAccount(dataDir, root.publicKey(), (a) => ({ ...a, extLevel: Math.max(a.extLevel, 2), numSponsoring: 0xffffffff - 2 }));
      const h = await Harness.create({ dataDir });
      const inSandwich = (a: Asset) =>
        h.run(root, [begin(root, acc1), from(gw, revoke.op(acc1, a)), end(acc1)], { signers: [root, gw, acc1] });
      expect((await inSandwich(cur1)).code).toBe('txSuccess');
      expect(balances(h).map((b) => b.sponsor)).toEqual([root.publicKey(), root.publicKey()]);
      const full = await inSandwich(cur2);
      expect(full.code).toBe('txFailed');
      expect(full.ops[1]).toBe('opTooManySponsoring');
      expect(poolState(h.core, poolIdOf(cur2, cur3))).toEqual([10n, 10n, 10n, 1n]);
      await h.core.stop();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
