// History retention (--history-retention-count), on stellar-core's own ledger meta: a history
// ingested ledger by ledger while the reaper keeps the last N must end up exactly as the history
// of those N ledgers reingested alone into an empty database, as the API serves both (ledgers,
// transactions, operations, effects, trades, and the trade aggregations the trade triggers keep).
// What lies before the oldest ledger kept is Horizon's before_history (410), in REST and GraphQL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReaper, datastoreSource, startIngester } from '../../src/ingest/index.js';
import { reingestRange } from '../../src/ingest/reingest.js';
import { historyDeletes } from '../../src/ingest/writer.js';
import { formatPagingToken, toid } from '../../src/stellar/toid.js';
import { getJson, postGraphQL, serveTestApi, type Json, type TestApi } from '../support/api_server.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { coreLcmCase, coreLcmManifest, writeCaseDatastore } from '../support/stellar_core_lcm.js';

const PASSPHRASE = coreLcmManifest.networkPassphrase;
const KEPT = 40;

async function allRecords(api: TestApi, path: string): Promise<Json[]> {
  const records: Json[] = [];
  for (let url = `${api.base}${path}${path.includes('?') ? '&' : '?'}limit=200`; ; ) {
    const page = (await (await fetch(url)).json()) as Json;
    const found = page._embedded.records as Json[];
    if (found.length === 0) return records;
    records.push(...found);
    const next = new URL(page._links.next.href);
    url = `${api.base}${next.pathname}${next.search}`;
  }
}

/** What the API serves of the whole history, links left out (they name the server's port). */
async function served(api: TestApi): Promise<Record<string, unknown>> {
  const withoutLinks = (records: Json[]) => records.map(({ _links, ...rest }) => rest);
  const trades = await allRecords(api, '/trades');
  const pairs = new Map<string, string>();
  for (const trade of trades) {
    const side = (prefix: string) =>
      trade[`${prefix}_asset_type`] === 'native'
        ? `${prefix}_asset_type=native`
        : `${prefix}_asset_type=${trade[`${prefix}_asset_type`]}&${prefix}_asset_code=${trade[`${prefix}_asset_code`]}&${prefix}_asset_issuer=${trade[`${prefix}_asset_issuer`]}`;
    pairs.set(`${side('base')}&${side('counter')}`, '');
  }
  const aggregations: Record<string, unknown> = {};
  for (const pair of pairs.keys()) {
    for (const resolution of [60_000, 86_400_000]) {
      const path = `/trade_aggregations?${pair}&resolution=${resolution}&start_time=0&end_time=4102444800000`;
      aggregations[`${pair} ${resolution}`] = withoutLinks(await allRecords(api, path));
    }
  }
  return {
    ledgers: withoutLinks(await allRecords(api, '/ledgers')),
    transactions: withoutLinks(await allRecords(api, '/transactions?include_failed=true')),
    operations: withoutLinks(await allRecords(api, '/operations?include_failed=true')),
    effects: withoutLinks(await allRecords(api, '/effects')),
    trades: withoutLinks(trades),
    aggregations,
  };
}

const scratch = mkdtempSync(join(tmpdir(), 'zenith-retention-'));
const reaped: { t?: TestDatabase; api?: TestApi } = {};
const alone: { t?: TestDatabase; api?: TestApi } = {};
afterAll(async () => {
  for (const side of [reaped, alone]) {
    await side.api?.close();
    await side.t?.drop();
  }
  rmSync(scratch, { recursive: true, force: true });
});

