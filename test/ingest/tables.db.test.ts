// The writer's table declarations (rows.ts) against the migrated database: every declared column
// exists with the declared type, and every column the writer leaves out has a default.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as rows from '../../src/ingest/rows.js';
import type { Table } from '../../src/ingest/table.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { actualShape, type SchemaShape } from '../support/schema_shape.js';

// format_type's names for the declared SQL types
const DATABASE_TYPES: Record<string, string> = { 'timestamp(3)': 'timestamp(3) without time zone' };

const tables: Table[] = Object.values(rows).filter((value) => typeof value === 'object' && 'columns' in value);

describe('the writer tables', () => {
  let test: TestDatabase;
  let shape: SchemaShape;

  beforeAll(async () => {
    test = await createTestDatabase();
    shape = await test.db.session(actualShape);
  });
  afterAll(() => test.drop());

  it('declare every table the writer fills', () => {
    expect(tables.map((t) => t.name).sort()).toEqual([
      'accounts',
      'accounts_data',
      'accounts_signers',
      'claimable_balance_claimants',
      'claimable_balances',
      'history_assets',
      'history_effects',
      'history_ledgers',
      'history_operation_claimable_balances',
      'history_operation_liquidity_pools',
      'history_operation_participants',
      'history_operations',
      'history_trades',
      'history_transaction_claimable_balances',
      'history_transaction_liquidity_pools',
      'history_transaction_participants',
      'history_transactions',
      'liquidity_pools',
      'offers',
      'trust_lines',
    ]);
  });

  it('name columns of the database in its types, and leave out only columns with a default', () => {
    for (const table of tables) {
      const actual = shape[table.name]?.columns ?? {};
      const declared = Object.fromEntries(table.columns.map((c) => [c.name, DATABASE_TYPES[c.sqlType] ?? c.sqlType]));
      expect(Object.fromEntries(Object.keys(declared).map((name) => [name, actual[name]?.type])), table.name).toEqual(declared);
      const missing = Object.entries(actual).filter(([name, column]) => !(name in declared) && column.default === null);
      expect(missing, table.name).toEqual([]);
    }
  });
});
