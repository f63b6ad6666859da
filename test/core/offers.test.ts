// manage_sell_offer, manage_buy_offer and create_passive_sell_offer, with the figures of
// stellar-core's src/transactions/test/OfferTests.cpp (protocol ≥ 10 branches).
import { describe, expect, it } from 'vitest';
import { Asset, type Keypair, Operation } from '@stellar/stellar-sdk/base';
import type { xdr } from '@stellar/stellar-sdk/base';
import { INT64_MAX, adjustOffer, exchangeV10 } from '../../src/stellar/index.js';
import type { Price } from '../../src/stellar/index.js';
import { Harness, opResultsOf } from './support/harness.js';
import type { Applied } from './support/harness.js';
import {
  balanceOf,
  buyOffer,
  claims,
  offer,
  offerEffect,
  offersOf,
  passiveOffer,
  pay,
  sellOffer,
  trust,
  trustLineOf,
} from './support/dex.js';

const XLM = Asset.native();

interface World {
  h: Harness;
  issuer: Keypair;
  idr: Asset;
  usd: Asset;
}

async function world(): Promise<World> {
  const h = await Harness.create();
  const [issuer] = await h.fund(10_000);
  return { h, issuer: issuer!, idr: new Asset('IDR', issuer!.publicKey()), usd: new Asset('USD', issuer!.publicKey()) };
}

function opResult(r: Applied, i = 0): xdr.OperationResult {
  return opResultsOf(r.result!)[i]!;
}

describe('create offer errors', () => {
  it('answers stellar-core codes', async () => {
    const { h, issuer, idr, usd } = await world();
    const [a] = await h.fund(100);
    // without trustline for selling
    expect((await h.run(a!, [sellOffer(idr, XLM, 100, 1, 1)])).ops).toEqual(['manageSellOfferSellNoTrust']);
    await h.succeed(a!, [trust(idr, 1_000_000)]);
    // without having any amount of the asset
    expect((await h.run(a!, [sellOffer(idr, XLM, 100, 1, 1)])).ops).toEqual(['manageSellOfferUnderfunded']);
    // without trustline for buying
    expect((await h.run(a!, [sellOffer(XLM, usd, 100, 1, 1)])).ops).toEqual(['manageSellOfferBuyNoTrust']);
    expect((await h.run(a!, [buyOffer(XLM, usd, 100, 1, 1)])).ops).toEqual(['manageBuyOfferBuyNoTrust']);
    // buying trust line filled up: no room for the buying liabilities
    await h.succeed(issuer, [pay(a!, idr, 1_000_000)]);
    expect((await h.run(a!, [sellOffer(XLM, idr, 100, 1, 1)])).ops).toEqual(['manageSellOfferLineFull']);
    // amount 0 on a new offer, invalid prices, same assets, negative id
    expect((await h.run(a!, [sellOffer(idr, XLM, 0, 1, 1)])).ops).toEqual(['manageSellOfferMalformed']);
    expect((await h.run(a!, [sellOffer(idr, XLM, 10, 0, 1)])).ops).toEqual(['manageSellOfferMalformed']);
    expect((await h.run(a!, [sellOffer(idr, XLM, 10, 1, -1)])).ops).toEqual(['manageSellOfferMalformed']);
    expect((await h.run(a!, [sellOffer(idr, idr, 10, 1, 1)])).ops).toEqual(['manageSellOfferMalformed']);
    expect((await h.run(a!, [sellOffer(idr, XLM, 10, 1, 1, -1)])).ops).toEqual(['manageSellOfferMalformed']);
    expect((await h.run(a!, [passiveOffer(idr, XLM, 0, 1, 1)])).ops).toEqual(['manageSellOfferMalformed']);
    // update or delete a non-existent offer
    expect((await h.run(a!, [sellOffer(idr, XLM, 10, 1, 1, 99)])).ops).toEqual(['manageSellOfferNotFound']);
    expect((await h.run(a!, [sellOffer(idr, XLM, 0, 1, 1, 99)])).ops).toEqual(['manageSellOfferNotFound']);
    expect((await h.run(a!, [buyOffer(idr, XLM, 0, 1, 1, 99)])).ops).toEqual(['manageBuyOfferNotFound']);
  });

  it('low reserve: the offer subentry needs one more base reserve', async () => {
    const { h, usd } = await world();
    // 2 base reserves + 1 for the trust line + the two fees
    const [a] = await h.fund(1.5 + 0.00002);
    await h.succeed(a!, [trust(usd, 1_000_000)]);
    expect((await h.run(a!, [sellOffer(XLM, usd, 100, 1, 1)])).ops).toEqual(['manageSellOfferLowReserve']);
  });

  it('not authorized to sell or buy', async () => {
    const { h, issuer, idr, usd } = await world();
    const [a] = await h.fund(100);
    await h.succeed(a!, [trust(idr, 1_000_000), trust(usd, 1_000_000)]);
    await h.succeed(issuer, [pay(a!, idr, 1000)]);
    // AUTH_REVOCABLE lets the issuer revoke; a's lines become unauthorized
    await h.succeed(issuer, [Operation.setOptions({ setFlags: 2 })]);
    await h.succeed(issuer, [Operation.allowTrust({ trustor: a!.publicKey(), assetCode: 'USD', authorize: 0 })]);
    expect((await h.run(a!, [sellOffer(idr, usd, 100, 1, 1)])).ops).toEqual(['manageSellOfferBuyNotAuthorized']);
    await h.succeed(issuer, [Operation.allowTrust({ trustor: a!.publicKey(), assetCode: 'IDR', authorize: 0 })]);
    expect((await h.run(a!, [sellOffer(idr, XLM, 100, 1, 1)])).ops).toEqual(['manageSellOfferSellNotAuthorized']);
  });
});

