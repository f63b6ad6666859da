// create_claimable_balance, claim_claimable_balance and clawback_claimable_balance, as
// stellar-core's ClaimableBalanceTests.cpp and ClawbackClaimableBalanceTests.cpp run them: the same
// accounts, reserves (stellar-core's test network: base reserve 10 XLM, fee 100) and amounts, each
// section's expected codes and balance deltas taken from those tests.
import { describe, expect, it } from 'vitest';
import { Account, Asset, Keypair, MuxedAccount, Operation, StrKey, TransactionBuilder, xdr } from '@stellar/stellar-sdk/base';
import { claimableBalanceHash } from '../../src/stellar/index.js';
import {
  balanceOf,
  claimant as claimantOf,
  claimBalanceOp,
  clawbackBalanceOp,
  createBalanceOp,
  createdBalanceId,
  horizonBalanceId,
  unconditional,
} from './support/claimable.js';
import { Harness, closeMetaV1, txMetaV3 } from './support/harness.js';

const RESERVE = 100_000_000n;
const FEE = 100n;
const INT64_MAX = 9223372036854775807n;
const P = xdr.ClaimPredicate;
const DAY = 86_400;

const AUTH_REQUIRED = 0x1;
const AUTH_REVOCABLE = 0x2;
const AUTH_CLAWBACK_ENABLED = 0x8;

const publicKey = (kp: Keypair) => xdr.PublicKey.publicKeyTypeEd25519(kp.rawPublicKey());

/** makeSimplePredicate(levels): `levels` nested ors over absBefore INT64_MAX */
function simple(levels: number): xdr.ClaimPredicate {
  if (levels === 0) return P.claimPredicateBeforeAbsoluteTime(INT64_MAX);
  const next = simple(levels - 1);
  return P.claimPredicateOr([next, next]);
}
const simplePred = simple(3);
const claimant = (kp: Keypair, predicate: xdr.ClaimPredicate = simplePred) => claimantOf(kp, predicate);

function lineBalance(h: Harness, kp: Keypair, asset: Asset): bigint {
  for (const e of h.core.entries()) {
    if (e.type === 'trustline' && e.accountId === kp.publicKey() && e.asset.type !== 'pool_share' && e.asset.code === asset.getCode()) {
      return e.balance;
    }
  }
  throw new Error('no trust line');
}

async function create(h: Harness, source: Keypair, asset: Asset, amount: bigint, claimants: xdr.Claimant[]): Promise<Buffer> {
  const r = await h.succeed(source, [createBalanceOp(asset, amount, claimants)]);
  const id = createdBalanceId(r);
  // TestAccount::createClaimableBalance: the id of the transaction's first operation, sponsored by its creator
  expect(id).toEqual(claimableBalanceHash(source.publicKey(), h.seq(source), 0));
  expect(balanceOf(h, id)).toMatchObject({ amount, sponsor: source.publicKey() });
  return id;
}

async function claim(h: Harness, source: Keypair, id: Buffer): Promise<void> {
  await h.succeed(source, [claimBalanceOp(id)]);
  expect(balanceOf(h, id)).toBeUndefined();
}

async function codes(h: Harness, source: Keypair, ops: xdr.Operation[]): Promise<string[]> {
  return (await h.run(source, ops)).ops;
}

/** stellar-core's test world: acc1, acc2 and issuer with 3 reserves' worth (minBalance3), acc2 trusting USD */
async function world() {
  const h = await Harness.create({ baseReserve: Number(RESERVE) });
  const [acc1, acc2, issuer] = (await h.fund(50, 3)) as [Keypair, Keypair, Keypair];
  const usd = new Asset('USD', issuer.publicKey());
  await h.succeed(acc2, [Operation.changeTrust({ asset: usd })]);
  return { h, acc1, acc2, issuer, usd };
}

type World = Awaited<ReturnType<typeof world>>;

