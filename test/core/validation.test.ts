// Envelope validation and result codes (stellar-core TransactionFrame semantics).
import { describe, expect, it } from 'vitest';
import { Keypair, Operation, Asset, xdr, Account, TransactionBuilder, type FeeBumpTransaction } from '@stellar/stellar-sdk/base';
import { Harness, PASSPHRASE, XLM, closeMetaV1, codesOf, hex } from './support/harness.js';

const pay = (to: Keypair, amount = '1') => Operation.payment({ destination: to.publicKey(), asset: Asset.native(), amount });

function errorCodes(status: { status: string; error?: string }): { code: string; ops: string[] } {
  expect(status.status).toBe('ERROR');
  return codesOf(xdr.TransactionResult.fromXdr(status.error!, 'base64'));
}

describe('transaction validation', () => {
  it('accepts a valid payment and charges base fee × operations', async () => {
    const h = await Harness.create();
    const [a, b] = await h.fund(100, 2);
    const before = h.balance(a!);
    const r = await h.run(a!, [pay(b!), pay(b!)], { fee: 1000 });
    expect(r.code).toBe('txSuccess');
    expect(r.feeCharged).toBe(200n); // min(bid 1000, 100 × 2 ops)
    expect(h.balance(a!)).toBe(before - 200n - 2n * XLM);
  });

  it('tx_bad_seq for a sequence number that is not account + 1 (or the chain end)', async () => {
    const h = await Harness.create();
    const [a, b] = await h.fund(100, 2);
    const seq = h.seq(a!);
    expect(errorCodes(h.core.submit(h.envelope(a!, [pay(b!)], { seq: seq + 2n }))).code).toBe('txBadSeq');
    expect(errorCodes(h.core.submit(h.envelope(a!, [pay(b!)], { seq }))).code).toBe('txBadSeq');
    // later ones queue behind the pending one
    expect(h.core.submit(h.envelope(a!, [pay(b!)], { seq: seq + 1n }))).toEqual({ status: 'PENDING' });
    expect(h.core.submit(h.envelope(a!, [pay(b!)], { seq: seq + 2n }))).toEqual({ status: 'PENDING' });
    const closed = await h.core.closeLedger(h.nextCloseTime());
    expect(closed.results.map((x) => x.code)).toEqual(['txSuccess', 'txSuccess']);
    expect(h.seq(a!)).toBe(seq + 2n);
  });

  it('DUPLICATE for the same envelope twice', async () => {
    const h = await Harness.create();
    const [a, b] = await h.fund(100, 2);
    const env = h.envelope(a!, [pay(b!)]);
    expect(h.core.submit(env)).toEqual({ status: 'PENDING' });
    expect(h.core.submit(env)).toEqual({ status: 'DUPLICATE' });
  });

  it('tx_bad_auth for a wrong signer and for a foreign network', async () => {
    const h = await Harness.create();
    const [a, b] = await h.fund(100, 2);
    const r = await h.run(a!, [pay(b!)], { signers: [Keypair.random()] });
    expect(r.code).toBe('txBadAuth');
    const other = new TransactionBuilder(new Account(a!.publicKey(), String(h.seq(a!))), {
      fee: '100',
      networkPassphrase: 'Some Other Network',
      timebounds: { minTime: 0, maxTime: 0 },
    })
      .addOperation(pay(b!))
      .build();
    other.sign(a!);
    expect(errorCodes(h.core.submit(other.toEnvelope().toXdr('base64'))).code).toBe('txBadAuth');
  });

  it('tx_bad_auth_extra for an unused signature', async () => {
    const h = await Harness.create();
    const [a, b] = await h.fund(100, 2);
    const r = await h.run(a!, [pay(b!)], { signers: [a!, Keypair.random()] });
    expect(r.code).toBe('txBadAuthExtra');
  });

  it('tx_insufficient_fee below base fee × operations', async () => {
    const h = await Harness.create();
    const [a, b] = await h.fund(100, 2);
    const r = await h.run(a!, [pay(b!), pay(b!)], { fee: 70 }); // TransactionBuilder's fee is per operation too: 140 in total
    expect(r.code).toBe('txInsufficientFee');
    expect(r.feeCharged).toBe(200n);
  });

  it('tx_no_source_account', async () => {
    const h = await Harness.create();
    const [b] = await h.fund(100);
    const ghost = Keypair.random();
    const r = await h.run(ghost, [pay(b!)], { seq: 1n });
    expect(r.code).toBe('txNoAccount');
  });

  it('tx_too_early and tx_too_late', async () => {
    const h = await Harness.create();
    const [a, b] = await h.fund(100, 2);
    await h.close();
    const now = h.core.latestLedger().closeTime;
    expect((await h.run(a!, [pay(b!)], { timebounds: { minTime: now + 1000, maxTime: 0 } })).code).toBe('txTooEarly');
    expect((await h.run(a!, [pay(b!)], { timebounds: { minTime: 0, maxTime: now - 1 } })).code).toBe('txTooLate');
    expect((await h.run(a!, [pay(b!)], { timebounds: { minTime: now - 10, maxTime: now + 1000 } })).code).toBe('txSuccess');
  });

  it('tx_too_late when the ledger closes after max time (checked again at apply)', async () => {
    const h = await Harness.create();
    const [a, b] = await h.fund(100, 2);
    const now = h.core.latestLedger().closeTime;
    expect(h.core.submit(h.envelope(a!, [pay(b!)], { timebounds: { minTime: 0, maxTime: now + 2 } }))).toEqual({ status: 'PENDING' });
    // the queued transaction is no longer valid at close: stellar-core drops it from the tx set
    const closed = await h.core.closeLedger(now + 100);
    expect(closed.txCount).toBe(0);
  });

  it('tx_missing_operation', async () => {
    const h = await Harness.create();
    const [a] = await h.fund(100);
    const tx = new xdr.Transaction({
      sourceAccount: xdr.MuxedAccount.keyTypeEd25519(a!.rawPublicKey()),
      fee: 100,
      seqNum: h.seq(a!) + 1n,
      cond: xdr.Preconditions.precondNone(),
      memo: xdr.Memo.memoNone(),
      operations: [],
      ext: xdr.TransactionExt.v0(),
    });
    const env = xdr.TransactionEnvelope.envelopeTypeTx(new xdr.TransactionV1Envelope({ tx, signatures: [] }));
    expect(errorCodes(h.core.submit(env.toXdr('base64'))).code).toBe('txMissingOperation');
  });

  it('tx_insufficient_balance when the fee would eat into the reserve', async () => {
    const h = await Harness.create();
    const [a, b] = await h.fund(1, 2); // exactly the 1 XLM minimum balance
    const r = await h.run(a!, [pay(b!)]);
    expect(r.code).toBe('txInsufficientBalance');
  });

  it('tx_failed keeps the fee and consumes the sequence number', async () => {
    const h = await Harness.create();
    const [a, b] = await h.fund(10, 2);
    const before = h.balance(a!);
    const seq = h.seq(a!);
    const r = await h.run(a!, [pay(b!, '1'), pay(b!, '1000')]);
    expect(r.code).toBe('txFailed');
    expect(r.ops).toEqual(['paymentSuccess', 'paymentUnderfunded']);
    expect(r.feeCharged).toBe(200n);
    expect(h.balance(a!)).toBe(before - 200n); // the first payment is rolled back
    expect(h.seq(a!)).toBe(seq + 1n);
  });

  it('accepts v0 envelopes (converted to v1 like stellar-core does) with the same hash', async () => {
    const h = await Harness.create();
    const [a, b] = await h.fund(100, 2);
    const v1 = xdr.expectUnionVariant(xdr.TransactionEnvelope.fromXdr(h.envelope(a!, [pay(b!)]), 'base64'), 'envelopeTypeTx');
    const t = v1.v1.tx;
    const v0tx = new xdr.TransactionV0({
      sourceAccountEd25519: a!.rawPublicKey(),
      fee: t.fee,
      seqNum: t.seqNum,
      timeBounds: xdr.expectUnionVariant(t.cond, 'precondTime').timeBounds,
      memo: t.memo,
      operations: t.operations,
      ext: xdr.TransactionV0Ext.v0(),
    });
    // a v0 transaction hashes like its v1 form; sign that shared hash
    const hash = TransactionBuilder.fromXdr(v1, PASSPHRASE).hash();
    const sig = a!.signDecorated(hash);
    const env = xdr.TransactionEnvelope.envelopeTypeTxV0(new xdr.TransactionV0Envelope({ tx: v0tx, signatures: [sig] }));
    const r = await h.submitAndClose(env.toXdr('base64'));
    expect(r.code).toBe('txSuccess');
  });

  it('answers ERROR txMALFORMED for bytes that are not an envelope, never throws', async () => {
    const h = await Harness.create();
    for (const blob of ['', 'AAAA', 'not base64 !!', Buffer.from('hello world').toString('base64'), 'AAAABQAAAAA=']) {
      expect(errorCodes(h.core.submit(blob)).code).toBe('txMalformed');
    }
  });

  it('TRY_AGAIN_LATER when the queue is full', async () => {
    const h = await Harness.create({ maxQueueOps: 2 });
    const [a, b] = await h.fund(100, 2);
    const seq = h.seq(a!);
    expect(h.core.submit(h.envelope(a!, [pay(b!)], { seq: seq + 1n }))).toEqual({ status: 'PENDING' });
    expect(h.core.submit(h.envelope(a!, [pay(b!)], { seq: seq + 2n }))).toEqual({ status: 'PENDING' });
    expect(h.core.submit(h.envelope(a!, [pay(b!)], { seq: seq + 3n }))).toEqual({ status: 'TRY_AGAIN_LATER' });
  });

  it('operation-level failures at submission: op_bad_auth, op_no_account, malformed', async () => {
    const h = await Harness.create();
    const [a, b] = await h.fund(100, 2);
    const ghost = Keypair.random();
    let s = h.core.submit(
      h.envelope(a!, [Operation.payment({ destination: b!.publicKey(), asset: Asset.native(), amount: '1', source: b!.publicKey() })]),
    );
    expect(errorCodes(s)).toEqual({ code: 'txFailed', ops: ['opBadAuth'] });
    s = h.core.submit(
      h.envelope(a!, [Operation.payment({ destination: b!.publicKey(), asset: Asset.native(), amount: '1', source: ghost.publicKey() })], {
        signers: [a!, ghost],
      }),
    );
    // an absent operation source that signed passes validation and fails at apply with op_no_account
    expect(s.status).toBe('PENDING');
    const closed = await h.core.closeLedger(h.nextCloseTime());
    const meta = closeMetaV1(h.core, closed.sequence);
    expect(codesOf(meta.txProcessing[0]!.result.result)).toEqual({ code: 'txFailed', ops: ['opNoAccount'] });
  });
});

