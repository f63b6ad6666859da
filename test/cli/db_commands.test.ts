// Commands that could lose or fake history refuse to guess: `zenith db reset` needs --yes off a
// terminal (tests run without one), and `zenith serve` never creates an empty embedded database.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrate.js';
import { collect, spawnZenith } from '../support/cli.js';
import { stopAllProcesses } from '../support/processes.js';

const dataDir = mkdtempSync(join(tmpdir(), 'zenith-db-commands-'));
afterAll(async () => {
  await stopAllProcesses();
  rmSync(dataDir, { recursive: true, force: true });
}, 30_000);

/** runs zenith on the embedded database (never a DATABASE_URL of the environment) */
function runZenith(args: string[], env: NodeJS.ProcessEnv = {}) {
  const child = spawnZenith(args, { DATABASE_URL: '', ...env });
  return collect(child);
}

async function markers(): Promise<number> {
  const db = await openDatabase({ kind: 'pglite', dataDir: join(dataDir, 'db') });
  try {
    const rows = await db.session((sql) =>
      sql.query<{ n: number }>("SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = 'reset_marker'"),
    );
    return rows[0]?.n ?? 0;
  } finally {
    await db.close();
  }
}

describe('zenith db reset', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    const db = await openDatabase({ kind: 'pglite', dataDir: join(dataDir, 'db') });
    try {
      await migrate(db);
      await db.session((sql) => sql.exec('CREATE TABLE reset_marker (x int); INSERT INTO reset_marker VALUES (1);'));
    } finally {
      await db.close();
    }
  });

  it('without --yes and without a terminal: exit 2 naming --yes, the database untouched', async () => {
    const result = await runZenith(['db', 'reset', '--data-dir', dataDir], { ZENITH_YES: '' });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/^zenith: .*give --yes/m);
    expect(await markers()).toBe(1);
  });

  it('with --yes: drops every table and migrates again', async () => {
    const result = await runZenith(['db', 'reset', '--yes', '--data-dir', dataDir]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/database reset/);
    expect(await markers()).toBe(0);
  });
});

describe('zenith serve', () => {
  it('refuses a --data-dir without a database, and creates none', async () => {
    const missing = join(dataDir, 'nonexistent');
    const result = await runZenith(['serve', '--port', '0', '--data-dir', missing]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/^zenith: --data-dir .*nonexistent: no database at .*zenith start.*--database-url/m);
    expect(existsSync(missing)).toBe(false);
  });
});
