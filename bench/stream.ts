// SSE fan-out: N concurrent clients (default 1,000) follow the ledgers from one Zenith process;
// each new ledger is one signal that wakes every stream. Three rounds, one after the other, each
// with its own N clients and ledgers:
//   baseline  a minimal SSE server in the same process: one Zenith stream read by this process
//             (the one read a ledger needs), whose events are written as they are to N responses
//   rest      GET /ledgers?cursor=now, Horizon's SSE
//   graphql   `subscription { ledgers(cursor: "now") }` over graphql-sse (distinct connections)
// For each round it prints the latency from the ledger's commit (the ingester publishing the
// signal) to the server's write of the event on each socket (handed to the kernel), and to each
// client's receipt of it, p50/p99 over all clients and ledgers, as ratios to the 50 ms target and
// to the baseline. The clients run in a child process on raw sockets (their own parsing is the
// gap between the two figures); they check that every client gets every ledger once, in order.
// The database is PGlite, or PostgreSQL with ZENITH_TEST_DB=postgres (the signal then travels by
// NOTIFY).
// Run: npx tsx --expose-gc bench/stream.ts [clients=1000] [ledgers=5] [rounds=baseline,rest,graphql]
import { fork } from 'node:child_process';
import { createServer, get, type Server, type ServerResponse } from 'node:http';
import { connect, Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';

const now = () => performance.timeOrigin + performance.now();
const TARGET_MS = 50;

type Kind = 'baseline' | 'rest' | 'graphql';
type FromClients = { opened: number } | { ledger: string; received: number[]; cpuMs: number } | { failed: string };

const GRAPHQL_QUERY =
  'subscription { ledgers(cursor: "now") { pagingToken sequence hash prevHash closedAt transactionCount operationCount totalCoins feePool baseFeeInStroops baseReserveInStroops maxTxSetSize protocolVersion headerXdr } }';

if (process.argv[2] === 'clients') await runClients(process.argv[3] as Kind, process.argv[4]!, Number(process.argv[5]));
else
  await runServer(
    Number(process.argv[2] ?? 1000),
    Number(process.argv[3] ?? 5),
    (process.argv[4] ?? 'baseline,rest,graphql').split(',') as Kind[],
  );

interface Round {
  kind: Kind;
  openMs: number;
  /** commit → the event handed to each socket */
  wrote: number[];
  /** commit → each client's receipt */
  received: number[];
  heapPerStreamKB: number;
  /** CPU time of the server's process (the ingest of the ledger included) and of the clients' per ledger */
  serverCpuMs: number[];
  clientCpuMs: number[];
}

async function runServer(clients: number, ledgers: number, kinds: Kind[]): Promise<void> {
  // imported here: the clients' process needs none of it
  const { streamLimitsOf } = await import('../src/api/stream_limits.js');
  const { defaultConfig } = await import('../src/config.js');
  const { startTestNetwork } = await import('../test/support/network.js');
  const { testDbKind } = await import('../test/support/database.js');
  // STREAM_PROFILE=<dir>: a CPU profile of this process while each round's ledgers are delivered
  const profileDir = process.env.STREAM_PROFILE;
  const profiler = profileDir ? new Session() : null;
  profiler?.connect();
  const loadAtStart = loadavg()[0]!;
  // every client comes from 127.0.0.1: the caps on streams per client and in total are lifted
  const network = await startTestNetwork({ streamLimits: { ...streamLimitsOf(defaultConfig()), perClient: 0, total: 0 } });
  // the moment the ledger's commit is announced (before NOTIFY on PostgreSQL)
  const committed = new Map<string, number>();
  const publish = network.events.publish.bind(network.events);
  network.events.publish = (sequence) => {
    committed.set(String(BigInt(sequence) << 32n), now());
    return publish(sequence);
  };

  // the time each socket of the measured server hands an event to the kernel, by paging token
  let watched: { server: Server; token: string; times: number[] } | null = null;
  // an event names its ledger near its start (REST's id, the GraphQL selection's first field)
  const head = (chunk: unknown) => (typeof chunk === 'string' ? chunk.slice(0, 256) : Buffer.isBuffer(chunk) ? chunk.subarray(0, 256) : '');
  const seen = (socket: Socket, chunks: readonly { chunk: unknown }[]) => {
    if (!watched || (socket as Socket & { server?: Server }).server !== watched.server) return;
    const { token, times } = watched;
    if (chunks.some(({ chunk }) => head(chunk).includes(token))) times.push(now());
  };
  const socketProto = Socket.prototype as unknown as {
    _writev(this: Socket, chunks: { chunk: unknown }[], cb: () => void): void;
    _write(this: Socket, chunk: unknown, encoding: string, cb: () => void): void;
  };
  const { _writev, _write } = socketProto;
  socketProto._writev = function (chunks, cb) {
    seen(this, chunks);
    return _writev.call(this, chunks, cb);
  };
  socketProto._write = function (chunk, encoding, cb) {
    seen(this, [{ chunk }]);
    return _write.call(this, chunk, encoding, cb);
  };

  const results: Round[] = [];
  for (const kind of kinds) {
    let server = network.server;
    let url = network.url;
    let stopBaseline = async () => {};
    if (kind === 'baseline') ({ server, url, stop: stopBaseline } = await baselineServer(network.url));
    global.gc?.();
    const before = process.memoryUsage().heapUsed;
    const child = fork(fileURLToPath(import.meta.url), ['clients', kind, url, String(clients)], { stdio: 'inherit' });
    const messages: FromClients[] = [];
    let wake: (() => void) | null = null;
    child.on('message', (message: FromClients) => {
      messages.push(message);
      wake?.();
    });
    const next = async (): Promise<FromClients> => {
      while (messages.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      const message = messages.shift()!;
      if ('failed' in message) throw new Error(`${kind} clients: ${message.failed}`);
      return message;
    };

    const openedAt = now();
    if (!('opened' in (await next()))) throw new Error('clients did not open');
    const round: Round = { kind, openMs: now() - openedAt, wrote: [], received: [], heapPerStreamKB: 0, serverCpuMs: [], clientCpuMs: [] };
    global.gc?.();
    round.heapPerStreamKB = (process.memoryUsage().heapUsed - before) / clients / 1024;

    if (profiler) {
      await profiler.post('Profiler.enable');
      await profiler.post('Profiler.setSamplingInterval', { interval: 100 });
      await profiler.post('Profiler.start');
    }
    for (let i = 0; i < ledgers; i++) {
      const sequence = network.core.info().info.ledger.num + 1;
      const token = String(BigInt(sequence) << 32n);
      watched = { server, token, times: [] };
      const cpu = process.cpuUsage();
      await network.closeLedger();
      const report = await next();
      const used = process.cpuUsage(cpu);
      round.serverCpuMs.push((used.user + used.system) / 1000);
      if (!('ledger' in report) || report.ledger !== token) throw new Error(`expected ledger ${token}, got ${JSON.stringify(report)}`);
      const commit = committed.get(token)!;
      round.received.push(...report.received.map((t) => t - commit));
      round.clientCpuMs.push(report.cpuMs);
      round.wrote.push(...watched.times.map((t) => t - commit));
      watched = null;
    }
    if (profiler) {
      const { profile } = await profiler.post('Profiler.stop');
      writeFileSync(`${profileDir}/${kind}.cpuprofile`, JSON.stringify(profile));
    }
    child.kill();
    await new Promise((resolve) => child.once('exit', resolve));
    await stopBaseline();
    results.push(round);
    // let the server notice the clients left before the next round opens its own
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  await network.stop();

  const quantile = (values: number[], q: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  };
  const baseline = results.find((r) => r.kind === 'baseline');
  console.log(
    `${clients} clients per round, ${ledgers} ledgers each, ${testDbKind}, load average ${loadavg()[0]!.toFixed(1)} ` +
      `(${loadAtStart.toFixed(1)} at start) on ${availableParallelism()} CPUs. ms from the ledger's commit; (× the ${TARGET_MS} ms target, × the baseline)`,
  );
  const ratios = (value: number, base: number | undefined, target = true) =>
    [target ? `${(value / TARGET_MS).toFixed(2)}×` : null, base === undefined ? null : `${(value / base).toFixed(2)}× base`]
      .filter((part) => part !== null)
      .join(', ');
  for (const r of results) {
    const figure = (values: number[], base: number[] | undefined, q: number) =>
      `${quantile(values, q).toFixed(1)} (${ratios(quantile(values, q), base && quantile(base, q))})`;
    const serverCpu = quantile(r.serverCpuMs, 0.5);
    console.log(
      `${r.kind.padEnd(9)}received p50 ${figure(r.received, baseline?.received, 0.5)}  p99 ${figure(r.received, baseline?.received, 0.99)}`,
    );
    console.log(
      `${''.padEnd(9)}written  p50 ${figure(r.wrote, baseline?.wrote, 0.5)}  p99 ${figure(r.wrote, baseline?.wrote, 0.99)}  first ${quantile(r.wrote, 0).toFixed(1)}`,
    );
    console.log(
      `${''.padEnd(9)}CPU per ledger: server ${serverCpu.toFixed(1)} ms (${ratios(serverCpu, baseline && quantile(baseline.serverCpuMs, 0.5), false) || '-'}), ` +
        `clients ${quantile(r.clientCpuMs, 0.5).toFixed(1)} ms; opened in ${(r.openMs / 1000).toFixed(1)} s; ${r.heapPerStreamKB.toFixed(1)} KB heap per stream`,
    );
    if (r.wrote.length !== r.received.length)
      console.log(`${''.padEnd(9)}(${r.wrote.length} writes seen for ${r.received.length} deliveries)`);
  }
  process.exit(0);
}

/**
 * The floor: one Zenith stream, read here, whose event blocks are written unchanged to every
 * client of a bare node:http server, preceded by Horizon's opening lines.
 */
async function baselineServer(zenith: string): Promise<{ server: Server; url: string; stop: () => Promise<void> }> {
  const responses = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
    res.write('retry: 1000\nevent: open\ndata: "hello"\n\n');
    responses.add(res);
    req.on('close', () => responses.delete(res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const relay = get(`${zenith}/ledgers?cursor=now`, { headers: { accept: 'text/event-stream' } }, (res) => {
    let buffer = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      buffer += chunk;
      const blocks = buffer.split('\n\n');
      buffer = blocks.pop() ?? '';
      for (const block of blocks) {
        if (!block.startsWith('id: ')) continue;
        const event = `${block}\n\n`;
        for (const response of responses) response.write(event);
      }
    });
  });
  // the relay's own stream is open before the clients come
  await new Promise<void>((resolve) => relay.once('response', () => resolve()));
  return {
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async stop() {
      relay.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Raw sockets: the request by hand, the response read as text for the event blocks' ids. */
async function runClients(kind: Kind, url: string, count: number): Promise<void> {
  const { hostname, port } = new URL(url);
  const request =
    kind === 'graphql'
      ? (() => {
          const body = JSON.stringify({ query: GRAPHQL_QUERY });
          return (
            `POST /graphql/stream HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAccept: text/event-stream\r\n` +
            `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
          );
        })()
      : `GET /ledgers?cursor=now HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAccept: text/event-stream\r\n\r\n`;
  // an event's block names its ledger by the paging token: `id: …` in REST, a field in GraphQL
  const idMarker = kind === 'graphql' ? '"pagingToken":"' : 'id: ';
  const idEnd = kind === 'graphql' ? '"' : '\n';
  const openMarker = kind === 'graphql' ? '\n:\n\n' : 'event: open';
  const byLedger = new Map<string, number[]>();
  let opened = 0;
  let cpu = process.cpuUsage();
  const send = (message: FromClients) => process.send!(message);
  const fail = (failed: string) => {
    send({ failed });
    setTimeout(() => process.exit(1), 100);
  };
  for (let i = 0; i < count; i++) {
    const socket = connect(Number(port), hostname);
    socket.setNoDelay(true);
    socket.setEncoding('latin1');
    socket.write(request);
    let buffer = '';
    let isOpen = false;
    let last = -1n;
    socket.on('data', (chunk: string) => {
      const received = now();
      buffer += chunk;
      if (!isOpen) {
        if (!buffer.startsWith('HTTP/1.1 200')) return fail(`client ${i}: ${buffer.slice(0, 200)}`);
        if (!buffer.includes(openMarker)) return;
        isOpen = true;
        buffer = buffer.slice(buffer.indexOf(openMarker) + openMarker.length);
        if (++opened === count) {
          cpu = process.cpuUsage();
          send({ opened });
        }
      }
      const end = buffer.lastIndexOf('\n\n');
      if (end < 0) return;
      const complete = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      for (let at = complete.indexOf(idMarker); at >= 0; at = complete.indexOf(idMarker, at + 1)) {
        const start = at + idMarker.length;
        const id = complete.slice(start, complete.indexOf(idEnd, start));
        // every record once, in order
        if (BigInt(id) <= last) return fail(`client ${i}: ledger ${id} after ${last}`);
        last = BigInt(id);
        const times = byLedger.get(id) ?? [];
        times.push(received);
        byLedger.set(id, times);
        if (times.length === count) {
          byLedger.delete(id);
          const used = process.cpuUsage(cpu);
          cpu = process.cpuUsage();
          send({ ledger: id, received: times, cpuMs: (used.user + used.system) / 1000 });
        }
      }
    });
    socket.on('error', (error) => fail(`client ${i}: ${error.message}`));
  }
}