describe('passive offers (OfferTests.cpp "passive offer")', () => {
  async function setup() {
    const w = await world();
    const [a1, b1] = await w.h.fund(100, 2);
    await w.h.succeed(a1!, [trust(w.idr, 1_000_000), trust(w.usd, 1_000_000)]);
    await w.h.succeed(b1!, [trust(w.idr, 1_000_000), trust(w.usd, 1_000_000)]);
    await w.h.succeed(w.issuer, [pay(a1!, w.idr, 100_000), pay(b1!, w.usd, 100_000)]);
    const first = await w.h.succeed(a1!, [sellOffer(w.idr, w.usd, 100, 1, 1)]);
    const second = await w.h.succeed(b1!, [passiveOffer(w.usd, w.idr, 100, 1, 1)]);
    // a passive offer does not take an offer at exactly its price
    expect(claims(opResult(second))).toEqual([]);
    // CreatePassiveSellOfferOpFrame applies the MANAGE_SELL_OFFER operation it builds, whose type
    // initializeOperationResults gives the result: opINNER (0), then arm MANAGE_SELL_OFFER (3), not 4
    expect(opResult(second).toXdr('hex').slice(0, 16)).toBe('0000000000000003');
    return { ...w, a1: a1!, b1: b1!, firstId: offerEffect(opResult(first)).offerId!, secondId: offerEffect(opResult(second)).offerId! };
  }

  it('a passive offer with a better price takes the offer and is not created', async () => {
    const w = await setup();
    const r = await w.h.succeed(w.b1, [passiveOffer(w.usd, w.idr, 100, 99, 100)]);
    expect(offerEffect(opResult(r)).effect).toBe('manageOfferDeleted');
    expect(claims(opResult(r))).toEqual([{ seller: w.a1.publicKey(), offerId: w.firstId, sold: 100n, bought: 100n }]);
    expect(offer(w.h.core, w.a1, w.firstId)).toBeUndefined();
  });

  it('modifying the passive offer to a higher price crosses nothing', async () => {
    const w = await setup();
    const r = await w.h.succeed(w.b1, [sellOffer(w.usd, w.idr, 100, 100, 99, w.secondId)]);
    expect(offerEffect(opResult(r))).toEqual({ effect: 'manageOfferUpdated', offerId: w.secondId, amount: 100n });
    expect(offer(w.h.core, w.a1, w.firstId)?.amount).toBe(100n);
    // stays passive
    expect(offer(w.h.core, w.b1, w.secondId)?.flags).toBe(1);
  });

  it('modifying the passive offer to a lower price takes the offer', async () => {
    const w = await setup();
    const r = await w.h.succeed(w.b1, [sellOffer(w.usd, w.idr, 100, 99, 100, w.secondId)]);
    expect(offerEffect(opResult(r)).effect).toBe('manageOfferDeleted');
    expect(offersOf(w.h.core)).toEqual([]);
  });
});