describe('history retention on stellar-core meta (OfferTests, 161 ledgers)', () => {
  let first = 0;
  let last = 0;
  beforeAll(async () => {
    const folder = join(scratch, 'offers');
    ({ first, last } = await writeCaseDatastore(coreLcmCase('liabilities_match_created_offer-protocol_version_27-maximum_limits'), folder));

    // ingested ledger by ledger, the reaper keeping the last 40 every 10 ledgers, 3 ledgers a batch
    reaped.t = await createTestDatabase();
    const reaper = createReaper({ db: reaped.t.db, retention: { retentionCount: KEPT, batchSize: 3, frequency: 10 } });
    const ingester = await startIngester({
      db: reaped.t.db,
      source: datastoreSource(folder),
      networkPassphrase: PASSPHRASE,
      onLedger: (sequence) => reaper.ledgerIngested(sequence),
    });
    expect(await ingester.done).toBeNull();
    await reaper.stop();
    // what the last reaps (every 10 ledgers) left of the window: the reap of a node that stops now
    await createReaper({ db: reaped.t.db, retention: { retentionCount: KEPT, batchSize: 3, frequency: 10 } }).reap();
    reaped.api = await serveTestApi(reaped.t, PASSPHRASE);

    alone.t = await createTestDatabase();
    await reingestRange({
      db: alone.t.db,
      source: datastoreSource(folder),
      networkPassphrase: PASSPHRASE,
      from: last - KEPT + 1,
      to: last,
      workers: 0,
    });
    alone.api = await serveTestApi(alone.t, PASSPHRASE);
  }, 300_000);

  it('keeps exactly the history of the last N ledgers, as those ledgers ingested alone', async () => {
    expect(last - first + 1).toBeGreaterThan(3 * KEPT);
    const kept = await served(reaped.api!);
    expect((kept.ledgers as Json[]).map((ledger) => ledger.sequence)).toEqual(Array.from({ length: KEPT }, (_, i) => last - KEPT + 1 + i));
    expect((kept.operations as Json[]).length).toBeGreaterThan(0);
    expect((kept.trades as Json[]).length).toBeGreaterThan(0);
    expect(kept).toEqual(await served(alone.api!));
  });

  it('leaves no row of any history table before the oldest ledger kept', async () => {
    // what a reingest of ledgers 1..elder-1 would delete, counted: nothing
    for (const [statement, params] of historyDeletes(1, last - KEPT)) {
      const count = statement.replace(/^DELETE FROM (\w+)/, 'SELECT count(*)::int AS n FROM $1');
      const [row] = await reaped.t!.db.session((sql) => sql.query<{ n: number }>(count, params));
      expect(row!.n, statement).toBe(0);
    }
    const [all] = await reaped.t!.db.session((sql) => sql.query<{ n: number }>('SELECT count(*)::int AS n FROM history_operations'));
    expect(all!.n).toBeGreaterThan(0);
  });

  it("answers Horizon's before_history (410) for what lies before it, in REST and GraphQL", async () => {
    const elder = last - KEPT + 1;
    const base = reaped.api!.base;
    expect((await getJson(base, '/')).history_elder_ledger).toBe(elder);
    await getJson(base, `/ledgers/${elder}`);
    const gone = await getJson(base, `/ledgers/${elder - 1}`, 410);
    expect(gone).toMatchObject({
      type: 'https://stellar.org/horizon-errors/before_history',
      status: 410,
      title: 'Data Requested Is Before Recorded History',
    });
    await getJson(base, `/ledgers/${elder - 1}/operations`, 410);
    await getJson(base, `/operations/${toid(elder - 1, 1, 1)}`, 410);
    // a missing operation within the history is still a 404
    await getJson(base, `/operations/${toid(last, 1, 99)}`, 404);
    // a page downwards from a cursor at or before the oldest ledger could only hold reaped rows
    const atElder = formatPagingToken(toid(elder, 0, 0));
    for (const path of ['/ledgers', '/transactions', '/operations', '/payments', '/effects', '/trades']) {
      await getJson(base, `${path}?order=desc&cursor=${atElder}`, 410);
    }
    await getJson(base, `/effects?order=desc&cursor=${atElder}-1`, 410);
    // upwards from before the history: its first records
    const upwards = await getJson(base, `/ledgers?cursor=${formatPagingToken(toid(1, 0, 0))}&limit=1`);
    expect(upwards._embedded.records[0].sequence).toBe(elder);
    const graphql = await postGraphQL(base, `{ ledger(sequence: ${elder - 1}) { sequence } }`);
    expect(graphql.errors?.[0]?.extensions?.code).toBe('before_history');
  });
});