/** the opening of balanceTestByAsset: every failure before the first balance, then funded */
async function prelude(native: boolean) {
  const w = await world();
  const { h, acc1, acc2, issuer, usd } = w;
  const asset = native ? Asset.native() : usd;
  const amount = native ? 2n * RESERVE : 100n;
  const valid = [claimant(acc2)];
  if (!native) expect(await codes(h, acc1, [createBalanceOp(asset, amount, valid)])).toEqual(['createClaimableBalanceNoTrust']);
  await h.succeed(issuer, [Operation.setOptions({ setFlags: AUTH_REQUIRED as never })]);
  await h.succeed(acc1, [Operation.changeTrust({ asset: usd })]);
  if (!native) expect(await codes(h, acc1, [createBalanceOp(asset, amount, valid)])).toEqual(['createClaimableBalanceNotAuthorized']);
  await h.succeed(issuer, [Operation.allowTrust({ trustor: acc1.publicKey(), assetCode: 'USD', authorize: 1 })]);
  expect(await codes(h, acc1, [createBalanceOp(asset, amount, valid)])).toEqual(['createClaimableBalanceUnderfunded']);
  const fund = () =>
    native
      ? h.succeed(h.root, [Operation.payment({ destination: acc1.publicKey(), asset, amount: stroops(amount) })])
      : h.succeed(issuer, [Operation.payment({ destination: acc1.publicKey(), asset, amount: stroops(amount) })]);
  await fund();
  // two claimants take two reserves: the account has 3 (account, trust line, one balance claimant)
  expect(await codes(h, acc1, [createBalanceOp(asset, amount, [claimant(acc2), claimant(issuer)])])).toEqual([
    'createClaimableBalanceLowReserve',
  ]);
  return { ...w, asset, amount, fund, valid };
}

/** stroops as the SDK's amount text */
const stroops = (n: bigint) => `${n / 10_000_000n}.${(n % 10_000_000n).toString().padStart(7, '0')}`;

/** validateBalancesOnCreateAndClaim (neither side sponsored, the creator not merged) */
async function validateCreateAndClaim(
  w: World,
  createAcc: Keypair,
  claimAcc: Keypair,
  asset: Asset,
  amount: bigint,
  claimants: xdr.Claimant[],
) {
  const { h } = w;
  const native = asset.isNative();
  const assetBalance = (kp: Keypair) => (native ? h.available(kp) : lineBalance(h, kp, asset));
  const reserve = BigInt(claimants.length) * RESERVE;
  const createNativeBefore = h.available(createAcc);
  const claimBefore = assetBalance(claimAcc);
  const rootBefore = h.available(h.root);
  const createAssetBefore = assetBalance(createAcc);
  const id = await create(h, createAcc, asset, amount, claimants);
  if (!native) expect(assetBalance(createAcc)).toBe(createAssetBefore - amount);
  h.advance(DAY);
  await h.close();
  const createNativeAfter = h.available(createAcc);
  expect(h.available(h.root)).toBe(rootBefore);
  expect(createNativeAfter).toBe(createNativeBefore - (native ? amount : 0n) - reserve - FEE);
  expect(assetBalance(claimAcc)).toBe(claimBefore);
  await claim(h, claimAcc, id);
  expect(h.available(createAcc)).toBe(createNativeAfter + reserve);
  expect(h.available(h.root)).toBe(rootBefore);
  expect(assetBalance(claimAcc)).toBe(claimBefore + amount - (native ? FEE : 0n));
  return id;
}

