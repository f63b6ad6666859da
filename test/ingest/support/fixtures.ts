// Paths of the shared fixtures and small helpers of the ingest tests.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from '../../../src/db/database.js';

export const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../shared/fixtures');
export const TESTNET_DATASTORE = path.join(FIXTURES, 'ledger-meta/testnet-datastore');
export const TESTNET_PASSPHRASE = 'Test SDF Network ; September 2015';

/** every table an ingester writes, with a stable order, as JSON-comparable rows */
export const INGEST_TABLES: Record<string, string> = {
  history_ledgers: 'sequence',
  history_transactions: 'id',
  history_operations: 'id',
  history_effects: 'operation_id, "order"',
  history_trades: 'operation_id, "order"',
  history_assets: 'id',
  history_transaction_participants: 'transaction_id, account',
  history_operation_participants: 'operation_id, account',
  history_transaction_claimable_balances: 'transaction_id, claimable_balance_id',
  history_operation_claimable_balances: 'operation_id, claimable_balance_id',
  history_transaction_liquidity_pools: 'transaction_id, liquidity_pool_id',
  history_operation_liquidity_pools: 'operation_id, liquidity_pool_id',
  accounts: 'id',
  accounts_signers: 'account_id, signer',
  accounts_data: 'account_id, name',
  trust_lines: 'account_id, asset_code, asset_issuer, liquidity_pool_id',
  offers: 'id',
  claimable_balances: 'id',
  claimable_balance_claimants: 'id, destination',
  liquidity_pools: 'id',
  ingest_cursor: 'id',
};

export async function dumpTables(db: Database): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  await db.session(async (sql) => {
    for (const [table, order] of Object.entries(INGEST_TABLES)) {
      const columns = table === 'ingest_cursor' ? 'id, ledger_sequence, ledger_hash' : '*';
      const rows = await sql.query(`SELECT ${columns} FROM ${table} ORDER BY ${order}`);
      out[table] = rows.map(
        (r) => JSON.parse(JSON.stringify(r, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))) as unknown,
      );
    }
  });
  return out;
}
