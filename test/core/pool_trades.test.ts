// Path payments through liquidity pools, with the figures of stellar-core's
// src/transactions/test/LiquidityPoolTradeTests.cpp ("liquidity pool trade"). Its
// testLiquidityPoolTrading runs with (CUR1, CUR2) and with the two swapped, as here.
import { Asset, type Keypair, type xdr } from '@stellar/stellar-sdk/base';
import { describe, expect, it } from 'vitest';
import { compareAssets, fromStellarAsset } from '../../src/stellar/index.js';
import { fails, Harness, opResultsOf, type Applied } from './support/harness.js';
import {
  ANY_PRICE,
  atomKinds,
  balanceOf,
  claimAtoms,
  deposit,
  pay,
  poolAtom,
  poolIdOf,
  poolState,
  sellOffer,
  strictReceive,
  strictSend,
  trust,
  trustPool,
} from './support/dex.js';

const MAX = 0x7fffffffffffffffn;
const XLM = Asset.native();

const opResult = (r: Applied): xdr.OperationResult => opResultsOf(r.result!)[0]!;
const less = (x: Asset, y: Asset): boolean => compareAssets(fromStellarAsset(x), fromStellarAsset(y)) < 0;

/** A gateway issuing CUR1, CUR2, CUR3; accounts with lines, balances and pool-share lines. */
async function world() {
  const h = await Harness.create();
  const [gw] = await h.fund(1000);
  const asset = (code: string) => new Asset(code, gw!.publicKey());
  const account = async (lines: Asset[], balances: [Asset, bigint][] = [], pools: [Asset, Asset][] = []) => {
    const [kp] = await h.fund(6);
    await h.succeed(kp!, [...lines.map((a) => trust(a)), ...pools.map(([x, y]) => trustPool(x, y))]);
    if (balances.length > 0)
      await h.succeed(
        gw!,
        balances.map(([a, n]) => pay(kp!, a, n)),
      );
    return kp!;
  };
  return { h, gw: gw!, asset, account };
}

describe('liquidity pool trade, without offers', () => {
  type Name = 'cur1' | 'cur2' | 'native';
  type Case = [kind: 'receive' | 'send', send: Name, dest: Name, bound: 'satisfies limit' | 'at limit' | 'fails due to limit'];
  const pairs: [Name, Name][] = [
    ['cur2', 'cur1'],
    ['cur1', 'cur2'],
    ['native', 'cur1'],
    ['cur1', 'native'],
  ];
  const cases: Case[] = (['receive', 'send'] as const).flatMap((kind) =>
    pairs.flatMap(([s, d]) => (['satisfies limit', 'at limit', 'fails due to limit'] as const).map((b): Case => [kind, s, d, b])),
  );

  // testStrictReceive/testStrictSend(sendAsset, 112, destAsset, 100): the pool takes 112 for 100
  it.each(cases)('strict %s, %s for %s: %s', async (kind, sendName, destName, bound) => {
    const { h, asset, account } = await world();
    const cur1 = asset('CUR1');
    const cur2 = asset('CUR2');
    const named = { cur1, cur2, native: XLM };
    const [sendAsset, destAsset] = [named[sendName], named[destName]];
    const funded = (): Promise<Keypair> =>
      account(
        [cur1, cur2],
        [
          [cur1, 10000n],
          [cur2, 10000n],
        ],
        [
          [cur1, cur2],
          [XLM, cur1],
        ],
      );
    const a1 = await funded();
    const a2 = await funded();
    await h.succeed(a1, [deposit(poolIdOf(cur1, cur2), 1000, 1000, ...ANY_PRICE), deposit(poolIdOf(XLM, cur1), 1000, 1000, ...ANY_PRICE)]);
    const poolId = poolIdOf(sendAsset, destAsset);
    const limit = { 'satisfies limit': 1n, 'at limit': 0n, 'fails due to limit': -1n }[bound];
    const op =
      kind === 'receive'
        ? strictReceive(sendAsset, 112n + limit, a2, destAsset, 100)
        : strictSend(sendAsset, 112, a2, destAsset, 100n - limit);
    if (bound === 'fails due to limit') {
      await fails(h, a2, op, kind === 'receive' ? 'pathPaymentStrictReceiveOverSendmax' : 'pathPaymentStrictSendUnderDestmin');
      return;
    }
    const before = [balanceOf(h.core, a2, sendAsset), balanceOf(h.core, a2, destAsset)];
    const r = await h.succeed(a2, [op]);
    expect(atomKinds(opResult(r))).toEqual(['claimAtomTypeLiquidityPool']);
    const atom = poolAtom(claimAtoms(opResult(r))![0]!);
    expect(Buffer.from(atom.liquidityPoolId.value).toString('hex')).toBe(poolId);
    expect(fromStellarAsset(Asset.fromOperation(atom.assetSold))).toEqual(fromStellarAsset(destAsset));
    expect(fromStellarAsset(Asset.fromOperation(atom.assetBought))).toEqual(fromStellarAsset(sendAsset));
    expect([atom.amountSold, atom.amountBought]).toEqual([100n, 112n]);
    const fee = (a: Asset) => (a.isNative() ? 100n : 0n);
    expect(balanceOf(h.core, a2, sendAsset)).toBe(before[0]! - 112n - fee(sendAsset));
    expect(balanceOf(h.core, a2, destAsset)).toBe(before[1]! + 100n - fee(destAsset));
    const reserves = less(sendAsset, destAsset) ? [1112n, 900n] : [900n, 1112n];
    expect(poolState(h.core, poolId)).toEqual([...reserves, 1000n, 2n]);
  });
});

