// `zenith ingest` processes on one PostgreSQL database, following the datastore a `zenith core
// --meta-out` writes: one ingests, the other stands by. The active one is killed with SIGKILL
// while ledgers keep coming and the standby takes over; then the lock connection of the new active
// one is cut (pg_terminate_backend) and it stops while a third takes over; a fourth, standing by,
// loses its connection, connects again and takes over from the third, killed too. In the end the tables
// are those of one uninterrupted ingester of the same datastore: no ledger skipped or written twice.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Account, Asset, Keypair, Operation, type xdr } from '@stellar/stellar-sdk/base';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { rootKeypair } from '../../src/stellar/index.js';
import { dumpTables } from '../ingest/support/fixtures.js';
import { closeLedger, corePort, spawnManualStart, spawnZenith, stopCleanly, submitToCore, type TestProcess } from '../support/cli.js';
import { createServerDatabase, dropServerDatabase, testDbKind } from '../support/database.js';
import { stopAllProcesses } from '../support/processes.js';

const PASSPHRASE = 'Zenith standby test ; 2026';
const PAYMENTS_PER_LEDGER = 50;
const dataDir = mkdtempSync(join(tmpdir(), 'zenith-standby-'));
const datastore = join(dataDir, 'datastore');
let databaseUrl = '';
let referenceUrl = '';

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function cursorOf(url: string): Promise<number> {
  const rows = await withClient(url, (c) => c.query<{ s: number }>('SELECT ledger_sequence AS s FROM ingest_cursor WHERE id = 1')).catch(
    (error: { code?: string }) => {
      // not migrated yet: the ingester has not started
      if (error.code === '42P01') return { rows: [] };
      throw error;
    },
  );
  return Number(rows.rows[0]?.s ?? 0);
}

async function waitForCursor(url: string, sequence: number): Promise<void> {
  const deadline = Date.now() + 120_000;
  while ((await cursorOf(url)) < sequence) {
    if (Date.now() > deadline) throw new Error(`the ingest cursor of ${url} did not reach ${sequence}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** ends the connection that holds the ingest lock (the only advisory lock held on the database) */
async function terminateLockHolder(url: string): Promise<void> {
  await withClient(url, (c) =>
    c.query(
      `SELECT pg_terminate_backend(pid) FROM pg_locks
        WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    ),
  );
}

function ingest(url: string): TestProcess {
  return spawnZenith(['ingest', '--datastore', datastore, '--database-url', url, '--data-dir', join(dataDir, 'unused')]);
}

