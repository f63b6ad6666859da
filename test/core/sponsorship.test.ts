// Reserve sponsorship: stellar-core's BeginSponsoringFutureReservesTests, EndSponsoringFutureReservesTests
// and RevokeSponsorshipTests ("update sponsorship") scenarios with their expected counts
// (checkSponsorship(ltx, account, leExt, sponsor, numSubEntries, aeExt, numSponsoring, numSponsored)).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Asset, Keypair, Operation, xdr } from '@stellar/stellar-sdk/base';
import { accountKey, dataKey, entryKey, trustLineKey } from '../../src/core/ledger/entries.js';
import type { AccountRec, EntryRec } from '../../src/core/ledger/entries.js';
import { Harness, patchSnapshotAccount } from './support/harness.js';

const RESERVE = 5_000_000n;
const minBal = (n: number) => String(Number((2n + BigInt(n)) * RESERVE) / 1e7);

function entry(h: Harness, key: string): EntryRec | undefined {
  for (const e of h.core.entries()) if (entryKey(e) === key) return e;
  return undefined;
}

/** stellar-core's checkSponsorship for an entry: its LedgerEntry extension and sponsor. */
function checkEntry(h: Harness, key: string, leExt: 0 | 1, sponsor: Keypair | null) {
  const e = entry(h, key)!;
  expect(e, key).toBeDefined();
  if (leExt === 0) expect(e.sponsor).toBeUndefined();
  else expect(e.sponsor).toBe(sponsor ? sponsor.publicKey() : null);
}

/** stellar-core's checkSponsorship for an account (aeExt 2: the v2 extension with its counts). */
function checkAccount(
  h: Harness,
  kp: Keypair,
  leExt: 0 | 1,
  sponsor: Keypair | null,
  numSubEntries: number,
  aeExt: 0 | 1 | 2,
  numSponsoring: number,
  numSponsored: number,
) {
  checkEntry(h, accountKey(kp.publicKey()), leExt, sponsor);
  const a = h.core.account(kp.publicKey())!;
  expect(a.numSubEntries).toBe(numSubEntries);
  if (aeExt === 2) {
    expect(a.extLevel).toBeGreaterThanOrEqual(2);
    expect([a.numSponsoring, a.numSponsored]).toEqual([numSponsoring, numSponsored]);
  } else {
    expect([a.numSponsoring, a.numSponsored]).toEqual([0, 0]);
  }
}

function signerSponsor(h: Harness, kp: Keypair, signer: Keypair): string | null {
  const a = h.core.account(kp.publicKey()) as AccountRec;
  const s = a.signers.find((x) => x.key.endsWith(Buffer.from(signer.rawPublicKey()).toString('hex')))!;
  return s.sponsor;
}

const begin = (sponsored: Keypair, source?: Keypair) =>
  Operation.beginSponsoringFutureReserves({ sponsoredId: sponsored.publicKey(), ...(source ? { source: source.publicKey() } : {}) });
const end = (source: Keypair) => Operation.endSponsoringFutureReserves({ source: source.publicKey() });
const trust = (asset: Asset, source: Keypair) => Operation.changeTrust({ asset, limit: '100', source: source.publicKey() });
const addSigner = (signer: Keypair, source: Keypair) =>
  Operation.setOptions({ signer: { ed25519PublicKey: signer.publicKey(), weight: 1 }, source: source.publicKey() });
const revokeTrust = (account: Keypair, asset: Asset, source?: Keypair) =>
  Operation.revokeTrustlineSponsorship({ account: account.publicKey(), asset, ...(source ? { source: source.publicKey() } : {}) });
const revokeSigner = (account: Keypair, signer: Keypair, source?: Keypair) =>
  Operation.revokeSignerSponsorship({
    account: account.publicKey(),
    signer: { ed25519PublicKey: signer.publicKey() },
    ...(source ? { source: source.publicKey() } : {}),
  });

async function setup(fund = 100) {
  const h = await Harness.create();
  const [root, issuer] = await h.fund(fund, 2);
  const cur1 = new Asset('CUR1', issuer!.publicKey());
  const cur1Line = (kp: Keypair) => trustLineKey(kp.publicKey(), { type: 'credit_alphanum4', code: 'CUR1', issuer: issuer!.publicKey() });
  return { h, root: root!, issuer: issuer!, cur1, cur1Line };
}

