// /assets on Horizon's own "ingest_asset_stats" scenario: its core dump is replayed on the embedded
// core and ingested, and the stats the triggers keep are compared with the asset_stats rows of the
// scenario's -horizon.sql dump (Horizon's asset stats of that time: per asset the amount and
// number of its — all authorized — trust lines, the issuer's flags and its stellar.toml).
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readInserts } from '../../core/support/sql_dump.js';
import { FIXTURES } from '../../ingest/support/fixtures.js';
import { ingestCore, replayScenario, type Replayed } from '../../ingest/support/replay.js';
import { type TestApi, serveTestApi } from '../../support/api_server.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';

const dump = readInserts(path.join(FIXTURES, 'horizon-scenarios', 'ingest_asset_stats-horizon.sql'));

let t: TestDatabase;
let replayed: Replayed;
let api: TestApi;

beforeAll(async () => {
  t = await createTestDatabase();
  replayed = await replayScenario('ingest_asset_stats');
  await ingestCore(t.db, replayed);
  api = await serveTestApi(t);
}, 120_000);

afterAll(async () => {
  await api?.close();
  await replayed?.core.stop();
  await t?.drop();
});

const amount = (stroops: string) => `${stroops.slice(0, -7) || '0'}.${stroops.slice(-7).padStart(7, '0')}`;

describe("GET /assets on Horizon's ingest_asset_stats scenario", () => {
  it("gives Horizon's amounts, holders, flags and toml for every asset", async () => {
    expect(replayed.skipped.size).toBe(0);
    const assets = new Map((dump.get('history_assets') ?? []).map((row) => [String(row.id), row]));
    const expected = (dump.get('asset_stats') ?? []).map((stat) => {
      const asset = assets.get(String(stat.id));
      const flags = Number(stat.flags);
      return {
        asset_type: asset?.asset_type,
        asset_code: asset?.asset_code,
        asset_issuer: asset?.asset_issuer,
        accounts: { authorized: Number(stat.num_accounts), authorized_to_maintain_liabilities: 0, unauthorized: 0 },
        balances: { authorized: amount(String(stat.amount)), authorized_to_maintain_liabilities: '0.0000000', unauthorized: '0.0000000' },
        flags: {
          auth_required: (flags & 1) !== 0,
          auth_revocable: (flags & 2) !== 0,
          auth_immutable: (flags & 4) !== 0,
          auth_clawback_enabled: (flags & 8) !== 0,
        },
        _links: { toml: { href: String(stat.toml) } },
      };
    });
    expect(expected).toHaveLength(3);
    const body = (await (await fetch(`${api.base}/assets?limit=200`)).json()) as { _embedded: { records: Record<string, unknown>[] } };
    const byAsset = (r: Record<string, unknown>) => `${r.asset_code}:${r.asset_issuer}`;
    const records = [...body._embedded.records].sort((a, b) => byAsset(a).localeCompare(byAsset(b)));
    expect(records).toEqual([...expected].sort((a, b) => byAsset(a).localeCompare(byAsset(b))).map((e) => expect.objectContaining(e)));
  });
});
