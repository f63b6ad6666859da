// change_trust to pool shares, liquidity_pool_deposit and liquidity_pool_withdraw, with the
// figures of stellar-core's src/transactions/test/LiquidityPoolDepositTests.cpp,
// LiquidityPoolWithdrawTests.cpp and ChangeTrustTests.cpp ("change trust pool share trustline").
// stellar-core's tests issue from root; here a gateway issues, as root is the friendbot's.
import { Asset, Keypair, Operation } from '@stellar/stellar-sdk/base';
import { describe, expect, it } from 'vitest';
import { fails, Harness } from './support/harness.js';
import {
  ANY_PRICE,
  balanceOf,
  deposit,
  pay,
  poolIdOf,
  poolShareLine,
  poolShareLineOf,
  poolState,
  sellOffer,
  trust,
  trustLine,
  trustLineOf,
  trustPool,
  withdraw,
} from './support/dex.js';

const MAX = 0x7fffffffffffffffn;
const I32 = 2147483647;
const RESERVE = 5_000_000n;
const XLM = Asset.native();
/** stellar-core's getLastMinBalance(n) */
const minBal = (n: number): bigint => BigInt(2 + n) * RESERVE;

async function create(h: Harness, stroops: bigint): Promise<Keypair> {
  const kp = Keypair.random();
  const startingBalance = `${stroops / 10_000_000n}.${String(stroops % 10_000_000n).padStart(7, '0')}`;
  await h.succeed(h.root, [Operation.createAccount({ destination: kp.publicKey(), startingBalance })]);
  return kp;
}

/** A gateway issuing CUR1 and CUR2 (cur1 < cur2, so pool12's asset A is cur1), optionally with AUTH_REQUIRED. */
async function world(authRequired = false) {
  const h = await Harness.create();
  const gw = await create(h, 1000n * 10_000_000n);
  if (authRequired) await h.succeed(gw, [Operation.setOptions({ setFlags: 1 })]);
  const cur1 = new Asset('CUR1', gw.publicKey());
  const cur2 = new Asset('CUR2', gw.publicKey());
  return { h, gw, cur1, cur2, pool12: poolIdOf(cur1, cur2), poolNative1: poolIdOf(XLM, cur1) };
}

const authorize = (trustor: Keypair, asset: Asset, level: 0 | 1 | 2) =>
  Operation.allowTrust({ trustor: trustor.publicKey(), assetCode: asset.getCode(), authorize: level });

