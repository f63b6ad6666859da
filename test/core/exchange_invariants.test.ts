// Random offers, updates, deletes and path payments between a few traders, then stellar-core's
// ledger invariants: liabilities match the offers, balances cover them, subentries count them,
// and no asset is created or destroyed.
import { describe, expect, it } from 'vitest';
import { Asset, type Keypair } from '@stellar/stellar-sdk/base';
import type { xdr } from '@stellar/stellar-sdk/base';
import { creditAsset, formatCanonicalAsset, offerLiabilities, type CreditAsset } from '../../src/stellar/index.js';
import type { AccountRec, OfferRec, TrustLineRec } from '../../src/core/ledger/entries.js';
import { Harness, closeMetaV1 } from './support/harness.js';
import { buyOffer, claimAtoms, passiveOffer, pay, sellOffer, strictReceive, strictSend, trust } from './support/dex.js';

// small deterministic PRNG (mulberry32)
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function checkInvariants(h: Harness, minBalance: (acc: AccountRec) => bigint, supply: Map<string, bigint>): void {
  const accounts = new Map<string, AccountRec>();
  const lines: (TrustLineRec & { asset: CreditAsset })[] = [];
  const offers: OfferRec[] = [];
  for (const e of h.core.entries()) {
    if (e.type === 'account') accounts.set(e.accountId, e);
    else if (e.type === 'trustline') {
      if (e.asset.type === 'pool_share') throw new Error('no pool shares in this run');
      lines.push({ ...e, asset: e.asset });
    } else if (e.type === 'offer') offers.push(e);
  }
  const selling = new Map<string, bigint>();
  const buying = new Map<string, bigint>();
  const subentries = new Map<string, number>();
  const add = (m: Map<string, bigint>, k: string, v: bigint) => m.set(k, (m.get(k) ?? 0n) + v);
  for (const o of offers) {
    expect(o.amount > 0n).toBe(true);
    const l = offerLiabilities({ n: o.priceN, d: o.priceD }, o.amount);
    add(selling, `${o.sellerId} ${formatCanonicalAsset(o.selling)}`, l.selling);
    add(buying, `${o.sellerId} ${formatCanonicalAsset(o.buying)}`, l.buying);
    subentries.set(o.sellerId, (subentries.get(o.sellerId) ?? 0) + 1);
  }
  const totals = new Map<string, bigint>();
  for (const t of lines) {
    const k = `${t.accountId} ${formatCanonicalAsset(t.asset)}`;
    expect(t.sellingLiabilities, `selling ${k}`).toBe(selling.get(k) ?? 0n);
    expect(t.buyingLiabilities, `buying ${k}`).toBe(buying.get(k) ?? 0n);
    expect(t.balance >= t.sellingLiabilities).toBe(true);
    expect(t.balance + t.buyingLiabilities <= t.limit).toBe(true);
    subentries.set(t.accountId, (subentries.get(t.accountId) ?? 0) + 1);
    add(totals, formatCanonicalAsset(t.asset), t.balance);
  }
  for (const [id, a] of accounts) {
    const k = `${id} native`;
    expect(a.sellingLiabilities, `selling ${k}`).toBe(selling.get(k) ?? 0n);
    expect(a.buyingLiabilities, `buying ${k}`).toBe(buying.get(k) ?? 0n);
    expect(a.balance - minBalance(a) >= a.sellingLiabilities, `reserve ${id}`).toBe(true);
    expect(a.numSubEntries, `subentries ${id}`).toBe((subentries.get(id) ?? 0) + a.signers.length);
  }
  // credits only move between holders (the issuer never receives in this run)
  for (const [k, v] of supply) expect(totals.get(k) ?? 0n, `supply ${k}`).toBe(v);
  // an offer's seller either holds a line in each credit asset or is its issuer
  for (const o of offers) {
    for (const a of [o.selling, o.buying]) {
      if (a.type === 'native' || a.issuer === o.sellerId) continue;
      expect(lines.some((t) => t.accountId === o.sellerId && formatCanonicalAsset(t.asset) === formatCanonicalAsset(a))).toBe(true);
    }
  }
}

