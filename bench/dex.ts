// Embedded core exchange throughput, in two parts:
//  1. offers crossed per second against a deep book: 1,000 offers per side (asks selling IDR for
//     XLM, bids selling XLM for IDR, at distinct prices), then 400 takers (manage_buy_offer) that each cross 5 offers, so
//     both sides are consumed in one ledger (2,000 crossings);
//  2. path payments per second through 3 hops (AAA → BBB → CCC → DDD, strict receive), 1,000
//     per ledger from 1,000 senders against 1,000 offers per hop.
// Both report the close alone (apply, meta, hashes) and submit + close (decode, validation,
// ed25519 verification). Run: npx tsx bench/dex.ts [rounds=3]
import { Asset, Keypair, Operation, xdr } from '@stellar/stellar-sdk/base';
import { createCore } from '../src/core/index.js';
import { rootKeypair } from '../src/stellar/index.js';
import type { Core } from '../src/core/index.js';
import { envelopeSigner } from '../test/support/envelopes.js';

const PASSPHRASE = 'Zenith DEX Bench Network';
const ROUNDS = Number(process.argv[2] ?? 3);
const DEPTH = 1000;
const PER_TAKER = 5;
const { envelope } = envelopeSigner(PASSPHRASE);

const i64 = (v: bigint | number): xdr.Int64 => BigInt(v);

function sellOffer(selling: Asset, buying: Asset, amount: number, n: number, d: number): xdr.Operation {
  return new xdr.Operation({
    sourceAccount: null,
    body: xdr.OperationBody.manageSellOffer(
      new xdr.ManageSellOfferOp({
        selling: selling.toXdrObject(),
        buying: buying.toXdrObject(),
        amount: i64(amount),
        price: new xdr.Price({ n, d }),
        offerId: i64(0),
      }),
    ),
  });
}

function strictReceive(send: Asset, sendMax: number, dest: Keypair, destAsset: Asset, amount: number, path: Asset[]): xdr.Operation {
  return new xdr.Operation({
    sourceAccount: null,
    body: xdr.OperationBody.pathPaymentStrictReceive(
      new xdr.PathPaymentStrictReceiveOp({
        sendAsset: send.toXdrObject(),
        sendMax: i64(sendMax),
        destination: xdr.MuxedAccount.keyTypeEd25519(dest.rawPublicKey()),
        destAsset: destAsset.toXdrObject(),
        destAmount: i64(amount),
        path: path.map((a) => a.toXdrObject()),
      }),
    ),
  });
}

class Net {
  private closeTime = 1_000;
  constructor(readonly core: Core) {}

  seq(kp: Keypair): bigint {
    return this.core.nextSequence(kp.publicKey())!;
  }

  submit(kp: Keypair, ops: xdr.Operation[]): void {
    const s = this.core.submit(envelope(kp, this.seq(kp), ops));
    if (s.status !== 'PENDING') throw new Error(`rejected: ${JSON.stringify(s)}`);
  }

  async close(): Promise<{ ms: number; failed: number }> {
    const t = performance.now();
    const closed = await this.core.closeLedger((this.closeTime += 5));
    return { ms: performance.now() - t, failed: closed.results.filter((r) => r.code !== 'txSuccess').length };
  }

  async settle(): Promise<void> {
    const r = await this.close();
    if (r.failed) throw new Error(`${r.failed} setup transactions failed`);
  }

  async fund(n: number, xlm: string): Promise<Keypair[]> {
    const root = rootKeypair(PASSPHRASE);
    const kps = Array.from({ length: n }, () => Keypair.random());
    for (let i = 0; i < n; i += 100) {
      this.submit(
        root,
        kps.slice(i, i + 100).map((k) => Operation.createAccount({ destination: k.publicKey(), startingBalance: xlm })),
      );
    }
    await this.settle();
    return kps;
  }
}

async function newNet(): Promise<Net> {
  const core = await createCore({
    dataDir: null,
    networkPassphrase: PASSPHRASE,
    manualClose: true,
    maxTxSetSize: 5000,
    maxQueueOps: 20_000,
  });
  return new Net(core);
}