describe('liquidity pool deposit (LiquidityPoolDepositTests.cpp)', () => {
  it('validity checks', async () => {
    const { h, pool12 } = await world();
    const [a] = await h.fund(100);
    const bad: [number, number, [number, number], [number, number]][] = [
      [0, 100, [1, 1], [1, 1]],
      [-1, 100, [1, 1], [1, 1]],
      [100, 0, [1, 1], [1, 1]],
      [100, -1, [1, 1], [1, 1]],
      [100, 100, [0, 1], [1, 1]],
      [100, 100, [-1, 1], [1, 1]],
      [100, 100, [1, 0], [1, 1]],
      [100, 100, [1, -1], [1, 1]],
      [100, 100, [1, 1], [0, 1]],
      [100, 100, [1, 1], [-1, 1]],
      [100, 100, [1, 1], [1, 0]],
      [100, 100, [1, 1], [1, -1]],
      // minPrice > maxPrice
      [100, 100, [2, 1], [1, 1]],
    ];
    for (const [x, y, min, max] of bad) await fails(h, a!, deposit(pool12, x, y, min, max), 'liquidityPoolDepositMalformed');
  });

  it('both non-native without liabilities', async () => {
    const { h, gw, cur1, cur2, pool12 } = await world(true);
    // an empty pool
    const a1 = await create(h, minBal(10));
    await fails(h, a1, deposit(pool12, 400, 900, [1, 1], [1, 1]), 'liquidityPoolDepositNoTrust');
    await h.succeed(a1, [trust(cur1, 2000), trust(cur2, 2000)]);
    await h.succeed(gw, [authorize(a1, cur1, 2), authorize(a1, cur2, 2)]);
    await h.succeed(a1, [trustPool(cur1, cur2, 1)]);
    await fails(h, a1, deposit(pool12, 400, 900, [1, 1], [1, 1]), 'liquidityPoolDepositNotAuthorized');
    await h.succeed(gw, [authorize(a1, cur1, 1)]);
    await fails(h, a1, deposit(pool12, 400, 900, [1, 1], [1, 1]), 'liquidityPoolDepositNotAuthorized');
    await h.succeed(gw, [authorize(a1, cur2, 1)]);
    await fails(h, a1, deposit(pool12, 400, 900, [1, 1], [1, 1]), 'liquidityPoolDepositUnderfunded');
    await h.succeed(gw, [pay(a1, cur1, 800)]);
    await fails(h, a1, deposit(pool12, 400, 900, [1, 1], [1, 1]), 'liquidityPoolDepositUnderfunded');
    await h.succeed(gw, [pay(a1, cur2, 1800)]);
    await fails(h, a1, deposit(pool12, 400, 900, [1, 1], [1, 1]), 'liquidityPoolDepositBadPrice');
    await fails(h, a1, deposit(pool12, 400, 900, [4, 9], [4, 9]), 'liquidityPoolDepositLineFull');
    await h.succeed(a1, [trustPool(cur1, cur2, 600)]);
    await h.succeed(a1, [deposit(pool12, 400, 900, [4, 9], [4, 9])]);
    expect(balanceOf(h.core, a1, cur1)).toBe(400n);
    expect(balanceOf(h.core, a1, cur2)).toBe(900n);
    expect(poolShareLineOf(h.core, a1, pool12)?.balance).toBe(600n);
    expect(poolState(h.core, pool12)).toEqual([400n, 900n, 600n, 1n]);

    // a pool with shares
    const a2 = await create(h, minBal(10));
    await fails(h, a2, deposit(pool12, 400, 900, [1, 1], [1, 1]), 'liquidityPoolDepositNoTrust');
    await h.succeed(a2, [trust(cur1, MAX), trust(cur2, MAX)]);
    await h.succeed(gw, [authorize(a2, cur1, 2), authorize(a2, cur2, 2)]);
    await h.succeed(a2, [trustPool(cur1, cur2, 1)]);
    await fails(h, a2, deposit(pool12, 400, 900, [1, 1], [1, 1]), 'liquidityPoolDepositNotAuthorized');
    await h.succeed(gw, [authorize(a2, cur1, 1)]);
    await fails(h, a2, deposit(pool12, 400, 900, [1, 1], [1, 1]), 'liquidityPoolDepositNotAuthorized');
    await h.succeed(gw, [authorize(a2, cur2, 1)]);
    await fails(h, a2, deposit(pool12, 400, 900, [1, 1], [1, 1]), 'liquidityPoolDepositUnderfunded');
    await h.succeed(gw, [pay(a2, cur1, MAX)]);
    await fails(h, a2, deposit(pool12, 400, 900, [1, 1], [1, 1]), 'liquidityPoolDepositUnderfunded');
    await h.succeed(gw, [pay(a2, cur2, MAX)]);
    await fails(h, a2, deposit(pool12, 400, 900, [1, 1], [1, 1]), 'liquidityPoolDepositBadPrice');
    await fails(h, a2, deposit(pool12, 400, 900, [4, 9], [4, 9]), 'liquidityPoolDepositLineFull');
    await h.succeed(a2, [trustPool(cur1, cur2, MAX)]);
    await fails(h, a2, deposit(pool12, MAX, MAX, ...ANY_PRICE), 'liquidityPoolDepositPoolFull');
    await h.succeed(a2, [deposit(pool12, 101, 151, [3, 9], [5, 9])]);
    expect(balanceOf(h.core, a2, cur1)).toBe(MAX - 67n);
    expect(balanceOf(h.core, a2, cur2)).toBe(MAX - 150n);
    expect(poolShareLineOf(h.core, a2, pool12)?.balance).toBe(100n);
    expect(poolState(h.core, pool12)).toEqual([467n, 1050n, 700n, 2n]);
  });

  it('one non-native without liabilities', async () => {
    const { h, gw, cur1, poolNative1 } = await world(true);
    const d = (amountB = BigInt(I32), min: [number, number] = [1, 1], max: [number, number] = [1, 1]) =>
      deposit(poolNative1, 1, amountB, min, max);
    // an empty pool
    const a1 = await create(h, minBal(3) + 6n * 100n);
    await fails(h, a1, d(), 'liquidityPoolDepositNoTrust');
    await h.succeed(a1, [trust(cur1, MAX)]);
    await h.succeed(gw, [authorize(a1, cur1, 2)]);
    await h.succeed(a1, [trustPool(XLM, cur1, 1)]);
    await fails(h, a1, d(), 'liquidityPoolDepositNotAuthorized');
    await h.succeed(gw, [authorize(a1, cur1, 1)]);
    await fails(h, a1, d(), 'liquidityPoolDepositUnderfunded');
    await h.succeed(h.root, [Operation.payment({ destination: a1.publicKey(), asset: XLM, amount: '6' })]);
    await fails(h, a1, d(), 'liquidityPoolDepositUnderfunded');
    await h.succeed(gw, [pay(a1, cur1, MAX)]);
    await fails(h, a1, d(), 'liquidityPoolDepositBadPrice');
    await fails(h, a1, d(BigInt(I32), [1, I32], [1, I32]), 'liquidityPoolDepositLineFull');
    await h.succeed(a1, [trustPool(XLM, cur1, MAX)]);
    let balance = balanceOf(h.core, a1, XLM);
    await h.succeed(a1, [d(BigInt(I32), [1, I32], [1, I32])]);
    expect(balanceOf(h.core, a1, XLM)).toBe(balance - 100n - 1n);
    expect(balanceOf(h.core, a1, cur1)).toBe(MAX - BigInt(I32));
    expect(poolShareLineOf(h.core, a1, poolNative1)?.balance).toBe(46340n);
    expect(poolState(h.core, poolNative1)).toEqual([1n, BigInt(I32), 46340n, 1n]);

    // a pool with shares
    const a2 = await create(h, minBal(3) + 6n * 100n);
    await h.succeed(a2, [trust(cur1, MAX)]);
    await h.succeed(gw, [authorize(a2, cur1, 2)]);
    await h.succeed(a2, [trustPool(XLM, cur1, 1)]);
    await fails(h, a2, d(), 'liquidityPoolDepositNotAuthorized');
    await h.succeed(gw, [authorize(a2, cur1, 1)]);
    await fails(h, a2, d(), 'liquidityPoolDepositUnderfunded');
    await h.succeed(h.root, [Operation.payment({ destination: a2.publicKey(), asset: XLM, amount: '506' })]);
    await h.succeed(gw, [pay(a2, cur1, MAX)]);
    await fails(h, a2, d(), 'liquidityPoolDepositBadPrice');
    await fails(h, a2, d(BigInt(I32), [1, I32], [I32, 1]), 'liquidityPoolDepositLineFull');
    await h.succeed(a2, [trustPool(XLM, cur1, MAX)]);
    await fails(h, a2, deposit(poolNative1, 5000000000n, MAX, ...ANY_PRICE), 'liquidityPoolDepositPoolFull');
    balance = balanceOf(h.core, a2, XLM);
    await h.succeed(a2, [d(BigInt(I32), [1, I32], [I32, 1])]);
    expect(balanceOf(h.core, a2, XLM)).toBe(balance - 100n - 1n);
    expect(balanceOf(h.core, a2, cur1)).toBe(MAX - BigInt(I32));
    expect(poolShareLineOf(h.core, a2, poolNative1)?.balance).toBe(46340n);
    expect(poolState(h.core, poolNative1)).toEqual([2n, 2n * BigInt(I32), 92680n, 2n]);
  });

  it('pool share calculation overflows for one asset: rounding leaves extra asset in the pool (assetB fail)', async () => {
    const { h, gw, cur1, cur2, pool12 } = await world();
    const [a1, a2] = [await create(h, minBal(10)), await create(h, minBal(10))];
    for (const a of [a1, a2]) await h.succeed(a, [trust(cur1, MAX), trust(cur2, MAX), trustPool(cur1, cur2, MAX)]);
    await h.succeed(gw, [pay(a1, cur1, 1000), pay(a1, cur2, 1000), pay(a2, cur1, MAX), pay(a2, cur2, MAX)]);
    await h.succeed(a1, [deposit(pool12, 900, 400, [9, 4], [9, 4])]);
    expect(poolState(h.core, pool12)).toEqual([900n, 400n, 600n, 2n]);
    await h.succeed(a2, [deposit(pool12, MAX - 1000n, MAX - 1000n, ...ANY_PRICE)]);
    expect(poolShareLineOf(h.core, a2, pool12)?.balance).toBe(6148914691236516538n);
    expect(balanceOf(h.core, a2, cur1)).toBe(MAX - 9223372036854774807n);
    expect(balanceOf(h.core, a2, cur2)).toBe(MAX - 4099276460824344359n);
    expect(poolState(h.core, pool12)).toEqual([9223372036854775707n, 4099276460824344759n, 6148914691236517138n, 2n]);
    await h.succeed(a2, [withdraw(pool12, 6148914691236516538n, 9223372036854774807n, 4099276460824344358n)]);
    expect(balanceOf(h.core, a2, cur1)).toBe(MAX);
    expect(balanceOf(h.core, a2, cur2)).toBe(MAX - 1n);
    expect(poolState(h.core, pool12)).toEqual([900n, 401n, 600n, 2n]);
    await h.succeed(a1, [withdraw(pool12, 600, 900, 401)]);
    expect(balanceOf(h.core, a1, cur1)).toBe(1000n);
    expect(balanceOf(h.core, a1, cur2)).toBe(1001n);
    expect(poolState(h.core, pool12)).toEqual([0n, 0n, 0n, 2n]);
  });

  it('underfunded due to liabilities (assetA, into an empty then an existing pool)', async () => {
    const { h, gw, cur1, cur2, pool12 } = await world();
    const buying = new Asset('BUY1', gw.publicKey());
    const a1 = await create(h, minBal(10));
    await h.succeed(a1, [trust(cur1, 1), trust(cur2, 1), trust(buying, 1)]);
    await h.succeed(gw, [pay(a1, cur1, 1), pay(a1, cur2, 1)]);
    await h.succeed(a1, [trustPool(cur1, cur2, 2)]);
    for (let round = 0; round < 2; round++) {
      const r = await h.succeed(a1, [sellOffer(cur1, buying, 1, 1, 1)]);
      expect(r.ops).toEqual(['manageSellOfferSuccess']);
      await fails(h, a1, deposit(pool12, 1, 1, [1, 1], [1, 1]), 'liquidityPoolDepositUnderfunded');
      const offerId = [...h.core.entries()].find((e) => e.type === 'offer')!;
      await h.succeed(a1, [sellOffer(cur1, buying, 0, 1, 1, offerId.type === 'offer' ? offerId.offerId : 0n)]);
      await h.succeed(a1, [deposit(pool12, 1, 1, [1, 1], [1, 1])]);
      await h.succeed(gw, [pay(a1, cur1, 1), pay(a1, cur2, 1)]);
    }
  });

  it('bad price in existing pool due to 0 calculated deposit amounts for both assets', async () => {
    const { h, gw, cur1, cur2, pool12 } = await world();
    const a1 = await create(h, minBal(10));
    await h.succeed(a1, [trust(cur1, 10000), trust(cur2, 10000), trustPool(cur1, cur2, 1000)]);
    await h.succeed(gw, [pay(a1, cur1, 10000), pay(a1, cur2, 10000)]);
    await h.succeed(a1, [deposit(pool12, 500, 1000, [1, 2], [1, 2])]);
    expect(poolState(h.core, pool12)).toEqual([500n, 1000n, 707n, 1n]);
    await fails(h, a1, deposit(pool12, 100, 1, [2, 3], [4, 1]), 'liquidityPoolDepositBadPrice');
  });
});