describe('signatures and thresholds', () => {
  it('multi-sig: weights add up to the threshold of each operation', async () => {
    const h = await Harness.create();
    const [a, b] = await h.fund(100, 2);
    const s1 = Keypair.random();
    const s2 = Keypair.random();
    let r = await h.run(a!, [
      Operation.setOptions({ signer: { ed25519PublicKey: s1.publicKey(), weight: 1 } }),
      Operation.setOptions({ signer: { ed25519PublicKey: s2.publicKey(), weight: 2 } }),
      Operation.setOptions({ masterWeight: 1, lowThreshold: 1, medThreshold: 2, highThreshold: 3 }),
    ]);
    expect(r.code).toBe('txSuccess');
    expect(h.core.account(a!.publicKey())!.numSubEntries).toBe(2);
    // medium (payment) needs 2: s1 alone (1) fails, s2 alone (2) passes, master + s1 (2) passes
    r = await h.run(a!, [pay(b!)], { signers: [s1] });
    expect(r.code).toBe('txFailed');
    expect(r.ops).toEqual(['opBadAuth']);
    expect((await h.run(a!, [pay(b!)], { signers: [s2] })).code).toBe('txSuccess');
    expect((await h.run(a!, [pay(b!)], { signers: [a!, s1] })).code).toBe('txSuccess');
    // high (set_options thresholds) needs 3
    r = await h.run(a!, [Operation.setOptions({ highThreshold: 2 })], { signers: [s2] });
    expect(r.ops).toEqual(['opBadAuth']);
    expect((await h.run(a!, [Operation.setOptions({ highThreshold: 2 })], { signers: [s2, s1] })).code).toBe('txSuccess');
    // bump_sequence is low (1): s1 is enough
    expect((await h.run(a!, [Operation.bumpSequence({ bumpTo: '0' })], { signers: [s1] })).code).toBe('txSuccess');
    // s2 alone reaches every needed weight first, so s1's signature is never used
    expect((await h.run(a!, [pay(b!)], { signers: [s2, s1] })).code).toBe('txBadAuthExtra');
  });

  it('master weight 0 disables the master key', async () => {
    const h = await Harness.create();
    const [a, b] = await h.fund(100, 2);
    const s = Keypair.random();
    expect(
      (await h.run(a!, [Operation.setOptions({ signer: { ed25519PublicKey: s.publicKey(), weight: 1 }, masterWeight: 0 })])).code,
    ).toBe('txSuccess');
    expect((await h.run(a!, [pay(b!)])).code).toBe('txBadAuth');
    expect((await h.run(a!, [pay(b!)], { signers: [s] })).code).toBe('txSuccess');
  });

  it('signatures for another account used by an operation source', async () => {
    const h = await Harness.create();
    const [a, b, c] = await h.fund(100, 3);
    const r = await h.run(
      a!,
      [Operation.payment({ destination: c!.publicKey(), asset: Asset.native(), amount: '1', source: b!.publicKey() })],
      { signers: [a!, b!] },
    );
    expect(r.code).toBe('txSuccess');
    expect(h.balance(b!)).toBe(99n * XLM);
  });

  it('pre-authorized transaction signers are consumed and hash-x signers work', async () => {
    const h = await Harness.create();
    const [a, b] = await h.fund(100, 2);
    const seq = h.seq(a!);
    const preEnv = h.envelope(a!, [pay(b!)], { seq: seq + 2n, signers: [] });
    const preHash = TransactionBuilder.fromXdr(preEnv, PASSPHRASE).hash();
    expect((await h.run(a!, [Operation.setOptions({ signer: { preAuthTx: preHash, weight: 1 } })])).code).toBe('txSuccess');
    expect(h.core.account(a!.publicKey())!.signers.length).toBe(1);
    expect((await h.submitAndClose(preEnv)).code).toBe('txSuccess');
    expect(h.core.account(a!.publicKey())!.signers.length).toBe(0);
    expect(h.core.account(a!.publicKey())!.numSubEntries).toBe(0);
  });
});