describe('multiple offers (OfferTests.cpp "create offer" / "multiple offers", v10+)', () => {
  // a1 sells 22 offers of 100 IDR at 3/2 (USD per IDR); b1 holds 20000 USD
  async function setup() {
    const w = await world();
    const [a1, b1] = await w.h.fund(100, 2);
    await w.h.succeed(a1!, [trust(w.usd, 1_000_000), trust(w.idr, 1_000_000)]);
    await w.h.succeed(w.issuer, [pay(a1!, w.idr, 100_000)]);
    await w.h.succeed(b1!, [trust(w.idr, 1_000_000), trust(w.usd, 1_000_000)]);
    const r = await w.h.succeed(
      a1!,
      Array.from({ length: 22 }, () => sellOffer(w.idr, w.usd, 100, 3, 2)),
    );
    expect(opResultsOf(r.result!).map((x) => offerEffect(x).offerId)).toEqual(Array.from({ length: 22 }, (_, i) => BigInt(i + 1)));
    await w.h.succeed(w.issuer, [pay(b1!, w.usd, 20_000)]);
    return { ...w, a1: a1!, b1: b1! };
  }

  function balances(w: World & { a1: Keypair; b1: Keypair }) {
    return {
      a1: [balanceOf(w.h.core, w.a1, w.usd), balanceOf(w.h.core, w.a1, w.idr)],
      b1: [balanceOf(w.h.core, w.b1, w.usd), balanceOf(w.h.core, w.b1, w.idr)],
    };
  }

  it('offer does not cross', async () => {
    const w = await setup();
    const r = await w.h.succeed(w.b1, [sellOffer(w.usd, w.idr, 40, 2, 1)]);
    expect(offerEffect(opResult(r))).toEqual({ effect: 'manageOfferCreated', offerId: 23n, amount: 40n });
    expect(offersOf(w.h.core, w.a1)).toHaveLength(22);
  });

  it('offer crosses own', async () => {
    const w = await setup();
    await w.h.succeed(w.issuer, [pay(w.a1, w.usd, 20_000)]);
    await w.h.succeed(w.a1, [pay(w.issuer, w.idr, 50_000)]);
    expect((await w.h.run(w.a1, [sellOffer(w.usd, w.idr, 150, 2, 3)])).ops).toEqual(['manageSellOfferCrossSelf']);
  });

  it('offer crosses and removes first', async () => {
    const w = await setup();
    const r = await w.h.succeed(w.b1, [sellOffer(w.usd, w.idr, 150, 2, 3)]);
    expect(offerEffect(opResult(r)).effect).toBe('manageOfferDeleted');
    expect(claims(opResult(r))).toEqual([{ seller: w.a1.publicKey(), offerId: 1n, sold: 100n, bought: 150n }]);
    expect(offersOf(w.h.core, w.a1).map((o) => o.offerId)[0]).toBe(2n);
    expect(offer(w.h.core, w.a1, 2n)?.amount).toBe(100n);
  });

  it('offer crosses, removes first six and changes seventh', async () => {
    const w = await setup();
    const r = await w.h.succeed(w.b1, [sellOffer(w.usd, w.idr, 1009, 1, 2)]);
    expect(offerEffect(opResult(r)).effect).toBe('manageOfferDeleted');
    const c = claims(opResult(r));
    expect(c.map((x) => x.offerId)).toEqual([1n, 2n, 3n, 4n, 5n, 6n, 7n]);
    expect(c.slice(0, 6).every((x) => x.sold === 100n && x.bought === 150n)).toBe(true);
    expect(c[6]).toMatchObject({ sold: 72n, bought: 108n });
    expect(offer(w.h.core, w.a1, 7n)?.amount).toBe(28n);
    expect(offersOf(w.h.core, w.a1)).toHaveLength(16);
    expect(balances(w)).toEqual({ a1: [1008n, 99_328n], b1: [18_992n, 672n] });
  });

  it('offer crosses, removes first six and removes seventh by adjustment', async () => {
    const w = await setup();
    await w.h.succeed(w.b1, [sellOffer(w.usd, w.idr, 1010, 1, 2)]);
    expect(offer(w.h.core, w.a1, 7n)).toBeUndefined();
    expect(offersOf(w.h.core, w.a1)[0]?.offerId).toBe(8n);
    expect(balances(w)).toEqual({ a1: [1010n, 99_327n], b1: [18_990n, 673n] });
    // the removed offer released its liabilities; the account lost 7 subentries
    expect(trustLineOf(w.h.core, w.a1, w.idr)?.sellingLiabilities).toBe(1500n);
    expect(w.h.core.account(w.a1.publicKey())?.numSubEntries).toBe(2 + 15);
  });

  it('offer crosses, removes all offers, and remains', async () => {
    const w = await setup();
    const r = await w.h.succeed(w.b1, [sellOffer(w.usd, w.idr, 10_000, 1, 2)]);
    expect(offerEffect(opResult(r))).toEqual({ effect: 'manageOfferCreated', offerId: 23n, amount: 6700n });
    expect(offersOf(w.h.core, w.a1)).toEqual([]);
    expect(balances(w)).toEqual({ a1: [3300n, 97_800n], b1: [16_700n, 2200n] });
    expect(trustLineOf(w.h.core, w.b1, w.usd)?.sellingLiabilities).toBe(6700n);
    expect(trustLineOf(w.h.core, w.b1, w.idr)?.buyingLiabilities).toBe(3350n);
  });

  it('multiple offers with small amount cross', async () => {
    const w = await setup();
    for (let i = 1; i <= 10; i++) {
      const r = await w.h.succeed(w.b1, [sellOffer(w.usd, w.idr, 10, 1, 2)]);
      // wheatReceive = floor(10 × 2 / 3) = 6, sheepSend = ceil(6 × 3 / 2) = 9
      expect(claims(opResult(r))).toEqual([{ seller: w.a1.publicKey(), offerId: 1n, sold: 6n, bought: 9n }]);
      expect(offer(w.h.core, w.a1, 1n)?.amount).toBe(100n - 6n * BigInt(i));
    }
    expect(balances(w)).toEqual({ a1: [90n, 99_940n], b1: [19_910n, 60n] });
  });
});

