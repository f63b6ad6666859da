// The hand-written migrations must create exactly what schema.prisma describes, on PGlite and on
// PostgreSQL. The drift cases prove the check itself sees a column removed on either side.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, readMigrations, type Migration } from '../../src/db/migrate.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { actualShape, diffShapes, expectedShape, type SchemaShape } from '../support/schema_shape.js';

const schemaText = readFileSync(new URL('../../prisma/schema.prisma', import.meta.url), 'utf8');

describe('migrations match schema.prisma', () => {
  let test: TestDatabase;
  let actual: SchemaShape;

  beforeAll(async () => {
    test = await createTestDatabase();
    actual = await test.db.session(actualShape);
  });
  afterAll(() => test.drop());

  it('has every table, column, type, nullability, default and index, and nothing else', async () => {
    expect(diffShapes(await expectedShape(schemaText), actual)).toEqual([]);
  });

  it('sees a column removed from schema.prisma', async () => {
    const withoutColumn = schemaText.replace(/^\s+memo\s+String\?\n/m, '\n');
    expect(withoutColumn).not.toEqual(schemaText);
    expect(diffShapes(await expectedShape(withoutColumn), actual)).toContain('column history_transactions.memo is not in schema.prisma');
  });

  it('sees a changed type, nullability, index, index method or index predicate in schema.prisma', async () => {
    const changed = schemaText
      .replace(/^(\s+feePool\s+)BigInt/m, '$1Int')
      .replace(/^(\s+memo\s+String)\?/m, '$1')
      .replace(/^\s+@@index\(\[signer\]\)\n/m, '\n')
      .replace(/(@@index\(\[transactionId\]), type: Brin\)/, '$1)')
      .replace(/(@@index\(\[innerTransactionHash\]), where: raw\("[^"]*"\)\)/, '$1)');
    const problems = diffShapes(await expectedShape(changed), actual);
    expect(problems).toContain('column history_ledgers.fee_pool: type is "bigint" in the database, "integer" in schema.prisma');
    expect(problems).toContain('column history_transactions.memo: nullable is true in the database, false in schema.prisma');
    expect(problems).toContain('index accounts_signers index(signer) is not in schema.prisma');
    expect(problems).toContain('index history_operations index(transaction_id) using brin is not in schema.prisma');
    expect(problems).toContain(
      'index history_transactions index(inner_transaction_hash) where inner_transaction_hash IS NOT NULL is not in schema.prisma',
    );
  });
});

describe('a column missing from the SQL', () => {
  let test: TestDatabase;

  beforeAll(async () => {
    test = await createTestDatabase({ migrated: false });
  });
  afterAll(() => test.drop());

  it('is reported', async () => {
    const migrations: Migration[] = readMigrations().map((m) => ({
      ...m,
      sql: m.sql.replace(/^\s+"memo" TEXT,\n/m, ''),
    }));
    expect(migrations[0]?.sql).not.toContain('"memo" TEXT');
    await migrate(test.db, migrations);
    const problems = diffShapes(await expectedShape(schemaText), await test.db.session(actualShape));
    expect(problems).toEqual(['column history_transactions.memo is missing from the database']);
  });
});
