// stellar-core HTTP commands and the friendbot handler over real HTTP on ephemeral ports.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Asset, Keypair, Operation, xdr } from '@stellar/stellar-base';
import { Friendbot, friendbotHandler } from '../../src/core/index.js';
import type { Core } from '../../src/core/index.js';
import { Harness, codesOf } from './support/harness.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function get(port: number, path: string, init: RequestInit = {}): Promise<{ status: number; type: string; body: string }> {
  const r = await fetch(`http://127.0.0.1:${port}${path}`, init);
  return { status: r.status, type: r.headers.get('content-type') ?? '', body: await r.text() };
}

async function serveFriendbot(core: Core): Promise<number> {
  const handle = friendbotHandler(new Friendbot(core));
  const server = http.createServer((req, res) => {
    void handle(req, res).then((handled) => {
      if (!handled) {
        res.writeHead(404);
        res.end();
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  cleanups.push(
    () =>
      new Promise((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  );
  return (server.address() as AddressInfo).port;
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
    expect(codesOf(xdr.TransactionResult.fromXDR(garbage.error, 'base64')).code).toBe('txMalformed');

    const forged = h.envelope(b!, [Operation.payment({ destination: a!.publicKey(), asset: Asset.native(), amount: '1' })], {
      signers: [Keypair.random()],
    });
    const bad = JSON.parse((await get(port, `/tx?blob=${encodeURIComponent(forged)}`)).body) as { status: string; error: string };
    expect(bad.status).toBe('ERROR');
    expect(codesOf(xdr.TransactionResult.fromXDR(bad.error, 'base64')).code).toBe('txBadAuth');

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

describe('friendbot', () => {
  it('funds with 10000 XLM and answers after the close; bad and repeated addresses are 400', async () => {
    const h = await Harness.create({ manualClose: false, closeIntervalMs: 100 });
    h.core.start();
    cleanups.push(() => h.core.stop());
    const port = await serveFriendbot(h.core);
    const kp = Keypair.random();
    const r = await get(port, `/friendbot?addr=${kp.publicKey()}`);
    expect(r.status).toBe(200);
    const body = JSON.parse(r.body) as { hash: string; result: string; submission_result: string; successful: boolean; ledger: number };
    expect(body.result).toBe('received');
    expect(body.successful).toBe(true);
    expect(body.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(codesOf(xdr.TransactionResult.fromXDR(body.submission_result, 'base64')).code).toBe('txSuccess');
    expect(h.core.account(kp.publicKey())!.balance).toBe(10_000n * 10_000_000n);
    const full = JSON.parse(r.body) as Record<string, unknown>;
    expect(full).toMatchObject({
      id: body.hash,
      source_account: h.root.publicKey(),
      fee_charged: '100',
      operation_count: 1,
      memo_type: 'none',
    });
    expect(BigInt(full.paging_token as string) >> 32n).toBe(BigInt(body.ledger));
    expect(xdr.TransactionMeta.fromXDR(full.result_meta_xdr as string, 'base64').switch()).toBe(3);
    expect(xdr.LedgerEntryChanges.fromXDR(full.fee_meta_xdr as string, 'base64')).toHaveLength(2);
    expect(String(full.created_at)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

    const again = await get(port, `/friendbot?addr=${kp.publicKey()}`);
    expect(again.status).toBe(400);
    expect(again.type).toContain('application/problem+json');
    expect(JSON.parse(again.body)).toMatchObject({
      status: 400,
      detail: expect.stringMatching(/already funded/),
      extras: { invalid_field: 'addr' },
    });

    const bad = await get(port, '/friendbot?addr=GBAD');
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body)).toMatchObject({
      type: 'https://stellar.org/horizon-errors/bad_request',
      extras: { invalid_field: 'addr' },
    });
    expect((await get(port, '/friendbot')).status).toBe(400);

    const viaPost = Keypair.random();
    const p = await get(port, '/friendbot', {
      method: 'POST',
      body: `addr=${viaPost.publicKey()}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(p.status).toBe(200);
    const q = await get(port, `/friendbot/?addr=${Keypair.random().publicKey()}`, { method: 'POST' });
    expect(q.status).toBe(200);
  });

  it('concurrent requests chain on the root sequence number instead of colliding', async () => {
    const h = await Harness.create({ manualClose: false, closeIntervalMs: 150 });
    h.core.start();
    cleanups.push(() => h.core.stop());
    const port = await serveFriendbot(h.core);
    const kps = Array.from({ length: 12 }, () => Keypair.random());
    const rs = await Promise.all(kps.map((k) => get(port, `/friendbot?addr=${k.publicKey()}`)));
    expect(rs.map((r) => r.status)).toEqual(kps.map(() => 200));
    for (const k of kps) expect(h.core.account(k.publicKey())).not.toBeNull();
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
        seen.push(meta.v1().ledgerHeader().header().ledgerSeq());
        if (meta.v1().txProcessing().length > 0) {
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