describe('crossing offers with rounding (OfferTests.cpp, v10+)', () => {
  const bid = { amount: 8_224_563_625n, n: 500, d: 2061 };
  const ask = { amount: 2_000_000_000n, n: 2551, d: 625 };

  async function setup() {
    const w = await world();
    const [asking, bidding] = await w.h.fund(1000, 2);
    await w.h.succeed(asking!, [trust(w.idr, 1_000_000_000_000n)]);
    await w.h.succeed(bidding!, [trust(w.idr, 1_000_000_000_000n)]);
    await w.h.succeed(w.issuer, [pay(asking!, w.idr, 100_000_000_000n)]);
    return { ...w, asking: asking!, bidding: bidding! };
  }

  it('bid before ask uses the bid price', async () => {
    const w = await setup();
    await w.h.succeed(w.bidding, [sellOffer(XLM, w.idr, bid.amount, bid.n, bid.d)]);
    const r = await w.h.succeed(w.asking, [sellOffer(w.idr, XLM, ask.amount, ask.n, ask.d)]);
    // sheepSend = floor(8224563625 × 500 / 2061) = 1995284722, wheatReceive = 484057429... as the seller of XLM
    expect(claims(opResult(r))).toEqual([{ seller: w.bidding.publicKey(), offerId: 1n, sold: 8_224_563_625n, bought: 1_995_284_722n }]);
    expect(offerEffect(opResult(r))).toEqual({ effect: 'manageOfferCreated', offerId: 2n, amount: 4_715_278n });
    expect(offer(w.h.core, w.bidding, 1n)).toBeUndefined();
  });

  it('ask before bid uses the ask price', async () => {
    const w = await setup();
    await w.h.succeed(w.asking, [sellOffer(w.idr, XLM, ask.amount, ask.n, ask.d)]);
    const r = await w.h.succeed(w.bidding, [sellOffer(XLM, w.idr, bid.amount, bid.n, bid.d)]);
    expect(offerEffect(opResult(r))).toEqual({ effect: 'manageOfferCreated', offerId: 2n, amount: 61_363_625n });
    expect(offer(w.h.core, w.asking, 1n)).toBeUndefined();
  });
});

