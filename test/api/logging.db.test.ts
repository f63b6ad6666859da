// The logs of a real server, read back from its logger: one access line per request (info, with
// method, path, status, duration and request id, streams when they close), a client's mistake never
// at error level, and the server's own failure (a resolver throwing a plain Error) at error.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LiveOrderBook } from '../../src/api/live_order_book.js';
import { createApiServer } from '../../src/api/server.js';
import { inProcessLedgerEvents } from '../../src/events/ledger_events.js';
import { createLogger } from '../../src/logger.js';
import { MetricsRegistry } from '../../src/metrics/registry.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let test: TestDatabase;
let server: Server;
let base: string;
let lines: LogLine[] = [];
/** makes the root document's resolver (status, through coreInfo) throw a plain Error */
let coreFails = false;

beforeAll(async () => {
  test = await createTestDatabase();
  const events = inProcessLedgerEvents();
  // every line the server logs, at debug and above, as the JSON pino writes
  const destination = { write: (text: string) => void lines.push(JSON.parse(text) as LogLine) };
  server = createApiServer({
    services: {
      db: test.db,
      config: { networkPassphrase: 'Test SDF Network ; September 2015' },
      coreInfo: async () => {
        if (coreFails) throw new Error('the core client broke');
        return null;
      },
      events,
      txsub: null,
      metrics: new MetricsRegistry(),
      orderBook: new LiveOrderBook(test.db, events),
    },
    logger: createLogger('debug', { destination }),
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await test.drop();
});

beforeEach(() => {
  lines = [];
  coreFails = false;
});

/** the access line of the request with this id, once the server has written it (on the response's close) */
async function accessLine(requestId: string): Promise<LogLine> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const found = lines.filter((line) => line.msg === 'request' && line.requestId === requestId);
    if (found.length > 0) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      const again = lines.filter((line) => line.msg === 'request' && line.requestId === requestId);
      expect(again).toHaveLength(1);
      return again[0]!;
    }
    if (Date.now() > deadline) throw new Error(`no access line for ${requestId}:\n${JSON.stringify(lines, null, 1)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function graphql(query: string, requestId?: string): Promise<Response> {
  return fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(requestId ? { 'x-request-id': requestId } : {}) },
    body: JSON.stringify({ query }),
  });
}

describe('the access log', () => {
  it('writes one info line per request: method, path without the query, status, duration and the request id', async () => {
    const response = await fetch(`${base}/ledgers?limit=1&order=desc`, { headers: { 'X-Request-ID': 'client-id.1' } });
    expect(response.status).toBe(200);
    await response.text();
    expect(response.headers.get('x-request-id')).toBe('client-id.1');
    const line = await accessLine('client-id.1');
    expect(line).toMatchObject({ level: 30, method: 'GET', path: '/ledgers', status: 200 });
    expect(line.durationMs).toEqual(expect.any(Number));
    expect(line.durationMs as number).toBeGreaterThan(0);
    expect(line).not.toHaveProperty('aborted');
    expect(JSON.stringify(line)).not.toContain('limit=1');

    const graphqlResponse = await graphql('{ status { historyLatestLedger } }', 'client-id.2');
    await graphqlResponse.text();
    expect(await accessLine('client-id.2')).toMatchObject({ level: 30, method: 'POST', path: '/graphql', status: 200 });
  });

  it('makes a request id when the client gives none, or one that is not a short token, and answers it', async () => {
    for (const given of [undefined, 'has spaces', 'x'.repeat(65), 'a"b']) {
      const response = await fetch(`${base}/no/such/path`, { headers: given === undefined ? {} : { 'X-Request-ID': given } });
      await response.text();
      const id = response.headers.get('x-request-id') ?? '';
      expect(id).toMatch(UUID);
      expect(await accessLine(id)).toMatchObject({ level: 30, method: 'GET', path: '/no/such/path', status: 404 });
    }
  });

  it('logs a REST stream and a GraphQL subscription over SSE when they close, with status 200', async () => {
    const streams = [
      { id: 'rest-stream', url: `${base}/ledgers?cursor=now`, init: {}, path: '/ledgers' },
      {
        id: 'graphql-sse',
        url: `${base}/graphql/stream`,
        init: {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: 'subscription { ledgers(cursor: "now") { sequence } }' }),
        },
        path: '/graphql/stream',
      },
    ];
    for (const stream of streams) {
      const abort = new AbortController();
      const response = await fetch(stream.url, {
        ...stream.init,
        headers: { ...(stream.init.headers ?? {}), accept: 'text/event-stream', 'x-request-id': stream.id },
        signal: abort.signal,
      });
      expect(response.headers.get('content-type')).toMatch(/text\/event-stream/);
      const reader = response.body!.getReader();
      await reader.read(); // the stream has started
      expect(lines.filter((line) => line.requestId === stream.id)).toEqual([]);
      abort.abort();
      await reader.closed.catch(() => undefined);
      const line = await accessLine(stream.id);
      expect(line).toMatchObject({ level: 30, method: stream.init.method ?? 'GET', path: stream.path, status: 200 });
    }
  });
});

describe('error levels', () => {
  it('never logs a client mistake at warn or error: bad GraphQL (syntax, validation, coded errors) and REST 4xx', async () => {
    const answers: number[] = [];
    const graphqlErrors: string[] = [];
    for (const query of [
      '{ ledgers( ',
      '{ noSuchField }',
      '{ ledgers(after: "not-a-cursor") { edges { cursor } } }',
      '{ account(id: "nope") { accountId } }',
      '{ ledgers(first: 500) { edges { cursor } } }',
    ]) {
      const response = await graphql(query);
      const body = (await response.json()) as { errors?: { extensions?: { code?: string } }[] };
      graphqlErrors.push(body.errors?.[0]?.extensions?.code ?? 'none');
      answers.push(response.status);
    }
    expect(graphqlErrors).toEqual(['GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED', 'bad_request', 'bad_request', 'bad_request']);
    for (const [path, init] of [
      ['/no/such/path', {}],
      ['/ledgers/99', {}],
      ['/ledgers/abc', {}],
      ['/ledgers?cursor=zz', {}],
      ['/accounts/GBAD', {}],
      ['/order_book', {}],
      ['/ledgers', { method: 'POST' }],
      ['/transactions', { method: 'POST', body: 'tx=AAAA', headers: { 'content-type': 'application/x-www-form-urlencoded' } }],
    ] as const) {
      const response = await fetch(base + path, init);
      await response.text();
      answers.push(response.status);
    }
    expect(answers).toEqual([200, 200, 200, 200, 200, 404, 404, 400, 400, 400, 400, 405, 503]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(lines.filter((line) => line.msg === 'request')).toHaveLength(answers.length);
    expect(lines.filter((line) => line.level >= 40)).toEqual([]);
    // the client's words are in debug lines at most
    expect(lines.filter((line) => line.level > 20 && JSON.stringify(line).includes('not-a-cursor'))).toEqual([]);
    expect(lines.some((line) => line.level === 20 && line.code === 'bad_request')).toBe(true);
  });

  it('logs a resolver that throws a plain Error at error, once, with its stack (GraphQL: a masked server_error)', async () => {
    coreFails = true;
    const response = await graphql('{ status { coreVersion } }', 'failing-graphql');
    const body = (await response.json()) as { errors?: { message: string; extensions?: { code?: string } }[] };
    expect(body.errors).toMatchObject([{ extensions: { code: 'server_error' } }]);
    expect(JSON.stringify(body)).not.toContain('the core client broke');
    await accessLine('failing-graphql');
    const errors = lines.filter((line) => line.level >= 50);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ level: 50, msg: 'graphql resolver failed', err: { message: 'the core client broke' } });
    expect((errors[0]!.err as { stack: string }).stack).toContain('logging.db.test.ts');
  });

  it('logs a REST request that fails unexpectedly at error with its request id, answering 500', async () => {
    coreFails = true;
    const response = await fetch(`${base}/`, { headers: { 'x-request-id': 'failing-rest' } });
    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain('the core client broke');
    expect(await accessLine('failing-rest')).toMatchObject({ level: 30, status: 500 });
    const errors = lines.filter((line) => line.level >= 50);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      msg: 'request failed',
      requestId: 'failing-rest',
      path: '/',
      err: { message: 'the core client broke' },
    });
  });
});