describe('fee bumps', () => {
  function bump(_h: Harness, feeSource: Keypair, innerEnv: string, baseFee: string, signers: Keypair[] = [feeSource]): string {
    const inner = TransactionBuilder.fromXdr(innerEnv, PASSPHRASE);
    const fb = TransactionBuilder.buildFeeBumpTransaction(feeSource, baseFee, inner as never, PASSPHRASE) as FeeBumpTransaction;
    fb.sign(...signers);
    return fb.toEnvelope().toXdr('base64');
  }

  it('the fee source pays; the inner transaction applies with its own sequence number', async () => {
    const h = await Harness.create();
    const [a, b, payer] = await h.fund(100, 3);
    const aBal = h.balance(a!);
    const pBal = h.balance(payer!);
    const seq = h.seq(a!);
    const inner = h.envelope(a!, [pay(b!)], { fee: 100 });
    const r = await h.submitAndClose(bump(h, payer!, inner, '300'));
    expect(r.code).toBe('txFeeBumpInnerSuccess');
    expect(r.feeCharged).toBe(200n); // base fee × (1 operation + 1)
    const innerPair = xdr.expectUnionVariant(r.result!.result, 'txFeeBumpInnerSuccess').innerResultPair;
    expect(hex(innerPair.transactionHash)).toBe(hex(TransactionBuilder.fromXdr(inner, PASSPHRASE).hash()));
    expect(innerPair.result.feeCharged).toBe(100n);
    expect(innerPair.result.result.type).toBe('txSuccess');
    expect(h.balance(payer!)).toBe(pBal - 200n);
    expect(h.balance(a!)).toBe(aBal - XLM);
    expect(h.seq(a!)).toBe(seq + 1n);
  });

  it('an inner transaction failing at apply keeps the outer fee and the inner sequence number', async () => {
    const h = await Harness.create();
    const [a, b, payer] = await h.fund(100, 3);
    const seq = h.seq(a!);
    const r = await h.submitAndClose(bump(h, payer!, h.envelope(a!, [pay(b!, '1000')]), '200'));
    expect(r.code).toBe('txFeeBumpInnerFailed');
    const inner = xdr.expectUnionVariant(r.result!.result, 'txFeeBumpInnerFailed').innerResultPair.result;
    expect(codesOf(inner).ops).toEqual(['paymentUnderfunded']);
    expect(h.seq(a!)).toBe(seq + 1n);
  });

  it('outer and inner validation codes', async () => {
    const h = await Harness.create();
    const [a, b, payer] = await h.fund(100, 3);
    const inner = h.envelope(a!, [pay(b!)]);
    // below base fee × (ops + 1)
    const low = xdr.expectUnionVariant(
      xdr.TransactionEnvelope.fromXdr(bump(h, payer!, inner, '100'), 'base64'),
      'envelopeTypeTxFeeBump',
    ).feeBump;
    const lowTx = new xdr.FeeBumpTransaction({ feeSource: low.tx.feeSource, fee: 150n, innerTx: low.tx.innerTx, ext: low.tx.ext });
    const lowFee = xdr.TransactionEnvelope.envelopeTypeTxFeeBump(
      new xdr.FeeBumpTransactionEnvelope({ tx: lowTx, signatures: low.signatures }),
    );
    expect(errorCodes(h.core.submit(lowFee.toXdr('base64'))).code).toBe('txInsufficientFee');
    expect(errorCodes(h.core.submit(bump(h, Keypair.random(), inner, '200'))).code).toBe('txNoAccount');
    expect(errorCodes(h.core.submit(bump(h, payer!, inner, '200', [Keypair.random()]))).code).toBe('txBadAuth');
    expect(errorCodes(h.core.submit(bump(h, payer!, inner, '200', [payer!, b!]))).code).toBe('txBadAuthExtra');
    const badSeq = h.envelope(a!, [pay(b!)], { seq: h.seq(a!) + 5n });
    const s = h.core.submit(bump(h, payer!, badSeq, '200'));
    expect(errorCodes(s).code).toBe('txFeeBumpInnerFailed');
    const r = xdr.TransactionResult.fromXdr((s as { error: string }).error, 'base64');
    expect(xdr.expectUnionVariant(r.result, 'txFeeBumpInnerFailed').innerResultPair.result.result.type).toBe('txBadSeq');
    // the inner fee is not checked against the base fee when bumped
    const cheap = h.envelope(a!, [pay(b!)], { fee: 10 });
    expect(h.core.submit(bump(h, payer!, cheap, '200'))).toEqual({ status: 'PENDING' });
  });
});