describe.each([
  ['native', true],
  ['non-native', false],
])('claimableBalance, %s', (_name, native) => {
  it('no trust, not authorized, underfunded and low reserve, then predicates of every level', async () => {
    const w = await prelude(native);
    for (const levels of [0, 1, 2, 3]) {
      await claim(w.h, w.acc2, await create(w.h, w.acc1, w.asset, w.amount, [claimant(w.acc2, simple(levels))]));
      await w.fund();
    }
  });

  it('number of claimants 1 to 10: one reserve each, back to the creator on claim', async () => {
    const w = await prelude(native);
    for (let i = 1; i <= 10; i++) {
      if (i > 1)
        await w.h.succeed(w.h.root, [
          Operation.payment({ destination: w.acc1.publicKey(), asset: Asset.native(), amount: stroops(RESERVE * BigInt(i - 1)) }),
        ]);
      const claimants = [claimant(w.acc2), ...Array.from({ length: i - 1 }, () => claimant(Keypair.random()))];
      await validateCreateAndClaim(w, w.acc1, w.acc2, w.asset, w.amount, claimants);
      await w.fund();
      if (i > 1)
        await w.h.succeed(w.acc1, [
          Operation.payment({ destination: w.h.root.publicKey(), asset: Asset.native(), amount: stroops(RESERVE * BigInt(i - 1)) }),
        ]);
    }
  });

  it('validity checks: amount, empty and duplicate claimants, invalid predicates', async () => {
    const { h, acc1, asset, amount, valid } = await prelude(native);
    const malformed = async (a: bigint, claimants: xdr.Claimant[]) =>
      expect(await codes(h, acc1, [createBalanceOp(asset, a, claimants)])).toEqual(['createClaimableBalanceMalformed']);
    await malformed(0n, valid);
    await malformed(-1n, valid);
    await malformed(amount, []);
    await malformed(amount, [...valid, valid[0]!]);
    const tree1 = P.claimPredicateOr([simple(0), simple(0)]);
    const tree2 = P.claimPredicateAnd([tree1, tree1]);
    for (const predicate of [
      P.claimPredicateAnd([simple(1)]),
      P.claimPredicateOr([simple(1)]),
      P.claimPredicateBeforeAbsoluteTime(-1n),
      P.claimPredicateBeforeRelativeTime(-1n),
      P.claimPredicateNot(null),
      P.claimPredicateNot(P.claimPredicateBeforeRelativeTime(-1n)),
      P.claimPredicateOr([tree2, P.claimPredicateNot(tree2)]),
    ]) {
      await malformed(amount, [claimant(h.root), claimant(acc1, predicate)]);
    }
  });

  it('claim balance: predicates at a close time one day after the creation', async () => {
    const { h, acc1, acc2, asset, amount, fund } = await prelude(native);
    // stellar-core's makePredicate around the claim's close time (one day after the creation)
    const tryClaim = async (build: (next: bigint) => xdr.ClaimPredicate, expected: string) => {
      // a balance left unclaimed keeps its reserve: one more for each attempt
      await h.succeed(h.root, [Operation.payment({ destination: acc1.publicKey(), asset: Asset.native(), amount: stroops(RESERVE) })]);
      const createdAt = BigInt(h.core.latestLedger().closeTime) + 5n;
      const id = await create(h, acc1, asset, amount, [claimant(acc2, build(createdAt + BigInt(DAY)))]);
      h.advance(DAY - 5);
      expect(await codes(h, acc2, [claimBalanceOp(id)])).toEqual([expected]);
      expect(balanceOf(h, id) === undefined).toBe(expected === 'claimClaimableBalanceSuccess');
      await fund();
    };
    const absBefore = (s: boolean) => (next: bigint) => P.claimPredicateBeforeAbsoluteTime(s ? next + 1n : next);
    const relBefore = (s: boolean) => () => P.claimPredicateBeforeRelativeTime(BigInt(s ? DAY + 1 : DAY));
    const not = (f: (n: bigint) => xdr.ClaimPredicate) => (n: bigint) => P.claimPredicateNot(f(n));
    const and = (l: (n: bigint) => xdr.ClaimPredicate, r: (n: bigint) => xdr.ClaimPredicate) => (n: bigint) =>
      P.claimPredicateAnd([l(n), r(n)]);
    const or = (l: (n: bigint) => xdr.ClaimPredicate, r: (n: bigint) => xdr.ClaimPredicate) => (n: bigint) =>
      P.claimPredicateOr([l(n), r(n)]);
    const cannot = 'claimClaimableBalanceCannotClaim';
    const success = 'claimClaimableBalanceSuccess';
    await tryClaim(() => P.claimPredicateNot(unconditional), cannot);
    await tryClaim(absBefore(false), cannot);
    await tryClaim(relBefore(false), cannot);
    await tryClaim(and(absBefore(false), relBefore(true)), cannot);
    await tryClaim(or(relBefore(false), absBefore(false)), cannot);
    await tryClaim(not(and(absBefore(true), relBefore(true))), cannot);
    await tryClaim(and(or(relBefore(false), not(absBefore(true))), and(not(absBefore(false)), absBefore(true))), cannot);
    await tryClaim(() => unconditional, success);
    await tryClaim(absBefore(true), success);
    await tryClaim(not(absBefore(false)), success);
    await tryClaim(relBefore(true), success);
    await tryClaim(not(relBefore(false)), success);
    await tryClaim(() => P.claimPredicateBeforeRelativeTime(INT64_MAX), success);
    await tryClaim(and(relBefore(true), absBefore(true)), success);
    await tryClaim(or(absBefore(true), relBefore(false)), success);
    await tryClaim(not(and(absBefore(false), relBefore(true))), success);
    await tryClaim(and(and(not(absBefore(false)), absBefore(true)), and(not(relBefore(false)), relBefore(true))), success);
  });

  it('does not exist, no destination match', async () => {
    const { h, acc1, issuer, asset, amount, valid } = await prelude(native);
    const id = await create(h, acc1, asset, amount, valid);
    expect(await codes(h, acc1, [claimBalanceOp(Buffer.alloc(32))])).toEqual(['claimClaimableBalanceDoesNotExist']);
    expect(await codes(h, issuer, [claimBalanceOp(id)])).toEqual(['claimClaimableBalanceCannotClaim']);
  });

  it('multiple creates and claims; the id relies on the sequence number', async () => {
    const w = await prelude(native);
    const { h, acc1, acc2, asset, amount, valid } = w;
    const first = await create(h, acc1, asset, amount, valid);
    await h.succeed(h.root, [Operation.payment({ destination: acc1.publicKey(), asset: Asset.native(), amount: stroops(3n * RESERVE) })]);
    await w.fund();
    const second = await validateCreateAndClaim(w, acc1, acc2, asset, amount, valid);
    expect(second).not.toEqual(first);
    expect(balanceOf(h, first)).toBeDefined();
    await w.fund();
    await validateCreateAndClaim(w, acc1, acc2, asset, amount, valid);
  });

  it('created by a claimant, claimed in another transaction or in the same one', async () => {
    const { h, acc1, asset, amount, fund } = await prelude(native);
    const nativeBefore = h.balance(acc1);
    const assetBefore = native ? 0n : lineBalance(h, acc1, asset);
    await claim(h, acc1, await create(h, acc1, asset, amount, [claimant(acc1)]));
    expect(h.balance(acc1)).toBe(nativeBefore - 2n * FEE);
    if (!native) expect(lineBalance(h, acc1, asset)).toBe(assetBefore);
    await fund();
    const before = h.balance(acc1);
    const id = claimableBalanceHash(acc1.publicKey(), h.seq(acc1) + 1n, 0);
    await h.succeed(acc1, [createBalanceOp(asset, amount, [claimant(acc1)]), claimBalanceOp(id)]);
    expect(h.balance(acc1)).toBe(before - 2n * FEE);
    expect(balanceOf(h, id)).toBeUndefined();
  });
});

