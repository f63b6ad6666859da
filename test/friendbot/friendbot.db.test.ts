// /friendbot on the test network: the funding transaction goes through txsub and the answer is the
// ingested transaction as GET /transactions/{hash} renders it, plus the friendbot's fields.
// Requests that arrive while a funding transaction is in flight share the next transaction.
import type { AddressInfo } from 'node:net';
import { Account, Keypair, Operation, TransactionBuilder, xdr } from '@stellar/stellar-sdk/base';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApiServer } from '../../src/api/server.js';
import { createLogger } from '../../src/logger.js';
import { MetricsRegistry } from '../../src/metrics/registry.js';
import { codesOf } from '../core/support/harness.js';
import { NETWORK_PASSPHRASE, startTestNetwork, type TestNetwork } from '../support/network.js';

let network: TestNetwork;
/** an account of its own, to create accounts behind the friendbot's back */
const funder = Keypair.random();

beforeAll(async () => {
  network = await startTestNetwork();
  // before the friendbot's first request: it reads the root account's sequence number after this
  await network.fund(funder);
}, 60_000);

afterAll(async () => {
  await network?.stop();
});

let stopClosing: (() => Promise<void>) | null = null;
afterEach(async () => {
  await stopClosing?.();
  stopClosing = null;
});

function closeWhileWaiting(): void {
  stopClosing = network.closeWhileWaiting();
}

async function get(path: string, init: RequestInit = {}): Promise<{ status: number; type: string; body: string }> {
  const r = await fetch(`${network.url}${path}`, init);
  return { status: r.status, type: r.headers.get('content-type') ?? '', body: await r.text() };
}

async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

type Funded = Record<string, unknown> & { hash: string; ledger: number; operation_count: number; created_account: string };