describe('liquidity pool withdraw (LiquidityPoolWithdrawTests.cpp)', () => {
  it('malformed', async () => {
    const { h, pool12 } = await world();
    const [a] = await h.fund(100);
    for (const w of [withdraw(pool12, 0, 1, 1), withdraw(pool12, 1, -1, 1), withdraw(pool12, 1, 1, -1)]) {
      await fails(h, a!, w, 'liquidityPoolWithdrawMalformed');
    }
  });

  it('both non-native without liabilities', async () => {
    const { h, gw, cur1, cur2, pool12 } = await world();
    const acc1 = await create(h, minBal(10));
    await fails(h, acc1, withdraw(pool12, 1, 0, 0), 'liquidityPoolWithdrawNoTrust');
    await h.succeed(acc1, [trust(cur1, 200), trust(cur2, 50)]);
    await h.succeed(gw, [pay(acc1, cur1, 200), pay(acc1, cur2, 50)]);
    await h.succeed(acc1, [trustPool(cur1, cur2, 100)]);
    await fails(h, acc1, withdraw(pool12, 1, 0, 0), 'liquidityPoolWithdrawUnderfunded');
    await h.succeed(acc1, [deposit(pool12, 200, 50, [4, 1], [4, 1])]);
    await fails(h, acc1, withdraw(pool12, 100, 201, 0), 'liquidityPoolWithdrawUnderMinimum');
    await fails(h, acc1, withdraw(pool12, 100, 0, 51), 'liquidityPoolWithdrawUnderMinimum');
    await h.succeed(acc1, [trust(cur1, 1)]);
    await fails(h, acc1, withdraw(pool12, 2, 0, 0), 'liquidityPoolWithdrawLineFull');
    await h.succeed(acc1, [trust(cur2, 1)]);
    await fails(h, acc1, withdraw(pool12, 2, 0, 0), 'liquidityPoolWithdrawLineFull');
    await h.succeed(acc1, [trust(cur1, 200), trust(cur2, 50)]);
    // withdrawal works when only authorized to maintain liabilities
    await h.succeed(gw, [Operation.setOptions({ setFlags: 2 })]);
    await h.succeed(gw, [authorize(acc1, cur1, 2), authorize(acc1, cur2, 2)]);
    await h.succeed(acc1, [withdraw(pool12, 50, 100, 25)]);
    expect([balanceOf(h.core, acc1, cur1), balanceOf(h.core, acc1, cur2)]).toEqual([100n, 25n]);
    expect(poolShareLineOf(h.core, acc1, pool12)?.balance).toBe(50n);
    expect(poolState(h.core, pool12)).toEqual([100n, 25n, 50n, 1n]);
    // a different depositor (the issuer)
    await h.succeed(gw, [trustPool(cur1, cur2, 50)]);
    await h.succeed(gw, [deposit(pool12, 100, 25, [4, 1], [4, 1])]);
    expect(poolState(h.core, pool12)).toEqual([200n, 50n, 100n, 2n]);
    await h.succeed(acc1, [withdraw(pool12, 50, 100, 25)]);
    expect([balanceOf(h.core, acc1, cur1), balanceOf(h.core, acc1, cur2)]).toEqual([200n, 50n]);
    expect(poolShareLineOf(h.core, acc1, pool12)?.balance).toBe(0n);
    expect(poolState(h.core, pool12)).toEqual([100n, 25n, 50n, 2n]);
    await h.succeed(gw, [withdraw(pool12, 50, 100, 25)]);
    expect(poolState(h.core, pool12)).toEqual([0n, 0n, 0n, 2n]);
    // rounding: sqrt(90*24) ≈ 46.48 gives 46 shares
    await h.succeed(gw, [authorize(acc1, cur1, 1), authorize(acc1, cur2, 1)]);
    await h.succeed(acc1, [deposit(pool12, 90, 24, [90, 24], [90, 24])]);
    expect([balanceOf(h.core, acc1, cur1), balanceOf(h.core, acc1, cur2)]).toEqual([110n, 26n]);
    expect(poolState(h.core, pool12)).toEqual([90n, 24n, 46n, 2n]);
    // floor(2/46*90) = 3, floor(2/46*24) = 1
    await h.succeed(acc1, [withdraw(pool12, 2, 0, 0)]);
    expect([balanceOf(h.core, acc1, cur1), balanceOf(h.core, acc1, cur2)]).toEqual([113n, 27n]);
    expect(poolState(h.core, pool12)).toEqual([87n, 23n, 44n, 2n]);
    await h.succeed(acc1, [withdraw(pool12, 44, 0, 0)]);
    expect([balanceOf(h.core, acc1, cur1), balanceOf(h.core, acc1, cur2)]).toEqual([200n, 50n]);
    expect(poolState(h.core, pool12)).toEqual([0n, 0n, 0n, 2n]);
  });

  it('one non-native without liabilities', async () => {
    const { h, gw, cur1, poolNative1 } = await world();
    const acc1 = await create(h, minBal(10));
    await fails(h, acc1, withdraw(poolNative1, 1, 0, 0), 'liquidityPoolWithdrawNoTrust');
    await h.succeed(acc1, [trust(cur1, 200)]);
    await h.succeed(gw, [pay(acc1, cur1, 200)]);
    await h.succeed(acc1, [trustPool(XLM, cur1, 100)]);
    await fails(h, acc1, withdraw(poolNative1, 1, 0, 0), 'liquidityPoolWithdrawUnderfunded');
    await h.succeed(acc1, [deposit(poolNative1, 50, 200, [1, 4], [1, 4])]);
    await fails(h, acc1, withdraw(poolNative1, 100, 51, 0), 'liquidityPoolWithdrawUnderMinimum');
    await fails(h, acc1, withdraw(poolNative1, 100, 0, 201), 'liquidityPoolWithdrawUnderMinimum');
    await h.succeed(acc1, [trust(cur1, 1)]);
    await fails(h, acc1, withdraw(poolNative1, 2, 0, 0), 'liquidityPoolWithdrawLineFull');
    await h.succeed(acc1, [trust(cur1, 200)]);
    const balance = balanceOf(h.core, acc1, XLM);
    await h.succeed(acc1, [withdraw(poolNative1, 50, 25, 100)]);
    expect(balanceOf(h.core, acc1, XLM)).toBe(balance - 100n + 25n);
    expect(balanceOf(h.core, acc1, cur1)).toBe(100n);
    expect(poolState(h.core, poolNative1)).toEqual([25n, 100n, 50n, 1n]);
  });

  it('withdraw into account with liabilities', async () => {
    const { h, gw, cur1, cur2, pool12 } = await world();
    const acc1 = await create(h, minBal(10));
    await h.succeed(acc1, [trust(cur1, 100), trust(cur2, 100)]);
    await h.succeed(gw, [pay(acc1, cur1, 100), pay(acc1, cur2, 100)]);
    await h.succeed(acc1, [trustPool(cur1, cur2, 100)]);
    await h.succeed(acc1, [deposit(pool12, 100, 100, [1, 1], [1, 1])]);
    // an offer buying 100 CUR1 fills the line's limit with buying liabilities
    await h.succeed(acc1, [sellOffer(XLM, cur1, 100, 1, 1)]);
    await fails(h, acc1, withdraw(pool12, 1, 1, 0), 'liquidityPoolWithdrawLineFull');
  });

  it('one non-native issuer deposit and withdraw', async () => {
    const { h, gw, cur1, poolNative1 } = await world();
    await h.succeed(gw, [trustPool(XLM, cur1, MAX)]);
    await h.succeed(gw, [deposit(poolNative1, 1000, 1000, [1, 1], [1, 1])]);
    await h.succeed(gw, [withdraw(poolNative1, 1000, 1000, 1000)]);
    expect(poolState(h.core, poolNative1)).toEqual([0n, 0n, 0n, 1n]);
    await h.succeed(gw, [trustPool(XLM, cur1, 0)]);
    expect(poolState(h.core, poolNative1)).toBeNull();
  });

  it('both non-native one asset withdraw is zero', async () => {
    const { h, gw, cur1, cur2, pool12 } = await world();
    const acc1 = await create(h, minBal(10));
    await h.succeed(acc1, [trust(cur1, 10), trust(cur2, 10)]);
    await h.succeed(gw, [pay(acc1, cur1, 1), pay(acc1, cur2, 10)]);
    await h.succeed(acc1, [trustPool(cur1, cur2, 4)]);
    await h.succeed(acc1, [deposit(pool12, 1, 10, [1, 10], [1, 10])]);
    expect(poolShareLineOf(h.core, acc1, pool12)?.balance).toBe(3n);
    expect(poolState(h.core, pool12)).toEqual([1n, 10n, 3n, 1n]);
    await h.succeed(acc1, [withdraw(pool12, 2, 0, 6)]);
    expect(poolState(h.core, pool12)).toEqual([1n, 4n, 1n, 1n]);
    await h.succeed(acc1, [withdraw(pool12, 1, 1, 4)]);
    expect([balanceOf(h.core, acc1, cur1), balanceOf(h.core, acc1, cur2)]).toEqual([1n, 10n]);
    expect(poolState(h.core, pool12)).toEqual([0n, 0n, 0n, 1n]);
  });
});