describe('claimableBalance', () => {
  it('invalid asset: a code starting with a zero byte is malformed', async () => {
    const { h, acc1, acc2, issuer } = await world();
    const bad = xdr.Asset.assetTypeCreditAlphanum4(
      new xdr.AlphaNum4({ assetCode: Buffer.from([0, 0x53, 0x44, 0]), issuer: publicKey(issuer) }),
    );
    expect(await codes(h, acc1, [createBalanceOp(bad, 100n, [claimant(acc2)])])).toEqual(['createClaimableBalanceMalformed']);
  });

  it('claim trust line issues: no trust, not authorized, line full, then claimed', async () => {
    const { h, acc2, issuer, usd } = await world();
    await h.succeed(issuer, [Operation.payment({ destination: acc2.publicKey(), asset: usd, amount: stroops(INT64_MAX) })]);
    const [acc3] = (await h.fund(50)) as [Keypair];
    const id = await create(h, acc2, usd, INT64_MAX - 100n, [claimant(acc3)]);
    expect(await codes(h, acc3, [claimBalanceOp(id)])).toEqual(['claimClaimableBalanceNoTrust']);
    await h.succeed(issuer, [Operation.setOptions({ setFlags: AUTH_REQUIRED as never })]);
    await h.succeed(acc3, [Operation.changeTrust({ asset: usd })]);
    expect(await codes(h, acc3, [claimBalanceOp(id)])).toEqual(['claimClaimableBalanceNotAuthorized']);
    await h.succeed(issuer, [Operation.allowTrust({ trustor: acc3.publicKey(), assetCode: 'USD', authorize: 1 })]);
    await h.succeed(issuer, [Operation.payment({ destination: acc3.publicKey(), asset: usd, amount: stroops(101n) })]);
    expect(await codes(h, acc3, [claimBalanceOp(id)])).toEqual(['claimClaimableBalanceLineFull']);
    await h.succeed(acc3, [Operation.payment({ destination: issuer.publicKey(), asset: usd, amount: stroops(1n) })]);
    await claim(h, acc3, id);
    expect(lineBalance(h, acc3, usd)).toBe(INT64_MAX);
  });

  it('native line full: the issuer buys INT64_MAX lumens less its balance', async () => {
    const { h, acc2, issuer, usd } = await world();
    const sell = INT64_MAX - h.balance(issuer);
    await h.succeed(issuer, [Operation.manageSellOffer({ selling: usd, buying: Asset.native(), amount: stroops(sell), price: '1' })]);
    const amount = h.balance(issuer);
    await h.succeed(h.root, [Operation.payment({ destination: acc2.publicKey(), asset: Asset.native(), amount: stroops(amount) })]);
    const id = await create(h, acc2, Asset.native(), amount, [claimant(issuer)]);
    expect(await codes(h, issuer, [claimBalanceOp(id)])).toEqual(['claimClaimableBalanceLineFull']);
  });

  it('multiple creates in one transaction: the operation index is in the hash', async () => {
    const { h, acc1, acc2 } = await world();
    await h.succeed(h.root, [Operation.payment({ destination: acc1.publicKey(), asset: Asset.native(), amount: stroops(3n * RESERVE) })]);
    const r = await h.succeed(acc1, [
      createBalanceOp(Asset.native(), 1n, [claimant(acc2)]),
      createBalanceOp(Asset.native(), 2n, [claimant(acc2)]),
    ]);
    const seq = h.seq(acc1);
    for (const [i, amount] of [1n, 2n].entries()) {
      const id = claimableBalanceHash(acc1.publicKey(), seq, i);
      expect(createdBalanceId(r, i)).toEqual(id);
      expect(balanceOf(h, id)).toMatchObject({ asset: { type: 'native' }, amount });
    }
  });

  it('multiple claimants claim in one transaction: the first takes it, the second finds nothing', async () => {
    const { h, acc1, acc2, issuer } = await world();
    await h.succeed(issuer, [Operation.setOptions({ signer: { ed25519PublicKey: acc2.publicKey(), weight: 100 } })]);
    const id = await create(h, acc1, Asset.native(), 1n, [claimant(acc2), claimant(h.root, simple(2))]);
    const acc2Balance = h.balance(acc2);
    const issuerBalance = h.balance(issuer);
    // root is a claimant, the issuer is not: the issuer's operation is signed by acc2 as its signer
    const r = await h.run(acc2, [claimBalanceOp(id), claimBalanceOp(id, issuer)]);
    expect(r.code).toBe('txFailed');
    expect(r.ops).toEqual(['claimClaimableBalanceSuccess', 'claimClaimableBalanceDoesNotExist']);
    expect(h.balance(acc2)).toBe(acc2Balance - 2n * FEE);
    expect(h.balance(issuer)).toBe(issuerBalance);
  });

  it("the transaction's source and sequence number make the id, not the operation's source", async () => {
    const { h, acc1, acc2 } = await world();
    await h.succeed(h.root, [Operation.payment({ destination: acc2.publicKey(), asset: Asset.native(), amount: stroops(3n * RESERVE) })]);
    await h.succeed(acc2, [Operation.setOptions({ signer: { ed25519PublicKey: acc1.publicKey(), weight: 100 } })]);
    const r = await h.succeed(acc1, [createBalanceOp(Asset.native(), 1n, [claimant(acc2)], acc2)]);
    const id = claimableBalanceHash(acc1.publicKey(), h.seq(acc1), 0);
    expect(createdBalanceId(r)).toEqual(id);
    // sponsored by the operation's source, which pays its reserve
    expect(balanceOf(h, id)!.sponsor).toBe(acc2.publicKey());
    await claim(h, acc2, id);

    // "validate tx account is used in hash": two accounts at the same sequence number
    const [accA, accB] = (await h.fund(60, 2)) as [Keypair, Keypair];
    await h.succeed(accB, [Operation.setOptions({ signer: { ed25519PublicKey: accA.publicKey(), weight: 100 } })]);
    await h.succeed(accA, [Operation.bumpSequence({ bumpTo: String(h.seq(accB)) })]);
    expect(h.seq(accA)).toBe(h.seq(accB));
    const id1 = await create(h, accB, Asset.native(), 100n, [claimant(acc2)]);
    const r2 = await h.succeed(accA, [createBalanceOp(Asset.native(), 100n, [claimant(acc2)], accB)]);
    const id2 = createdBalanceId(r2);
    expect(id2).toEqual(claimableBalanceHash(accA.publicKey(), h.seq(accA), 0));
    await claim(h, acc2, id1);
    await claim(h, acc2, id2);
  });

  it('a sponsoring creator cannot merge; an issuer creates and claims its own asset', async () => {
    const { h, acc1, acc2, issuer } = await world();
    await create(h, acc1, Asset.native(), 1n, [claimant(acc2)]);
    expect(await codes(h, acc1, [Operation.accountMerge({ destination: h.root.publicKey() })])).toEqual(['accountMergeIsSponsor']);
    const eur = new Asset('EUR', issuer.publicKey());
    await claim(h, issuer, await create(h, issuer, eur, 100n, [claimant(issuer, unconditional)]));
  });

  it('low reserve counts every claimant, and the reserves count as sponsoring', async () => {
    const { h, acc1, acc2, issuer } = await world();
    // acc1 has 50 XLM: 20 for itself, 30 more for three claimants but not a penny of fees
    expect(await codes(h, acc1, [createBalanceOp(Asset.native(), 1n, [claimant(acc2), claimant(issuer), claimant(h.root)])])).toEqual([
      'createClaimableBalanceLowReserve',
    ]);
    expect(await codes(h, acc1, [createBalanceOp(Asset.native(), 1n, [claimant(acc2), claimant(issuer)])])).toEqual([
      'createClaimableBalanceSuccess',
    ]);
    expect(h.core.account(acc1.publicKey())).toMatchObject({ numSponsoring: 2, numSubEntries: 0, extLevel: 3 });
  });

  it('from a fee bump: the inner transaction’s source and sequence number make the id', async () => {
    const { h, acc1, acc2, issuer } = await world();
    const seq = h.seq(acc1) + 1n;
    const inner = TransactionBuilder.fromXdr(
      h.envelope(acc1, [createBalanceOp(Asset.native(), 5n, [claimant(acc2)])]),
      h.core.networkPassphrase,
    );
    const fb = TransactionBuilder.buildFeeBumpTransaction(issuer, '200', inner as never, h.core.networkPassphrase);
    fb.sign(issuer);
    const r = await h.submitAndClose(fb.toEnvelope().toXdr('base64'));
    expect(r.code).toBe('txFeeBumpInnerSuccess');
    const id = claimableBalanceHash(acc1.publicKey(), seq, 0);
    expect(balanceOf(h, id)).toMatchObject({ amount: 5n, sponsor: acc1.publicKey() });
  });
  it('from a muxed source: the id takes its account (getSourceID), as the SDK computes it', async () => {
    const { h, acc1, acc2 } = await world();
    const muxed = new MuxedAccount(new Account(acc1.publicKey(), String(h.seq(acc1))), '7');
    const tx = new TransactionBuilder(muxed, { fee: '100', networkPassphrase: h.core.networkPassphrase })
      .addOperation(createBalanceOp(Asset.native(), 5n, [claimant(acc2)]))
      .setTimeout(0)
      .build();
    tx.sign(acc1);
    const r = await h.submitAndClose(tx.toEnvelope().toXdr('base64'));
    expect(r.code).toBe('txSuccess');
    const id = claimableBalanceHash(acc1.publicKey(), h.seq(acc1), 0);
    expect(createdBalanceId(r)).toEqual(id);
    expect(horizonBalanceId(id)).toBe(tx.getClaimableBalanceId(0));
  });
});