describe.skipIf(testDbKind !== 'postgres')('standby ingesters on one PostgreSQL', () => {
  beforeAll(async () => {
    databaseUrl = await createServerDatabase();
    referenceUrl = await createServerDatabase();
  });
  afterAll(async () => {
    await stopAllProcesses();
    if (databaseUrl) await dropServerDatabase(databaseUrl);
    if (referenceUrl) await dropServerDatabase(referenceUrl);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('hands over on SIGKILL and on a lost lock without skipping or repeating a ledger', { timeout: 300_000 }, async () => {
    const core = spawnZenith([
      'core',
      '--core-port',
      '0',
      '--manual-close',
      '--network-passphrase',
      PASSPHRASE,
      '--meta-out',
      datastore,
      '--data-dir',
      join(dataDir, 'core'),
    ]);
    const port = await corePort(core);

    // each ledger closed holds one transaction of PAYMENTS_PER_LEDGER payments from the root
    const root = rootKeypair(PASSPHRASE);
    const rootAccount = new Account(root.publicKey(), '0');
    const destination = Keypair.random().publicKey();
    const submit = (operations: xdr.Operation[]) => submitToCore(port, PASSPHRASE, rootAccount, root, operations);
    const payments = () =>
      Array.from({ length: PAYMENTS_PER_LEDGER }, () => Operation.payment({ destination, asset: Asset.native(), amount: '1' }));
    let last = 0;
    let paid = 0;
    const closeWithPayments = async (count: number): Promise<void> => {
      for (let i = 0; i < count; i++) {
        paid += PAYMENTS_PER_LEDGER;
        await submit(payments());
        last = await closeLedger(port);
      }
    };
    await submit([Operation.createAccount({ destination, startingBalance: '1000' })]);
    last = await closeLedger(port);

    // the active one and a standby
    const first = ingest(databaseUrl);
    await first.waitForLine(/ingesting from/);
    const second = ingest(databaseUrl);
    await second.waitForLine(/standing by/);
    await closeWithPayments(5);
    await waitForCursor(databaseUrl, last);

    // killed in the middle of the ledgers coming in (most likely in the middle of one of them)
    await closeWithPayments(5);
    first.kill('SIGKILL');
    const killedAt = Date.now();
    expect((await first.done).signal).toBe('SIGKILL');
    await second.waitForLine(/took the ingest lock/);
    console.log(`the standby took the lock ${Date.now() - killedAt} ms after the SIGKILL`);
    await closeWithPayments(5);
    await waitForCursor(databaseUrl, last);

    // the active one's lock connection ends: it stops (exit 1), a third one takes over
    const third = ingest(databaseUrl);
    await third.waitForLine(/standing by/);
    await terminateLockHolder(databaseUrl);
    const lost = await second.done;
    expect(lost.code, lost.stdout).toBe(1);
    expect(lost.stdout + lost.stderr).toMatch(/the ingest lock was lost/);
    await third.waitForLine(/took the ingest lock/);
    await closeWithPayments(5);
    await waitForCursor(databaseUrl, last);

    // a standby whose connection ends connects again, and still takes over
    const fourth = ingest(databaseUrl);
    await fourth.waitForLine(/standing by/);
    await withClient(databaseUrl, (c) =>
      c.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE '%pg_try_advisory_lock%'
            AND pid NOT IN (SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted)`,
      ),
    );
    await fourth.waitForLine(/the database connection failed/);
    third.kill('SIGKILL');
    await third.done;
    await fourth.waitForLine(/took the ingest lock/);
    await closeWithPayments(5);
    await waitForCursor(databaseUrl, last);

    // a standby stopped with Ctrl-C exits 0 at once; so does the active one
    const fifth = ingest(databaseUrl);
    await fifth.waitForLine(/standing by/);
    await stopCleanly(fifth, fourth);

    // one uninterrupted ingester of the same datastore writes the same tables
    const reference = ingest(referenceUrl);
    await waitForCursor(referenceUrl, last);
    await stopCleanly(reference, core);

    const [db, referenceDb] = await Promise.all([
      openDatabase({ kind: 'postgres', url: databaseUrl }),
      openDatabase({ kind: 'postgres', url: referenceUrl }),
    ]);
    try {
      const [tables, expected] = await Promise.all([dumpTables(db), dumpTables(referenceDb)]);
      expect(tables).toEqual(expected);
      const ledgers = tables.history_ledgers!.map((row) => Number((row as { sequence: number }).sequence));
      expect(ledgers).toEqual(Array.from({ length: last - ledgers[0]! + 1 }, (_, i) => ledgers[0]! + i));
      expect(ledgers.at(-1)).toBe(last);
      // every payment once, their paging tokens (ids) distinct
      const paymentRows = await db.session((sql) =>
        sql.query<{ id: string }>('SELECT id::text AS id FROM history_operations WHERE type = 1 ORDER BY id'),
      );
      expect(paymentRows).toHaveLength(paid);
      expect(new Set(paymentRows.map((row) => row.id)).size).toBe(paymentRows.length);
    } finally {
      await Promise.all([db.close(), referenceDb.close()]);
    }
  });

  it('ends zenith start, which has no standby, when its ingest lock is lost', { timeout: 120_000 }, async () => {
    const url = await createServerDatabase();
    try {
      const start = spawnManualStart(join(dataDir, 'start'), url);
      await start.waitForLine(/ingesting the embedded core/);
      await terminateLockHolder(url);
      const result = await start.done;
      expect(result.code, result.stdout).toBe(1);
      expect(result.stdout).toMatch(/the ingest lock was lost/);
    } finally {
      await dropServerDatabase(url);
    }
  });
});