describe('friendbot', () => {
  it('funds with 10000 XLM and answers after the close; bad and repeated addresses are 400', async () => {
    closeWhileWaiting();
    const kp = Keypair.random();
    const r = await get(`/friendbot?addr=${kp.publicKey()}`);
    expect(r.status).toBe(200);
    const body = JSON.parse(r.body) as { hash: string; result: string; submission_result: string; successful: boolean; ledger: number };
    expect(body.result).toBe('received');
    expect(body.successful).toBe(true);
    expect(body.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(codesOf(xdr.TransactionResult.fromXdr(body.submission_result, 'base64')).code).toBe('txSuccess');
    expect(network.core.account(kp.publicKey())!.balance).toBe(10_000n * 10_000_000n);
    const full = JSON.parse(r.body) as Record<string, unknown>;
    expect(full).toMatchObject({
      id: body.hash,
      source_account: network.root.publicKey(),
      fee_charged: '100',
      operation_count: 1,
      memo_type: 'none',
    });
    expect(BigInt(full.paging_token as string) >> 32n).toBe(BigInt(body.ledger));
    expect(xdr.TransactionMeta.fromXdr(full.result_meta_xdr as string, 'base64').toXdrObject().v).toBe(3);
    expect(xdr.decodeArray(xdr.LedgerEntryChange, full.fee_meta_xdr as string, 'base64')).toHaveLength(2);
    expect(String(full.created_at)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    // the transaction resource itself, and the friendbot's fields
    const resource = JSON.parse((await get(`/transactions/${body.hash}`)).body) as Record<string, unknown>;
    expect(full).toEqual({
      ...resource,
      result: 'received',
      submission_result: resource.result_xdr,
      created_account: kp.publicKey(),
      starting_balance: '10000.0000000',
    });

    const again = await get(`/friendbot?addr=${kp.publicKey()}`);
    expect(again.status).toBe(400);
    expect(again.type).toContain('application/problem+json');
    expect(JSON.parse(again.body)).toMatchObject({
      status: 400,
      detail: expect.stringMatching(/already funded/),
      extras: { invalid_field: 'addr' },
    });

    const bad = await get('/friendbot?addr=GBAD');
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body)).toMatchObject({
      type: 'https://stellar.org/horizon-errors/bad_request',
      extras: { invalid_field: 'addr' },
    });
    expect((await get('/friendbot')).status).toBe(400);

    const viaPost = Keypair.random();
    const p = await get('/friendbot', {
      method: 'POST',
      body: `addr=${viaPost.publicKey()}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(p.status).toBe(200);
    const q = await get(`/friendbot/?addr=${Keypair.random().publicKey()}`, { method: 'POST' });
    expect(q.status).toBe(200);
    const viaJson = Keypair.random();
    const j = await get('/friendbot', {
      method: 'POST',
      body: JSON.stringify({ addr: viaJson.publicKey() }),
      headers: { 'content-type': 'application/json' },
    });
    expect(JSON.parse(j.body)).toMatchObject({ created_account: viaJson.publicKey() });
  });

  it('answers other methods 405 and an empty POST 400', async () => {
    const put = await get('/friendbot', { method: 'PUT' });
    expect(put.status).toBe(405);
    expect(JSON.parse(put.body)).toMatchObject({ type: 'https://stellar.org/horizon-errors/method_not_allowed' });
    const empty = await get('/friendbot', { method: 'POST', body: '', headers: { 'content-type': 'application/json' } });
    expect(JSON.parse(empty.body)).toMatchObject({ status: 400, extras: { invalid_field: 'addr', reason: 'addr is required' } });
  });

  it('concurrent requests chain on the root sequence number instead of colliding', async () => {
    closeWhileWaiting();
    const kps = Array.from({ length: 12 }, () => Keypair.random());
    const rs = await Promise.all(kps.map((k) => get(`/friendbot?addr=${k.publicKey()}`)));
    expect(rs.map((r) => r.status)).toEqual(kps.map(() => 200));
    for (const k of kps) expect(network.core.account(k.publicKey())).not.toBeNull();
  });

  it('batches the requests that arrive while a funding transaction is in flight into one transaction', async () => {
    const first = get(`/friendbot?addr=${Keypair.random().publicKey()}`);
    await network.forwarded(1);
    const later = Array.from({ length: 3 }, () => Keypair.random());
    const answers = later.map((k) => get(`/friendbot?addr=${k.publicKey()}`));
    // the same account asked for twice in one batch is created once; the second request finds it funded
    const twice = get(`/friendbot?addr=${later[0]!.publicKey()}`);
    await until(() => network.friendbot.queued === 3);
    await network.closeLedger();
    const alone = JSON.parse((await first).body) as Funded;
    expect(alone.operation_count).toBe(1);

    await network.forwarded(1);
    const closed = await network.closeLedger();
    const funded = (await Promise.all(answers)).map((r) => {
      expect(r.status).toBe(200);
      return JSON.parse(r.body) as Funded;
    });
    expect(new Set(funded.map((f) => f.hash)).size).toBe(1);
    expect(funded[0]!.hash).not.toBe(alone.hash);
    expect(funded.map((f) => f.created_account)).toEqual(later.map((k) => k.publicKey()));
    expect(funded[0]).toMatchObject({ ledger: closed, operation_count: 3, fee_charged: '300', max_fee: '300' });
    for (const k of later) expect(network.core.account(k.publicKey())!.balance).toBe(10_000n * 10_000_000n);
    // (had its check of the history come after the batch landed, it would fail a batch of its own)
    closeWhileWaiting();
    const duplicate = await twice;
    expect(duplicate.status).toBe(400);
    expect(JSON.parse(duplicate.body)).toMatchObject({ detail: `account ${later[0]!.publicKey()} is already funded` });
  });

  it('answers an account the history has 400 without a transaction', async () => {
    const before = network.core.account(network.root.publicKey())!.seqNum;
    const submitted = network.metrics.timer('txsub.total').snapshot().count;
    // no ledger closes during this request: it cannot wait for one
    const r = await get(`/friendbot?addr=${funder.publicKey()}`);
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body)).toEqual({
      type: 'https://stellar.org/horizon-errors/bad_request',
      title: 'Bad Request',
      status: 400,
      detail: `account ${funder.publicKey()} is already funded`,
      extras: { invalid_field: 'addr', reason: 'account already funded to starting balance' },
    });
    expect(network.metrics.timer('txsub.total').snapshot().count).toBe(submitted);
    expect(network.core.account(network.root.publicKey())!.seqNum).toBe(before);
    expect(network.core.info().info.queue.pending_count).toBe(0);
  });

  it('answers the accounts created meanwhile 400 and funds the rest of their batch in the next transaction', async () => {
    const first = get(`/friendbot?addr=${Keypair.random().publicKey()}`);
    await network.forwarded(1);
    const kept = Keypair.random();
    const taken = Keypair.random();
    const keptAnswer = get(`/friendbot?addr=${kept.publicKey()}`);
    const takenAnswer = get(`/friendbot?addr=${taken.publicKey()}`);
    await until(() => network.friendbot.queued === 2);
    // created by another account after the friendbot found it missing
    const state = network.core.account(funder.publicKey())!;
    const create = new TransactionBuilder(new Account(funder.publicKey(), state.seqNum.toString()), {
      fee: '100',
      networkPassphrase: NETWORK_PASSPHRASE,
    })
      .addOperation(Operation.createAccount({ destination: taken.publicKey(), startingBalance: '5' }))
      .setTimeout(0)
      .build();
    create.sign(funder);
    expect(network.core.submit(create.toEnvelope().toXdr('base64'))).toEqual({ status: 'PENDING' });
    await network.closeLedger();
    expect((await first).status).toBe(200);

    await network.forwarded(1);
    const failedIn = await network.closeLedger();
    const refused = await takenAnswer;
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body)).toMatchObject({ detail: `account ${taken.publicKey()} is already funded` });
    const failed = JSON.parse((await get(`/ledgers/${failedIn}/transactions?include_failed=true`)).body) as {
      _embedded: { records: { successful: boolean; operation_count: number }[] };
    };
    expect(failed._embedded.records).toMatchObject([{ successful: false, operation_count: 2 }]);

    await network.forwarded(1);
    const fundedIn = await network.closeLedger();
    const funded = await keptAnswer;
    expect(funded.status).toBe(200);
    expect(JSON.parse(funded.body)).toMatchObject({ ledger: fundedIn, operation_count: 1, created_account: kept.publicKey() });
    expect(network.core.account(taken.publicKey())!.balance).toBe(5n * 10_000_000n);
  });

  it('reads the root sequence number again after a tx_bad_seq', async () => {
    // the root account used behind the friendbot's back: its sequence number is stale
    await network.fund(Keypair.random());
    const failed = network.metrics.meter('txsub.failed').snapshot().count;
    closeWhileWaiting();
    const r = await get(`/friendbot?addr=${Keypair.random().publicKey()}`);
    expect(r.status).toBe(200);
    // the core refused the first attempt
    expect(network.metrics.meter('txsub.failed').snapshot().count).toBe(failed + 1);
  });

  it('answers a failure 500 server_error without its message', async () => {
    const failing = { startingBalance: '10000.0000000', fund: () => Promise.reject(new Error('connection string postgres://secret')) };
    const services = { ...network.services, metrics: new MetricsRegistry() };
    const server = createApiServer({
      services,
      logger: createLogger('silent', { pretty: false }),
      friendbot: failing,
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const r = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/friendbot?addr=${Keypair.random().publicKey()}`);
      expect(r.status).toBe(500);
      const body = await r.text();
      expect(JSON.parse(body)).toMatchObject({ type: 'https://stellar.org/horizon-errors/server_error', status: 500 });
      expect(body).not.toContain('secret');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