describe('reserve, thresholds and liabilities (OfferTests.cpp)', () => {
  it('updated offers respect reserve', async () => {
    const { h, usd } = await world();
    // min balance with 2 subentries + 3 fees + 110
    const [a] = await h.fund(2 + 0.000041);
    await h.succeed(a!, [trust(usd, 1_000_000)]);
    const r = await h.succeed(a!, [sellOffer(XLM, usd, 110, 1, 1)]);
    const id = offerEffect(opResult(r)).offerId!;
    expect((await h.run(a!, [sellOffer(XLM, usd, 111, 1, 1, id)])).ops).toEqual(['manageSellOfferUnderfunded']);
  });

  it('a new offer is not created if it does not satisfy thresholds', async () => {
    const { h, issuer, idr, usd } = await world();
    const [s] = await h.fund(100);
    await h.succeed(s!, [trust(idr), trust(usd)]);
    await h.succeed(issuer, [pay(s!, idr, 1000)]);
    const r = await h.succeed(s!, [sellOffer(idr, usd, 27, 3, 2)]);
    expect(offerEffect(opResult(r)).effect).toBe('manageOfferDeleted');
    expect(offersOf(h.core)).toEqual([]);
    expect(h.core.account(s!.publicKey())?.numSubEntries).toBe(2);
  });

  it('wheat stays or sheep stays', async () => {
    const { h, issuer, idr, usd } = await world();
    const check = async (wheatPrice: Price, maxWheatSend: bigint, maxSheepSend: bigint) => {
      const [wheatSeller, sheepSeller] = await h.fund(100, 2);
      await h.succeed(wheatSeller!, [trust(idr), trust(usd)]);
      await h.succeed(sheepSeller!, [trust(idr), trust(usd)]);
      const res = exchangeV10(wheatPrice, maxWheatSend, INT64_MAX, maxSheepSend, INT64_MAX, 'normal');
      const adjWheat = adjustOffer(wheatPrice, maxWheatSend, INT64_MAX);
      const wheatLeft = adjustOffer(wheatPrice, adjWheat - res.wheatReceive, INT64_MAX);
      const sheepPrice = { n: wheatPrice.d, d: wheatPrice.n };
      const sheepLeft = adjustOffer(sheepPrice, maxSheepSend - res.sheepSend, INT64_MAX);
      await h.succeed(issuer, [pay(wheatSeller!, idr, maxWheatSend)]);
      const w = await h.succeed(wheatSeller!, [sellOffer(idr, usd, maxWheatSend, wheatPrice.n, wheatPrice.d)]);
      const wheatId = offerEffect(opResult(w)).offerId!;
      expect(offerEffect(opResult(w)).amount).toBe(adjWheat);
      await h.succeed(issuer, [pay(sheepSeller!, usd, maxSheepSend)]);
      const s = await h.succeed(sheepSeller!, [sellOffer(usd, idr, maxSheepSend, sheepPrice.n, sheepPrice.d)]);
      expect(offer(h.core, wheatSeller!, wheatId)?.amount).toBe(res.wheatStays && wheatLeft > 0n ? wheatLeft : undefined);
      const sheepEffect = offerEffect(opResult(s));
      if (!res.wheatStays && sheepLeft > 0n) expect(sheepEffect.amount).toBe(sheepLeft);
      else expect(sheepEffect.effect).toBe('manageOfferDeleted');
      expect(balanceOf(h.core, sheepSeller!, idr)).toBe(res.wheatReceive);
      expect(balanceOf(h.core, wheatSeller!, usd)).toBe(res.sheepSend);
    };
    // sheep stays
    await check({ n: 3, d: 2 }, 3000n, 4501n);
    await check({ n: 3, d: 2 }, 3000n, 4500n);
    await check({ n: 2, d: 3 }, 3000n, 2001n);
    await check({ n: 2, d: 3 }, 3000n, 2000n);
    // wheat stays
    await check({ n: 3, d: 2 }, 3000n, 4499n);
    await check({ n: 2, d: 3 }, 3000n, 1999n);
  });

  it('offers hold liabilities; updating and deleting releases them', async () => {
    const { h, issuer, idr } = await world();
    const [a] = await h.fund(100);
    await h.succeed(a!, [trust(idr, 1_000_000)]);
    await h.succeed(issuer, [pay(a!, idr, 500)]);
    const r = await h.succeed(a!, [sellOffer(idr, XLM, 400, 3, 2)]);
    const id = offerEffect(opResult(r)).offerId!;
    expect(trustLineOf(h.core, a!, idr)?.sellingLiabilities).toBe(400n);
    expect(h.core.account(a!.publicKey())?.buyingLiabilities).toBe(600n);
    // the released liabilities back the new amount
    expect((await h.run(a!, [sellOffer(idr, XLM, 501, 3, 2, id)])).ops).toEqual(['manageSellOfferUnderfunded']);
    await h.succeed(a!, [sellOffer(idr, XLM, 500, 1, 1, id)]);
    expect(trustLineOf(h.core, a!, idr)?.sellingLiabilities).toBe(500n);
    expect(h.core.account(a!.publicKey())?.buyingLiabilities).toBe(500n);
    // the line cannot pay out what the offer holds
    expect((await h.run(a!, [pay(issuer, idr, 1)])).ops).toEqual(['paymentUnderfunded']);
    const del = await h.succeed(a!, [sellOffer(idr, XLM, 0, 1, 1, id)]);
    expect(offerEffect(opResult(del)).effect).toBe('manageOfferDeleted');
    expect(trustLineOf(h.core, a!, idr)?.sellingLiabilities).toBe(0n);
    expect(h.core.account(a!.publicKey())?.buyingLiabilities).toBe(0n);
    expect(h.core.account(a!.publicKey())?.numSubEntries).toBe(1);
  });

  it('manage_buy_offer stores the inverse price and the selling amount', async () => {
    const { h, issuer, idr } = await world();
    const [a] = await h.fund(100);
    await h.succeed(a!, [trust(idr, 1_000_000)]);
    await h.succeed(issuer, [pay(a!, idr, 10_000)]);
    // buy 300 XLM-stroops paying 2 IDR each: sells 600 IDR at 1/2 XLM per IDR
    const r = await h.succeed(a!, [buyOffer(idr, XLM, 300, 2, 1)]);
    expect(offerEffect(opResult(r))).toEqual({ effect: 'manageOfferCreated', offerId: 1n, amount: 600n });
    const o = offer(h.core, a!, 1n)!;
    expect([o.priceN, o.priceD]).toEqual([1, 2]);
  });

  it('losing authorization to maintain liabilities removes the offers of that asset', async () => {
    const { h, issuer, idr, usd } = await world();
    await h.succeed(issuer, [Operation.setOptions({ setFlags: 2 })]);
    const [a] = await h.fund(100);
    await h.succeed(a!, [trust(idr), trust(usd)]);
    await h.succeed(issuer, [pay(a!, idr, 1000), pay(a!, usd, 1000)]);
    await h.succeed(a!, [sellOffer(idr, XLM, 100, 1, 1), sellOffer(usd, XLM, 100, 1, 1), sellOffer(XLM, idr, 100, 2, 1)]);
    await h.succeed(issuer, [Operation.allowTrust({ trustor: a!.publicKey(), assetCode: 'IDR', authorize: 0 })]);
    expect(offersOf(h.core, a!).map((o) => o.offerId)).toEqual([2n]);
    expect(trustLineOf(h.core, a!, idr)?.sellingLiabilities).toBe(0n);
    expect(h.core.account(a!.publicKey())?.buyingLiabilities).toBe(100n);
    expect(h.core.account(a!.publicKey())?.sellingLiabilities).toBe(0n);
    expect(h.core.account(a!.publicKey())?.numSubEntries).toBe(3);
  });

  it('issuer offers: an issuer sells its own asset without a trust line', async () => {
    const { h, issuer, idr } = await world();
    const [b] = await h.fund(100);
    await h.succeed(b!, [trust(idr)]);
    await h.succeed(issuer, [sellOffer(idr, XLM, 1000, 1, 1)]);
    const r = await h.succeed(b!, [sellOffer(XLM, idr, 400, 1, 1)]);
    expect(claims(opResult(r))).toEqual([{ seller: issuer.publicKey(), offerId: 1n, sold: 400n, bought: 400n }]);
    expect(offer(h.core, issuer, 1n)?.amount).toBe(600n);
    expect(balanceOf(h.core, b!, idr)).toBe(400n);
  });
});

