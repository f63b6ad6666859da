import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { MIGRATIONS_TABLE, migrate, readMigrations, resetDatabase } from '../../src/db/migrate.js';
import { createTestDatabase, testDbKind, type TestDatabase } from '../support/database.js';

describe('migrate', () => {
  let test: TestDatabase;

  beforeAll(async () => {
    test = await createTestDatabase({ migrated: false });
  });
  afterAll(() => test.drop());

  it('applies every migration once, in order, and records it', async () => {
    const names = readMigrations().map((m) => m.name);
    expect(names[0]).toBe('0001_init');
    expect(await migrate(test.db)).toEqual(names);
    expect(await migrate(test.db)).toEqual([]);
    const rows = await test.db.session((sql) => sql.query<{ name: string }>(`SELECT name FROM ${MIGRATIONS_TABLE} ORDER BY name`));
    expect(rows.map((r) => r.name)).toEqual(names);
  });

  it("compresses the transactions' XDR blobs with lz4 where the server has it (PostgreSQL), else with pglz (PGlite)", async () => {
    const rows = await test.db.session((sql) =>
      sql.query<{ name: string; method: string }>(
        `SELECT attname AS name, attcompression AS method FROM pg_attribute
          WHERE attrelid = 'history_transactions'::regclass AND attname LIKE '%xdr' ORDER BY attname`,
      ),
    );
    // '' is the server default, pglz
    const method = testDbKind === 'postgres' ? 'l' : '';
    expect(rows).toEqual(['envelope_xdr', 'fee_meta_xdr', 'result_meta_xdr', 'result_xdr'].map((name) => ({ name, method })));
  });

  it('refuses an applied migration whose text changed', async () => {
    const changed = readMigrations().map((m, i) => (i === 0 ? { ...m, checksum: 'edited' } : m));
    await expect(migrate(test.db, changed)).rejects.toThrow(/0001_init was changed after it was applied/);
  });

  it('rolls back a failing migration whole, leaving no trace of it', async () => {
    const broken = [
      ...readMigrations(),
      { name: '9999_broken', sql: 'CREATE TABLE half_done (id int); SELECT no_such_function();', checksum: 'x' },
    ];
    await expect(migrate(test.db, broken)).rejects.toThrow();
    const tables = await test.db.session((sql) => sql.query(`SELECT 1 FROM pg_class WHERE relname = 'half_done'`));
    expect(tables).toEqual([]);
    expect(await migrate(test.db)).toEqual([]);
  });

  it('resets to an empty, migrated database', async () => {
    await test.db.prisma.keyValue.create({ data: { key: 'k', value: 'v' } });
    await resetDatabase(test.db);
    expect(await test.db.prisma.keyValue.count()).toBe(0);
  });

  it.runIf(testDbKind === 'postgres')('lets several processes migrate one PostgreSQL at once', async () => {
    const fresh = await createTestDatabase({ migrated: false });
    try {
      const others = await Promise.all([0, 1, 2].map(() => openDatabase(fresh.target)));
      const results = await Promise.all(others.map((db) => migrate(db)));
      await Promise.all(others.map((db) => db.close()));
      expect(results.flat().sort()).toEqual(readMigrations().map((m) => m.name));
    } finally {
      await fresh.drop();
    }
  });
});
