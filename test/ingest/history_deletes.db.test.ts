// A reingest deletes the ledgers' history before it writes them again: each delete must find its
// rows by index, not by reading the whole table, or a reingest into a large history slows down
// with every row already stored. The participant tables were the ones at risk: a BRIN index there
// matched every block added since it was built (unsummarized ranges), so each delete read them all.
// The tables linking transactions and operations to claimable balances and pools are held to the same.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { historyDeletes } from '../../src/ingest/writer.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

interface PlanNode {
  'Node Type': string;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
}

/** each table's key column besides the id, and its transaction or operation id */
const LINK_TABLES = [
  ['history_transaction_participants', 'account', 'transaction_id'],
  ['history_operation_participants', 'account', 'operation_id'],
  ['history_transaction_claimable_balances', 'claimable_balance_id', 'transaction_id'],
  ['history_operation_claimable_balances', 'claimable_balance_id', 'operation_id'],
  ['history_transaction_liquidity_pools', 'liquidity_pool_id', 'transaction_id'],
  ['history_operation_liquidity_pools', 'liquidity_pool_id', 'operation_id'],
] as const;

const LEDGERS = 1000;
const PER_LEDGER = 100;

describe('history range deletes', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
    // 100,000 rows per link table, in id order as ingestion writes them
    await t.db.session(async (s) => {
      for (const [table, key, column] of LINK_TABLES) {
        await s.exec(
          `INSERT INTO ${table} (${key}, ${column})
             SELECT 'G' || lpad((i % 997)::text, 55, 'A'), ((i / ${PER_LEDGER} + 2)::bigint << 32) | ((i % ${PER_LEDGER} + 1) << 12)
             FROM generate_series(0, ${LEDGERS * PER_LEDGER - 1}) AS i`,
        );
      }
    });
  }, 180_000);
  afterAll(() => t?.drop());

  it('reads a few pages of the participant and link tables, not all of them', async () => {
    // one ledger's 100 rows, as a reingest deletes them before writing them again
    const deletes = historyDeletes(LEDGERS, LEDGERS).filter(([sql]) => LINK_TABLES.some(([table]) => sql.includes(` ${table} `)));
    expect(deletes).toHaveLength(LINK_TABLES.length);
    for (const [sql, params] of deletes) {
      const blocks = await t.db
        .transaction(async (s) => {
          const [row] = await s.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`, params);
          const plan = row!['QUERY PLAN'][0].Plan;
          throw new Rollback(plan);
        })
        .catch((error: unknown) => {
          if (!(error instanceof Rollback)) throw error;
          return error.plan;
        });
      const scans: string[] = [];
      const walk = (n: PlanNode): void => {
        scans.push(n['Node Type']);
        n.Plans?.forEach(walk);
      };
      walk(blocks);
      expect(scans, sql).not.toContain('Seq Scan');
      // the table has ~1,000 pages; the range's 100 rows and a few index pages are a few hundred visits
      expect((blocks['Shared Hit Blocks'] ?? 0) + (blocks['Shared Read Blocks'] ?? 0), sql).toBeLessThan(400);
    }
  });
});

/** rolls the EXPLAIN ANALYZE's delete back, carrying its plan out */
class Rollback extends Error {
  constructor(readonly plan: PlanNode) {
    super('rollback');
  }
}