describe('begin/end sponsoring future reserves (BeginSponsoringFutureReservesTests, EndSponsoringFutureReservesTests)', () => {
  it('success: a sponsored account creation puts both reserves on the sponsor', async () => {
    const { h, root } = await setup();
    const a1 = Keypair.random();
    const r = await h.run(root, [begin(a1), Operation.createAccount({ destination: a1.publicKey(), startingBalance: '0' }), end(a1)], {
      signers: [root, a1],
    });
    expect(r.ops).toEqual(['beginSponsoringFutureReservesSuccess', 'createAccountSuccess', 'endSponsoringFutureReservesSuccess']);
    checkAccount(h, a1, 1, root, 0, 2, 0, 2);
    checkAccount(h, root, 0, null, 0, 2, 2, 0);
  });

  it('malformed, already sponsored, recursive, not sponsored, and a begin without an end', async () => {
    const { h, root } = await setup();
    const [a1, a2] = await h.fund(10, 2);
    // sponsoring oneself
    expect((await h.run(root, [begin(root)])).ops).toEqual(['beginSponsoringFutureReservesMalformed']);
    // "already sponsored": a second begin for the same account
    const again = await h.run(root, [begin(a1!), begin(a1!), end(a1!)], { signers: [root, a1!] });
    expect(again.code).toBe('txFailed');
    expect(again.ops[1]).toBe('beginSponsoringFutureReservesAlreadySponsored');
    // "sponsoring account is sponsored" and "sponsored account is sponsoring" are both recursive
    const sponsorIsSponsored = await h.run(root, [begin(a1!), begin(a2!, a1!), end(a2!), end(a1!)], { signers: [root, a1!, a2!] });
    expect(sponsorIsSponsored.ops[1]).toBe('beginSponsoringFutureReservesRecursive');
    const sponsoredIsSponsoring = await h.run(root, [begin(a2!, a1!), begin(a1!), end(a1!), end(a2!)], { signers: [root, a1!, a2!] });
    expect(sponsoredIsSponsoring.ops[1]).toBe('beginSponsoringFutureReservesRecursive');
    expect((await h.run(a1!, [end(a1!)])).ops).toEqual(['endSponsoringFutureReservesNotSponsored']);
    // "bad sponsorship": every operation succeeds but the sandwich stays open
    const open = await h.run(root, [begin(a1!)]);
    expect(open.code).toBe('txBadSponsorship');
    expect(open.ops).toEqual([]);
    checkAccount(h, root, 0, null, 0, 0, 0, 0);
  });

  it('an account that sponsors cannot merge, not even while its sandwich is open', async () => {
    const { h, root } = await setup();
    const [a1] = await h.fund(10);
    const cur = new Asset('CUR', root.publicKey());
    await h.run(root, [begin(a1!), trust(cur, a1!), end(a1!)], { signers: [root, a1!] });
    const merge = await h.run(root, [Operation.accountMerge({ destination: a1!.publicKey() })]);
    expect(merge.ops).toEqual(['accountMergeIsSponsor']);
    const [a2, a3] = await h.fund(10, 2);
    const duringSandwich = await h.run(a2!, [begin(a3!), Operation.accountMerge({ destination: a1!.publicKey() }), end(a3!)], {
      signers: [a2!, a3!],
    });
    expect(duringSandwich.ops[1]).toBe('accountMergeIsSponsor');
  });
});