describe('preconditions v2', () => {
  function v2(
    o: Partial<{
      minLedger: number;
      maxLedger: number;
      minSeqNum: bigint;
      minSeqAge: bigint;
      minSeqLedgerGap: number;
      extraSigners: xdr.SignerKey[];
    }>,
  ): xdr.Preconditions {
    return xdr.Preconditions.precondV2(
      new xdr.PreconditionsV2({
        timeBounds: null,
        ledgerBounds:
          o.minLedger !== undefined || o.maxLedger !== undefined
            ? new xdr.LedgerBounds({ minLedger: o.minLedger ?? 0, maxLedger: o.maxLedger ?? 0 })
            : null,
        minSeqNum: o.minSeqNum ?? null,
        minSeqAge: o.minSeqAge ?? 0n,
        minSeqLedgerGap: o.minSeqLedgerGap ?? 0,
        extraSigners: o.extraSigners ?? [],
      }),
    );
  }

  it('ledger bounds, min sequence number, sequence age/gap and extra signers', async () => {
    const h = await Harness.create();
    const [a, b] = await h.fund(100, 2);
    const next = h.core.latestLedger().sequence + 1;
    expect((await h.run(a!, [pay(b!)], { cond: v2({ minLedger: next + 5 }) })).code).toBe('txTooEarly');
    expect((await h.run(a!, [pay(b!)], { cond: v2({ maxLedger: h.core.latestLedger().sequence + 1 }) })).code).toBe('txTooLate');
    expect((await h.run(a!, [pay(b!)], { cond: v2({ minLedger: 1, maxLedger: h.core.latestLedger().sequence + 5 }) })).code).toBe(
      'txSuccess',
    );
    // minSeqNum relaxes the sequence rule: any account sequence in [minSeqNum, seq) is accepted
    const seq = h.seq(a!);
    expect((await h.run(a!, [pay(b!)], { seq: seq + 10n, cond: v2({ minSeqNum: seq - 1n }) })).code).toBe('txSuccess');
    expect(h.seq(a!)).toBe(seq + 10n);
    expect((await h.run(a!, [pay(b!)], { seq: h.seq(a!) + 10n, cond: v2({ minSeqNum: h.seq(a!) + 1n }) })).code).toBe('txBadSeq');
    expect((await h.run(a!, [pay(b!)], { cond: v2({ minSeqAge: 1_000_000n }) })).code).toBe('txBadMinSeqAgeOrGap');
    expect((await h.run(a!, [pay(b!)], { cond: v2({ minSeqLedgerGap: 100 }) })).code).toBe('txBadMinSeqAgeOrGap');
    const extra = Keypair.random();
    const extraKey = xdr.SignerKey.signerKeyTypeEd25519(extra.rawPublicKey());
    expect((await h.run(a!, [pay(b!)], { cond: v2({ extraSigners: [extraKey] }) })).code).toBe('txBadAuth');
    expect((await h.run(a!, [pay(b!)], { cond: v2({ extraSigners: [extraKey] }), signers: [a!, extra] })).code).toBe('txSuccess');
    expect((await h.run(a!, [pay(b!)], { cond: v2({ extraSigners: [extraKey, extraKey] }), signers: [a!, extra] })).code).toBe(
      'txMalformed',
    );
  });
});
