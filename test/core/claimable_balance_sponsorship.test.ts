// Claimable balances and reserve sponsorship, as stellar-core's ClaimableBalanceTests ("create is
// sponsored", "claim is sponsored", "merge create account before claim", "claimable balance
// sponsorship can only be transferred", "op source account last modified is updated on claim of
// sponsored balance", "too many sponsoring") and ClawbackClaimableBalanceTests ("clawback sponsored
// claimable balance") run them: begin/end sandwiches from root, base reserve 10 XLM, fee 100.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Asset, Keypair, Operation, type xdr } from '@stellar/stellar-sdk/base';
import { claimableBalanceHash } from '../../src/stellar/index.js';
import {
  balanceOf,
  claimant,
  claimBalanceOp,
  clawbackBalanceOp,
  createBalanceOp,
  createdBalanceId,
  horizonBalanceId,
} from './support/claimable.js';
import { Harness, patchSnapshotAccount } from './support/harness.js';

const RESERVE = 100_000_000n;
const FEE = 100n;
const UINT32_MAX = 0xffffffff;

const begin = (sponsored: Keypair) => Operation.beginSponsoringFutureReserves({ sponsoredId: sponsored.publicKey() });
const end = (sponsored: Keypair) => Operation.endSponsoringFutureReserves({ source: sponsored.publicKey() });

/** root's transaction of `ops`, signed by root and `others`; it must succeed */
async function sandwich(h: Harness, ops: xdr.Operation[], others: Keypair[]) {
  const r = await h.run(h.root, ops, { signers: [h.root, ...others] });
  if (r.code !== 'txSuccess') throw new Error(`${r.code} ${r.ops.join(',')}`);
  return r;
}

/** acc1 and acc2 with three reserves' worth (minBalance3), as the test's world */
async function world(options: Parameters<typeof Harness.create>[0] = {}) {
  const h = await Harness.create({ baseReserve: Number(RESERVE), ...options });
  const [acc1, acc2] = (await h.fund(50, 2)) as [Keypair, Keypair];
  return { h, acc1, acc2 };
}

/** root sponsors acc1's native balance of 100 for acc2: the create is the second operation of root's transaction */
async function sponsoredCreate(h: Harness, creator: Keypair, asset: Asset, amount: bigint, claimants: xdr.Claimant[]): Promise<Buffer> {
  await sandwich(h, [begin(creator), createBalanceOp(asset, amount, claimants, creator), end(creator)], [creator]);
  return claimableBalanceHash(h.root.publicKey(), h.seq(h.root), 1);
}

describe('validateBalancesOnCreateAndClaim with sponsorship', () => {
  for (const [name, createIsSponsored, claimIsSponsored] of [
    ['create is sponsored', true, false],
    ['claim is sponsored', false, true],
    ['claim and create are sponsored', true, true],
  ] as const) {
    it(name, async () => {
      const { h, acc1, acc2 } = await world();
      const amount = 100n;
      const acc1Before = h.available(acc1);
      const acc2Before = h.available(acc2);
      const rootBefore = h.available(h.root);
      let id: Buffer;
      if (createIsSponsored) {
        id = await sponsoredCreate(h, acc1, Asset.native(), amount, [claimant(acc2)]);
        // checkSponsorship(ltx, claimableBalanceKey(balanceID), 1, &root->getPublicKey())
        expect(balanceOf(h, id)!.sponsor).toBe(h.root.publicKey());
        expect(h.available(h.root)).toBe(rootBefore - RESERVE - 3n * FEE);
        expect(h.available(acc1)).toBe(acc1Before - amount);
      } else {
        id = createdBalanceId(await h.succeed(acc1, [createBalanceOp(Asset.native(), amount, [claimant(acc2)])]));
        expect(h.available(h.root)).toBe(rootBefore);
        expect(h.available(acc1)).toBe(acc1Before - amount - RESERVE - FEE);
      }
      const acc1AfterCreate = h.available(acc1);
      const rootAfterCreate = h.available(h.root);
      if (claimIsSponsored) await sandwich(h, [begin(acc2), claimBalanceOp(id, acc2), end(acc2)], [acc2]);
      else await h.succeed(acc2, [claimBalanceOp(id)]);
      expect(balanceOf(h, id)).toBeUndefined();
      const rootFees = claimIsSponsored ? 3n * FEE : 0n;
      // the reserve goes back to whoever sponsored the balance
      expect(h.available(h.root)).toBe(rootAfterCreate - rootFees + (createIsSponsored ? RESERVE : 0n));
      expect(h.available(acc1)).toBe(acc1AfterCreate + (createIsSponsored ? 0n : RESERVE));
      // the only difference when the claim is sponsored: acc2 pays no fee
      expect(h.available(acc2)).toBe(acc2Before + amount - (claimIsSponsored ? 0n : FEE));
      expect(h.core.account(h.root.publicKey())!.numSponsoring).toBe(0);
    });
  }
});

