// POST /transactions_async and the submitTransactionAsync mutation, as Horizon's
// submit_transaction_async_test.go: its envelope and hash, a core answering each status (201
// PENDING, 409 DUPLICATE, 400 ERROR with error_result_xdr, 503 TRY_AGAIN_LATER), a core that is
// not synced (stale_history), fails to answer (transaction_submission_failed) or answers an
// exception (transaction_submission_exception), a malformed envelope, and a server without a core.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Networks } from '@stellar/stellar-sdk/base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CoreInfo } from '../../../src/api/context.js';
import { LiveOrderBook } from '../../../src/api/live_order_book.js';
import { createApiServer } from '../../../src/api/server.js';
import { inProcessLedgerEvents } from '../../../src/events/ledger_events.js';
import { createLogger } from '../../../src/logger.js';
import { MetricsRegistry } from '../../../src/metrics/registry.js';
import { CoreUnavailableError, parseTxAnswer, SubmissionSystem, type CoreSubmitStatus } from '../../../src/txsub/index.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';

// Horizon's TxXDR and TxHash (on the public network)
const TX_XDR =
  'AAAAAAGUcmKO5465JxTSLQOQljwk2SfqAJmZSG6JH6wtqpwhAAABLAAAAAAAAAABAAAAAAAAAAEAAAALaGVsbG8gd29ybGQAAAAAAwAAAAAAAAAAAAAAABbxCy3mLg3hiTqX4VUEEp60pFOrJNxYM1JtxXTwXhY2AAAAAAvrwgAAAAAAAAAAAQAAAAAW8Qst5i4N4Yk6l+FVBBKetKRTqyTcWDNSbcV08F4WNgAAAAAN4Lazj4x61AAAAAAAAAAFAAAAAAAAAAAAAAAAAAAAAQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAABLaqcIQAAAEBKwqWy3TaOxoGnfm9eUjfTRBvPf34dvDA0Nf+B8z4zBob90UXtuCqmQqwMCyH+okOI3c05br3khkH0yP4kCwcE';
const TX_HASH = '3389e9f0f1a65f19736cacf544c2e825313e8447f569233bb8db39aa607c8889';

let test: TestDatabase;
const servers: Server[] = [];
/** what the fake core does with the next /tx */
let coreAnswer: () => CoreSubmitStatus = () => ({ status: 'PENDING' });
let coreInfo: CoreInfo | null = { version: 'core', latestLedger: 5, protocolVersion: 22, synced: true };
const forwarded: string[] = [];
let base: string;
let noCore: string;