describe('revoke sponsorship ("update sponsorship")', () => {
  it('entry is not sponsored, account is not sponsored: a no-op for account, trust line and signer', async () => {
    const { h, cur1, cur1Line } = await setup();
    const [a1] = await h.fund(Number(minBal(3)) + 1);
    const s1 = Keypair.random();
    await h.run(a1!, [trust(cur1, a1!), addSigner(s1, a1!)]);
    const r = await h.run(a1!, [
      Operation.revokeAccountSponsorship({ account: a1!.publicKey() }),
      revokeTrust(a1!, cur1),
      revokeSigner(a1!, s1),
    ]);
    expect(r.ops).toEqual(['revokeSponsorshipSuccess', 'revokeSponsorshipSuccess', 'revokeSponsorshipSuccess']);
    checkEntry(h, cur1Line(a1!), 0, null);
    checkAccount(h, a1!, 0, null, 2, 0, 0, 0);
  });

  it('entry is sponsored, sponsor is not sponsored: the sponsorship is removed (account, trust line, signer)', async () => {
    const { h, root, cur1, cur1Line } = await setup();
    // account
    const a1 = Keypair.random();
    await h.run(root, [begin(a1), Operation.createAccount({ destination: a1.publicKey(), startingBalance: minBal(2) }), end(a1)], {
      signers: [root, a1],
    });
    const r = await h.run(root, [Operation.revokeAccountSponsorship({ account: a1.publicKey() })]);
    expect(r.ops).toEqual(['revokeSponsorshipSuccess']);
    checkEntry(h, accountKey(a1.publicKey()), 1, null);
    checkAccount(h, a1, 1, null, 0, 2, 0, 0);
    checkAccount(h, root, 0, null, 0, 2, 0, 0);
    // trust line
    const [a2] = await h.fund(Number(minBal(1)));
    await h.run(root, [begin(a2!), trust(cur1, a2!), end(a2!)], { signers: [root, a2!] });
    const key = cur1Line(a2!);
    checkEntry(h, key, 1, root);
    checkAccount(h, a2!, 0, null, 1, 2, 0, 1);
    expect((await h.run(root, [revokeTrust(a2!, cur1)])).ops).toEqual(['revokeSponsorshipSuccess']);
    checkEntry(h, key, 1, null);
    checkAccount(h, a2!, 0, null, 1, 2, 0, 0);
    // signer
    const [a3] = await h.fund(Number(minBal(1)));
    const s1 = Keypair.random();
    await h.run(root, [begin(a3!), addSigner(s1, a3!), end(a3!)], { signers: [root, a3!] });
    expect(signerSponsor(h, a3!, s1)).toBe(root.publicKey());
    checkAccount(h, a3!, 0, null, 1, 2, 0, 1);
    expect((await h.run(root, [revokeSigner(a3!, s1)])).ops).toEqual(['revokeSponsorshipSuccess']);
    expect(signerSponsor(h, a3!, s1)).toBeNull();
    checkAccount(h, a3!, 0, null, 1, 2, 0, 0);
    checkAccount(h, root, 0, null, 0, 2, 0, 0);
  });

  it('entry is sponsored, sponsor is sponsored: the sponsorship is transferred', async () => {
    const { h, root, cur1, cur1Line } = await setup();
    const [a1] = await h.fund(Number(minBal(1)));
    const [a2, s] = await h.fund(100, 2);
    await h.run(root, [begin(a1!), trust(cur1, a1!), end(a1!)], { signers: [root, a1!] });
    const r = await h.run(root, [begin(root, s!), revokeTrust(a1!, cur1), end(root)], { signers: [root, s!] });
    expect(r.ops).toEqual(['beginSponsoringFutureReservesSuccess', 'revokeSponsorshipSuccess', 'endSponsoringFutureReservesSuccess']);
    const key = cur1Line(a1!);
    checkEntry(h, key, 1, s!);
    checkAccount(h, a1!, 0, null, 1, 2, 0, 1);
    checkAccount(h, root, 0, null, 0, 2, 0, 0);
    checkAccount(h, s!, 0, null, 0, 2, 1, 0);
    // "entry is not sponsored, account is sponsored": establishing needs the owner's signature on the sandwich
    const data = Operation.manageData({ name: 'd', value: 'v', source: a2!.publicKey() });
    await h.run(a2!, [data]);
    const establish = await h.run(
      s!,
      [begin(a2!), Operation.revokeDataSponsorship({ account: a2!.publicKey(), name: 'd', source: a2!.publicKey() }), end(a2!)],
      {
        signers: [s!, a2!],
      },
    );
    expect(establish.ops[1]).toBe('revokeSponsorshipSuccess');
    checkEntry(h, dataKey(a2!.publicKey(), 'd'), 1, s!);
    checkAccount(h, s!, 0, null, 0, 2, 2, 0);
  });

  it('failures: does not exist, not sponsor, low reserve, malformed keys', async () => {
    const { h, root, issuer, cur1 } = await setup();
    const [a1, a2] = await h.fund(Number(minBal(0)), 2);
    expect((await h.run(root, [revokeTrust(a1!, cur1)])).ops).toEqual(['revokeSponsorshipDoesNotExist']);
    expect((await h.run(root, [revokeSigner(a1!, Keypair.random())])).ops).toEqual(['revokeSponsorshipDoesNotExist']);
    expect((await h.run(root, [Operation.revokeAccountSponsorship({ account: a1!.publicKey() })])).ops).toEqual([
      'revokeSponsorshipNotSponsor',
    ]);
    // low reserve: a1 holds only its base reserve, so it cannot take back its line's reserve
    await h.run(root, [begin(a1!), trust(cur1, a1!), end(a1!)], { signers: [root, a1!] });
    expect((await h.run(root, [revokeTrust(a1!, cur1)])).ops).toEqual(['revokeSponsorshipLowReserve']);
    // ... nor can a2, which has no spare balance, take over the sponsorship as the new sponsor
    const transfer = await h.run(root, [begin(root, a2!), revokeTrust(a1!, cur1), end(root)], { signers: [root, a2!] });
    expect(transfer.ops[1]).toBe('revokeSponsorshipLowReserve');
    // malformed (doCheckValid): an issuer's own line, a native line, offer id 0, an empty data name, a pool key
    const pk = (kp: Keypair) => xdr.PublicKey.publicKeyTypeEd25519(kp.rawPublicKey());
    const key = (k: xdr.LedgerKey) =>
      new xdr.Operation({
        sourceAccount: null,
        body: xdr.OperationBody.revokeSponsorship(xdr.RevokeSponsorshipOp.revokeSponsorshipLedgerEntry(k)),
      });
    const issuerLine = xdr.LedgerKey.trustline(new xdr.LedgerKeyTrustLine({ accountId: pk(issuer), asset: cur1.toTrustLineXDRObject() }));
    const nativeLine = xdr.LedgerKey.trustline(
      new xdr.LedgerKeyTrustLine({ accountId: pk(a1!), asset: Asset.native().toTrustLineXDRObject() }),
    );
    const offer0 = xdr.LedgerKey.offer(new xdr.LedgerKeyOffer({ sellerId: pk(a1!), offerId: 0n }));
    const emptyName = xdr.LedgerKey.data(new xdr.LedgerKeyData({ accountId: pk(a1!), dataName: Buffer.alloc(0) }));
    const controlChar = xdr.LedgerKey.data(new xdr.LedgerKeyData({ accountId: pk(a1!), dataName: Buffer.from('a\u0001') }));
    const pool = xdr.LedgerKey.liquidityPool(new xdr.LedgerKeyLiquidityPool({ liquidityPoolId: new xdr.PoolId(Buffer.alloc(32, 1)) }));
    for (const k of [issuerLine, nativeLine, offer0, emptyName, controlChar, pool]) {
      expect((await h.run(root, [key(k)])).ops).toEqual(['revokeSponsorshipMalformed']);
    }
  });
});

