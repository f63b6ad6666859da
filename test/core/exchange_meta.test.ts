// The meta of exchange operations: offer entries created, updated (state before) and removed
// (state before) in the operation's changes, with the sellers' lines and accounts beside them.
import { describe, expect, it } from 'vitest';
import { Asset, Keypair, xdr } from '@stellar/stellar-sdk/base';
import { Harness, closeMetaV1, txMetaV3 } from './support/harness.js';
import { manageOfferSuccess, pay, sellOffer, trust } from './support/dex.js';

const XLM = Asset.native();

interface Change {
  kind: string;
  type: string;
  offerId?: bigint;
  amount?: bigint;
}

function opChanges(h: Harness, seq: number, opIndex = 0): Change[] {
  const tm = txMetaV3(closeMetaV1(h.core, seq).txProcessing[0]!);
  return tm.operations[opIndex]!.changes.map((c) => {
    const kind = c.type;
    if (c.type === 'ledgerEntryRemoved') {
      const k = c.removed;
      return { kind, type: k.type, ...(k.type === 'offer' ? { offerId: k.offer.offerId } : {}) };
    }
    const d = c.value.data;
    const type = d.type;
    return d.type === 'offer' ? { kind, type, offerId: d.offer.offerId, amount: d.offer.amount } : { kind, type };
  });
}

const offerChanges = (cs: Change[]) => cs.filter((c) => c.type === 'offer');

describe('exchange meta', () => {
  it('records offers created, updated and removed with their before states', async () => {
    const h = await Harness.create();
    const [issuer, a, b] = await h.fund(100, 3);
    const idr = new Asset('IDR', issuer!.publicKey());
    await h.run(a!, [trust(idr)]);
    await h.run(b!, [trust(idr)]);
    await h.run(issuer!, [pay(a!, idr, 1000)]);

    await h.run(a!, [sellOffer(idr, XLM, 1000, 1, 1)]);
    let seq = h.core.latestLedger().sequence;
    const created = opChanges(h, seq);
    expect(offerChanges(created)).toEqual([{ kind: 'ledgerEntryCreated', type: 'offer', offerId: 1n, amount: 1000n }]);
    // the seller's account (subentry) and line (selling liabilities) change with it
    expect(
      created
        .filter((c) => c.kind === 'ledgerEntryUpdated')
        .map((c) => c.type)
        .sort(),
    ).toEqual(['account', 'trustline']);

    // partly taken: state then updated
    await h.run(b!, [sellOffer(XLM, idr, 400, 1, 1)]);
    seq = h.core.latestLedger().sequence;
    expect(offerChanges(opChanges(h, seq))).toEqual([
      { kind: 'ledgerEntryState', type: 'offer', offerId: 1n, amount: 1000n },
      { kind: 'ledgerEntryUpdated', type: 'offer', offerId: 1n, amount: 600n },
    ]);

    // fully taken: state then removed; the taker's remainder becomes offer 2
    await h.run(b!, [sellOffer(XLM, idr, 700, 1, 1)]);
    seq = h.core.latestLedger().sequence;
    expect(offerChanges(opChanges(h, seq))).toEqual([
      { kind: 'ledgerEntryState', type: 'offer', offerId: 1n, amount: 600n },
      { kind: 'ledgerEntryRemoved', type: 'offer', offerId: 1n },
      { kind: 'ledgerEntryCreated', type: 'offer', offerId: 2n, amount: 100n },
    ]);
    const header = closeMetaV1(h.core, seq).ledgerHeader.header;
    expect(header.idPool).toBe(2n);
  });

  it('a failed transaction rolls the id pool back', async () => {
    const h = await Harness.create();
    const [issuer, a] = await h.fund(100, 2);
    const idr = new Asset('IDR', issuer!.publicKey());
    await h.run(a!, [trust(idr)]);
    await h.run(issuer!, [pay(a!, idr, 1000)]);
    // the offer is created, then the payment fails: the whole transaction fails
    const r = await h.run(a!, [sellOffer(idr, XLM, 10, 1, 1), pay(Keypair.random(), XLM, 1)]);
    expect(r.ops).toEqual(['manageSellOfferSuccess', 'paymentNoDestination']);
    const seq = h.core.latestLedger().sequence;
    expect(closeMetaV1(h.core, seq).ledgerHeader.header.idPool).toBe(0n);
    const ok = await h.run(a!, [sellOffer(idr, XLM, 10, 1, 1)]);
    expect(ok.code).toBe('txSuccess');
    expect([...h.core.entries()].flatMap((e) => (e.type === 'offer' ? [e.offerId] : []))).toEqual([1n]);
  });

  it('operations not reached carry stellar-core default results', async () => {
    const h = await Harness.create();
    const [a] = await h.fund(100);
    // the second operation is malformed at submission: txFAILED with a default first result
    const r = await h.run(a!, [sellOffer(XLM, new Asset('IDR', a!.publicKey()), 10, 1, 1), sellOffer(XLM, XLM, 10, 1, 1)]);
    expect(r.code).toBe('txFailed');
    expect(r.ops).toEqual(['manageSellOfferSuccess', 'manageSellOfferMalformed']);
    const first = xdr.expectUnionVariant(r.result!.result, 'txFailed').results[0]!;
    const success = manageOfferSuccess(first)!;
    expect(success.offer.type).toBe('manageOfferCreated');
    expect(xdr.expectUnionVariant(success.offer, 'manageOfferCreated').offer.offerId).toBe(0n);
  });
});