// testLiquidityPoolTrading(app, cur1, cur2), once as (CUR1, CUR2) and once swapped
describe.each([
  ['CUR1', 'CUR2'],
  ['CUR2', 'CUR1'],
])('liquidity pool trading (%s, %s)', (code1, code2) => {
  async function setup() {
    const w = await world();
    const cur1 = w.asset(code1);
    const cur2 = w.asset(code2);
    const cur3 = w.asset('CUR3');
    const pool12 = poolIdOf(cur1, cur2);
    const inOrder = less(cur1, cur2);
    /** depositIntoPool12: amounts of cur1 and cur2 */
    const depositIntoPool12 = (kp: Keypair, amount1: bigint | number, amount2: bigint | number) =>
      w.h.succeed(kp, [inOrder ? deposit(pool12, amount1, amount2, ...ANY_PRICE) : deposit(pool12, amount2, amount1, ...ANY_PRICE)]);
    /** checkLiquidityPool12: reserves of cur1 and cur2 */
    const pool12Is = (r1: bigint, r2: bigint, shares: bigint, lines: bigint) =>
      expect(poolState(w.h.core, pool12)).toEqual(inOrder ? [r1, r2, shares, lines] : [r2, r1, shares, lines]);
    return { ...w, cur1, cur2, cur3, pool12, depositIntoPool12, pool12Is };
  }

  describe('chooses best price', () => {
    async function bestPrice(offerPrices: [number, number, number][], deposit1: number) {
      const s = await setup();
      const balances: [Asset, bigint][] = [
        [s.cur1, 10000n],
        [s.cur2, 10000n],
      ];
      const a1 = await s.account([s.cur1, s.cur2], balances, [[s.cur1, s.cur2]]);
      const a2 = await s.account([s.cur1, s.cur2], balances, [[s.cur1, s.cur2]]);
      for (const [n, d, amount] of offerPrices) await s.h.succeed(a1, [sellOffer(s.cur2, s.cur1, amount, n, d)]);
      await s.depositIntoPool12(a1, deposit1, 1000);
      const r = await s.h.succeed(a2, [strictReceive(s.cur1, 100, a2, s.cur2, 10)]);
      return atomKinds(opResult(r));
    }

    it('pool has strictly better price', async () => {
      // buying 10 cur2 costs 20 cur1 in the book, 11 in the pool (1000*1000/990 = 1010.1010)
      expect(
        await bestPrice(
          [
            [2, 1, 4],
            [2, 1, 6],
          ],
          1000,
        ),
      ).toEqual(['claimAtomTypeLiquidityPool']);
    });

    it('both prices equal', async () => {
      // 19 cur1 either way (1800*1000/990 = 1818.1818)
      expect(
        await bestPrice(
          [
            [1, 1, 1],
            [2, 1, 9],
          ],
          1800,
        ),
      ).toEqual(['claimAtomTypeLiquidityPool']);
    });

    it('book has strictly better price', async () => {
      // 20 cur1 in the book, 21 in the pool (2000*1000/990 = 2020.2020)
      expect(
        await bestPrice(
          [
            [2, 1, 4],
            [2, 1, 6],
          ],
          2000,
        ),
      ).toEqual(['claimAtomTypeOrderBook', 'claimAtomTypeOrderBook']);
    });
  });

  /** a1 holding 10000 cur1 and a2 trusting cur2 (and cur1), mm12 in pool12 */
  async function payers(mm12Balances: [bigint, bigint], a1Cur1 = 10000n) {
    const s = await setup();
    const a1 = await s.account([s.cur1], [[s.cur1, a1Cur1]]);
    const a2 = await s.account([s.cur2, s.cur1]);
    const mm12 = await s.account(
      [s.cur1, s.cur2],
      [
        [s.cur1, mm12Balances[0]],
        [s.cur2, mm12Balances[1]],
      ],
      [[s.cur1, s.cur2]],
    );
    return { ...s, a1, a2, mm12 };
  }

  it('liquidity pool charges the correct fee', async () => {
    // 0.3% of 1003 is 999.91 < 1000, of 1004 is 1000.98 > 1000: the fee rounds up to 4
    const s = await payers([10000n, 10000n]);
    await s.depositIntoPool12(s.mm12, 1000, 2000);
    await fails(s.h, s.a1, strictSend(s.cur1, 1004, s.a2, s.cur2, 1001), 'pathPaymentStrictSendUnderDestmin');
    await s.h.succeed(s.a1, [strictSend(s.cur1, 1004, s.a2, s.cur2, 1000)]);
  });

  it('liquidity pool charges the correct fee (strict receive)', async () => {
    const s = await payers([10000n, 10000n]);
    await s.depositIntoPool12(s.mm12, 1000, 2000);
    await fails(s.h, s.a1, strictReceive(s.cur1, 1003, s.a2, s.cur2, 1000), 'pathPaymentStrictReceiveOverSendmax');
    await s.h.succeed(s.a1, [strictReceive(s.cur1, 1004, s.a2, s.cur2, 1000)]);
  });

  it('trade fails due to excess reserves', async () => {
    const s = await payers([MAX, MAX]);
    await s.depositIntoPool12(s.mm12, MAX - 10n, MAX - 10n);
    await fails(s.h, s.a1, strictSend(s.cur1, 11, s.a2, s.cur2, 9), 'pathPaymentStrictSendTooFewOffers');
    await fails(s.h, s.a1, strictReceive(s.cur1, 11, s.a2, s.cur2, 10), 'pathPaymentStrictReceiveTooFewOffers');
    await s.h.succeed(s.a1, [strictSend(s.cur1, 10, s.a2, s.cur2, 9)]);
  });

  it('payment through empty liquidity pools', async () => {
    const s = await payers([MAX, MAX]);
    const mm23 = await s.account(
      [s.cur2, s.cur3],
      [
        [s.cur2, MAX],
        [s.cur3, MAX],
      ],
      [[s.cur2, s.cur3]],
    );
    await s.h.succeed(s.a2, [trust(s.cur3)]);
    expect(mm23).toBeDefined();
    await fails(s.h, s.a1, strictSend(s.cur1, 100, s.a2, s.cur2, 1), 'pathPaymentStrictSendTooFewOffers');
    await fails(s.h, s.a1, strictSend(s.cur1, 100, s.a2, s.cur3, 1, [s.cur2]), 'pathPaymentStrictSendTooFewOffers');
    await fails(s.h, s.a1, strictReceive(s.cur1, MAX, s.a2, s.cur2, 100), 'pathPaymentStrictReceiveTooFewOffers');
    await fails(s.h, s.a1, strictReceive(s.cur1, MAX, s.a2, s.cur3, 100, [s.cur2]), 'pathPaymentStrictReceiveTooFewOffers');
  });

  it('payment through pool that yields nothing', async () => {
    // selling 1 to the pool yields 0, so the (empty) book is used
    const s = await payers([MAX, MAX]);
    await s.depositIntoPool12(s.mm12, 1000, 1000);
    await fails(s.h, s.a1, strictSend(s.cur1, 1, s.a2, s.cur2, 1), 'pathPaymentStrictSendTooFewOffers');
  });

  it('payment through pool after offer that yields nothing', async () => {
    const s = await payers([10000n, 10000n]);
    await s.h.succeed(s.mm12, [sellOffer(s.cur2, s.cur1, 10, 2, 1)]);
    const mm23 = await s.account(
      [s.cur2, s.cur3],
      [
        [s.cur2, MAX],
        [s.cur3, MAX],
      ],
      [[s.cur2, s.cur3]],
    );
    await s.h.succeed(mm23, [deposit(poolIdOf(s.cur2, s.cur3), 100, 100, ...ANY_PRICE)]);
    await s.h.succeed(s.a2, [trust(s.cur3)]);
    await fails(s.h, s.a1, strictSend(s.cur1, 1, s.a2, s.cur2, 1), 'pathPaymentStrictSendUnderDestmin');
    // the first hop yields 0: sending 0 through the book always works, so UNDER_DESTMIN
    await fails(s.h, s.a1, strictSend(s.cur1, 1, s.a2, s.cur3, 1, [s.cur2]), 'pathPaymentStrictSendUnderDestmin');
  });

  it.each([
    ['sender', 'send'],
    ['sender', 'receive'],
    ['destination', 'send'],
    ['destination', 'receive'],
    ['market maker', 'send'],
    ['market maker', 'receive'],
  ])('payment through a pool that the %s participates in, strict %s', async (who, kind) => {
    const s = await setup();
    const both: [Asset, bigint][] = [
      [s.cur1, 10000n],
      [s.cur2, 10000n],
    ];
    const lp = await s.account([s.cur1, s.cur2], both, [[s.cur1, s.cur2]]);
    const a1 = who === 'sender' ? lp : await s.account([s.cur1], [[s.cur1, 10000n]]);
    const a2 = who === 'destination' ? lp : await s.account([s.cur2]);
    if (who === 'market maker') await s.h.succeed(lp, [sellOffer(s.cur2, s.cur1, 10, 10, 9)]);
    await s.depositIntoPool12(lp, 1000, 1000);
    await s.h.succeed(a1, [kind === 'send' ? strictSend(s.cur1, 10, a2, s.cur2, 9) : strictReceive(s.cur1, 10, a2, s.cur2, 9)]);
    s.pool12Is(1010n, 991n, 1000n, 1n);
  });

  describe('order book is better, but there is a self-trade', () => {
    it.each([
      ['strict send', 'no self trade'],
      ['strict send', 'self trade'],
      ['strict receive', 'no self trade'],
      ['strict receive', 'self trade'],
    ])('%s, %s', async (kind, self) => {
      const s = await setup();
      const both: [Asset, bigint][] = [
        [s.cur1, 10000n],
        [s.cur2, 10000n],
      ];
      const a1 = await s.account([s.cur1, s.cur2], both, [[s.cur1, s.cur2]]);
      await s.depositIntoPool12(a1, 1000, 1000);
      const a2 = await s.account([s.cur2]);
      const mm12 = await s.account([s.cur1, s.cur2], both, [[s.cur1, s.cur2]]);
      await s.h.succeed(self === 'self trade' ? a1 : mm12, [sellOffer(s.cur2, s.cur1, 10, 1, 1)]);
      const op = kind === 'strict send' ? strictSend(s.cur1, 10, a2, s.cur2, 9) : strictReceive(s.cur1, 10, a2, s.cur2, 9);
      await s.h.succeed(a1, [op]);
      if (self === 'self trade') s.pool12Is(1010n, 991n, 1000n, 2n);
      else s.pool12Is(1000n, 1000n, 1000n, 2n);
    });
  });

  it('payment would receive more than the reserve', async () => {
    const s = await payers([10000n, 10000n], MAX);
    await s.depositIntoPool12(s.mm12, 1000, 1000);
    await fails(s.h, s.a1, strictReceive(s.cur1, MAX, s.a2, s.cur2, 1001), 'pathPaymentStrictReceiveTooFewOffers');
    await fails(s.h, s.a1, strictReceive(s.cur1, MAX, s.a2, s.cur2, 1000), 'pathPaymentStrictReceiveTooFewOffers');
    await s.h.succeed(s.a1, [strictReceive(s.cur1, MAX, s.a2, s.cur2, 999)]);
    s.pool12Is(1003007n, 1n, 1000n, 1n);
  });

  it('payment into pool would be larger than INT64_MAX', async () => {
    const s = await payers([MAX / 2n, MAX / 2n], MAX);
    await s.depositIntoPool12(s.mm12, MAX / 2n, MAX / 2n);
    await fails(s.h, s.a1, strictReceive(s.cur1, MAX, s.a2, s.cur2, MAX / 2n - 1n), 'pathPaymentStrictReceiveTooFewOffers');
  });

  describe('cross the same pair twice in the same direction', () => {
    async function triangle(mm12Offer: [number, number] | null, a1Cur1 = 10000n, mm12Balances: [bigint, bigint] = [10000n, 10000n]) {
      const s = await payers(mm12Balances, a1Cur1);
      const balances = (x: Asset, y: Asset): [Asset, bigint][] => [
        [x, 10000n],
        [y, 10000n],
      ];
      const mm23 = await s.account([s.cur2, s.cur3], balances(s.cur2, s.cur3));
      await s.h.succeed(mm23, [sellOffer(s.cur3, s.cur2, 1000, 1, 1)]);
      const mm31 = await s.account([s.cur1, s.cur3], balances(s.cur1, s.cur3));
      await s.h.succeed(mm31, [sellOffer(s.cur1, s.cur3, 1000, 1, 1)]);
      if (mm12Offer) await s.h.succeed(s.mm12, [sellOffer(s.cur2, s.cur1, 1000, ...mm12Offer)]);
      return s;
    }
    const path = (s: Awaited<ReturnType<typeof triangle>>) => [s.cur2, s.cur3, s.cur1];

    it('liquidity pool both times, strict send', async () => {
      // first pass sells 100 CUR1 (reserves 1100, 1819), the second 181 (1281, 1563)
      const s = await triangle([1, 1]);
      await s.depositIntoPool12(s.mm12, 1000, 2000);
      await fails(s.h, s.a1, strictSend(s.cur1, 100, s.a2, s.cur2, 257, path(s)), 'pathPaymentStrictSendUnderDestmin');
      await s.h.succeed(s.a1, [strictSend(s.cur1, 100, s.a2, s.cur2, 256, path(s))]);
      s.pool12Is(1281n, 1563n, 1414n, 1n);
    });

    it('liquidity pool both times, strict receive', async () => {
      const s = await triangle([1, 1]);
      await s.depositIntoPool12(s.mm12, 1000, 2000);
      await fails(s.h, s.a1, strictReceive(s.cur1, 106, s.a2, s.cur2, 256, path(s)), 'pathPaymentStrictReceiveOverSendmax');
      await s.h.succeed(s.a1, [strictReceive(s.cur1, 107, s.a2, s.cur2, 256, path(s))]);
      s.pool12Is(1255n, 1596n, 1414n, 1n);
    });

    it('liquidity pool both times, fails on the second hop, strict send', async () => {
      // the second pass through pool12 cannot take what the first one left room for
      const s = await triangle(null, 10000n, [MAX, MAX]);
      await s.depositIntoPool12(s.mm12, MAX - 1000n, MAX - 1000n);
      await fails(s.h, s.a1, strictSend(s.cur1, 502, s.a2, s.cur2, 1, path(s)), 'pathPaymentStrictSendTooFewOffers');
      await s.h.succeed(s.a1, [strictSend(s.cur1, 501, s.a2, s.cur2, 1, path(s))]);
      s.pool12Is(MAX, MAX - 1996n, MAX - 1000n, 1n);
    });

    it('liquidity pool both times, fails on the second hop, strict receive', async () => {
      const s = await triangle(null, MAX);
      await s.depositIntoPool12(s.mm12, 1000, 2000);
      await fails(s.h, s.a1, strictReceive(s.cur1, MAX, s.a2, s.cur2, 999, path(s)), 'pathPaymentStrictReceiveTooFewOffers');
      await s.h.succeed(s.a1, [strictReceive(s.cur1, MAX, s.a2, s.cur2, 998, path(s))]);
      s.pool12Is(1005010n, 2n, 1414n, 1n);
    });

    it.each([
      // [mm12's offer price, strict send: destMin failing / passing, pool after; strict receive: sendMax failing / passing, pool after]
      ['prefers liquidity pool on first hop', [11, 20], [330, 329], [1100n, 1819n], [99, 100, 329], [1100n, 1819n]],
      ['indifferent on first hop', [100, 181], [328, 327], [1100n, 1819n], [99, 100, 327], [1100n, 1819n]],
      ['prefers order book on first hop', [1, 2], [333, 332], [1200n, 1668n], [90, 91, 332], [1091n, 1834n]],
      ['order book both times', [1, 2], [401, 400], [1000n, 2000n], [99, 100, 400], [1000n, 2000n]],
    ] as const)('liquidity pool once, order book once: %s', async (name, offer, send, sendPool, recv, recvPool) => {
      const amount = name === 'prefers order book on first hop' ? 350 : 1000;
      for (const kind of ['send', 'receive'] as const) {
        const s = await triangle(null);
        await s.h.succeed(s.mm12, [sellOffer(s.cur2, s.cur1, amount, offer[0], offer[1])]);
        await s.depositIntoPool12(s.mm12, 1000, 2000);
        if (kind === 'send') {
          await fails(s.h, s.a1, strictSend(s.cur1, 100, s.a2, s.cur2, send[0], path(s)), 'pathPaymentStrictSendUnderDestmin');
          await s.h.succeed(s.a1, [strictSend(s.cur1, 100, s.a2, s.cur2, send[1], path(s))]);
          s.pool12Is(sendPool[0], sendPool[1], 1414n, 1n);
        } else {
          await fails(s.h, s.a1, strictReceive(s.cur1, recv[0], s.a2, s.cur2, recv[2], path(s)), 'pathPaymentStrictReceiveOverSendmax');
          await s.h.succeed(s.a1, [strictReceive(s.cur1, recv[1], s.a2, s.cur2, recv[2], path(s))]);
          s.pool12Is(recvPool[0], recvPool[1], 1414n, 1n);
        }
      }
    });
  });

  it('cross the same pair twice in opposite directions, liquidity pool both times', async () => {
    for (const kind of ['send', 'receive'] as const) {
      const s = await payers([10000n, 10000n]);
      await s.depositIntoPool12(s.mm12, 1000, 2000);
      if (kind === 'send') {
        // sells 100 CUR1 (1100, 1819), then 181 CUR2 (1001, 2000)
        await fails(s.h, s.a1, strictSend(s.cur1, 100, s.a2, s.cur1, 100, [s.cur2]), 'pathPaymentStrictSendUnderDestmin');
        await s.h.succeed(s.a1, [strictSend(s.cur1, 100, s.a2, s.cur1, 99, [s.cur2])]);
      } else {
        await fails(s.h, s.a1, strictReceive(s.cur1, 100, s.a2, s.cur1, 100, [s.cur2]), 'pathPaymentStrictReceiveOverSendmax');
        await s.h.succeed(s.a1, [strictReceive(s.cur1, 100, s.a2, s.cur1, 99, [s.cur2])]);
      }
      s.pool12Is(1001n, 2000n, 1414n, 1n);
    }
  });
});