describe('change trust pool share trustline (ChangeTrustTests.cpp)', () => {
  const poolShareTest = async (kind: 'twoNonNative' | 'native' | 'oneIssuer', startWithPool: boolean) => {
    const h = await Harness.create();
    const gw = await create(h, minBal(10));
    const [owner] = await h.fund(1000);
    const idr = new Asset('IDR', gw.publicKey());
    const assetA = kind === 'native' ? XLM : idr;
    const assetB =
      kind === 'twoNonNative' ? new Asset('USD', gw.publicKey()) : kind === 'native' ? idr : new Asset('USD', owner!.publicKey());
    const poolId = poolIdOf(assetA, assetB);
    if (startWithPool) {
      const a1 = await create(h, minBal(4) + 300n);
      await h.succeed(a1, [...[assetA, assetB].filter((a) => !a.isNative()).map((a) => trust(a, 10)), trustPool(assetA, assetB, 10)]);
    }
    await h.succeed(gw, [Operation.setOptions({ setFlags: 1 })]);
    const hasTrust = (a: Asset) => !a.isNative() && a.getIssuer() !== owner!.publicKey();
    await fails(h, owner!, trustPool(assetA, assetB, 10), 'changeTrustTrustLineMissing');
    if (hasTrust(assetA)) {
      await h.succeed(owner!, [trust(assetA, 10)]);
      await fails(h, owner!, trustPool(assetA, assetB, 10), 'changeTrustNotAuthMaintainLiabilities');
      await h.succeed(gw, [authorize(owner!, assetA, 2)]);
    }
    if (hasTrust(assetB)) {
      await fails(h, owner!, trustPool(assetA, assetB, 10), 'changeTrustTrustLineMissing');
      await h.succeed(owner!, [trust(assetB, 10)]);
      await fails(h, owner!, trustPool(assetA, assetB, 10), 'changeTrustNotAuthMaintainLiabilities');
      await h.succeed(gw, [authorize(owner!, assetB, 2)]);
    }
    const subentries = () => h.core.account(owner!.publicKey())!.numSubEntries;
    const before = subentries();
    await h.succeed(owner!, [trustPool(assetA, assetB, 10)]);
    expect(subentries() - before).toBe(2);
    const line = poolShareLineOf(h.core, owner!, poolId)!;
    expect(line.flags).toBe(0);
    for (const a of [assetA, assetB].filter(hasTrust)) {
      expect(trustLineOf(h.core, owner!, a)?.liquidityPoolUseCount).toBe(1);
      expect(trustLineOf(h.core, owner!, a)?.extLevel).toBe(2);
    }
    expect(poolState(h.core, poolId)).toEqual([0n, 0n, 0n, startWithPool ? 2n : 1n]);
    for (const a of [assetA, assetB].filter(hasTrust)) await fails(h, owner!, trust(a, 0), 'changeTrustCannotDelete');

    // the limit of a shares line stays above its balance
    for (const a of [assetA, assetB].filter(hasTrust)) {
      await h.succeed(gw, [authorize(owner!, a, 1)]);
      await h.succeed(gw, [pay(owner!, a, 10)]);
    }
    await h.succeed(owner!, [deposit(poolId, 10, 10, [1, 1], [1, 1])]);
    await fails(h, owner!, trustPool(assetA, assetB, 9), 'changeTrustInvalidLimit');
    await fails(h, owner!, trustPool(assetA, assetB, 0), 'changeTrustInvalidLimit');
    await h.succeed(owner!, [trustPool(assetA, assetB, 11)]);
    await h.succeed(owner!, [withdraw(poolId, 10, 10, 10)]);
    const after = subentries();
    await h.succeed(owner!, [trustPool(assetA, assetB, 0)]);
    expect(poolShareLineOf(h.core, owner!, poolId)).toBeUndefined();
    expect(subentries()).toBe(after - 2);
    for (const a of [assetA, assetB].filter(hasTrust)) expect(trustLineOf(h.core, owner!, a)?.liquidityPoolUseCount).toBe(0);
    expect(poolState(h.core, poolId) !== null).toBe(startWithPool);
    for (const a of [assetA, assetB].filter(hasTrust)) {
      await h.succeed(owner!, [pay(gw, a, 10)]);
      await h.succeed(owner!, [trust(a, 0)]);
    }
  };

  it('new pool with two non-native assets', () => poolShareTest('twoNonNative', false));
  it('existing pool with two non-native assets', () => poolShareTest('twoNonNative', true));
  it('new pool with a native asset', () => poolShareTest('native', false));
  it('existing pool with a native asset', () => poolShareTest('native', true));
  it('new pool with one issuer asset', () => poolShareTest('oneIssuer', false));

  it('malformed pools and a new line with limit 0', async () => {
    const h = await Harness.create();
    const [gw, owner] = await h.fund(100, 2);
    const idr = new Asset('IDR', gw!.publicKey());
    const usd = new Asset('USD', gw!.publicKey());
    // a fee other than 30, invalid order, native last, the same asset twice
    for (const line of [poolShareLine(idr, usd, 29), poolShareLine(usd, idr), poolShareLine(idr, XLM), poolShareLine(idr, idr)]) {
      await fails(h, owner!, trustLine(line, 10), 'changeTrustMalformed');
    }
    await fails(h, owner!, trustPool(idr, usd, 0), 'changeTrustInvalidLimit');
  });

  it('low reserve', async () => {
    const h = await Harness.create();
    const gw = await create(h, minBal(10));
    const idr = new Asset('IDR', gw.publicKey());
    const usd = new Asset('USD', gw.publicKey());
    const acc1 = await create(h, minBal(3));
    await h.succeed(h.root, [Operation.payment({ destination: acc1.publicKey(), asset: XLM, amount: '0.0000300' })]);
    await h.succeed(acc1, [trust(idr, 10), trust(usd, 10)]);
    await fails(h, acc1, trustPool(idr, usd, 10), 'changeTrustLowReserve');
    await h.succeed(h.root, [Operation.payment({ destination: acc1.publicKey(), asset: XLM, amount: '1' })]);
    await h.succeed(acc1, [trustPool(idr, usd, 10)]);
  });
});
