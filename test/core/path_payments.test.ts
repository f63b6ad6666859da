// path_payment_strict_receive and path_payment_strict_send, with the figures of stellar-core's
// src/transactions/test/PathPaymentTests.cpp and PathPaymentStrictSendTests.cpp (protocol ≥ 12).
import { describe, expect, it } from 'vitest';
import { Asset, Keypair, Operation } from '@stellar/stellar-sdk/base';
import { xdr } from '@stellar/stellar-sdk/base';
import { Harness, opResultsOf } from './support/harness.js';
import type { Applied } from './support/harness.js';
import { balanceOf, claims, offer, offersOf, pathPaymentSuccess, pay, sellOffer, strictReceive, strictSend, trust } from './support/dex.js';
import type { Claim } from './support/dex.js';

const XLM = Asset.native();

function opResult(r: Applied, i = 0): xdr.OperationResult {
  return opResultsOf(r.result!)[i]!;
}

/** Two gateways and market makers mm12 (CUR2 for CUR1), mm23 (CUR3 for CUR2), mm34 (CUR4 for CUR3). */
async function market(sourceCur1: number, mm34bAmount?: number) {
  const h = await Harness.create();
  const [gateway, gateway2, source, destination, mm12, mm23, mm34, mm34b] = await h.fund(100, 8);
  const cur1 = new Asset('CUR1', gateway!.publicKey());
  const cur2 = new Asset('CUR2', gateway!.publicKey());
  const cur3 = new Asset('CUR3', gateway2!.publicKey());
  const cur4 = new Asset('CUR4', gateway2!.publicKey());
  await h.succeed(source!, [trust(cur1, 200)]);
  await h.succeed(mm12!, [trust(cur1, 200), trust(cur2, 200)]);
  await h.succeed(mm23!, [trust(cur2, 200), trust(cur3, 200)]);
  await h.succeed(mm34!, [trust(cur3, 200), trust(cur4, 200)]);
  await h.succeed(destination!, [trust(cur4, 200)]);
  await h.succeed(gateway!, [pay(source!, cur1, sourceCur1), pay(mm12!, cur2, 35)]);
  await h.succeed(gateway2!, [pay(mm23!, cur3, 23), pay(mm34!, cur4, 16)]);
  if (mm34bAmount !== undefined) {
    await h.succeed(mm34b!, [trust(cur3, 2), trust(cur4, 200)]);
    await h.succeed(gateway2!, [pay(mm34b!, cur4, mm34bAmount)]);
  }
  // offer ids 1..9: o1a o1b o1c o2a o2b o2c o3a o3b o3c
  await h.succeed(mm12!, [sellOffer(cur2, cur1, 10, 3, 2), sellOffer(cur2, cur1, 16, 2, 1), sellOffer(cur2, cur1, 9, 4, 3)]);
  await h.succeed(mm23!, [sellOffer(cur3, cur2, 5, 2, 1), sellOffer(cur3, cur2, 6, 3, 2), sellOffer(cur3, cur2, 12, 4, 3)]);
  await h.succeed(mm34!, [sellOffer(cur4, cur3, 9, 4, 3), sellOffer(cur4, cur3, 6, 3, 2)]);
  await h.succeed(mm34bAmount !== undefined ? mm34b! : mm34!, [sellOffer(cur4, cur3, 1, 2, 1)]);
  return {
    h,
    gateway: gateway!,
    gateway2: gateway2!,
    source: source!,
    destination: destination!,
    mm12: mm12!,
    mm23: mm23!,
    mm34: mm34!,
    mm34b: mm34b!,
    cur1,
    cur2,
    cur3,
    cur4,
  };
}

type M = Awaited<ReturnType<typeof market>>;

function balances(m: M, kp: Keypair): bigint[] {
  return [m.cur1, m.cur2, m.cur3, m.cur4].map((a) => {
    const b = balanceOf(m.h.core, kp, a);
    return b < 0n ? 0n : b;
  });
}

function exchanged(m: M, offerId: number, sold: number, bought: number): Claim {
  const seller = offerId <= 3 ? m.mm12 : offerId <= 6 ? m.mm23 : m.mm34;
  return { seller: seller.publicKey(), offerId: BigInt(offerId), sold: BigInt(sold), bought: BigInt(bought) };
}

