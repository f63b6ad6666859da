// submitAsync: signatures verified on the worker threads, then the same answers as submit(), in
// arrival order, and a close takes every submission made before it.
import { describe, expect, it } from 'vitest';
import { Asset, Keypair, Operation } from '@stellar/stellar-sdk/base';
import { xdr } from '@stellar/stellar-sdk/base';
import { Harness } from './support/harness.js';
import { VerifyPool } from '../../src/core/ledger/verify_pool.js';
import type { PendingCheck } from '../../src/core/ledger/signature_checker.js';

const pay = (to: Keypair) => Operation.payment({ destination: to.publicKey(), asset: Asset.native(), amount: '1' });
const code = (s: { status: string; error?: string }) =>
  s.status === 'ERROR' ? xdr.TransactionResult.fromXdr(s.error!, 'base64').result.type : s.status;

describe('submitAsync', () => {
  it('answers as submit() does, in arrival order, and the close waits for what is being verified', async () => {
    const h = await Harness.create({ verifyThreads: 2 });
    const [a, b] = await h.fund(100, 2);
    const seq = h.seq(a!);
    const stranger = Keypair.random();
    const answers = await Promise.all([
      // a chain of sequence numbers: each is checked after the one before it is queued
      ...[1n, 2n, 3n].map((n) => h.core.submitAsync(h.envelope(a!, [pay(b!)], { seq: seq + n }))),
      h.core.submitAsync(h.envelope(a!, [pay(b!)], { seq: seq + 1n, fee: 200 })),
      h.core.submitAsync(h.envelope(a!, [pay(b!)], { seq: seq + 5n })),
      h.core.submitAsync(h.envelope(b!, [pay(a!)], { signers: [stranger] })),
      h.core.submitAsync(h.envelope(b!, [pay(a!)], { signers: [b!, stranger] })),
      h.core.submitAsync('not base64 at all!'),
    ]);
    expect(answers.map(code)).toEqual([
      'PENDING',
      'PENDING',
      'PENDING',
      'txBadSeq',
      'txBadSeq',
      'txBadAuth',
      'txBadAuthExtra',
      'txMalformed',
    ]);
    // the same envelope twice
    const env = h.envelope(b!, [pay(a!)]);
    expect((await Promise.all([h.core.submitAsync(env), h.core.submitAsync(env)])).map(code)).toEqual(['PENDING', 'DUPLICATE']);

    // not awaited: the close still takes it
    const last = h.core.submitAsync(h.envelope(a!, [pay(b!)], { seq: seq + 4n }));
    const closed = await h.core.closeLedger(h.nextCloseTime());
    expect(await last).toEqual({ status: 'PENDING' });
    expect(closed.results.map((r) => r.code)).toEqual(['txSuccess', 'txSuccess', 'txSuccess', 'txSuccess', 'txSuccess']);
    expect(h.seq(a!)).toBe(seq + 4n);
    await h.core.stop();
  });

  it('verifies on the calling thread with no worker threads', async () => {
    const h = await Harness.create({ verifyThreads: 0 });
    const [a, b] = await h.fund(100, 2);
    expect(await h.core.submitAsync(h.envelope(a!, [pay(b!)]))).toEqual({ status: 'PENDING' });
    expect(code(await h.core.submitAsync(h.envelope(b!, [pay(a!)], { signers: [a!] })))).toBe('txBadAuth');
    await h.core.stop();
  });
});

describe('VerifyPool', () => {
  it('writes the result of each check into its memo: the SDK signatures pass, altered ones and other keys fail', async () => {
    const pool = new VerifyPool(2);
    const verified = new Map<string, boolean>();
    const checks: PendingCheck[] = [];
    const keys = Array.from({ length: 150 }, () => Keypair.random());
    keys.forEach((k, i) => {
      const message = Buffer.from(`message ${i}`);
      const signature = Buffer.from(k.sign(message));
      if (i % 3 === 1) signature[5] = signature[5]! ^ 1;
      const signer = i % 3 === 2 ? keys[(i + 1) % keys.length]! : k;
      checks.push({ verified, memo: String(i), publicKey: Buffer.from(signer.rawPublicKey()), message, signature });
    });
    // in two calls of one turn, the second beyond one message's worth
    await Promise.all([pool.verify(checks.slice(0, 10)), pool.verify(checks.slice(10))]);
    expect([...verified.keys()].length).toBe(150);
    for (let i = 0; i < 150; i++) expect(verified.get(String(i))).toBe(i % 3 === 0);
    await pool.close();
    // a closed pool leaves the checks to the caller
    const after = new Map<string, boolean>();
    await pool.verify([{ ...checks[0]!, verified: after }]);
    expect(after.size).toBe(0);
  });
});