/** Makers each hold up to 500 offers of one side (an account has at most 1,000 subentries). */
async function deepBook(net: Net, issuer: Keypair, idr: Asset): Promise<void> {
  const [ask1, ask2, bid1, bid2] = await net.fund(4, '100000');
  for (const m of [ask1!, ask2!, bid1!, bid2!]) net.submit(m, [Operation.changeTrust({ asset: idr })]);
  await net.settle();
  net.submit(
    issuer,
    [ask1!, ask2!].map((m) => Operation.payment({ destination: m.publicKey(), asset: idr, amount: '100000' })),
  );
  await net.settle();
  // asks: 10,000 stroops of IDR each at 2 + i/1000 XLM; bids: 20,000 stroops of XLM each at 1/(1.9 - i/2000) IDR
  for (let i = 0; i < DEPTH; i += 100) {
    const maker = i < DEPTH / 2 ? 0 : 1;
    net.submit(
      [ask1!, ask2!][maker]!,
      Array.from({ length: 100 }, (_, j) => sellOffer(idr, Asset.native(), 10_000, 2000 + i + j, 1000)),
    );
    net.submit(
      [bid1!, bid2!][maker]!,
      Array.from({ length: 100 }, (_, j) => sellOffer(Asset.native(), idr, 20_000, 2000, 3800 - (i + j))),
    );
  }
  await net.settle();
}

function buyOffer(selling: Asset, buying: Asset, buyAmount: number, n: number, d: number): xdr.Operation {
  return new xdr.Operation({
    sourceAccount: null,
    body: xdr.OperationBody.manageBuyOffer(
      new xdr.ManageBuyOfferOp({
        selling: selling.toXdrObject(),
        buying: buying.toXdrObject(),
        buyAmount: i64(buyAmount),
        price: new xdr.Price({ n, d }),
        offerId: i64(0),
      }),
    ),
  });
}

/** Claim atoms in the results of the last closed ledger (a crossing that traded nothing included). */
function claimAtoms(core: Core): number {
  const meta = xdr.LedgerCloseMeta.fromXdr(core.ledgerMetaXdr(core.latestLedger().sequence)!);
  if (meta.type === 'v0') throw new Error('the core wrote a v0 LedgerCloseMeta');
  let n = 0;
  for (const p of meta.value.txProcessing) {
    const { result } = p.result.result;
    if (result.type !== 'txSuccess' && result.type !== 'txFailed') continue;
    for (const r of result.results) {
      if (r.type !== 'opInner') continue;
      const { tr } = r;
      if (tr.type === 'manageSellOffer' && tr.manageSellOfferResult.type === 'manageSellOfferSuccess') {
        n += tr.manageSellOfferResult.success.offersClaimed.length;
      } else if (tr.type === 'manageBuyOffer' && tr.manageBuyOfferResult.type === 'manageBuyOfferSuccess') {
        n += tr.manageBuyOfferResult.success.offersClaimed.length;
      } else if (tr.type === 'pathPaymentStrictReceive' && tr.pathPaymentStrictReceiveResult.type === 'pathPaymentStrictReceiveSuccess') {
        n += tr.pathPaymentStrictReceiveResult.success.offers.length;
      }
    }
  }
  return n;
}

async function crossingRound(): Promise<{ crossed: number; closeMs: number; submitMs: number }> {
  const net = await newNet();
  const [issuer] = await net.fund(1, '1000');
  const idr = new Asset('IDR', issuer!.publicKey());
  await deepBook(net, issuer!, idr);
  const takers = await net.fund((2 * DEPTH) / PER_TAKER, '100000');
  for (const t of takers) net.submit(t, [Operation.changeTrust({ asset: idr })]);
  await net.settle();
  const sellers = takers.slice(takers.length / 2);
  for (let i = 0; i < sellers.length; i += 100) {
    net.submit(
      issuer!,
      sellers.slice(i, i + 100).map((t) => Operation.payment({ destination: t.publicKey(), asset: idr, amount: '1000' })),
    );
  }
  await net.settle();
  // half the takers buy 5 asks' worth of IDR, half buy 5 bids' worth of XLM, with limit prices
  // beyond the whole book so only the amount stops them
  const envelopes = takers.map((t, i) =>
    i < takers.length / 2
      ? envelope(t, net.seq(t), [buyOffer(Asset.native(), idr, PER_TAKER * 10_000, 4, 1)])
      : envelope(t, net.seq(t), [buyOffer(idr, Asset.native(), PER_TAKER * 20_000, 1, 1)]),
  );
  const a = performance.now();
  for (const env of envelopes) if (net.core.submit(env).status !== 'PENDING') throw new Error('taker rejected');
  const submitMs = performance.now() - a;
  const closed = await net.close();
  if (closed.failed) throw new Error(`${closed.failed} takers failed`);
  const crossed = claimAtoms(net.core);
  const left = [...net.core.entries()].filter((e) => e.type === 'offer').length;
  // rounding leaves some takers 1–2 stroops short, so they also meet the next offer for nothing
  if (left !== 0) throw new Error(`${left} offers left`);
  await net.core.stop();
  return { crossed, closeMs: closed.ms, submitMs };
}