describe('path payment strict receive (PathPaymentTests.cpp)', () => {
  it('takes all offers, multiple offers per exchange V10', async () => {
    const m = await market(59);
    const r = await m.h.succeed(m.source, [strictReceive(m.cur1, 59, m.destination, m.cur4, 16, [m.cur1, m.cur2, m.cur3, m.cur4])]);
    expect(claims(opResult(r))).toEqual([
      exchanged(m, 3, 9, 12),
      exchanged(m, 1, 10, 15),
      exchanged(m, 2, 16, 32),
      exchanged(m, 6, 12, 16),
      exchanged(m, 5, 6, 9),
      exchanged(m, 4, 5, 10),
      exchanged(m, 7, 9, 12),
      exchanged(m, 8, 6, 9),
      exchanged(m, 9, 1, 2),
    ]);
    expect(offersOf(m.h.core)).toEqual([]);
    expect(balances(m, m.source)).toEqual([0n, 0n, 0n, 0n]);
    expect(balances(m, m.mm12)).toEqual([59n, 0n, 0n, 0n]);
    expect(balances(m, m.mm23)).toEqual([0n, 35n, 0n, 0n]);
    expect(balances(m, m.mm34)).toEqual([0n, 0n, 23n, 0n]);
    expect(balances(m, m.destination)).toEqual([0n, 0n, 0n, 16n]);
    // the last payment of the result
    const last = pathPaymentSuccess(opResult(r))!.last;
    expect(last.amount).toBe(16n);
  });

  it('takes best offers, multiple offers per exchange V10', async () => {
    const m = await market(58);
    const r = await m.h.succeed(m.source, [strictReceive(m.cur1, 51, m.destination, m.cur4, 15, [m.cur1, m.cur2, m.cur3, m.cur4])]);
    expect(claims(opResult(r))).toEqual([
      exchanged(m, 3, 9, 12),
      exchanged(m, 1, 10, 15),
      exchanged(m, 2, 12, 24),
      exchanged(m, 6, 12, 16),
      exchanged(m, 5, 6, 9),
      exchanged(m, 4, 3, 6),
      exchanged(m, 7, 9, 12),
      exchanged(m, 8, 6, 9),
    ]);
    expect(offersOf(m.h.core).map((o) => [o.offerId, o.amount])).toEqual([
      [2n, 4n],
      [4n, 2n],
      [9n, 1n],
    ]);
    expect(balances(m, m.source)).toEqual([7n, 0n, 0n, 0n]);
    expect(balances(m, m.mm12)).toEqual([51n, 4n, 0n, 0n]);
    expect(balances(m, m.mm23)).toEqual([0n, 31n, 2n, 0n]);
    expect(balances(m, m.mm34)).toEqual([0n, 0n, 21n, 1n]);
    expect(balances(m, m.destination)).toEqual([0n, 0n, 0n, 15n]);
  });

  it('over send max with a real path; too few offers; crosses own offer', async () => {
    const m = await market(59);
    expect((await m.h.run(m.source, [strictReceive(m.cur1, 58, m.destination, m.cur4, 16, [m.cur2, m.cur3])])).ops).toEqual([
      'pathPaymentStrictReceiveOverSendmax',
    ]);
    expect((await m.h.run(m.source, [strictReceive(m.cur1, 200, m.destination, m.cur4, 17, [m.cur2, m.cur3])])).ops).toEqual([
      'pathPaymentStrictReceiveTooFewOffers',
    ]);
    // mm23 paying through its own CUR3-for-CUR2 offers
    await m.h.succeed(m.gateway, [pay(m.mm23, m.cur2, 50)]);
    expect((await m.h.run(m.mm23, [strictReceive(m.cur2, 100, m.mm34, m.cur3, 5)])).ops).toEqual([
      'pathPaymentStrictReceiveOfferCrossSelf',
    ]);
    // nothing changed
    expect(offersOf(m.h.core)).toHaveLength(9);
  });

  it('with rounding errors', async () => {
    const h = await Harness.create();
    const [issuer, source, destination, seller] = await h.fund(1000, 4);
    const cny = new Asset('CNY', issuer!.publicKey());
    await h.succeed(destination!, [trust(cny)]);
    await h.succeed(seller!, [trust(cny, 1_000_000_000_000)]);
    await h.succeed(issuer!, [pay(seller!, cny, 1_700_000_000)]);
    await h.succeed(seller!, [sellOffer(cny, XLM, 145_000_000, 2000, 29)]);
    const before = h.balance(source!);
    const r = await h.succeed(source!, [strictReceive(XLM, 1_382_068_965, destination!, cny, 20_000_000)]);
    // 1379310345 = round up(20000000 × price)
    expect(claims(opResult(r))).toEqual([{ seller: seller!.publicKey(), offerId: 1n, sold: 20_000_000n, bought: 1_379_310_345n }]);
    expect(offer(h.core, seller!, 1n)?.amount).toBe(145_000_000n - 20_000_000n);
    expect(h.balance(source!)).toBe(before - 100n - 1_379_310_345n);
    expect(balanceOf(h.core, seller!, cny)).toBe(1_680_000_000n);
    expect(balanceOf(h.core, destination!, cny)).toBe(20_000_000n);
  });

  it('rounding: exchangeV10 recalculates sheepValue (1 offer and 2 offers)', async () => {
    for (const [srcLimit, mmCur1, destLimit, offers, send, get, left] of [
      [2, 2, 1001, [2000], 2, 1001, [] as number[]],
      [7, 10, 6001, [5000, 5000], 7, 6001, [3000]],
    ] as const) {
      const h = await Harness.create();
      const [gateway, source, mm, destination] = await h.fund(100, 4);
      const cur1 = new Asset('CUR1', gateway!.publicKey());
      const cur2 = new Asset('CUR2', gateway!.publicKey());
      await h.succeed(source!, [trust(cur1, srcLimit)]);
      await h.succeed(mm!, [trust(cur1, mmCur1), trust(cur2, 10_000)]);
      await h.succeed(destination!, [trust(cur2, destLimit)]);
      await h.succeed(gateway!, [
        pay(source!, cur1, srcLimit),
        pay(
          mm!,
          cur2,
          offers.reduce((a, b) => a + b, 0),
        ),
      ]);
      await h.succeed(
        mm!,
        offers.map((a) => sellOffer(cur2, cur1, a, 1, 1000)),
      );
      await h.succeed(source!, [strictReceive(cur1, send, destination!, cur2, get, [cur1, cur2])]);
      expect(offersOf(h.core).map((o) => Number(o.amount))).toEqual(left);
      expect(balanceOf(h.core, source!, cur1)).toBe(0n);
      expect(balanceOf(h.core, mm!, cur1)).toBe(BigInt(send));
      expect(balanceOf(h.core, destination!, cur2)).toBe(BigInt(get));
    }
  });

  it('result codes of the payment checks', async () => {
    const h = await Harness.create();
    const [gateway, a, b] = await h.fund(100, 3);
    const idr = new Asset('IDR', gateway!.publicKey());
    // the SDK's Asset refuses to build an invalid code, so the XDR is made by hand
    const badXdr = xdr.Asset.assetTypeCreditAlphanum4(
      new xdr.AlphaNum4({ assetCode: Buffer.from('ID$\0', 'latin1'), issuer: Keypair.fromPublicKey(gateway!.publicKey()).xdrAccountId() }),
    );
    const bad = { toXdrObject: () => badXdr } as unknown as Asset;
    const code = async (src: Keypair, o: xdr.Operation) => (await h.run(src, [o])).ops[0];
    expect(await code(a!, strictReceive(XLM, 10, b!, XLM, 0))).toBe('pathPaymentStrictReceiveMalformed');
    expect(await code(a!, strictReceive(XLM, 0, b!, XLM, 10))).toBe('pathPaymentStrictReceiveMalformed');
    expect(await code(a!, strictReceive(XLM, -1, b!, XLM, 10))).toBe('pathPaymentStrictReceiveMalformed');
    expect(await code(a!, strictReceive(bad, 10, b!, XLM, 10))).toBe('pathPaymentStrictReceiveMalformed');
    expect(await code(a!, strictReceive(XLM, 10, b!, XLM, 10, [bad]))).toBe('pathPaymentStrictReceiveMalformed');
    expect(await code(a!, strictSend(XLM, 0, b!, XLM, 10))).toBe('pathPaymentStrictSendMalformed');
    expect(await code(a!, strictSend(XLM, 10, b!, XLM, 0))).toBe('pathPaymentStrictSendMalformed');
    // XLM with not enough funds
    expect(await code(a!, strictReceive(XLM, 10_000_000_000n, b!, XLM, 10_000_000_000n))).toBe('pathPaymentStrictReceiveUnderfunded');
    expect(await code(a!, strictSend(XLM, 10_000_000_000n, b!, XLM, 1))).toBe('pathPaymentStrictSendUnderfunded');
    // destination does not exist / no trust line / not authorized / line full
    const nobody = Keypair.random();
    expect(await code(a!, strictReceive(XLM, 10, nobody, XLM, 10))).toBe('pathPaymentStrictReceiveNoDestination');
    expect(await code(a!, strictSend(XLM, 10, nobody, XLM, 10))).toBe('pathPaymentStrictSendNoDestination');
    expect(await code(gateway!, strictReceive(idr, 10, b!, idr, 10))).toBe('pathPaymentStrictReceiveNoTrust');
    expect(await code(gateway!, strictSend(idr, 10, b!, idr, 10))).toBe('pathPaymentStrictSendNoTrust');
    await h.succeed(b!, [trust(idr, 100)]);
    await h.succeed(a!, [trust(idr, 1000)]);
    expect(await code(gateway!, strictReceive(idr, 101, b!, idr, 101))).toBe('pathPaymentStrictReceiveLineFull');
    expect(await code(gateway!, strictSend(idr, 101, b!, idr, 101))).toBe('pathPaymentStrictSendLineFull');
    // source has no trust line / not enough
    const [c] = await h.fund(100);
    expect(await code(c!, strictReceive(idr, 10, b!, idr, 10))).toBe('pathPaymentStrictReceiveSrcNoTrust');
    expect(await code(c!, strictSend(idr, 10, b!, idr, 10))).toBe('pathPaymentStrictSendSrcNoTrust');
    expect(await code(a!, strictReceive(idr, 10, b!, idr, 10))).toBe('pathPaymentStrictReceiveUnderfunded');
    // credits back to their issuer: the issuer account need not exist for a simple path
    await h.succeed(gateway!, [pay(a!, idr, 500)]);
    expect(await code(a!, strictReceive(idr, 10, gateway!, idr, 10))).toBe('pathPaymentStrictReceiveSuccess');
    // not authorized (revocable issuer revokes)
    await h.succeed(gateway!, [Operation.setOptions({ setFlags: 2 })]);
    await h.succeed(gateway!, [Operation.allowTrust({ trustor: b!.publicKey(), assetCode: 'IDR', authorize: 0 })]);
    expect(await code(a!, strictReceive(idr, 10, b!, idr, 10))).toBe('pathPaymentStrictReceiveNotAuthorized');
    expect(await code(b!, strictReceive(idr, 10, a!, idr, 10))).toBe('pathPaymentStrictReceiveSrcNotAuthorized');
    expect(await code(b!, strictSend(idr, 10, a!, idr, 10))).toBe('pathPaymentStrictSendSrcNotAuthorized');
    // to self in XLM
    expect(await code(a!, strictReceive(XLM, 10, a!, XLM, 10))).toBe('pathPaymentStrictReceiveSuccess');
    // over send max / under destination minimum (no conversion, same asset)
    expect(await code(a!, strictReceive(XLM, 9, b!, XLM, 10))).toBe('pathPaymentStrictReceiveOverSendmax');
    expect(await code(a!, strictSend(XLM, 9, b!, XLM, 10))).toBe('pathPaymentStrictSendUnderDestmin');
  });
});