describe('sponsorship of a claimable balance moves, but never goes', () => {
  it('merge create account before claim: the sponsorship is transferred to root, then the creator merges', async () => {
    const { h, acc1, acc2 } = await world();
    const id = createdBalanceId(await h.succeed(acc1, [createBalanceOp(Asset.native(), 100n, [claimant(acc2)])]));
    const revoke = Operation.revokeClaimableBalanceSponsorship({ balanceId: horizonBalanceId(id), source: acc1.publicKey() });
    await sandwich(h, [begin(acc1), revoke, end(acc1)], [acc1]);
    expect(balanceOf(h, id)!.sponsor).toBe(h.root.publicKey());
    expect(h.core.account(acc1.publicKey())!.numSponsoring).toBe(0);
    expect((await h.succeed(acc1, [Operation.accountMerge({ destination: h.root.publicKey() })])).ops).toEqual(['accountMergeSuccess']);
    const before = h.balance(acc2);
    await h.succeed(acc2, [claimBalanceOp(id)]);
    expect(h.balance(acc2)).toBe(before + 100n - FEE);
    expect(h.core.account(h.root.publicKey())!.numSponsoring).toBe(0);
  });

  it('merge sponsoring account: the creator sponsors its balance and cannot merge', async () => {
    const { h, acc1, acc2 } = await world();
    await h.succeed(acc1, [createBalanceOp(Asset.native(), 1n, [claimant(acc2)])]);
    expect((await h.run(acc1, [Operation.accountMerge({ destination: h.root.publicKey() })])).ops).toEqual(['accountMergeIsSponsor']);
  });

  it('claimable balance sponsorship can only be transferred', async () => {
    const { h, acc1, acc2 } = await world();
    const id = await sponsoredCreate(h, acc1, Asset.native(), 1n, [claimant(acc2)]);
    const r = await h.run(h.root, [Operation.revokeClaimableBalanceSponsorship({ balanceId: horizonBalanceId(id) })]);
    expect(r.code).toBe('txFailed');
    expect(r.ops).toEqual(['revokeSponsorshipOnlyTransferable']);
    expect(balanceOf(h, id)!.sponsor).toBe(h.root.publicKey());
  });

  it('a sponsor without the reserves: low reserve on the create', async () => {
    const { h, acc1, acc2 } = await world();
    const [poor] = (await h.fund(30)) as [Keypair];
    const r = await h.run(poor, [begin(acc1), createBalanceOp(Asset.native(), 1n, [claimant(acc2), claimant(poor)], acc1), end(acc1)], {
      signers: [poor, acc1],
    });
    expect(r.ops[1]).toBe('createClaimableBalanceLowReserve');
  });
});

describe('op source account last modified is updated on claim of sponsored balance', () => {
  for (const isClawback of [false, true]) {
    it(isClawback ? 'clawback' : 'claim', async () => {
      const { h, acc2 } = await world();
      const [issuer] = (await h.fund(50)) as [Keypair];
      if (isClawback) await h.succeed(issuer, [Operation.setOptions({ setFlags: (0x8 | 0x2) as never })]);
      const idr = new Asset('IDR', issuer.publicKey());
      await h.succeed(acc2, [Operation.changeTrust({ asset: idr, limit: '0.0000001' })]);
      await h.succeed(issuer, [Operation.payment({ destination: acc2.publicKey(), asset: idr, amount: '0.0000001' })]);
      // acc2's balance for itself, sponsored by root
      const id = await sponsoredCreate(h, acc2, idr, 1n, [claimant(acc2)]);
      const claimAccount = isClawback ? issuer : acc2;
      const before = h.core.account(claimAccount.publicKey())!.lastModified;
      const op = isClawback ? clawbackBalanceOp(id, claimAccount) : claimBalanceOp(id, claimAccount);
      // root's transaction: root pays the fee, and gets the reserve back
      await sandwich(h, [op], [claimAccount]);
      // the operation's source was loaded all the same
      expect(h.core.account(claimAccount.publicKey())!.lastModified).toBe(h.core.latestLedger().sequence);
      expect(h.core.account(claimAccount.publicKey())!.lastModified).toBeGreaterThan(before);
      expect(h.core.account(h.root.publicKey())!.numSponsoring).toBe(0);
    });
  }
});

