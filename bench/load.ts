// Overload: CONNECTIONS keep-alive clients (default 500) send a mix of Horizon requests back to back
// for SECONDS (default 60) to a real `zenith start` (PGlite in its data folder, or a fresh database
// on PostgreSQL), while /health is polled every 200 ms on a connection of its own and the embedded
// core's ledger closes are counted. Prints requests, p50/p99 latency, client timeouts (no answer in
// 10 s) and resets, the answers by status (a 503 counts as shedding only with Retry-After: any other
// 5xx is a failure; its client waits as Retry-After asks before it sends again), ledger closes (and ingested ledgers) per minute against the --close-interval
// rate (target ≥ 95%), and /health's p50/p99 (target ≤ 100 ms). The clients run in a child process so
// that their work does not delay the /health probe; the server is a third process.
// Run: npx tsx bench/load.ts [pglite|postgres] [seconds=60] [connections=500] [zenith start flags…]
// (e.g. --max-concurrent-requests=4 to compare the load-shedding bounds)
// PostgreSQL: a fresh database on TEST_DATABASE_URL's server (default postgres://postgres@127.0.0.1:5432), dropped at the end.
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Keypair } from '@stellar/stellar-sdk';
import { Client, Pool } from 'undici';
import { createServerDatabase, dropServerDatabase } from '../test/support/database.js';
import { spawnZenith } from '../test/support/cli.js';

const CLIENT_TIMEOUT_MS = 10_000;
const HEALTH_EVERY_MS = 200;
const CLOSE_INTERVAL_MS = 1000;

interface Tally {
  requests: number;
  latencies: number[];
  statuses: Record<string, number>;
  timeouts: number;
  resets: number;
  /** 5xx other than a 503 with Retry-After */
  failures: number;
}

const newTally = (): Tally => ({ requests: 0, latencies: [], statuses: {}, timeouts: 0, resets: 0, failures: 0 });

interface Mix {
  accounts: string[];
  issuer: string;
}

if (process.argv[2] === 'clients') {
  await runClients(process.argv[3]!, Number(process.argv[4]), Number(process.argv[5]), JSON.parse(process.argv[6]!) as Mix);
} else {
  await runBench(
    process.argv[2] === 'postgres' ? 'postgres' : 'pglite',
    Number(process.argv[3] ?? 60),
    Number(process.argv[4] ?? 500),
    process.argv.slice(5),
  );
}

async function runBench(kind: 'pglite' | 'postgres', seconds: number, connections: number, flags: string[]): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'zenith-load-'));
  const databaseUrl = kind === 'postgres' ? await createServerDatabase() : null;
  const zenith = spawnZenith(
    [
      'start',
      '--port=0',
      '--core-port=0',
      `--data-dir=${dataDir}`,
      `--close-interval=${CLOSE_INTERVAL_MS}`,
      // one address sends everything: Horizon's per-IP limits would answer 429 to almost all of it
      '--per-hour-rate-limit=0',
      '--friendbot-per-hour-limit=0',
      ...(databaseUrl ? [`--database-url=${databaseUrl}`] : []),
      ...flags,
    ],
    // the access log of every request (info) is part of the server's work under load, as in production
    { LOG_LEVEL: 'info' },
  );
  try {
    const port = (JSON.parse(await zenith.waitForLine(/Zenith is serving/, { timeoutMs: 120_000 })) as { port: number }).port;
    const corePort = (JSON.parse(await zenith.waitForLine(/core commands on/)) as { corePort: number }).corePort;
    const url = `http://127.0.0.1:${port}`;

    // some history to read: a few funded accounts (each a create_account payment)
    const accounts = Array.from({ length: 5 }, () => Keypair.random().publicKey());
    for (const account of accounts) {
      const response = await fetch(`${url}/friendbot?addr=${account}`);
      if (!response.ok) throw new Error(`friendbot answered ${response.status}: ${await response.text()}`);
    }
    const mix: Mix = { accounts, issuer: accounts[0]! };

    const health = newTally();
    const healthClient = new Client(url, { headersTimeout: CLIENT_TIMEOUT_MS, bodyTimeout: CLIENT_TIMEOUT_MS });
    const coreLedger = async () =>
      ((await (await fetch(`http://127.0.0.1:${corePort}/info`)).json()) as { info: { ledger: { num: number } } }).info.ledger.num;
    // the root document is shed like any request: asked again after Retry-After
    const ingestedLedger = async (): Promise<number> => {
      for (;;) {
        const response = await fetch(url);
        if (response.ok) return ((await response.json()) as { history_latest_ledger: number }).history_latest_ledger;
        await response.text();
        await sleep(1000);
      }
    };

    const child = fork(fileURLToPath(import.meta.url), ['clients', url, String(connections), String(seconds), JSON.stringify(mix)], {
      stdio: 'inherit',
    });
    const result = new Promise<{ tally: Tally; friendbot: Tally }>((resolve, reject) => {
      child.once('message', (message) => resolve(message as { tally: Tally; friendbot: Tally }));
      child.once('exit', (code) => reject(new Error(`the clients exited (${code})`)));
    });
    const firstCore = await coreLedger();
    const firstIngested = await ingestedLedger();
    const ingestStarted = performance.now();
    const started = performance.now();
    const load: number[] = [];
    const deadline = started + seconds * 1000;
    while (performance.now() < deadline) {
      const next = performance.now() + HEALTH_EVERY_MS;
      await timed(health, () => healthClient.request({ path: '/health', method: 'GET' }));
      if (load.length < (performance.now() - started) / 10_000) load.push(loadavg()[0]!);
      await sleep(Math.max(0, next - performance.now()));
    }
    const minutes = (performance.now() - started) / 60_000;
    const closes = (await coreLedger()) - firstCore;
    const ingested = (await ingestedLedger()) - firstIngested;
    const ingestMinutes = (performance.now() - ingestStarted) / 60_000;
    const { tally, friendbot } = await result;
    await healthClient.close();

    const expected = 60_000 / CLOSE_INTERVAL_MS;
    console.log(
      `${kind}: ${connections} connections for ${seconds} s against zenith start --close-interval=${CLOSE_INTERVAL_MS} ${flags.join(' ')}`,
    );
    console.log(`load average (1 min) during the run: ${load.map((l) => l.toFixed(2)).join(' ')}`);
    report('requests', tally);
    report('friendbot', friendbot);
    report('/health', health);
    console.log(
      `ledger closes: ${(closes / minutes).toFixed(1)}/min (${((closes / minutes / expected) * 100).toFixed(0)}% of ${expected}/min), ` +
        `ingested ${(ingested / ingestMinutes).toFixed(1)}/min (${((ingested / ingestMinutes / expected) * 100).toFixed(0)}%)`,
    );
  } finally {
    await zenith.stop('SIGINT');
    // the server's log (an access line per request, with its duration) for a closer look
    writeFileSync(path.join(tmpdir(), `zenith-load-${kind}.log`), zenith.stdout());
    if (databaseUrl) await dropServerDatabase(databaseUrl);
    rmSync(dataDir, { recursive: true, force: true });
  }
  process.exit(0);
}