describe('cannot create offers that would lead to excess liabilities (OfferTests.cpp, v10+)', () => {
  const RESERVE = 5_000_000n; // the harness network's base reserve
  const FEE = 100n;
  const xlmOf = (stroops: bigint) => Number(stroops) / 1e7;

  it('native selling liabilities', async () => {
    const { h, usd } = await world();
    const root = h.root;
    const [acc1] = await h.fund(xlmOf(4n * RESERVE + FEE));
    await h.succeed(acc1!, [trust(usd, 2000)]);
    await h.succeed(root, [pay(acc1!, XLM, 500n + FEE)]);
    expect((await h.run(acc1!, [sellOffer(XLM, usd, 501, 1, 1)])).ops).toEqual(['manageSellOfferUnderfunded']);
    await h.succeed(root, [pay(acc1!, XLM, FEE)]);
    await h.succeed(acc1!, [sellOffer(XLM, usd, 500, 1, 1)]);
    // with an offer standing: one more reserve, and the same bound
    await h.succeed(root, [pay(acc1!, XLM, 500n + FEE + RESERVE)]);
    expect((await h.run(acc1!, [sellOffer(XLM, usd, 501, 1, 1)])).ops).toEqual(['manageSellOfferUnderfunded']);
    await h.succeed(root, [pay(acc1!, XLM, FEE)]);
    await h.succeed(acc1!, [sellOffer(XLM, usd, 500, 1, 1)]);
    expect(h.core.account(acc1!.publicKey())?.sellingLiabilities).toBe(1000n);
  });

  it('native buying liabilities', async () => {
    const { h, issuer, usd } = await world();
    const root = h.root;
    const minBalance = 5n * RESERVE;
    const [acc1] = await h.fund(xlmOf(minBalance + FEE));
    await h.succeed(acc1!, [trust(usd, INT64_MAX)]);
    await h.succeed(issuer, [pay(acc1!, usd, INT64_MAX)]);
    await h.succeed(root, [pay(acc1!, XLM, 2n * FEE)]);
    expect((await h.run(acc1!, [sellOffer(usd, XLM, INT64_MAX - minBalance - FEE + 1n, 1, 1)])).ops).toEqual(['manageSellOfferLineFull']);
    await h.succeed(root, [pay(acc1!, XLM, FEE)]);
    const o1 = offerEffect(opResult(await h.succeed(acc1!, [sellOffer(usd, XLM, INT64_MAX - minBalance - FEE, 1, 1)]))).offerId!;
    // free some available limit
    await h.succeed(acc1!, [sellOffer(usd, XLM, INT64_MAX - minBalance - 500n, 1, 1, o1)]);
    await h.succeed(root, [pay(acc1!, XLM, FEE)]);
    expect((await h.run(acc1!, [sellOffer(usd, XLM, 501, 1, 1)])).ops).toEqual(['manageSellOfferLineFull']);
    await h.succeed(root, [pay(acc1!, XLM, FEE)]);
    await h.succeed(acc1!, [sellOffer(usd, XLM, 500, 1, 1)]);
  });

  it('non-native selling liabilities', async () => {
    const { h, issuer, usd } = await world();
    const [acc1] = await h.fund(10);
    await h.succeed(acc1!, [trust(usd, 2000)]);
    await h.succeed(issuer, [pay(acc1!, usd, 500)]);
    expect((await h.run(acc1!, [sellOffer(usd, XLM, 501, 1, 1)])).ops).toEqual(['manageSellOfferUnderfunded']);
    await h.succeed(acc1!, [sellOffer(usd, XLM, 500, 1, 1)]);
    await h.succeed(issuer, [pay(acc1!, usd, 500)]);
    expect((await h.run(acc1!, [sellOffer(usd, XLM, 501, 1, 1)])).ops).toEqual(['manageSellOfferUnderfunded']);
    await h.succeed(acc1!, [sellOffer(usd, XLM, 500, 1, 1)]);
  });

  it('non-native buying liabilities', async () => {
    const { h, issuer, usd } = await world();
    const [acc1] = await h.fund(10);
    await h.succeed(acc1!, [trust(usd, 1000)]);
    await h.succeed(issuer, [pay(acc1!, usd, 500)]);
    expect((await h.run(acc1!, [sellOffer(XLM, usd, 501, 1, 1)])).ops).toEqual(['manageSellOfferLineFull']);
    await h.succeed(acc1!, [sellOffer(XLM, usd, 500, 1, 1)]);
    await h.succeed(acc1!, [trust(usd, 1500)]);
    expect((await h.run(acc1!, [sellOffer(XLM, usd, 501, 1, 1)])).ops).toEqual(['manageSellOfferLineFull']);
    await h.succeed(acc1!, [sellOffer(XLM, usd, 500, 1, 1)]);
    // the limit cannot go below balance + buying liabilities
    expect((await h.run(acc1!, [trust(usd, 1499)])).ops).toEqual(['changeTrustInvalidLimit']);
  });

  it('max liabilities: offers of a full line still cross', async () => {
    const { h, issuer, usd } = await world();
    const [acc1, acc2] = await h.fund(10, 2);
    await h.succeed(acc1!, [trust(usd, 1000)]);
    await h.succeed(acc2!, [trust(usd, 1000)]);
    await h.succeed(issuer, [pay(acc2!, usd, 1000)]);
    await h.succeed(acc1!, [sellOffer(XLM, usd, 1000, 1, 1)]);
    const r = await h.succeed(acc2!, [sellOffer(usd, XLM, 1000, 1, 1)]);
    expect(offerEffect(opResult(r)).effect).toBe('manageOfferDeleted');
    expect(offersOf(h.core)).toEqual([]);
    expect(balanceOf(h.core, acc1!, usd)).toBe(1000n);
  });
});

describe('work limit', () => {
  it('crossing more than 1000 offers is opEXCEEDED_WORK_LIMIT', async () => {
    const { h, issuer, idr } = await world();
    // 1,100 offers of 10 stroops from two sellers (1,000 subentries at most per account)
    const [a, c, b] = await h.fund(2000, 3);
    for (const s of [a!, c!]) {
      await h.succeed(s, [trust(idr)]);
      await h.succeed(issuer, [pay(s, idr, 10_000_000)]);
    }
    for (let i = 0; i < 11; i++)
      await h.succeed(
        i < 6 ? a! : c!,
        Array.from({ length: 100 }, () => sellOffer(idr, XLM, 10, 1, 1)),
      );
    await h.succeed(b!, [trust(idr)]);
    expect((await h.run(b!, [sellOffer(XLM, idr, 20_000, 1, 1)])).ops).toEqual(['opExceededWorkLimit']);
    const r = await h.succeed(b!, [sellOffer(XLM, idr, 10_000, 1, 1)]);
    expect(claims(opResult(r))).toHaveLength(1000);
  });
});
