// 400 stream clients that connect and stop reading (raw sockets, paused: what they are sent stays
// in the kernel until the server's socket is full) while ledgers with large transactions are
// ingested: 300 REST streams of /transactions and 100 graphql-sse subscriptions to transactions,
// each with megabytes of history to catch up. The server holds at most a page and a bounded
// buffer for each, disconnects them once they have not drained in time, and answers a normal
// request and a reading stream meanwhile. The bound on the process's memory is the assertion
// (docs/security.md, "Streams"); nothing is timed but by generous timeouts.
import type { Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApiServer } from '../../src/api/server.js';
import { inProcessLedgerEvents } from '../../src/events/ledger_events.js';
import { createLogger } from '../../src/logger.js';
import { testServices } from '../support/api_server.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { ALICE, seedLedger } from '../support/seed.js';

const REST_CLIENTS = 300;
const GRAPHQL_CLIENTS = 100;
/**
 * ledgers of history, each with a transaction whose envelope is ENVELOPE_BYTES long: 4 MB a client
 * to catch up, about what a loopback socket takes in before it blocks (~3 MB on one machine, a little
 * over 4 MB on another: the ledgers ingested during the test add the rest)
 */
const HISTORY = 200;
const ENVELOPE_BYTES = 20_000;
/** ledgers ingested while the slow clients are connected, at least (then more until all are disconnected) */
const MIN_NEW_LEDGERS = 5;
/**
 * What 400 non-reading streams may add to the process, the bounds docs/security.md states: to the
 * heap, garbage collected (what the streams hold), and to RSS (which also keeps what the heap grew
 * to between collections, and the sockets' and the database client's buffers)
 */
const HEAP_BOUND = 64 * 2 ** 20;
const RSS_BOUND = 512 * 2 ** 20;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

let test: TestDatabase;
let server: Server;
let base: string;
const events = inProcessLedgerEvents();
const services = () => testServices(test.db, events);
const sockets: Socket[] = [];
const envelope = 'A'.repeat(ENVELOPE_BYTES);

async function ledgerWithData(sequence: number): Promise<void> {
  await seedLedger(test.db, sequence, [{ source: ALICE, operations: [{ type: 1, source: ALICE, details: {}, participants: [] }] }]);
  await test.db.prisma.transaction.updateMany({ where: { ledgerSequence: sequence }, data: { envelopeXdr: envelope } });
}

/** a client that sends its request and never reads a byte of the answer */
function nonReadingClient(request: string): Socket {
  const socket = connect({ host: '127.0.0.1', port: (server.address() as AddressInfo).port });
  socket.pause();
  socket.on('error', () => {});
  socket.write(request);
  sockets.push(socket);
  return socket;
}

// limit=200 asks for the largest pages: a stream reads 10 at a time all the same
const restRequest = 'GET /transactions?limit=200 HTTP/1.1\r\nHost: test\r\nAccept: text/event-stream\r\n\r\n';
const graphqlBody = JSON.stringify({ query: 'subscription { transactions { hash envelopeXdr } }' });
const graphqlRequest =
  'POST /graphql/stream HTTP/1.1\r\nHost: test\r\nAccept: text/event-stream\r\nContent-Type: application/json\r\n' +
  `Content-Length: ${Buffer.byteLength(graphqlBody)}\r\n\r\n${graphqlBody}`;

async function metric(name: string): Promise<number> {
  const snapshot = (await (await fetch(`${base}/metrics`)).json()) as Record<string, { value?: number; count?: number }>;
  return snapshot[name]?.value ?? snapshot[name]?.count ?? 0;
}

beforeAll(async () => {
  test = await createTestDatabase();
  for (let sequence = 1; sequence <= HISTORY; sequence++) await ledgerWithData(sequence);
  server = createApiServer({
    services: services(),
    logger: createLogger('silent', { pretty: false }),
    streamLimits: { perClient: 0, total: 1000, maxBufferedBytes: 1024 * 1024, drainTimeoutMs: 5000 },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 300_000);

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await test?.drop();
});

it('keeps memory bounded under 400 clients that stop reading, disconnects them, and answers others', async () => {
  // warm: the routes, the schema and the database's caches are not what is measured
  expect((await fetch(`${base}/transactions?limit=200`)).status).toBe(200);
  gc();
  const baseline = process.memoryUsage();
  // what the process holds, garbage collected every 2 seconds: V8 lets garbage pile up to a heap
  // size of its own choosing between collections, and RSS keeps what it once took
  let peakRss = baseline.rss;
  let sequence = HISTORY;
  let peakHeap = baseline.heapUsed;
  const sampler = setInterval(() => {
    gc();
    const now = process.memoryUsage();
    peakRss = Math.max(peakRss, now.rss);
    peakHeap = Math.max(peakHeap, now.heapUsed);
  }, 2000);

  try {
    // a client that reads: it must keep hearing new ledgers
    const reading = new AbortController();
    const stream = await fetch(`${base}/ledgers?cursor=now`, { headers: { Accept: 'text/event-stream' }, signal: reading.signal });
    const reader = stream.body!.getReader();
    let heard = '';
    const hearing = (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        heard += new TextDecoder().decode(value);
      }
    })().catch(() => {});

    for (let i = 0; i < REST_CLIENTS; i++) nonReadingClient(restRequest);
    for (let i = 0; i < GRAPHQL_CLIENTS; i++) nonReadingClient(graphqlRequest);

    // Ledgers keep coming until every slow client is disconnected. A stream is only blocked once the
    // kernel's buffers for its socket are full, and what they take depends on the machine's TCP
    // settings: on one, 4 MB of history filled them; on another, some sockets took it all.
    const slowClients = REST_CLIENTS + GRAPHQL_CLIENTS;
    const deadline = Date.now() + 120_000;
    let disconnected = 0;
    while (sequence - HISTORY < MIN_NEW_LEDGERS || disconnected < slowClients) {
      expect(Date.now(), `slow clients disconnected: ${disconnected} of ${slowClients}`).toBeLessThan(deadline);
      if (sequence - HISTORY >= MIN_NEW_LEDGERS) await new Promise((resolve) => setTimeout(resolve, 500));
      await ledgerWithData(++sequence);
      await events.publish(sequence);
      // a normal request is answered meanwhile
      const page = await fetch(`${base}/ledgers?order=desc&limit=1`);
      expect(page.status).toBe(200);
      expect(((await page.json()) as { _embedded: { records: { sequence: number }[] } })._embedded.records[0]?.sequence).toBe(sequence);
      disconnected = await metric('streams.slow_disconnected');
    }
    // every slow client is disconnected; the reading stream stays
    expect(disconnected).toBe(slowClients);
    expect(await metric('streams.open')).toBe(1);
    await expect.poll(() => heard, { timeout: 30_000 }).toContain(`"sequence":${sequence}`);
    reading.abort();
    await hearing;
  } finally {
    clearInterval(sampler);
  }
  const grewRss = peakRss - baseline.rss;
  const grewHeap = peakHeap - baseline.heapUsed;
  console.log(
    `400 non-reading streams (disconnected after ${sequence - HISTORY} new ledgers): the heap grew at most ${(grewHeap / 2 ** 20).toFixed(1)} MiB, RSS ${(grewRss / 2 ** 20).toFixed(1)} MiB`,
  );
  expect(grewHeap).toBeLessThan(HEAP_BOUND);
  expect(grewRss).toBeLessThan(RSS_BOUND);
}, 300_000);