/** Claim atoms in the successful exchange operations of a closed ledger. */
function claimAtomsIn(h: Harness, seq: number): number {
  let n = 0;
  for (const p of closeMetaV1(h.core, seq).txProcessing) {
    const r = p.result.result.result;
    if (r.type !== 'txSuccess') continue;
    for (const o of r.results) n += claimAtoms(o)?.length ?? 0;
  }
  return n;
}

describe('exchange invariants under random trading', () => {
  for (const seed of [1, 2, 3]) {
    it(`seed ${seed}`, async () => {
      const rand = rng(seed);
      const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
      const h = await Harness.create();
      const [issuer] = await h.fund(1000);
      const traders = await h.fund(200, 6);
      const A = new Asset('AAA', issuer!.publicKey());
      const B = new Asset('BBBBB', issuer!.publicKey());
      const X = Asset.native();
      const assets = [A, B, X] as const;
      for (const t of traders) await h.run(t, [trust(A, 50_000_000_000n), trust(B, 50_000_000_000n)]);
      await h.run(
        issuer!,
        traders.flatMap((t) => [pay(t, A, 2_000_000_000n), pay(t, B, 2_000_000_000n)]),
      );
      const supply = new Map([
        [formatCanonicalAsset(creditAsset('AAA', issuer!.publicKey())), 12_000_000_000n],
        [formatCanonicalAsset(creditAsset('BBBBB', issuer!.publicKey())), 12_000_000_000n],
      ]);
      const reserve = 5_000_000n;
      const minBalance = (a: AccountRec) => BigInt(2 + a.numSubEntries + a.numSponsoring - a.numSponsored) * reserve;
      const prices = [
        [1, 1],
        [3, 2],
        [2, 3],
        [7, 5],
        [5, 7],
        [101, 100],
        [99, 100],
        [1, 3],
        [3, 1],
        [2000, 29],
      ] as const;
      const codes = new Map<string, number>();
      let crossed = 0;
      for (let ledger = 0; ledger < 40; ledger++) {
        for (const t of traders) {
          const ops: xdr.Operation[] = [];
          const n = 1 + Math.floor(rand() * 3);
          for (let k = 0; k < n; k++) {
            const r = rand();
            const [selling, buying] = (() => {
              const s = pick(assets);
              let b = pick(assets);
              while (b === s) b = pick(assets);
              return [s, b];
            })();
            const [pn, pd] = pick(prices);
            const amount = BigInt(1 + Math.floor(rand() * (rand() < 0.3 ? 50 : 50_000_000)));
            const mine = [...h.core.entries()].filter((e): e is OfferRec => e.type === 'offer' && e.sellerId === t.publicKey());
            if (r < 0.35) ops.push(sellOffer(selling, buying, amount, pn, pd));
            else if (r < 0.5) ops.push(buyOffer(selling, buying, amount, pn, pd));
            else if (r < 0.58) ops.push(passiveOffer(selling, buying, amount, pn, pd));
            else if (r < 0.7 && mine.length) {
              const o = pick(mine);
              const del = rand() < 0.4;
              ops.push(sellOffer(selling, buying, del ? 0n : amount, pn, pd, o.offerId));
            } else {
              let dest: Keypair = pick(traders);
              if (dest === t && rand() < 0.5) dest = pick(traders);
              const path = rand() < 0.5 ? [] : [pick(assets)];
              if (rand() < 0.5) ops.push(strictReceive(selling, amount * 3n, dest, buying, amount, path));
              else ops.push(strictSend(selling, amount, dest, buying, 1n, path));
            }
          }
          const env = h.envelope(t, ops);
          const s = h.core.submit(env);
          if (s.status !== 'PENDING') continue;
        }
        const closed = await h.core.closeLedger(h.nextCloseTime());
        for (const r of closed.results) codes.set(r.code, (codes.get(r.code) ?? 0) + 1);
        crossed += claimAtomsIn(h, closed.sequence);
        checkInvariants(h, minBalance, supply);
      }
      // the run exercised the exchange: many transactions succeeded, none hit an internal error
      expect(codes.get('txInternalError') ?? 0).toBe(0);
      expect(codes.get('txSuccess') ?? 0).toBeGreaterThan(40);
      expect(crossed).toBeGreaterThan(100);
      expect([...h.core.entries()].some((e) => e.type === 'offer')).toBe(true);
    });
  }
});
