// The HTTP skeleton: the root document, problems for unknown paths and bad parameters, a REST
// resource rendered from its GraphQL type, and /graphql.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiServer } from '../../src/api/server.js';
import { createLogger } from '../../src/logger.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { inProcessLedgerEvents } from '../../src/events/ledger_events.js';
import { LiveOrderBook } from '../../src/api/live_order_book.js';
import { MetricsRegistry } from '../../src/metrics/registry.js';
import type { Funder } from '../../src/api/rest/friendbot.js';

let test: TestDatabase;
let server: Server;
let base: string;

beforeAll(async () => {
  test = await createTestDatabase();
  await test.db.prisma.ledger.create({
    data: {
      sequence: 7,
      hash: 'a'.repeat(64),
      prevHash: 'b'.repeat(64),
      closedAt: new Date('2026-01-02T03:04:05Z'),
      successfulTransactionCount: 2,
      failedTransactionCount: 1,
      operationCount: 3,
      txSetOperationCount: 4,
      totalCoins: 1_000_000_000_000_000_000n,
      feePool: 300n,
      baseFee: 100,
      baseReserve: 5_000_000,
      maxTxSetSize: 1000,
      protocolVersion: 22,
      headerXdr: 'AAAA',
    },
  });
  server = createApiServer({
    services: {
      db: test.db,
      config: { networkPassphrase: 'Test SDF Network ; September 2015' },
      coreInfo: async () => ({ version: 'zenith-core', latestLedger: 9, protocolVersion: 22, synced: true }),
      events: inProcessLedgerEvents(),
      txsub: null,
      metrics: new MetricsRegistry(),
      orderBook: new LiveOrderBook(test.db, inProcessLedgerEvents()),
    },
    logger: createLogger('silent', { pretty: false }),
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await test.drop();
});

describe('GET /', () => {
  it('answers the root document with links and the state of history and core', async () => {
    const response = await fetch(`${base}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/application\/hal\+json/);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      _links: {
        self: { href: `${base}/` },
        ledger: { href: `${base}/ledgers/{sequence}`, templated: true },
        graphql: { href: `${base}/graphql` },
      },
      history_latest_ledger: 7,
      history_elder_ledger: 7,
      history_latest_ledger_closed_at: '2026-01-02T03:04:05Z',
      core_latest_ledger: 9,
      core_version: 'zenith-core',
      current_protocol_version: 22,
      network_passphrase: 'Test SDF Network ; September 2015',
    });
    // this server has no friendbot
    expect(body._links).not.toHaveProperty('friendbot');
  });

  it("links /friendbot as Horizon's root document does, where the server has one", async () => {
    const withFriendbot = createApiServer({
      services: {
        db: test.db,
        config: { networkPassphrase: 'Test SDF Network ; September 2015' },
        coreInfo: async () => null,
        events: inProcessLedgerEvents(),
        txsub: null,
        metrics: new MetricsRegistry(),
        orderBook: new LiveOrderBook(test.db, inProcessLedgerEvents()),
      },
      logger: createLogger('silent', { pretty: false }),
      friendbot: {
        fund: () => Promise.reject(new Error('not asked to fund')),
        startingBalance: '10000.0000000',
      } satisfies Funder,
    });
    await new Promise<void>((resolve) => withFriendbot.listen(0, '127.0.0.1', resolve));
    try {
      const origin = `http://127.0.0.1:${(withFriendbot.address() as AddressInfo).port}`;
      const body = (await (await fetch(`${origin}/`)).json()) as { _links: Record<string, unknown> };
      expect(body._links.friendbot).toEqual({ href: `${origin}/friendbot{?addr}`, templated: true });
      expect(body._links.graphql).toEqual({ href: `${origin}/graphql` });
    } finally {
      await new Promise((resolve) => withFriendbot.close(resolve));
    }
  });
});

describe('REST resources', () => {
  it('renders a ledger from its GraphQL type in snake_case, amounts as 7-decimal strings', async () => {
    const response = await fetch(`${base}/ledgers/7`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      _links: {
        self: { href: `${base}/ledgers/7` },
        transactions: { href: `${base}/ledgers/7/transactions{?cursor,limit,order}`, templated: true },
        operations: { href: `${base}/ledgers/7/operations{?cursor,limit,order}`, templated: true },
        payments: { href: `${base}/ledgers/7/payments{?cursor,limit,order}`, templated: true },
        effects: { href: `${base}/ledgers/7/effects{?cursor,limit,order}`, templated: true },
      },
      id: 'a'.repeat(64),
      paging_token: String(7n << 32n),
      transaction_count: 2,
      hash: 'a'.repeat(64),
      prev_hash: 'b'.repeat(64),
      sequence: 7,
      successful_transaction_count: 2,
      failed_transaction_count: 1,
      operation_count: 3,
      tx_set_operation_count: 4,
      closed_at: '2026-01-02T03:04:05Z',
      total_coins: '100000000000.0000000',
      fee_pool: '0.0000300',
      base_fee_in_stroops: 100,
      base_reserve_in_stroops: 5_000_000,
      max_tx_set_size: 1000,
      protocol_version: 22,
      header_xdr: 'AAAA',
    });
  });

  it('answers 404 not_found for a missing ledger and an unknown path', async () => {
    for (const path of ['/ledgers/8', '/no/such/thing']) {
      const response = await fetch(base + path);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/application\/problem\+json/);
      expect(await response.json()).toMatchObject({
        type: 'https://stellar.org/horizon-errors/not_found',
        title: 'Resource Missing',
        status: 404,
      });
    }
  });

  it('answers 400 naming the parameter for a bad ledger sequence', async () => {
    for (const bad of ['abc', '-1', '99999999999']) {
      const response = await fetch(`${base}/ledgers/${bad}`);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        type: 'https://stellar.org/horizon-errors/bad_request',
        extras: { invalid_field: 'ledger_id' },
      });
    }
  });

  it('answers 405 to a write on a read-only resource', async () => {
    const response = await fetch(`${base}/ledgers/7`, { method: 'DELETE' });
    expect(response.status).toBe(405);
  });

  it('answers 503 to a submission when no core is connected, in REST and GraphQL', async () => {
    const rest = await fetch(`${base}/transactions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"tx":"AAAA"}',
    });
    expect(rest.status).toBe(503);
    expect(((await rest.json()) as { type: string }).type).toContain('service_unavailable');
    const graphql = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'mutation { submitTransaction(tx: "AAAA") { hash } }' }),
    });
    expect(((await graphql.json()) as { errors: unknown[] }).errors).toMatchObject([{ extensions: { code: 'service_unavailable' } }]);
  });

  it('answers a stream request on a route without a stream with its JSON page', async () => {
    const response = await fetch(`${base}/ledgers/7`, { headers: { accept: 'text/event-stream' } });
    expect(response.headers.get('content-type')).toMatch(/json/);
  });
});

describe('GET /health', () => {
  it('pings the database and reads the core: 200 when both answer and the core is synced', async () => {
    const response = await fetch(`${base}/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ database_connected: true, core_up: true, core_synced: true });
  });
});