describe('too many sponsoring (RevokeSponsorshipTests "too many sponsoring", SponsorshipTestUtils tooManySponsoring)', () => {
  it('a sponsor at UINT32_MAX sponsored reserves gets opTOO_MANY_SPONSORING, from a new entry and from a revoke', async () => {
    // as stellar-core's test, the sponsor's numSponsoring is set in the ledger directly: here through a snapshot
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zenith-sponsoring-'));
    try {
      const first = await Harness.create({ dataDir });
      const [a1] = await first.fund(100);
      await first.run(a1!, [Operation.manageData({ name: 'own', value: 'v' })]);
      const sponsor = first.root;
      await first.core.stop();
      // room for one more sponsored reserve
      patchSnapshotAccount(dataDir, sponsor.publicKey(), (a) => ({
        ...a,
        extLevel: Math.max(a.extLevel, 2),
        numSponsoring: 0xffffffff - 1,
      }));
      const h = await Harness.create({ dataDir });
      const data = (name: string) => Operation.manageData({ name, value: 'v', source: a1!.publicKey() });
      expect((await h.run(sponsor, [begin(a1!), data('k1'), end(a1!)], { signers: [sponsor, a1!] })).code).toBe('txSuccess');
      const full = await h.run(sponsor, [begin(a1!), data('k2'), end(a1!)], { signers: [sponsor, a1!] });
      expect(full.ops[1]).toBe('opTooManySponsoring');
      const revoke = Operation.revokeDataSponsorship({ account: a1!.publicKey(), name: 'own', source: a1!.publicKey() });
      const viaRevoke = await h.run(sponsor, [begin(a1!), revoke, end(a1!)], { signers: [sponsor, a1!] });
      expect(viaRevoke.ops[1]).toBe('opTooManySponsoring');
      await h.core.stop();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
