// Restart continues from the last closed ledger with identical state; a torn last frame is ignored.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Asset, Keypair, Operation, xdr } from '@stellar/stellar-sdk/base';
import { createCore } from '../../src/core/index.js';
import type { Core } from '../../src/core/index.js';
import { entryKey, entryToXdr } from '../../src/core/ledger/entries.js';
import { Harness, PASSPHRASE, closeMetaV1, hex, metaV1, opResultsOf } from './support/harness.js';
import { manageOfferSuccess, orderBookAtom } from './support/dex.js';
import { claimBalanceOp, claimant, createBalanceOp } from './support/claimable.js';
import { claimableBalanceHash } from '../../src/stellar/index.js';

const dirs: string[] = [];
function tmpDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'zenith-core-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function stateOf(core: Core): Map<string, string> {
  const m = new Map<string, string>();
  for (const e of core.entries()) m.set(entryKey(e), entryToXdr(e).toXdr('base64'));
  return m;
}

async function busyLedgers(h: Harness): Promise<void> {
  const [a, b] = await h.fund(100, 2);
  const asset = new Asset('EUR', a!.publicKey());
  await h.run(b!, [Operation.changeTrust({ asset })]);
  await h.run(a!, [Operation.payment({ destination: b!.publicKey(), asset, amount: '12.5' })]);
  await h.run(b!, [Operation.manageData({ name: 'k', value: 'v' }), Operation.setOptions({ homeDomain: 'b.example' })]);
  const [c] = await h.fund(5);
  await h.run(c!, [Operation.accountMerge({ destination: a!.publicKey() })]);
  await h.run(a!, [Operation.payment({ destination: Keypair.random().publicKey(), asset: Asset.native(), amount: '1' })]); // fails
  // offers: two in the book, one partly taken by a third, so offers, liabilities and idPool persist
  await h.run(b!, [Operation.manageSellOffer({ selling: asset, buying: Asset.native(), amount: '5', price: '2' })]);
  await h.run(b!, [Operation.manageSellOffer({ selling: asset, buying: Asset.native(), amount: '3', price: '3' })]);
  await h.run(a!, [Operation.manageBuyOffer({ selling: Asset.native(), buying: asset, buyAmount: '1', price: '2' })]);
  // sponsorship: a sponsored account, line and signer, so sponsors and the v2 extension persist
  const d = Keypair.random();
  const sponsored = await h.run(
    a!,
    [
      Operation.beginSponsoringFutureReserves({ sponsoredId: d.publicKey() }),
      Operation.createAccount({ destination: d.publicKey(), startingBalance: '0' }),
      Operation.changeTrust({ asset, source: d.publicKey() }),
      Operation.setOptions({ signer: { ed25519PublicKey: b!.publicKey(), weight: 1 }, source: d.publicKey() }),
      Operation.endSponsoringFutureReserves({ source: d.publicKey() }),
    ],
    { signers: [a!, d] },
  );
  expect(sponsored.code).toBe('txSuccess');
  // claimable balances: one left with its (absolute) predicate and its sponsor, one claimed
  const later = xdr.ClaimPredicate.claimPredicateNot(xdr.ClaimPredicate.claimPredicateBeforeRelativeTime(60n));
  await h.run(a!, [createBalanceOp(asset, 10_000_000n, [claimant(b!, later), claimant(a!)])]);
  await h.run(b!, [createBalanceOp(Asset.native(), 1n, [claimant(a!)])]);
  expect((await h.run(a!, [claimBalanceOp(claimableBalanceHash(b!.publicKey(), h.seq(b!), 0))])).code).toBe('txSuccess');
  expect([...h.core.entries()].filter((e) => e.type === 'claimableBalance')).toHaveLength(1);
}

function offerIds(core: Core): bigint[] {
  return [...core.entries()].flatMap((e) => (e.type === 'offer' ? [e.offerId] : [])).sort((x, y) => (x < y ? -1 : 1));
}

async function open(dataDir: string): Promise<Harness> {
  return Harness.create({ dataDir, snapshotInterval: 3 });
}