describe('clawback sponsored claimable balance', () => {
  for (const sponsorIsIssuer of [true, false]) {
    it(sponsorIsIssuer ? 'sponsor is issuer' : 'sponsor is not issuer', async () => {
      const h = await Harness.create({ baseReserve: Number(RESERVE) });
      const [a1, gateway] = (await h.fund(60, 2)) as [Keypair, Keypair];
      const idr = new Asset('IDR', gateway.publicKey());
      await h.succeed(gateway, [Operation.setOptions({ setFlags: (0x8 | 0x2) as never })]);
      await h.succeed(a1, [Operation.changeTrust({ asset: idr, limit: '0.0001' })]);
      await h.succeed(gateway, [Operation.payment({ destination: a1.publicKey(), asset: idr, amount: '0.00001' })]);
      const sponsor = sponsorIsIssuer ? gateway : h.root;
      const r = await h.run(sponsor, [begin(a1), createBalanceOp(idr, 100n, [claimant(gateway)], a1), end(a1)], { signers: [sponsor, a1] });
      expect(r.code).toBe('txSuccess');
      const id = claimableBalanceHash(sponsor.publicKey(), h.seq(sponsor), 1);
      expect(balanceOf(h, id)).toMatchObject({ sponsor: sponsor.publicKey(), flags: 1 });
      // checkSponsorship(ltx, a1, 0, nullptr, 1, 0, 0, 0) and (account, 0, nullptr, 0, 2, 1, 0)
      expect(h.core.account(a1.publicKey())).toMatchObject({ numSubEntries: 1, numSponsoring: 0, numSponsored: 0 });
      expect(h.core.account(sponsor.publicKey())).toMatchObject({ numSubEntries: 0, numSponsoring: 1, numSponsored: 0 });
      await h.succeed(gateway, [clawbackBalanceOp(id)]);
      expect(h.core.account(sponsor.publicKey())).toMatchObject({ numSubEntries: 0, numSponsoring: 0, numSponsored: 0 });
      expect((await h.run(gateway, [clawbackBalanceOp(id)])).ops).toEqual(['clawbackClaimableBalanceDoesNotExist']);
    });
  }
});

describe('too many sponsoring (SponsorshipTestUtils tooManySponsoring)', () => {
  for (const claimants of [1, 3]) {
    it(`${claimants} claimant(s): one create fits below UINT32_MAX sponsored reserves, the next is opTOO_MANY_SPONSORING`, async () => {
      // as stellar-core's test, root's numSponsoring is set in the ledger directly: here through a snapshot
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zenith-cb-sponsoring-'));
      try {
        const first = await world({ dataDir });
        const { acc1 } = first;
        await first.h.core.stop();
        patchSnapshotAccount(dataDir, first.h.root.publicKey(), (a) => ({
          ...a,
          extLevel: Math.max(a.extLevel, 2),
          numSponsoring: UINT32_MAX - claimants,
        }));
        const h = await Harness.create({ dataDir, baseReserve: Number(RESERVE) });
        const list = Array.from({ length: claimants }, () => claimant(Keypair.random()));
        const create = () =>
          h.run(h.root, [begin(acc1), createBalanceOp(Asset.native(), 1n, list, acc1), end(acc1)], { signers: [h.root, acc1] });
        expect((await create()).code).toBe('txSuccess');
        expect((await create()).ops[1]).toBe('opTooManySponsoring');
        await h.core.stop();
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    });
  }
});
