// The bounds a stream's response is held to, over a real socket whose client does not read: a
// writer that ignores backpressure (as a keep-alive or a library's queue would) is cut at the bound
// on unsent bytes, and one that waits for a drain that never comes at the drain timeout; a client
// that reads is not disturbed. Each cut is counted, and frees the stream's place.
import { createServer, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { OpenStreams, type StreamLimits } from '../../src/api/stream_limits.js';
import { inProcessLedgerEvents } from '../../src/events/ledger_events.js';
import { createLogger } from '../../src/logger.js';
import { MetricsRegistry } from '../../src/metrics/registry.js';

let server: Server | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets) socket.destroy();
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
});

const LIMITS: StreamLimits = { perClient: 0, total: 0, maxBufferedBytes: 256 * 1024, drainTimeoutMs: 300 };
const CHUNK = `data: ${'x'.repeat(16 * 1024)}\n\n`;

/** A server whose one route streams with `write` until its response closes; resolves with what it wrote. */
async function serveStream(write: (res: ServerResponse) => Promise<void>, limits = LIMITS) {
  const metrics = new MetricsRegistry();
  const streams = new OpenStreams(limits, {
    events: inProcessLedgerEvents(),
    limiter: null,
    logger: createLogger('silent', { pretty: false }),
    metrics,
  });
  let closed!: (bytes: number) => void;
  const ended = new Promise<number>((resolve) => (closed = resolve));
  server = createServer((req, res) => {
    streams.admit(req, res);
    res.writeHead(200, { 'Content-Type': 'text/event-stream' });
    let bytes = 0;
    const original = res.write.bind(res);
    res.write = ((chunk: string) => {
      bytes += chunk.length;
      return original(chunk);
    }) as ServerResponse['write'];
    res.once('close', () => closed(bytes));
    void write(res);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const disconnected = () => metrics.meter('streams.slow_disconnected').snapshot().count;
  return { port, ended, streams, disconnected };
}

/** a client that sends its request and never reads */
function nonReading(port: number): Socket {
  const socket = connect({ host: '127.0.0.1', port });
  socket.pause();
  socket.on('error', () => {});
  socket.write('GET / HTTP/1.1\r\nHost: test\r\nAccept: text/event-stream\r\n\r\n');
  sockets.push(socket);
  return socket;
}

it('cuts a writer that ignores backpressure once its unsent bytes pass the bound', async () => {
  const { port, ended, streams, disconnected } = await serveStream(
    async (res) => {
      // writes as if the socket always had room
      while (!res.destroyed) {
        res.write(CHUNK);
        await new Promise((resolve) => setImmediate(resolve));
      }
    },
    { ...LIMITS, drainTimeoutMs: 600_000 },
  );
  nonReading(port);
  const written = await ended;
  // the kernel takes a few MB before Node buffers anything; then at most the bound and one chunk
  expect(written).toBeGreaterThan(LIMITS.maxBufferedBytes);
  expect(disconnected()).toBe(1);
  expect(streams.open).toBe(0);
});

it('cuts a writer that waits for a drain that does not come within the timeout', async () => {
  const { port, ended, streams, disconnected } = await serveStream(async (res) => {
    while (!res.destroyed) {
      if (!res.write(CHUNK)) await new Promise((resolve) => res.once('drain', resolve).once('close', resolve));
    }
  });
  nonReading(port);
  await ended;
  expect(disconnected()).toBe(1);
  expect(streams.open).toBe(0);
});

it('leaves a client that reads alone', async () => {
  let sent = 0;
  const { port, disconnected, streams } = await serveStream(async (res) => {
    for (; sent < 400 && !res.destroyed; sent++) {
      if (!res.write(CHUNK)) await new Promise((resolve) => res.once('drain', resolve).once('close', resolve));
    }
    res.end();
  });
  const response = await fetch(`http://127.0.0.1:${port}/`, { headers: { Accept: 'text/event-stream' } });
  // 6.5 MB, well past the bound and the kernel's buffers, read slowly
  const reader = response.body!.getReader();
  let received = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received % 10 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
  }
  expect(received).toBe(400 * CHUNK.length);
  expect(disconnected()).toBe(0);
  expect(streams.open).toBe(0);
});