describe('claimable balance meta', () => {
  it('create: the entry created with its sponsor, the creator’s account and line; claim: the entry removed, the reserve returned', async () => {
    const { h, acc1, acc2, issuer, usd } = await world();
    await h.succeed(h.root, [Operation.payment({ destination: acc1.publicKey(), asset: Asset.native(), amount: '20' })]);
    await h.succeed(acc1, [Operation.changeTrust({ asset: usd })]);
    await h.succeed(issuer, [Operation.payment({ destination: acc1.publicKey(), asset: usd, amount: stroops(1000n) })]);
    const createdAt = BigInt(h.core.latestLedger().closeTime) + 5n;
    const id = await create(h, acc1, usd, 400n, [claimant(acc2, P.claimPredicateBeforeRelativeTime(60n)), claimant(issuer, unconditional)]);
    const createMeta = txMetaV3(closeMetaV1(h.core, h.core.latestLedger().sequence).txProcessing[0]!);
    const changes = createMeta.operations[0]!.changes;
    const created = changes
      .filter((c) => c.type === 'ledgerEntryCreated')
      .map((c) => xdr.expectUnionVariant(c, 'ledgerEntryCreated').created);
    expect(created).toHaveLength(1);
    const entry = created[0]!;
    const cb = xdr.expectUnionVariant(entry.data, 'claimableBalance').claimableBalance;
    expect(Buffer.from(cb.balanceId.v0.value)).toEqual(id);
    expect(cb.amount).toBe(400n);
    // the relative predicate is stored absolute: the creating ledger's close time + 60
    expect(cb.claimants.map((c) => c.v0.predicate.toXdr('hex'))).toEqual([
      P.claimPredicateBeforeAbsoluteTime(createdAt + 60n).toXdr('hex'),
      unconditional.toXdr('hex'),
    ]);
    expect(cb.ext.type).toBe('v0');
    const sponsoring = xdr.expectUnionVariant(entry.ext, 'v1').v1.sponsoringId;
    expect(StrKey.encodeEd25519PublicKey(Buffer.from(sponsoring!.ed25519.value))).toBe(acc1.publicKey());
    const updated = changes
      .filter((c) => c.type === 'ledgerEntryUpdated')
      .map((c) => xdr.expectUnionVariant(c, 'ledgerEntryUpdated').updated.data);
    expect(updated.map((d) => d.type).sort()).toEqual(['account', 'trustline']);
    const account = xdr.expectUnionVariant(updated.find((d) => d.type === 'account')!, 'account').account;
    const v2 = xdr.expectUnionVariant(xdr.expectUnionVariant(account.ext, 'v1').v1.ext, 'v2').v2;
    expect(v2.numSponsoring).toBe(2);
    expect(account.numSubEntries).toBe(1);
    expect(changes.filter((c) => c.type === 'ledgerEntryState')).toHaveLength(2);

    // the issuer claims (unconditional); acc1's reserve comes back though acc1 is not the source
    const before = h.available(acc1);
    await claim(h, issuer, id);
    const claimChanges = txMetaV3(closeMetaV1(h.core, h.core.latestLedger().sequence).txProcessing[0]!).operations[0]!.changes;
    const removed = claimChanges
      .filter((c) => c.type === 'ledgerEntryRemoved')
      .map((c) => xdr.expectUnionVariant(c, 'ledgerEntryRemoved').removed);
    expect(removed.map((k) => k.type)).toEqual(['claimableBalance']);
    const touched = claimChanges
      .filter((c) => c.type === 'ledgerEntryUpdated')
      .map((c) => xdr.expectUnionVariant(xdr.expectUnionVariant(c, 'ledgerEntryUpdated').updated.data, 'account').account.accountId);
    // the sponsor (reserve back) and the issuer (the op's source, loaded as stellar-core does)
    expect(touched.map((a) => StrKey.encodeEd25519PublicKey(Buffer.from(a.ed25519.value))).sort()).toEqual(
      [acc1.publicKey(), issuer.publicKey()].sort(),
    );
    expect(h.available(acc1)).toBe(before + 2n * RESERVE);
    expect(h.core.account(acc1.publicKey())!.numSponsoring).toBe(0);
  });
});