describe('path payment strict send (PathPaymentStrictSendTests.cpp)', () => {
  it('takes all offers, multiple offers per exchange', async () => {
    const m = await market(59);
    const r = await m.h.succeed(m.source, [strictSend(m.cur1, 59, m.destination, m.cur4, 16, [m.cur1, m.cur2, m.cur3, m.cur4])]);
    expect(claims(opResult(r))).toEqual([
      exchanged(m, 3, 9, 12),
      exchanged(m, 1, 10, 15),
      exchanged(m, 2, 16, 32),
      exchanged(m, 6, 12, 16),
      exchanged(m, 5, 6, 9),
      exchanged(m, 4, 5, 10),
      exchanged(m, 7, 9, 12),
      exchanged(m, 8, 6, 9),
      exchanged(m, 9, 1, 2),
    ]);
    expect(offersOf(m.h.core)).toEqual([]);
    expect(balances(m, m.destination)).toEqual([0n, 0n, 0n, 16n]);
    expect(balances(m, m.mm12)).toEqual([59n, 0n, 0n, 0n]);
  });

  it('takes best offers, multiple offers per exchange', async () => {
    const m = await market(58);
    const r = await m.h.succeed(m.source, [strictSend(m.cur1, 55, m.destination, m.cur4, 15, [m.cur1, m.cur2, m.cur3, m.cur4])]);
    expect(claims(opResult(r))).toEqual([
      exchanged(m, 3, 9, 12),
      exchanged(m, 1, 10, 15),
      exchanged(m, 2, 14, 28),
      exchanged(m, 6, 12, 16),
      exchanged(m, 5, 6, 9),
      exchanged(m, 4, 4, 8),
      exchanged(m, 7, 9, 12),
      exchanged(m, 8, 6, 9),
      exchanged(m, 9, 0, 1),
    ]);
    expect(offersOf(m.h.core).map((o) => [o.offerId, o.amount])).toEqual([
      [2n, 2n],
      [4n, 1n],
      [9n, 1n],
    ]);
    expect(balances(m, m.source)).toEqual([3n, 0n, 0n, 0n]);
    expect(balances(m, m.mm12)).toEqual([55n, 2n, 0n, 0n]);
    expect(balances(m, m.mm23)).toEqual([0n, 33n, 1n, 0n]);
    expect(balances(m, m.mm34)).toEqual([0n, 0n, 22n, 1n]);
    expect(balances(m, m.destination)).toEqual([0n, 0n, 0n, 15n]);
  });

  it('takes best offers; the last offer sends 0 but adjusts to be deleted', async () => {
    const m = await market(58, 1);
    const r = await m.h.succeed(m.source, [strictSend(m.cur1, 55, m.destination, m.cur4, 15, [m.cur1, m.cur2, m.cur3, m.cur4])]);
    const c = claims(opResult(r));
    expect(c[8]).toEqual({ seller: m.mm34b.publicKey(), offerId: 9n, sold: 0n, bought: 1n });
    expect(offersOf(m.h.core).map((o) => [o.offerId, o.amount])).toEqual([
      [2n, 2n],
      [4n, 1n],
    ]);
    expect(balances(m, m.mm34)).toEqual([0n, 0n, 21n, 1n]);
    expect(balances(m, m.mm34b)).toEqual([0n, 0n, 1n, 1n]);
    expect(balances(m, m.destination)).toEqual([0n, 0n, 0n, 15n]);
  });

  it('under destination minimum with a real path; too few offers', async () => {
    const m = await market(59);
    expect((await m.h.run(m.source, [strictSend(m.cur1, 59, m.destination, m.cur4, 17, [m.cur2, m.cur3])])).ops).toEqual([
      'pathPaymentStrictSendUnderDestmin',
    ]);
    await m.h.succeed(m.gateway, [pay(m.source, m.cur1, 100)]);
    expect((await m.h.run(m.source, [strictSend(m.cur1, 100, m.destination, m.cur4, 1, [m.cur2, m.cur3])])).ops).toEqual([
      'pathPaymentStrictSendTooFewOffers',
    ]);
  });

  it('with rounding errors', async () => {
    const h = await Harness.create();
    const [issuer, source, destination, seller] = await h.fund(1000, 4);
    const cny = new Asset('CNY', issuer!.publicKey());
    await h.succeed(destination!, [trust(cny)]);
    await h.succeed(seller!, [trust(cny, 1_000_000_000_000)]);
    await h.succeed(issuer!, [pay(seller!, cny, 1_700_000_000)]);
    await h.succeed(seller!, [sellOffer(cny, XLM, 145_000_000, 2000, 29)]);
    const r = await h.succeed(source!, [strictSend(XLM, 1_382_068_965, destination!, cny, 20_039_999)]);
    // 20039999 = floor(1382068965 × 29 / 2000)
    expect(claims(opResult(r))).toEqual([{ seller: seller!.publicKey(), offerId: 1n, sold: 20_039_999n, bought: 1_382_068_965n }]);
    expect(offer(h.core, seller!, 1n)?.amount).toBe(145_000_000n - 20_039_999n);
    expect(balanceOf(h.core, destination!, cny)).toBe(20_039_999n);
  });

  it('rounding: recalculated sheepValue and sending some while receiving nothing', async () => {
    for (const [srcCur1, offers, send, destMin, srcLeft, mmCur1, mmCur2, destGets, left, lastClaim] of [
      [3, [3], 3, 1, 0, 3, 1999, 1, [] as number[], null],
      [100, [3, 6], 8, 1, 92, 8, 1996, 4, [] as number[], null],
      [100, [3, 6], 6, 1, 94, 6, 1997, 3, [6], [0n, 1n]],
    ] as const) {
      const h = await Harness.create();
      const [gateway, source, mm, destination] = await h.fund(100, 4);
      const cur1 = new Asset('CUR1', gateway!.publicKey());
      const cur2 = new Asset('CUR2', gateway!.publicKey());
      await h.succeed(source!, [trust(cur1, srcCur1)]);
      await h.succeed(mm!, [trust(cur1, 2000), trust(cur2, 2000)]);
      await h.succeed(destination!, [trust(cur2, 2000)]);
      await h.succeed(gateway!, [pay(source!, cur1, srcCur1), pay(mm!, cur2, 2000)]);
      await h.succeed(
        mm!,
        offers.map((a) => sellOffer(cur2, cur1, a, 5, 3)),
      );
      const r = await h.succeed(source!, [strictSend(cur1, send, destination!, cur2, destMin)]);
      if (lastClaim) {
        const c = claims(opResult(r)).at(-1)!;
        expect([c.sold, c.bought]).toEqual(lastClaim);
      }
      expect(offersOf(h.core).map((o) => Number(o.amount))).toEqual(left);
      expect(balanceOf(h.core, source!, cur1)).toBe(BigInt(srcLeft));
      expect([balanceOf(h.core, mm!, cur1), balanceOf(h.core, mm!, cur2)]).toEqual([BigInt(mmCur1), BigInt(mmCur2)]);
      expect(balanceOf(h.core, destination!, cur2)).toBe(BigInt(destGets));
    }
  });
});

