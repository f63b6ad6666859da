// GET /health of `zenith serve` processes, as a load balancer asks it: with --health-max-ledger-age,
// 503 once the last ingested ledger is older than that (nothing ingests), 200 again when a ledger
// comes; and 503 naming the database while the database refuses the process (its role may not log
// in, its connections are ended), 200 once it is back.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { closeLedger, corePort, EventStream, servingPort, spawnManualStart, spawnZenith, stopCleanly } from '../support/cli.js';
import { createServerDatabase, dropServerDatabase, testDbKind } from '../support/database.js';
import { stopAllProcesses } from '../support/processes.js';

const MAX_AGE_S = 2;
const dataDir = mkdtempSync(join(tmpdir(), 'zenith-health-'));
const role = `zenith_health_${randomBytes(4).toString('hex')}`;
let databaseUrl = '';
let roleCreated = false;

afterAll(async () => {
  await stopAllProcesses();
  // (its grants first: a role with privileges in a database cannot be dropped)
  if (roleCreated) await admin(`DROP OWNED BY ${role}; DROP ROLE ${role}`);
  if (databaseUrl) await dropServerDatabase(databaseUrl);
  rmSync(dataDir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  body: Record<string, boolean>;
}

async function health(url: string): Promise<Answer> {
  const response = await fetch(`${url}/health`);
  return { status: response.status, body: (await response.json()) as Record<string, boolean> };
}

/** /health asked again (its answer is cached 500 ms) until it answers `expected`; the bound is a hang's */
async function healthBecomes(url: string, expected: Answer): Promise<void> {
  const deadline = Date.now() + 60_000;
  let last = await health(url);
  while (JSON.stringify(last) !== JSON.stringify(expected)) {
    if (Date.now() > deadline) expect(last).toEqual(expected);
    await new Promise((resolve) => setTimeout(resolve, 100));
    last = await health(url);
  }
}

/** as the server's administrator, on the test database */
async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function serve(core: number, name: string, url: string, ...flags: string[]) {
  const child = spawnZenith([
    'serve',
    '--port',
    '0',
    '--data-dir',
    join(dataDir, name),
    '--database-url',
    url,
    '--core-url',
    `http://127.0.0.1:${core}`,
    ...flags,
  ]);
  return { child, url: servingPort(child).then((port) => `http://127.0.0.1:${port}`) };
}

describe.skipIf(testDbKind !== 'postgres')('GET /health of zenith serve', () => {
  it('answers 503 for a stale history and for an unreachable database, 200 otherwise', { timeout: 240_000 }, async () => {
    databaseUrl = await createServerDatabase();
    const start = spawnManualStart(join(dataDir, 'start'), databaseUrl);
    await servingPort(start);
    const core = await corePort(start);
    const stale = serve(core, 'stale', databaseUrl, '--health-max-ledger-age', String(MAX_AGE_S));
    const url = await stale.url;
    const ledgers = await EventStream.open(`${url}/ledgers?cursor=now`);
    const up = { database_connected: true, core_up: true, core_synced: true };

    // a ledger just ingested: healthy; none for longer than the limit: stale, until the next one
    for (let round = 0; round < 2; round++) {
      const sequence = await closeLedger(core);
      await ledgers.next((ledger) => ledger.sequence === sequence);
      await healthBecomes(url, { status: 200, body: { ...up, history_fresh: true } });
      await healthBecomes(url, { status: 503, body: { ...up, history_fresh: false } });
    }
    ledgers.close();

    // another process, logged in as a role of its own: healthy, then the database refuses it
    await admin(`CREATE ROLE ${role} LOGIN`);
    roleCreated = true;
    await admin(`GRANT ALL ON SCHEMA public TO ${role}; GRANT ALL ON ALL TABLES IN SCHEMA public TO ${role}`);
    const roleUrl = new URL(databaseUrl);
    roleUrl.username = role;
    const cut = serve(core, 'cut', roleUrl.toString());
    const cutUrl = await cut.url;
    await healthBecomes(cutUrl, { status: 200, body: up });
    await admin(`ALTER ROLE ${role} NOLOGIN; SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = '${role}'`);
    await healthBecomes(cutUrl, { status: 503, body: { ...up, database_connected: false } });
    await admin(`ALTER ROLE ${role} LOGIN`);
    await healthBecomes(cutUrl, { status: 200, body: up });
    await stopCleanly(cut.child, stale.child, start);
  });
});