describe('clawbackClaimableBalance', () => {
  /** ClawbackClaimableBalanceTests' world: A1 and gw with minBalance4, gw clawback-enabled, A1 holding 100 IDR */
  async function clawbackWorld() {
    const h = await Harness.create({ baseReserve: Number(RESERVE) });
    const [a1, gateway] = (await h.fund(60, 2)) as [Keypair, Keypair];
    const idr = new Asset('IDR', gateway.publicKey());
    const valid = claimant(gateway, unconditional);
    await h.succeed(gateway, [Operation.setOptions({ setFlags: (AUTH_CLAWBACK_ENABLED | AUTH_REVOCABLE) as never })]);
    await h.succeed(a1, [Operation.changeTrust({ asset: idr, limit: stroops(1000n) })]);
    await h.succeed(gateway, [Operation.payment({ destination: a1.publicKey(), asset: idr, amount: stroops(100n) })]);
    return { h, a1, gateway, idr, valid };
  }

  it('basic test: clawed back, then neither claimed nor clawed back again', async () => {
    const { h, a1, gateway, idr, valid } = await clawbackWorld();
    const id = await create(h, a1, idr, 99n, [valid]);
    expect(balanceOf(h, id)).toMatchObject({ flags: 1, extLevel: 1 });
    await h.succeed(gateway, [clawbackBalanceOp(id)]);
    expect(balanceOf(h, id)).toBeUndefined();
    expect(lineBalance(h, a1, idr)).toBe(1n);
    expect(h.core.account(a1.publicKey())!.numSponsoring).toBe(0);
    expect(await codes(h, gateway, [claimBalanceOp(id)])).toEqual(['claimClaimableBalanceDoesNotExist']);
    expect(await codes(h, gateway, [clawbackBalanceOp(id)])).toEqual(['clawbackClaimableBalanceDoesNotExist']);
  });

  it('alphanum12, and an issuer already holding INT64_MAX liabilities', async () => {
    const { h, a1, gateway, idr, valid } = await clawbackWorld();
    const dollar = new Asset('DOLLAR', gateway.publicKey());
    await h.succeed(a1, [Operation.changeTrust({ asset: dollar, limit: stroops(1000n) })]);
    await h.succeed(gateway, [Operation.payment({ destination: a1.publicKey(), asset: dollar, amount: stroops(100n) })]);
    await h.succeed(gateway, [clawbackBalanceOp(await create(h, a1, dollar, 99n, [valid]))]);
    const usd = new Asset('USD', gateway.publicKey());
    await h.succeed(gateway, [Operation.manageSellOffer({ selling: usd, buying: idr, amount: stroops(INT64_MAX), price: '1' })]);
    await h.succeed(gateway, [clawbackBalanceOp(await create(h, a1, idr, 99n, [claimant(a1, unconditional)]))]);
  });

  it("issuer's own balance: clawback follows the issuer's flag when created", async () => {
    const { h, a1, gateway, idr, valid } = await clawbackWorld();
    await h.succeed(gateway, [Operation.setOptions({ clearFlags: AUTH_CLAWBACK_ENABLED as never })]);
    const id1 = await create(h, gateway, idr, 100n, [claimant(a1, unconditional)]);
    expect(balanceOf(h, id1)).toMatchObject({ flags: 0, extLevel: 0 });
    expect(await codes(h, gateway, [clawbackBalanceOp(id1)])).toEqual(['clawbackClaimableBalanceNotClawbackEnabled']);
    await h.succeed(gateway, [Operation.setOptions({ setFlags: AUTH_CLAWBACK_ENABLED as never })]);
    const id2 = await create(h, gateway, idr, 100n, [valid]);
    await h.succeed(gateway, [clawbackBalanceOp(id2)]);
    await claim(h, a1, id1);
    expect(lineBalance(h, a1, idr)).toBe(200n);
  });

  it('errors: not the issuer (native, alphanum4, alphanum12), not clawback enabled', async () => {
    const { h, a1, gateway, idr, valid } = await clawbackWorld();
    // reserves for four balances and two more lines
    await h.succeed(h.root, [Operation.payment({ destination: a1.publicKey(), asset: Asset.native(), amount: '100' })]);
    const nativeId = await create(h, a1, Asset.native(), 1n, [valid]);
    expect(await codes(h, gateway, [clawbackBalanceOp(nativeId)])).toEqual(['clawbackClaimableBalanceNotIssuer']);
    const idrId = await create(h, a1, idr, 99n, [valid]);
    expect(await codes(h, h.root, [clawbackBalanceOp(idrId)])).toEqual(['clawbackClaimableBalanceNotIssuer']);
    const dollar = new Asset('DOLLAR', gateway.publicKey());
    await h.succeed(a1, [Operation.changeTrust({ asset: dollar, limit: stroops(1000n) })]);
    await h.succeed(gateway, [Operation.payment({ destination: a1.publicKey(), asset: dollar, amount: stroops(100n) })]);
    expect(await codes(h, h.root, [clawbackBalanceOp(await create(h, a1, dollar, 99n, [valid]))])).toEqual([
      'clawbackClaimableBalanceNotIssuer',
    ]);

    await h.succeed(gateway, [Operation.setOptions({ clearFlags: AUTH_CLAWBACK_ENABLED as never })]);
    const usd = new Asset('USD', gateway.publicKey());
    await h.succeed(a1, [Operation.changeTrust({ asset: usd, limit: stroops(1000n) })]);
    await h.succeed(gateway, [Operation.payment({ destination: a1.publicKey(), asset: usd, amount: stroops(100n) })]);
    const usdId = await create(h, a1, usd, 100n, [valid]);
    expect(await codes(h, gateway, [clawbackBalanceOp(usdId)])).toEqual(['clawbackClaimableBalanceNotClawbackEnabled']);
    await claim(h, gateway, usdId);
  });
});

