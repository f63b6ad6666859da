// API throughput of 1 vs N `zenith serve` processes on the same PostgreSQL database (issue 20's
// scale-out: stateless API processes behind a load balancer). The database is seeded once (the
// scenario of bench/api.ts: accounts, 250 payments); each round starts the processes, waits for
// them, then a client process spreads keep-alive requests round robin over them (a load balancer's
// part) for a few seconds on a read mix: an account, its payments, the ledgers, a transaction's
// operations. Prints requests/s of each round, the ratio, and where the machine's CPU went (the API
// processes, PostgreSQL, the client), which says what limits the ratio.
// Run: npx tsx bench/serve_scale.ts [seconds=10] [processes=3] [concurrency=64]
import { fork } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { spawnZenith, type TestProcess } from '../test/support/cli.js';
import { freePort } from '../test/support/processes.js';
import { createServerDatabase, dropServerDatabase } from '../test/support/database.js';
import { ALICE, BOB, seedLedger, seedScenario } from '../test/support/seed.js';

if (process.argv[2] === 'clients')
  await runClients(JSON.parse(process.argv[3]!) as string[], Number(process.argv[4]), Number(process.argv[5]));
else await runBench(Number(process.argv[2] ?? 10), Number(process.argv[3] ?? 3), Number(process.argv[4] ?? 64));

async function runBench(seconds: number, processes: number, concurrency: number): Promise<void> {
  const url = await createServerDatabase();
  const db = await openDatabase({ kind: 'postgres', url });
  await migrate(db);
  await seedScenario(db);
  for (let ledger = 4; ledger < 9; ledger++) {
    await seedLedger(
      db,
      ledger,
      Array.from({ length: 50 }, (_, i) => ({
        source: ALICE,
        operations: [
          {
            type: 1,
            source: ALICE,
            details: { from: ALICE, to: BOB, amount: `${i + 1}.0000000`, asset_type: 'native' },
            participants: [BOB],
          },
        ],
      })),
    );
  }
  const transaction = await db.prisma.transaction.findFirstOrThrow({ select: { hash: true } });
  await db.close();
  const paths = [
    `/accounts/${ALICE}`,
    `/accounts/${ALICE}/payments?limit=50`,
    '/ledgers?order=desc&limit=20',
    `/transactions/${transaction.hash}/operations`,
  ];

  try {
    const one = await round(url, 1, paths, seconds, concurrency);
    const many = await round(url, processes, paths, seconds, concurrency);
    console.log(`${paths.length} routes round robin, ${concurrency} connections, ${seconds}s per round, ${cpuCount()} CPUs`);
    for (const r of [one, many]) {
      console.log(
        `${r.processes} serve: ${r.rate.toFixed(0)} req/s (${r.errors} non-200); CPU busy ${(r.cpu.busy * 100).toFixed(0)}% of the machine — ` +
          `API ${(r.cpu.api * 100).toFixed(0)}%, PostgreSQL ${(r.cpu.postgres * 100).toFixed(0)}%, client ${(r.cpu.client * 100).toFixed(0)}% (of one CPU each)`,
      );
    }
    console.log(`ratio ${processes} ÷ 1: ${(many.rate / one.rate).toFixed(2)}`);
  } finally {
    await dropServerDatabase(url);
  }
}

interface Round {
  processes: number;
  rate: number;
  errors: number;
  cpu: { busy: number; api: number; postgres: number; client: number };
}

async function round(url: string, processes: number, paths: string[], seconds: number, concurrency: number): Promise<Round> {
  const servers: TestProcess[] = [];
  try {
    const bases: string[] = [];
    for (let i = 0; i < processes; i++) {
      // no rate limit: the clients are one address; logs at warn: an info line per request is work of
      // its own, and so the port is given rather than read from the "serving" line
      const port = await freePort();
      servers.push(
        spawnZenith(['serve', '--port', String(port), '--database-url', url, '--per-hour-rate-limit', '0'], { LOG_LEVEL: 'warn' }),
      );
      bases.push(`http://127.0.0.1:${port}`);
    }
    await Promise.all(bases.map((base) => ready(base)));
    const machineBefore = machineTicks();
    const apiBefore = servers.map((server) => processTicks(server.pid));
    const postgresBefore = postgresTicks();
    const started = performance.now();
    const client = fork(
      fileURLToPath(import.meta.url),
      ['clients', JSON.stringify(bases.flatMap((base) => paths.map((p) => base + p))), String(concurrency), String(seconds)],
      {
        stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
      },
    );
    const result = await new Promise<{ count: number; errors: number; ticks: number }>((resolve, reject) => {
      client.once('message', (message) => resolve(message as { count: number; errors: number; ticks: number }));
      client.once('exit', (code) => reject(new Error(`the client process exited (${code})`)));
    });
    const elapsed = (performance.now() - started) / 1000;
    const machine = machineTicks();
    const api = servers.reduce((sum, server, i) => sum + processTicks(server.pid) - apiBefore[i]!, 0);
    const hz = 100;
    return {
      processes,
      rate: result.count / seconds,
      errors: result.errors,
      cpu: {
        busy: (machine.busy - machineBefore.busy) / (machine.total - machineBefore.total),
        api: api / hz / elapsed,
        postgres: (postgresTicks() - postgresBefore) / hz / elapsed,
        client: result.ticks / hz / elapsed,
      },
    };
  } finally {
    await Promise.all(servers.map((server) => server.stop('SIGINT')));
  }
}

async function ready(base: string): Promise<void> {
  for (let tries = 0; ; tries++) {
    try {
      if ((await fetch(`${base}/`)).ok) return;
    } catch (error) {
      if (tries > 600) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function runClients(urls: string[], concurrency: number, seconds: number): Promise<void> {
  let count = 0;
  let errors = 0;
  let next = 0;
  const end = performance.now() + seconds * 1000;
  const before = processTicks(process.pid);
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const response = await fetch(urls[next++ % urls.length]!);
        await response.arrayBuffer();
        if (response.status === 200) count++;
        else errors++;
      }
    }),
  );
  process.send?.({ count, errors, ticks: processTicks(process.pid) - before });
  process.disconnect();
}

// CPU time from /proc (Linux), in clock ticks (USER_HZ, 100 on Linux)
function processTicks(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return Number(fields[11]) + Number(fields[12]); // utime, stime
  } catch {
    return 0;
  }
}

function postgresTicks(): number {
  let ticks = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').startsWith('postgres')) ticks += processTicks(Number(pid));
    } catch {
      // gone meanwhile
    }
  }
  return ticks;
}

function machineTicks(): { busy: number; total: number } {
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.split(/\s+/).slice(1).map(Number);
  const total = cpu.reduce((a, b) => a + b, 0);
  const idle = (cpu[3] ?? 0) + (cpu[4] ?? 0);
  return { busy: total - idle, total };
}

function cpuCount(): number {
  return readFileSync('/proc/stat', 'utf8')
    .split('\n')
    .filter((line) => /^cpu\d/.test(line)).length;
}