async function serve(withCore: boolean): Promise<string> {
  const events = inProcessLedgerEvents();
  const core = {
    async submit(xdr: string) {
      forwarded.push(xdr);
      return coreAnswer();
    },
  };
  const store = { findTransactions: async () => [], sequences: async () => new Map() };
  const server = createApiServer({
    services: {
      db: test.db,
      config: { networkPassphrase: Networks.PUBLIC },
      coreInfo: async () => coreInfo,
      events,
      txsub: withCore ? new SubmissionSystem({ networkPassphrase: Networks.PUBLIC, core, store }) : null,
      metrics: new MetricsRegistry(),
      orderBook: new LiveOrderBook(test.db, events),
    },
    logger: createLogger('silent', { pretty: false }),
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  test = await createTestDatabase();
  base = await serve(true);
  noCore = await serve(false);
});

afterAll(async () => {
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
  await test.drop();
});

function post(origin: string, body: string, type = 'application/x-www-form-urlencoded') {
  return fetch(`${origin}/transactions_async`, { method: 'POST', headers: { 'Content-Type': type }, body });
}

const form = (tx: string) => new URLSearchParams({ tx }).toString();

describe('POST /transactions_async', () => {
  it.each([
    [{ status: 'ERROR', error: 'test-error' } as const, 400, { error_result_xdr: 'test-error', tx_status: 'ERROR', hash: TX_HASH }],
    [{ status: 'PENDING' } as const, 201, { tx_status: 'PENDING', hash: TX_HASH }],
    [{ status: 'DUPLICATE' } as const, 409, { tx_status: 'DUPLICATE', hash: TX_HASH }],
    [{ status: 'TRY_AGAIN_LATER' } as const, 503, { tx_status: 'TRY_AGAIN_LATER', hash: TX_HASH }],
  ])("answers the core's %j with %i and Horizon's body", async (status, code, expected) => {
    coreAnswer = () => status;
    forwarded.length = 0;
    const response = await post(base, form(TX_XDR));
    expect(response.status).toBe(code);
    expect(response.headers.get('content-type')).toMatch(/application\/hal\+json/);
    expect(await response.json()).toEqual(expected);
    // forwarded as it came, at once (no ledger is closed here)
    expect(forwarded).toEqual([TX_XDR]);
  });

  it('takes the JSON body POST /transactions takes, and a trailing slash', async () => {
    coreAnswer = () => ({ status: 'PENDING' });
    const response = await fetch(`${base}/transactions_async/`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ tx: TX_XDR }),
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ tx_status: 'PENDING', hash: TX_HASH });
  });

  it('answers stale_history (503) while the core is not synced, or does not answer /info', async () => {
    forwarded.length = 0;
    for (const info of [{ version: 'core', latestLedger: 5, protocolVersion: 22, synced: false }, null]) {
      coreInfo = info;
      const response = await post(base, form(TX_XDR));
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({ type: 'https://stellar.org/horizon-errors/stale_history', status: 503 });
    }
    expect(forwarded).toEqual([]);
    coreInfo = { version: 'core', latestLedger: 5, protocolVersion: 22, synced: true };
  });

  it('answers transaction_submission_failed (500) when the core does not answer', async () => {
    coreAnswer = () => {
      throw new CoreUnavailableError('submission error');
    };
    const response = await post(base, form(TX_XDR));
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({
      type: 'https://stellar.org/horizon-errors/transaction_submission_failed',
      extras: { envelope_xdr: TX_XDR, error: 'submission error' },
    });
  });

  it('answers transaction_submission_exception (500) when the core answers an exception', async () => {
    coreAnswer = () => parseTxAnswer({ exception: 'some-exception' });
    const response = await post(base, form(TX_XDR));
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({
      type: 'https://stellar.org/horizon-errors/transaction_submission_exception',
      extras: { envelope_xdr: TX_XDR, error: 'some-exception' },
    });
  });

  it('answers transaction_submission_invalid_status (500) for a status the core should not send', async () => {
    coreAnswer = () => parseTxAnswer({ status: 'FILED' });
    const response = await post(base, form(TX_XDR));
    expect(response.status).toBe(500);
    expect(((await response.json()) as { type: string }).type).toBe(
      'https://stellar.org/horizon-errors/transaction_submission_invalid_status',
    );
  });

  it('answers transaction_malformed (400) for an envelope it cannot decode, without asking the core', async () => {
    forwarded.length = 0;
    const response = await post(base, form('AAAAnotanenvelope'));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      type: 'https://stellar.org/horizon-errors/transaction_malformed',
      // Horizon's async handler: the envelope echoed, and why it could not be decoded
      extras: { envelope_xdr: 'AAAAnotanenvelope', error: expect.any(String) },
    });
    expect(forwarded).toEqual([]);
  });

  it("answers 400 naming tx when it is missing, 413 when the body is over Horizon's 200 KB, 415 for another content type", async () => {
    const missing = await post(base, '');
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { extras: unknown }).extras).toMatchObject({ invalid_field: 'tx' });
    const large = await post(base, form('A'.repeat(300 * 1024)));
    expect(large.status).toBe(413);
    expect(((await large.json()) as { type: unknown }).type).toBe('https://stellar.org/horizon-errors/request_entity_too_large');
    expect((await post(base, TX_XDR, 'text/plain')).status).toBe(415);
  });

  it('answers 405 to another method, and 503 without a core', async () => {
    expect((await fetch(`${base}/transactions_async`)).status).toBe(405);
    const response = await post(noCore, form(TX_XDR));
    expect(response.status).toBe(503);
  });
});

describe('mutation submitTransactionAsync', () => {
  const mutation = `mutation ($tx: String!) { submitTransactionAsync(tx: $tx) { txStatus hash errorResultXdr } }`;
  const run = async (origin: string, tx: string) =>
    (await (
      await fetch(`${origin}/graphql`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ query: mutation, variables: { tx } }),
      })
    ).json()) as { data?: unknown; errors?: { extensions: { code: string } }[] };

  it("answers the core's status as data, ERROR with its result", async () => {
    coreAnswer = () => ({ status: 'ERROR', error: 'test-error' });
    expect((await run(base, TX_XDR)).data).toEqual({
      submitTransactionAsync: { txStatus: 'ERROR', hash: TX_HASH, errorResultXdr: 'test-error' },
    });
    coreAnswer = () => ({ status: 'PENDING' });
    expect((await run(base, TX_XDR)).data).toEqual({
      submitTransactionAsync: { txStatus: 'PENDING', hash: TX_HASH, errorResultXdr: null },
    });
  });

  it('answers the problems as coded errors', async () => {
    expect((await run(base, 'AAAAnotanenvelope')).errors?.[0]?.extensions.code).toBe('transaction_malformed');
    expect((await run(noCore, TX_XDR)).errors?.[0]?.extensions.code).toBe('service_unavailable');
  });
});
