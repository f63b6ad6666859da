// The caps on open streams and the rate limit of their updates, over real HTTP, for REST's
// server-sent events and GraphQL's subscriptions (yoga's at /graphql, graphql-sse's at
// /graphql/stream in its distinct-connections and single-connection modes): a client over its
// cap is answered 429, a server over its total 503 with Retry-After, a closed stream frees its
// place, and a stream whose updates spend the client's rate limit ends with Horizon's error.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiServer, type ServerProtection } from '../../src/api/server.js';
import type { StreamLimits } from '../../src/api/stream_limits.js';
import { inProcessLedgerEvents } from '../../src/events/ledger_events.js';
import { createLogger } from '../../src/logger.js';
import { testServices } from '../support/api_server.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { seedLedger } from '../support/seed.js';

let test: TestDatabase;
const servers: Server[] = [];
const opened: AbortController[] = [];
const events = inProcessLedgerEvents();

const NO_LIMITS: ServerProtection = { trustedProxies: [], perHourRateLimit: 0, friendbotPerHourLimit: 0 };
const LIMITS: StreamLimits = { perClient: 0, total: 0, maxBufferedBytes: 1024 * 1024, drainTimeoutMs: 30_000 };

async function serve(streamLimits: Partial<StreamLimits>, protection = NO_LIMITS): Promise<string> {
  const server = createApiServer({
    services: testServices(test.db, events),
    logger: createLogger('silent', { pretty: false }),
    protection,
    streamLimits: { ...LIMITS, ...streamLimits },
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

interface OpenStream {
  response: Response;
  /** the text of the stream until `until` appears in it (or it ends) */
  readUntil(until: string): Promise<string>;
  close(): void;
}

async function openStream(url: string, init: RequestInit = {}): Promise<OpenStream> {
  const controller = new AbortController();
  opened.push(controller);
  const response = await fetch(url, {
    ...init,
    headers: { Accept: 'text/event-stream', ...init.headers },
    signal: controller.signal,
  });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  return {
    response,
    async readUntil(until) {
      while (!text.includes(until)) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
      return text;
    },
    close: () => controller.abort(),
  };
}

const restStream = (base: string) => openStream(`${base}/ledgers?cursor=now`);
const sseSubscription = (base: string, query = 'subscription { ledgers(cursor: "now") { sequence } }') =>
  openStream(`${base}/graphql/stream`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ query }),
  });
const yogaSubscription = (base: string) =>
  openStream(`${base}/graphql`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ query: 'subscription { ledgers(cursor: "now") { sequence } }' }),
  });

/** an answer that refuses a stream: its status, Retry-After and its problem type or GraphQL code */
async function refusal(stream: OpenStream): Promise<{ status: number; retryAfter: string | null; code: unknown }> {
  const { response } = stream;
  const body = JSON.parse(await stream.readUntil('\u0000')) as { type?: string; errors?: { extensions?: { code?: string } }[] };
  const code = body.type?.replace('https://stellar.org/horizon-errors/', '') ?? body.errors?.[0]?.extensions?.code;
  return { status: response.status, retryAfter: response.headers.get('retry-after'), code };
}

/** retries `attempt` until it answers true: a closed stream is freed when the server sees the connection close */
async function eventually(attempt: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await attempt()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('never happened');
}

beforeAll(async () => {
  test = await createTestDatabase();
  await seedLedger(test.db, 1, []);
});

afterAll(async () => {
  for (const controller of opened) controller.abort();
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  await test.drop();
});

describe('streams per client', () => {
  it.each([
    ['a REST stream', restStream],
    ['a graphql-sse subscription', (base: string) => sseSubscription(base)],
  ])('are capped: %s over the cap is a 429, and a closed one frees its place', async (_name, open) => {
    const base = await serve({ perClient: 2 });
    const first = await restStream(base);
    const second = await sseSubscription(base);
    expect([first.response.status, second.response.status]).toEqual([200, 200]);
    await first.readUntil('hello');
    await second.readUntil(':\n\n');

    const refused = await open(base);
    expect(await refusal(refused)).toMatchObject({ status: 429, code: 'rate_limit_exceeded' });
    // other requests of the client are answered
    expect((await fetch(`${base}/ledgers?limit=1`)).status).toBe(200);

    first.close();
    await eventually(async () => {
      const again = await open(base);
      if (again.response.status === 200) return true;
      await again.readUntil('\u0000');
      return false;
    });
    second.close();
  });

  it("count yoga's subscriptions at /graphql, refused with a coded error and 429", async () => {
    const base = await serve({ perClient: 1 });
    const held = await restStream(base);
    await held.readUntil('hello');
    const refused = await yogaSubscription(base);
    const text = await refused.readUntil('rate_limit_exceeded');
    expect(refused.response.status).toBe(429);
    expect(text).toContain('"code":"rate_limit_exceeded"');
    held.close();
  });

  it("count each operation of graphql-sse's single-connection mode", async () => {
    const base = await serve({ perClient: 2 });
    const token = await (await fetch(`${base}/graphql/stream`, { method: 'PUT' })).text();
    const stream = await openStream(`${base}/graphql/stream?token=${token}`);
    expect(stream.response.status).toBe(200);
    const operation = (id: string) =>
      fetch(`${base}/graphql/stream`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-GraphQL-Event-Stream-Token': token },
        body: JSON.stringify({ query: 'subscription { ledgers(cursor: "now") { sequence } }', extensions: { operationId: id } }),
      });
    // the connection is one stream, its first operation the second
    expect((await operation('one')).status).toBe(202);
    expect((await operation('two')).status).toBe(202);
    const text = await stream.readUntil('rate_limit_exceeded');
    expect(text).toMatch(/"id":"two".*"code":"rate_limit_exceeded"/s);
    stream.close();
  });
});

