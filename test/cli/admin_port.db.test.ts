// --admin-port: `zenith start` serves Prometheus' text format on a port of its own, read here by a
// real text-format parser. Every named metric is there, and each moves with what the process did
// between two scrapes: ledgers ingested, requests by route pattern, a submission, an open stream
// and subscription (and their closing), the database's connections, the process's own figures.
// Runs on PGlite (one connection) and on PostgreSQL (the pool).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keypair } from '@stellar/stellar-sdk/base';
import { afterAll, describe, expect, it } from 'vitest';
import { closeLedgersUntil, corePort, EventStream, servingPort, spawnManualStart, spawnZenith, stopCleanly } from '../support/cli.js';
import { createServerDatabase, dropServerDatabase, testDbKind } from '../support/database.js';
import { freePort, stopAllProcesses } from '../support/processes.js';
import { type Scraped, samples, scrape, total } from '../support/prometheus_text.js';
import { TESTNET_DATASTORE } from '../ingest/support/fixtures.js';

const dataDir = mkdtempSync(join(tmpdir(), 'zenith-admin-'));
let databaseUrl = '';
afterAll(async () => {
  await stopAllProcesses();
  if (databaseUrl) await dropServerDatabase(databaseUrl);
  rmSync(dataDir, { recursive: true, force: true });
});