describe('/graphql', () => {
  it('answers queries over the same data', async () => {
    const response = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ status { historyLatestLedger } ledger(sequence: 7) { hash totalCoins pagingToken } }' }),
    });
    expect(await response.json()).toEqual({
      data: {
        status: { historyLatestLedger: 7 },
        ledger: { hash: 'a'.repeat(64), totalCoins: '100000000000.0000000', pagingToken: String(7n << 32n) },
      },
    });
  });

  it('carries Horizon problem types in extensions.code, and limits', async () => {
    const ask = async (query: string) => {
      const response = await fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query }),
      });
      return (await response.json()) as { errors?: { message: string; extensions?: { code?: string } }[] };
    };
    expect((await ask('{ account(id: "nope") { accountId } }')).errors?.[0]?.extensions?.code).toBe('bad_request');
    expect((await ask('{ ledgers(first: 500) { edges { cursor } } }')).errors?.[0]?.extensions?.code).toBe('bad_request');
    expect((await ask('{ trades(offerId: "12") { edges { cursor } } }')).errors?.[0]?.extensions?.code).toBe('not_found');
    const deep = await ask(
      '{ ledger(sequence: 7) { transactions { edges { node { operations { edges { node { transaction { ledger { transactions { edges { node { hash } } } } } } } } } } } } }',
    );
    expect(deep.errors?.[0]?.message).toMatch(/depth/);
  });

  it('serves GraphiQL to a browser', async () => {
    const response = await fetch(`${base}/graphql`, { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    expect(await response.text()).toMatch(/GraphiQL/);
  });
});
