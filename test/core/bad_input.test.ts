// Bad input never crashes the core: undecodable, truncated, mutated and unknown-type envelopes are
// answered ERROR with a TransactionResult (or queued when a mutation happens to stay valid).
import { describe, expect, it } from 'vitest';
import { Asset, Operation, xdr } from '@stellar/stellar-sdk/base';
import { Harness } from './support/harness.js';

function rng(seed: number): () => number {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 0x100000000;
  };
}

describe('bad input', () => {
  it('random bytes, truncations and bit flips of a valid envelope', async () => {
    const h = await Harness.create();
    const [a, b] = await h.fund(100, 2);
    const good = Buffer.from(
      h.envelope(a!, [Operation.payment({ destination: b!.publicKey(), asset: Asset.native(), amount: '1' })]),
      'base64',
    );
    const r = rng(42);
    const blobs: Buffer[] = [];
    for (let i = 0; i < 200; i++) blobs.push(Buffer.from(Array.from({ length: Math.floor(r() * 300) }, () => Math.floor(r() * 256))));
    for (let i = 0; i < good.length; i += 7) blobs.push(good.subarray(0, i));
    for (let i = 0; i < 400; i++) {
      const m = Buffer.from(good);
      const pos = Math.floor(r() * m.length);
      m[pos] = m[pos]! ^ (1 << Math.floor(r() * 8));
      blobs.push(m);
    }
    // an unknown envelope type
    const unknown = Buffer.from(good);
    unknown.writeUInt32BE(9, 0);
    blobs.push(unknown);
    for (const blob of blobs) {
      const s = h.core.submit(blob.toString('base64'));
      expect(['ERROR', 'PENDING', 'DUPLICATE', 'TRY_AGAIN_LATER']).toContain(s.status);
      if (s.status === 'ERROR') expect(() => xdr.TransactionResult.fromXdr(s.error, 'base64')).not.toThrow();
    }
    // the ledger still closes
    const closed = await h.core.closeLedger(h.nextCloseTime());
    expect(closed.sequence).toBe(3);
  });

  it('a wrong signature on an otherwise valid transaction is txBAD_AUTH', async () => {
    const h = await Harness.create();
    const [a, b] = await h.fund(100, 2);
    const env = xdr.expectUnionVariant(
      xdr.TransactionEnvelope.fromXdr(
        h.envelope(a!, [Operation.payment({ destination: b!.publicKey(), asset: Asset.native(), amount: '1' })]),
        'base64',
      ),
      'envelopeTypeTx',
    );
    const sig = env.v1.signatures[0]!;
    const bad = Uint8Array.from(sig.signature.value);
    bad[0] = bad[0]! ^ 0xff;
    const forged = xdr.TransactionEnvelope.envelopeTypeTx(
      new xdr.TransactionV1Envelope({ tx: env.v1.tx, signatures: [new xdr.DecoratedSignature({ hint: sig.hint, signature: bad })] }),
    );
    const s = h.core.submit(forged.toXdr('base64'));
    expect(s.status).toBe('ERROR');
    expect(xdr.TransactionResult.fromXdr((s as { error: string }).error, 'base64').result.type).toBe('txBadAuth');
  });
});