/** scrapes until `ready` holds (the server's side of a closed connection ends a moment later) */
async function scrapeUntil(port: number, ready: (scraped: Scraped) => boolean): Promise<Scraped> {
  for (;;) {
    const families = await scrape(port);
    if (ready(families)) return families;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const NAMED = [
  'zenith_ingest_ledgers_total',
  'zenith_ingest_lag_seconds',
  'zenith_ingest_ledger_duration_seconds',
  'zenith_http_request_duration_seconds',
  'zenith_open_streams',
  'zenith_graphql_subscriptions',
  'zenith_db_connections',
  'zenith_txsub_submissions_total',
  // prom-client's default metrics
  'process_cpu_seconds_total',
  'process_resident_memory_bytes',
  'nodejs_eventloop_lag_seconds',
  'nodejs_heap_size_used_bytes',
];

describe('zenith start --admin-port', () => {
  it('serves each named metric in the Prometheus text format, moving with the work done', { timeout: 240_000 }, async () => {
    if (testDbKind === 'postgres') databaseUrl = await createServerDatabase();
    // --admin-port 0 means no admin server: the test picks a free port
    const adminPort = await freePort();
    const child = spawnManualStart(dataDir, databaseUrl, '--admin-port', String(adminPort));
    const base = `http://127.0.0.1:${await servingPort(child)}`;
    const core = await corePort(child);
    expect(await child.waitForLine(/admin server on/)).toContain(`http://127.0.0.1:${adminPort}/metrics`);

    const first = await scrape(adminPort);
    for (const name of NAMED) expect(first.families.has(name), name).toBe(true);
    expect(total(first, 'zenith_open_streams')).toBe(0);
    expect(total(first, 'zenith_graphql_subscriptions')).toBe(0);

    // a REST stream and a GraphQL subscription stay open across the second scrape
    const ledgers = await EventStream.open(`${base}/ledgers?cursor=now`);
    const abort = new AbortController();
    const subscription = await fetch(`${base}/graphql/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: 'subscription { ledgers(cursor: "now") { sequence } }' }),
      signal: abort.signal,
    });
    expect(subscription.status).toBe(200);
    const reader = subscription.body!.getReader();
    // a funding through txsub, and ledgers closed until its answer
    const newcomer = Keypair.random().publicKey();
    const { value: funded, closed } = await closeLedgersUntil(fetch(`${base}/friendbot?addr=${newcomer}`), core, ledgers);
    expect(funded.status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await fetch(`${base}/accounts/${newcomer}`)).status).toBe(200);
    expect((await fetch(`${base}/accounts/${Keypair.random().publicKey()}`)).status).toBe(404);
    expect((await fetch(`${base}/no/such/${newcomer}`)).status).toBe(404);

    const second = await scrapeUntil(
      adminPort,
      (families) => total(families, 'zenith_open_streams') === 1 && total(families, 'zenith_graphql_subscriptions') === 1,
    );
    // ledgers: the counter moved by at least the closed ledgers, each timed; the lag is of the newest
    expect(total(second, 'zenith_ingest_ledgers_total') - total(first, 'zenith_ingest_ledgers_total')).toBeGreaterThanOrEqual(
      closed.length,
    );
    expect(total(second, 'zenith_ingest_ledger_duration_seconds')).toBeGreaterThan(total(first, 'zenith_ingest_ledger_duration_seconds'));
    const lag = Number(samples(second, 'zenith_ingest_lag_seconds')[0]?.value);
    expect(lag).toBeGreaterThanOrEqual(0);
    expect(lag).toBeLessThan(3600);
    // requests by route pattern: never the raw path (the account id is no label value)
    const accounts = { route: '/accounts/:account_id', method: 'GET' };
    expect(total(second, 'zenith_http_request_duration_seconds', { ...accounts, status: '200' })).toBe(3);
    expect(total(second, 'zenith_http_request_duration_seconds', { ...accounts, status: '404' })).toBe(1);
    expect(total(second, 'zenith_http_request_duration_seconds', { route: '/friendbot', status: '200' })).toBe(1);
    expect(total(second, 'zenith_http_request_duration_seconds', { route: 'unmatched', status: '404' })).toBe(1);
    const routes = samples(second, 'zenith_http_request_duration_seconds').map((sample) => sample.labels?.route ?? '');
    expect(routes.filter((route) => route.includes('G'))).toEqual([]);
    // the funding's submission succeeded
    expect(total(second, 'zenith_txsub_submissions_total', { endpoint: 'sync', result: 'success' })).toBe(1);
    // the database: PGlite's one connection, or the pool's
    const connections = total(second, 'zenith_db_connections', { state: 'total' });
    if (testDbKind === 'pglite') expect(connections).toBe(1);
    else expect(connections).toBeGreaterThanOrEqual(1);
    expect(
      samples(second, 'zenith_db_connections')
        .map((sample) => sample.labels?.state)
        .sort(),
    ).toEqual(['idle', 'total', 'waiting']);
    // the process's own: CPU time only grows, and it did work
    expect(total(second, 'process_cpu_seconds_total')).toBeGreaterThan(total(first, 'process_cpu_seconds_total'));

    // closed, the stream and the subscription leave the gauges; their requests are then timed
    ledgers.close();
    abort.abort();
    await reader.closed.catch(() => undefined);
    const third = await scrapeUntil(
      adminPort,
      (families) => total(families, 'zenith_open_streams') === 0 && total(families, 'zenith_graphql_subscriptions') === 0,
    );
    expect(total(third, 'zenith_http_request_duration_seconds', { route: '/ledgers', status: '200' })).toBeGreaterThanOrEqual(1);

    // the admin port serves /metrics and the API's /health (the same answer), nothing else; the API's JSON table stays what it was
    const [adminHealth, apiHealth] = await Promise.all([fetch(`http://127.0.0.1:${adminPort}/health`), fetch(`${base}/health`)]);
    expect(adminHealth.status).toBe(apiHealth.status);
    expect(Object.keys((await adminHealth.json()) as object).sort()).toEqual(Object.keys((await apiHealth.json()) as object).sort());
    expect((await fetch(`http://127.0.0.1:${adminPort}/`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${adminPort}/metrics`, { method: 'POST' })).status).toBe(405);
    const json = (await (await fetch(`${base}/metrics`)).json()) as Record<string, unknown>;
    expect(json['ingester.ingest_ledger']).toMatchObject({ count: expect.any(Number) });
    expect(Object.keys(json).some((key) => key.startsWith('zenith_'))).toBe(false);

    await stopCleanly(child);
  });

  // an ingest-only process: its ledgers and their lag (the datastore's ledgers closed long ago)
  it.skipIf(testDbKind !== 'pglite')('zenith ingest --admin-port counts the ledgers it ingests', { timeout: 120_000 }, async () => {
    const adminPort = await freePort();
    const child = spawnZenith([
      'ingest',
      '--data-dir',
      join(dataDir, 'ingest'),
      '--datastore',
      TESTNET_DATASTORE,
      '--admin-port',
      String(adminPort),
    ]);
    await child.waitForLine(/admin server on/);
    // the datastore holds three ledgers; the process follows it for more
    const scraped = await scrapeUntil(adminPort, (families) => total(families, 'zenith_ingest_ledgers_total') === 3);
    expect(total(scraped, 'zenith_ingest_ledger_duration_seconds')).toBe(3);
    expect(Number(samples(scraped, 'zenith_ingest_lag_seconds')[0]?.value)).toBeGreaterThan(24 * 3600);
    expect(total(scraped, 'zenith_db_connections', { state: 'total' })).toBe(1);
    expect(scraped.families.has('process_cpu_seconds_total')).toBe(true);
    await stopCleanly(child);
  });
});