describe('payment shares the strict-receive path', () => {
  it('keeps its own result codes', async () => {
    const h = await Harness.create();
    const [gateway, a, b] = await h.fund(100, 3);
    const idr = new Asset('IDR', gateway!.publicKey());
    const code = async (src: Keypair, o: xdr.Operation) => (await h.run(src, [o])).ops[0];
    expect(await code(a!, pay(Keypair.random(), XLM, 10))).toBe('paymentNoDestination');
    expect(await code(gateway!, pay(b!, idr, 10))).toBe('paymentNoTrust');
    await h.succeed(b!, [trust(idr, 100)]);
    expect(await code(a!, pay(b!, idr, 10))).toBe('paymentSrcNoTrust');
    await h.succeed(a!, [trust(idr, 100)]);
    expect(await code(a!, pay(b!, idr, 10))).toBe('paymentUnderfunded');
    expect(await code(gateway!, pay(b!, idr, 101))).toBe('paymentLineFull');
    expect(await code(a!, pay(b!, XLM, 1_000_000_000_000n))).toBe('paymentUnderfunded');
    // an issuer account that does not exist still takes its credits back
    await h.succeed(gateway!, [pay(a!, idr, 50)]);
    expect(await code(a!, pay(gateway!, idr, 5))).toBe('paymentSuccess');
    expect(await code(a!, pay(a!, XLM, 5))).toBe('paymentSuccess');
  });
});