function report(label: string, tally: Tally): void {
  const sorted = [...tally.latencies].sort((a, b) => a - b);
  const at = (q: number) => (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0).toFixed(1);
  const statuses = Object.entries(tally.statuses)
    .map(([status, count]) => `${status}: ${count}`)
    .join(', ');
  console.log(
    `${label}: ${tally.requests} requests, p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms; ` +
      `timeouts ${tally.timeouts}, resets ${tally.resets}, 5xx other than 503+Retry-After ${tally.failures}; ${statuses}`,
  );
}

/** One request, its answer read whole, tallied. */
async function timed(
  tally: Tally,
  send: () => Promise<{ statusCode: number; headers: Record<string, string | string[] | undefined>; body: { text(): Promise<string> } }>,
): Promise<number> {
  const started = performance.now();
  tally.requests++;
  try {
    const response = await send();
    await response.body.text();
    tally.latencies.push(performance.now() - started);
    const shed = response.statusCode === 503 && response.headers['retry-after'] !== undefined;
    const key = shed ? '503+Retry-After' : String(response.statusCode);
    tally.statuses[key] = (tally.statuses[key] ?? 0) + 1;
    if (response.statusCode >= 500 && !shed) tally.failures++;
    return shed ? Number(response.headers['retry-after']) * 1000 : 0;
  } catch (error) {
    const code = (error as { code?: string }).code ?? String(error);
    if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') tally.timeouts++;
    else tally.resets++;
    tally.statuses[code] = (tally.statuses[code] ?? 0) + 1;
    return 0;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function runClients(url: string, connections: number, seconds: number, mix: Mix): Promise<void> {
  const pool = new Pool(url, { connections, pipelining: 1, headersTimeout: CLIENT_TIMEOUT_MS, bodyTimeout: CLIENT_TIMEOUT_MS });
  const { accounts, issuer } = mix;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;
  const graphql = JSON.stringify({
    query: '{ ledgers(last: 5) { edges { node { sequence hash closedAt operationCount } } } feeStats { lastLedger } }',
  });
  type Request = { path: string; method: 'GET' | 'POST'; body?: string; headers?: Record<string, string> };
  const requests: (() => Request)[] = [
    () => ({ path: `/accounts/${pick(accounts)}`, method: 'GET' }),
    () => ({ path: `/accounts/${pick(accounts)}/payments?limit=10&order=desc`, method: 'GET' }),
    () => ({ path: '/ledgers?order=desc&limit=20', method: 'GET' }),
    () => ({ path: '/transactions?order=desc&limit=20', method: 'GET' }),
    () => ({ path: '/operations?order=desc&limit=20', method: 'GET' }),
    () => ({ path: '/payments?order=desc&limit=20', method: 'GET' }),
    () => ({
      path: `/order_book?selling_asset_type=native&buying_asset_type=credit_alphanum4&buying_asset_code=USD&buying_asset_issuer=${issuer}`,
      method: 'GET',
    }),
    () => ({ path: '/graphql', method: 'POST', body: graphql, headers: { 'content-type': 'application/json' } }),
  ];
  const tally = newTally();
  const friendbot = newTally();
  const deadline = performance.now() + seconds * 1000;
  const client = async (): Promise<void> => {
    // a shed request's client waits as Retry-After asks before it sends again
    while (performance.now() < deadline) await sleep(await timed(tally, () => pool.request(pick(requests)())));
  };
  // one client funds new accounts one after the other: a submission waits for its ledger under load
  const funder = async (): Promise<void> => {
    while (performance.now() < deadline) {
      await sleep(await timed(friendbot, () => pool.request({ path: `/friendbot?addr=${Keypair.random().publicKey()}`, method: 'GET' })));
    }
  };
  await Promise.all([funder(), ...Array.from({ length: connections - 1 }, client)]);
  process.send!({ tally, friendbot }, () => process.exit(0));
  await pool.close();
}
