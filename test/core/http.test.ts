// stellar-core HTTP commands over real HTTP on ephemeral ports.
import { afterEach, describe, expect, it } from 'vitest';
import { Asset, Keypair, Operation, xdr } from '@stellar/stellar-sdk/base';
import { Harness, codesOf, metaV1 } from './support/harness.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function get(port: number, path: string, init: RequestInit = {}): Promise<{ status: number; type: string; body: string }> {
  const r = await fetch(`http://127.0.0.1:${port}${path}`, init);
  return { status: r.status, type: r.headers.get('content-type') ?? '', body: await r.text() };
}

describe('core HTTP commands', () => {
  it('/info, /tx (PENDING, DUPLICATE, ERROR) and /manualclose', async () => {
    const h = await Harness.create();
    cleanups.push(() => h.core.stop());
    const [a, b] = await h.fund(100, 2);
    const { port } = await h.core.listen(0);

    const info = JSON.parse((await get(port, '/info')).body) as {
      info: { state: string; ledger: { num: number; baseFee: number; baseReserve: number; version: number }; network: string };
    };
    expect(info.info.state).toBe('Synced!');
    expect(info.info.ledger).toMatchObject({ num: 2, baseFee: 100, baseReserve: 5_000_000, version: 22 });
    expect(info.info.network).toBe(h.core.networkPassphrase);

    const env = h.envelope(a!, [Operation.payment({ destination: b!.publicKey(), asset: Asset.native(), amount: '1' })]);
    const blob = encodeURIComponent(env);
    expect(JSON.parse((await get(port, `/tx?blob=${blob}`)).body)).toEqual({ status: 'PENDING' });
    expect(JSON.parse((await get(port, `/tx?blob=${blob}`)).body)).toEqual({ status: 'DUPLICATE' });

    const garbage = JSON.parse((await get(port, '/tx?blob=AAAAAAAA')).body) as { status: string; error: string };
    expect(garbage.status).toBe('ERROR');
    expect(codesOf(xdr.TransactionResult.fromXdr(garbage.error, 'base64')).code).toBe('txMalformed');

    const forged = h.envelope(b!, [Operation.payment({ destination: a!.publicKey(), asset: Asset.native(), amount: '1' })], {
      signers: [Keypair.random()],
    });
    const bad = JSON.parse((await get(port, `/tx?blob=${encodeURIComponent(forged)}`)).body) as { status: string; error: string };
    expect(bad.status).toBe('ERROR');
    expect(codesOf(xdr.TransactionResult.fromXdr(bad.error, 'base64')).code).toBe('txBadAuth');

    expect((await get(port, '/tx')).status).toBe(400);
    const closeTime = h.core.latestLedger().closeTime + 7;
    const closed = await get(port, `/manualclose?closeTime=${closeTime}`);
    expect(closed.status).toBe(200);
    expect(closed.body).toBe(`Manually closed ledger with sequence number 3 and closeTime ${closeTime}`);
    expect(h.core.latestLedger().sequence).toBe(3);
    expect((await get(port, '/manualclose?closeTime=abc')).status).toBe(400);
    expect((await get(port, '/nope')).status).toBe(404);
  });

  it('/manualclose is refused when closing on an interval', async () => {
    const h = await Harness.create({ manualClose: false, closeIntervalMs: 60_000 });
    cleanups.push(() => h.core.stop());
    const { port } = await h.core.listen(0);
    const r = JSON.parse((await get(port, '/manualclose')).body) as { exception?: string };
    expect(r.exception).toMatch(/MANUAL_CLOSE/);
  });
});

describe('interval closing', () => {
  it('closes on the interval and ledgers() follows live', async () => {
    const h = await Harness.create({ manualClose: false, closeIntervalMs: 50 });
    cleanups.push(() => h.core.stop());
    const [a, b] = await h.fund(10, 2);
    h.core.start();
    const env = h.envelope(a!, [Operation.payment({ destination: b!.publicKey(), asset: Asset.native(), amount: '1' })]);
    const from = h.core.latestLedger().sequence + 1;
    const seen: number[] = [];
    let found = false;
    const follow = (async () => {
      for await (const meta of h.core.ledgers(from)) {
        const v1 = metaV1(meta);
        seen.push(v1.ledgerHeader.header.ledgerSeq);
        if (v1.txProcessing.length > 0) {
          found = true;
          break;
        }
      }
    })();
    expect(h.core.submit(env)).toEqual({ status: 'PENDING' });
    await follow;
    expect(found).toBe(true);
    expect(seen[0]).toBe(from);
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBe(seen[i - 1]! + 1);
  });
});