describe('core persistence', () => {
  it('restarts from snapshot + meta log with identical state and continues the chain', async () => {
    const dataDir = tmpDir();
    const h = await open(dataDir);
    await busyLedgers(h);
    const state = stateOf(h.core);
    const last = h.core.latestLedger();
    await h.core.stop();

    const h2 = await open(dataDir);
    expect(h2.core.latestLedger()).toEqual(last);
    expect(stateOf(h2.core)).toEqual(state);
    expect(offerIds(h2.core)).toEqual([1n, 2n]);
    const closed = await h2.core.closeLedger(last.closeTime + 10);
    expect(closed.sequence).toBe(last.sequence + 1);
    const header = closeMetaV1(h2.core, closed.sequence).ledgerHeader.header;
    expect(hex(header.previousLedgerHash)).toBe(last.hash);
    // the id pool survived too, and the partly taken offer kept its remaining amount
    expect(header.idPool).toBe(2n);
    const amounts = [...h2.core.entries()].flatMap((e) => (e.type === 'offer' ? [e.amount] : []));
    expect(amounts.sort()).toEqual([30_000_000n, 40_000_000n]);
    await h2.core.stop();
  });

  it('recovers after a crash (no stop, stale snapshot) and ignores a torn final frame', async () => {
    const dataDir = tmpDir();
    const h = await open(dataDir);
    await busyLedgers(h);
    const state = stateOf(h.core);
    const last = h.core.latestLedger();
    // simulate a crash in the middle of the next append
    const log = path.join(dataDir, 'core', 'ledgers.xdr');
    const size = fs.statSync(log).size;
    fs.appendFileSync(log, Buffer.from([0x80, 0x00, 0x10, 0x00, 1, 2, 3]));

    const h2 = await open(dataDir);
    expect(fs.statSync(log).size).toBe(size);
    expect(h2.core.latestLedger()).toEqual(last);
    expect(stateOf(h2.core)).toEqual(state);
    await h2.core.stop();
  });

  it('ledgers(from) replays stored metas then follows live closes, with chained hashes', async () => {
    const dataDir = tmpDir();
    const h = await open(dataDir);
    await h.fund(10, 2);
    await h.close();
    await h.core.stop();
    const core = await createCore({ dataDir, networkPassphrase: PASSPHRASE, manualClose: true });
    const seen: xdr.LedgerCloseMeta[] = [];
    const done = (async () => {
      for await (const m of core.ledgers(1)) {
        seen.push(m);
        if (metaV1(m).ledgerHeader.header.ledgerSeq === 5) break;
      }
    })();
    await core.closeLedger(core.latestLedger().closeTime + 5);
    await core.closeLedger(core.latestLedger().closeTime + 5);
    await done;
    expect(seen.map((m) => metaV1(m).ledgerHeader.header.ledgerSeq)).toEqual([1, 2, 3, 4, 5]);
    for (let i = 1; i < seen.length; i++) {
      expect(hex(metaV1(seen[i]!).ledgerHeader.header.previousLedgerHash)).toBe(hex(metaV1(seen[i - 1]!).ledgerHeader.hash));
    }
    await core.stop();
  });

  it('recovers from the log alone (crash before any snapshot) and keeps the genesis parameters', async () => {
    const dataDir = tmpDir();
    const h = await Harness.create({ dataDir, snapshotInterval: 1000, baseReserve: 20_000_000 });
    await busyLedgers(h);
    const state = stateOf(h.core);
    const last = h.core.latestLedger();
    expect(fs.existsSync(path.join(dataDir, 'core', 'snapshot.json'))).toBe(false);
    const h2 = await Harness.create({ dataDir, baseReserve: 5_000_000 });
    expect(h2.core.latestLedger()).toEqual(last);
    expect(stateOf(h2.core)).toEqual(state);
    expect(h2.core.info().info.ledger.baseReserve).toBe(20_000_000);
    await h2.core.stop();
  });

  it('frames the log like stellar-core --metadata-output-stream', async () => {
    const dataDir = tmpDir();
    const h = await open(dataDir);
    await h.fund(10);
    await h.core.stop();
    const buf = fs.readFileSync(path.join(dataDir, 'core', 'ledgers.xdr'));
    const seqs: number[] = [];
    for (let off = 0; off < buf.length; ) {
      const word = buf.readUInt32BE(off);
      expect(word & 0x80000000).not.toBe(0);
      const len = word & 0x7fffffff;
      seqs.push(metaV1(xdr.LedgerCloseMeta.fromXdr(buf.subarray(off + 4, off + 4 + len))).ledgerHeader.header.ledgerSeq);
      off += 4 + len;
    }
    expect(seqs).toEqual([1, 2]);
  });

  it('refuses data of another network', async () => {
    const dataDir = tmpDir();
    const h = await open(dataDir);
    await h.close();
    await h.core.stop();
    await expect(createCore({ dataDir, networkPassphrase: 'Other', manualClose: true })).rejects.toThrow(/network/);
  });
  it('restores the order book: a restored offer is crossed after restart', async () => {
    const dataDir = tmpDir();
    const h = await open(dataDir);
    const [issuer, maker, taker] = await h.fund(100, 3);
    const idr = new Asset('IDR', issuer!.publicKey());
    await h.run(maker!, [Operation.changeTrust({ asset: idr })]);
    await h.run(taker!, [Operation.changeTrust({ asset: idr })]);
    await h.run(issuer!, [Operation.payment({ destination: maker!.publicKey(), asset: idr, amount: '10' })]);
    await h.run(maker!, [Operation.manageSellOffer({ selling: idr, buying: Asset.native(), amount: '4', price: '2' })]);
    await h.run(maker!, [Operation.manageSellOffer({ selling: idr, buying: Asset.native(), amount: '3', price: '1.5' })]);
    const last = h.core.latestLedger();
    await h.core.stop();

    const h2 = await open(dataDir);
    while (h2.nextCloseTime() <= last.closeTime);
    // the cheaper offer (id 2) goes first, then offer 1 at price 2
    const r = await h2.run(taker!, [Operation.manageBuyOffer({ selling: Asset.native(), buying: idr, buyAmount: '5', price: '2' })]);
    expect(r.code).toBe('txSuccess');
    const success = manageOfferSuccess(opResultsOf(r.result!)[0]!)!;
    expect(success.offersClaimed.map((a) => [orderBookAtom(a).offerId, orderBookAtom(a).amountSold])).toEqual([
      [2n, 30_000_000n],
      [1n, 20_000_000n],
    ]);
    const left = [...h2.core.entries()].flatMap((e) => (e.type === 'offer' ? [[e.offerId, e.amount]] : []));
    expect(left).toEqual([[1n, 20_000_000n]]);
    await h2.core.stop();
  });
});