async function pathRound(): Promise<{ payments: number; crossed: number; closeMs: number; submitMs: number }> {
  const net = await newNet();
  const [issuer] = await net.fund(1, '1000');
  const [aaa, bbb, ccc, ddd] = ['AAA', 'BBB', 'CCC', 'DDD'].map((c) => new Asset(c, issuer!.publicKey()));
  const makers = await net.fund(6, '100000');
  // two makers per hop: each sells 500 offers of the next asset for the previous one
  const hops: [Asset, Asset][] = [
    [bbb!, aaa!],
    [ccc!, bbb!],
    [ddd!, ccc!],
  ];
  hops.forEach(([sell, buy], h) => {
    for (const m of [makers[2 * h]!, makers[2 * h + 1]!])
      net.submit(m, [Operation.changeTrust({ asset: sell }), Operation.changeTrust({ asset: buy })]);
  });
  await net.settle();
  net.submit(
    issuer!,
    hops.flatMap(([sell], h) =>
      [makers[2 * h]!, makers[2 * h + 1]!].map((m) => Operation.payment({ destination: m.publicKey(), asset: sell, amount: '100000' })),
    ),
  );
  await net.settle();
  hops.forEach(([sell, buy], h) => {
    for (let i = 0; i < DEPTH; i += 100) {
      const m = makers[2 * h + (i < DEPTH / 2 ? 0 : 1)]!;
      net.submit(
        m,
        Array.from({ length: 100 }, (_, j) => sellOffer(sell, buy, 1_000_000, 1000 + i + j, 1000)),
      );
    }
  });
  await net.settle();
  const senders = await net.fund(DEPTH, '100');
  for (let i = 0; i < senders.length; i += 100) {
    for (const s of senders.slice(i, i + 100))
      net.submit(s, [Operation.changeTrust({ asset: aaa! }), Operation.changeTrust({ asset: ddd! })]);
  }
  await net.settle();
  for (let i = 0; i < senders.length; i += 100) {
    net.submit(
      issuer!,
      senders.slice(i, i + 100).map((s) => Operation.payment({ destination: s.publicKey(), asset: aaa!, amount: '10' })),
    );
  }
  await net.settle();
  // each sender pays itself 0.05 DDD through BBB and CCC
  const envelopes = senders.map((s) => envelope(s, net.seq(s), [strictReceive(aaa!, 100_000_000, s, ddd!, 500_000, [bbb!, ccc!])]));
  const a = performance.now();
  for (const env of envelopes) if (net.core.submit(env).status !== 'PENDING') throw new Error('payment rejected');
  const submitMs = performance.now() - a;
  const closed = await net.close();
  if (closed.failed) throw new Error(`${closed.failed} path payments failed`);
  const crossed = claimAtoms(net.core);
  await net.core.stop();
  return { payments: senders.length, crossed, closeMs: closed.ms, submitMs };
}

async function main(): Promise<void> {
  const rate = (n: number, ms: number) => Math.round((n / ms) * 1000);
  let crossed = 0;
  let closeMs = 0;
  let submitMs = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const x = await crossingRound();
    crossed += x.crossed;
    closeMs += x.closeMs;
    submitMs += x.submitMs;
  }
  console.log(
    `deep book (${DEPTH} offers per side, all taken): ${crossed} offers crossed (claim atoms) by ${(ROUNDS * 2 * DEPTH) / PER_TAKER} manage_buy_offer txs; ` +
      `${rate(crossed, closeMs)} offers/s in close, ${rate(crossed, closeMs + submitMs)} offers/s submit+close`,
  );
  let payments = 0;
  let pathCrossed = 0;
  closeMs = 0;
  submitMs = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const x = await pathRound();
    payments += x.payments;
    pathCrossed += x.crossed;
    closeMs += x.closeMs;
    submitMs += x.submitMs;
  }
  console.log(
    `path payments through 3 hops: ${payments} payments crossing ${pathCrossed} offers; ` +
      `${rate(payments, closeMs)} payments/s in close, ${rate(payments, closeMs + submitMs)} payments/s submit+close`,
  );
}

await main();
