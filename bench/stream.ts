// SSE fan-out: N concurrent clients (default 1,000) stream GET /ledgers?cursor=now from one
// Zenith process; each new ledger is one signal that wakes every stream. Prints the delivery
// latency from the ledger's commit to each client's receipt of its event (p50/p99/max over all
// clients and ledgers), and the server process's memory before and with the streams open.
// The clients run in a child process so that their parsing does not share the server's event loop.
// Run: npx tsx bench/stream.ts [clients=1000] [ledgers=5]
import { fork } from 'node:child_process';
import { Agent, get } from 'node:http';
import { fileURLToPath } from 'node:url';
import { streamLimitsOf } from '../src/api/stream_limits.js';
import { defaultConfig } from '../src/config.js';
import { startTestNetwork } from '../test/support/network.js';

const now = () => performance.timeOrigin + performance.now();

type FromClients = { opened: number } | { ledger: string; received: number[] };

if (process.argv[2] === 'clients') await runClients(process.argv[3]!, Number(process.argv[4]));
else await runServer(Number(process.argv[2] ?? 1000), Number(process.argv[3] ?? 5));

async function runServer(clients: number, ledgers: number): Promise<void> {
  // every client comes from 127.0.0.1: the caps on streams per client and in total are lifted
  const network = await startTestNetwork({ streamLimits: { ...streamLimitsOf(defaultConfig()), perClient: 0, total: 0 } });
  // registered before any stream: the moment the ledger's commit is announced
  const committed = new Map<string, number>();
  network.events.subscribe((sequence) => committed.set(String(BigInt(sequence) << 32n), now()));
  global.gc?.();
  const before = process.memoryUsage();

  const child = fork(fileURLToPath(import.meta.url), ['clients', network.url, String(clients)], { stdio: 'inherit' });
  const messages: FromClients[] = [];
  let wake: (() => void) | null = null;
  child.on('message', (message: FromClients) => {
    messages.push(message);
    wake?.();
  });
  const next = async (): Promise<FromClients> => {
    while (messages.length === 0) await new Promise<void>((resolve) => (wake = resolve));
    return messages.shift()!;
  };

  const openedAt = now();
  const opened = await next();
  if (!('opened' in opened)) throw new Error('clients did not open');
  const openMs = now() - openedAt;
  global.gc?.();
  const open = process.memoryUsage();

  const latencies: number[] = [];
  for (let i = 0; i < ledgers; i++) {
    await network.closeLedger();
    const report = await next();
    if (!('ledger' in report)) throw new Error('unexpected report');
    const commit = committed.get(report.ledger);
    if (commit === undefined) throw new Error(`no commit time for ${report.ledger}`);
    latencies.push(...report.received.map((t) => t - commit));
  }
  child.kill();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(1);
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  console.log(
    `${clients} SSE clients on /ledgers?cursor=now, ${ledgers} ledgers (${latencies.length} deliveries), all opened in ${openMs.toFixed(0)} ms`,
  );
  console.log(`delivery after commit: p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${latencies[latencies.length - 1]!.toFixed(1)} ms`);
  console.log(
    `server memory: rss ${mb(before.rss)} → ${mb(open.rss)}, heap ${mb(before.heapUsed)} → ${mb(open.heapUsed)} (${((open.heapUsed - before.heapUsed) / clients / 1024).toFixed(1)} KB heap per stream)`,
  );
  await network.stop();
  process.exit(0);
}

async function runClients(url: string, count: number): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
  const byLedger = new Map<string, number[]>();
  let opened = 0;
  const send = (message: FromClients) => process.send!(message);
  for (let i = 0; i < count; i++) {
    get(`${url}/ledgers?cursor=now`, { agent, headers: { accept: 'text/event-stream' } }, (res) => {
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        const received = now();
        buffer += chunk;
        const blocks = buffer.split('\n\n');
        buffer = blocks.pop() ?? '';
        for (const block of blocks) {
          if (block.includes('event: open')) {
            if (++opened === count) send({ opened });
            continue;
          }
          const id = /^id: (\S+)/m.exec(block)?.[1];
          if (!id) continue;
          const times = byLedger.get(id) ?? [];
          times.push(received);
          byLedger.set(id, times);
          if (times.length === count) send({ ledger: id, received: times });
        }
      });
    }).on('error', (error) => {
      console.error(`client ${i}: ${error.message}`);
      process.exit(1);
    });
  }
}