describe("graphql-sse's reserved streams", () => {
  it('are dropped when they do not connect within the drain timeout', async () => {
    const base = await serve({ drainTimeoutMs: 200 });
    const reserve = async () => (await fetch(`${base}/graphql/stream`, { method: 'PUT' })).text();
    const connect = (token: string) => openStream(`${base}/graphql/stream?token=${token}`);
    const kept = await reserve();
    const connected = await connect(kept);
    expect(connected.response.status).toBe(200);
    const dropped = await reserve();
    await new Promise((resolve) => setTimeout(resolve, 600));
    // graphql-sse no longer knows the token: a GET without a query
    const late = await connect(dropped);
    expect(late.response.status).toBe(400);
    await late.readUntil('\u0000');
    connected.close();
  });
});

describe('streams in total', () => {
  it.each([
    ['a REST stream', restStream],
    ['a graphql-sse subscription', (base: string) => sseSubscription(base)],
  ])('are capped: %s over the total is a 503 with Retry-After', async (_name, open) => {
    const base = await serve({ total: 2 });
    const held = [await restStream(base), await sseSubscription(base)];
    for (const stream of held) expect(stream.response.status).toBe(200);
    const refused = await open(base);
    expect(await refusal(refused)).toEqual({ status: 503, retryAfter: '10', code: 'service_unavailable' });
    expect((await fetch(`${base}/ledgers?limit=1`)).status).toBe(200);
    for (const stream of held) stream.close();
  });

  it("count yoga's subscriptions at /graphql, refused with a coded error, 503 and Retry-After", async () => {
    const base = await serve({ total: 1 });
    const held = await restStream(base);
    await held.readUntil('hello');
    const refused = await yogaSubscription(base);
    expect(await refused.readUntil('service_unavailable')).toContain('"code":"service_unavailable"');
    expect(refused.response.status).toBe(503);
    expect(refused.response.headers.get('retry-after')).toBe('10');
    held.close();
  });
});

describe("streams' updates", () => {
  let sequence = 1;
  /** a new ledger, heard by every stream */
  const closeLedger = async () => {
    sequence++;
    await seedLedger(test.db, sequence, []);
    await events.publish(sequence);
  };
  /** spends the client's burst but one request (101 at once, 1 an hour after) */
  const spend = async (base: string) => {
    for (let i = 0; i < 99; i++) expect((await fetch(`${base}/nowhere`)).status).toBe(404);
  };

  it('count against the rate limit: a REST stream ends with an error event once it is spent', async () => {
    const base = await serve({}, { ...NO_LIMITS, perHourRateLimit: 1 });
    await spend(base);
    // the 100th request: the stream's start, whose first updates it pays for
    const stream = await restStream(base);
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get('x-ratelimit-remaining')).toBe('1');
    await stream.readUntil('hello');
    // the update of the next ledger is the 101st request, the one after it the 102nd
    await closeLedger();
    expect(await stream.readUntil(`"sequence":${sequence}`)).toContain(`"sequence":${sequence}`);
    await closeLedger();
    const text = await stream.readUntil('event: error');
    expect(text).toMatch(/event: error\ndata: Rate limit exceeded\n\n$/);
    expect(text).not.toContain(`"sequence":${sequence}`);
    // and the stream ended
    expect(await stream.readUntil('never')).toBe(text);
    expect((await fetch(`${base}/ledgers`)).status).toBe(429);
  });

  it('count against the rate limit: a graphql-sse subscription ends with a coded error', async () => {
    const base = await serve({}, { ...NO_LIMITS, perHourRateLimit: 1 });
    await spend(base);
    const stream = await sseSubscription(base);
    expect(stream.response.status).toBe(200);
    await stream.readUntil(':\n\n');
    await closeLedger();
    await stream.readUntil(`"sequence":${sequence}`);
    await closeLedger();
    const text = await stream.readUntil('event: complete');
    expect(text).toContain('"code":"rate_limit_exceeded"');
    expect(text).not.toContain(`"sequence":${sequence}`);
  });
});