describe('thresholds', () => {
  it('claim needs the low threshold; create and clawback the medium one', async () => {
    const { h, a1, gateway, idr, valid } = await (async () => {
      const h = await Harness.create({ baseReserve: Number(RESERVE) });
      const [a1, gateway] = (await h.fund(60, 2)) as [Keypair, Keypair];
      const idr = new Asset('IDR', gateway.publicKey());
      await h.succeed(gateway, [Operation.setOptions({ setFlags: (AUTH_CLAWBACK_ENABLED | AUTH_REVOCABLE) as never })]);
      await h.succeed(a1, [Operation.changeTrust({ asset: idr })]);
      await h.succeed(gateway, [Operation.payment({ destination: a1.publicKey(), asset: idr, amount: '1' })]);
      return { h, a1, gateway, idr, valid: claimant(gateway, unconditional) };
    })();
    // master weight 1, thresholds low 1, medium 2
    for (const kp of [a1, gateway]) await h.succeed(kp, [Operation.setOptions({ lowThreshold: 1, medThreshold: 2 })]);
    expect(await h.run(a1, [createBalanceOp(idr, 10n, [valid])])).toMatchObject({ code: 'txFailed', ops: ['opBadAuth'] });
    await h.succeed(a1, [Operation.setOptions({ medThreshold: 1 })]);
    const id = await create(h, a1, idr, 10n, [valid]);
    const id2 = await create(h, a1, idr, 10n, [valid]);
    expect(await h.run(gateway, [clawbackBalanceOp(id)])).toMatchObject({ code: 'txFailed', ops: ['opBadAuth'] });
    await claim(h, gateway, id2);
  });
});
