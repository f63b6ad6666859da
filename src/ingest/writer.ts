// Writes the rows of one ledger, or of a batch of ledgers, with one multi-row statement per table:
// history rows travel as binary COPY (encode/), upserts as one JSON parameter expanded by
// json_to_recordset, so a ledger costs a fixed number of statements whatever its size. State rows
// are upserts and deletes by key.
import type { SqlSession } from '../db/database.js';
import { assetsEqual, ledgerToidRange, type AssetValue } from '../stellar/index.js';
import { COPY_HEADER, COPY_TRAILER, CopyBinary, copyStatement, rowWriter } from './encode/copy_binary.js';
import { HISTORY_TABLES, encodeHistory, type EncodedHistory } from './encode/history.js';
import {
  ACCOUNTS,
  ASSETS,
  CLAIMABLE_BALANCE_CLAIMANTS,
  CLAIMABLE_BALANCES,
  DATA,
  LIQUIDITY_POOLS,
  OFFERS,
  SIGNERS,
  TRADES,
  TRUST_LINES,
  type AssetRow,
  type LedgerRows,
  type TradeRecord,
} from './rows.js';
import { tradeRow } from './processors/trades.js';
import type { Table } from './table.js';

const json = (rows: readonly object[]): string =>
  JSON.stringify(rows, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));

function jsonValue(value: unknown): string {
  switch (typeof value) {
    case 'bigint':
      // a JSON number: json_to_recordset reads its digits exactly into a bigint column
      return value.toString();
    case 'number':
      return String(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'undefined':
      return 'null';
    default:
      return value === null ? 'null' : JSON.stringify(value);
  }
}

/** The rows as a JSON array of objects with only the table's columns; faster than JSON.stringify with a replacer. */
function rowsJson(table: Table, rows: readonly object[]): string {
  const keys = table.columns.map(({ name }) => `${JSON.stringify(name)}:`);
  const names = table.columns.map(({ name }) => name);
  const parts: string[] = new Array<string>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] as Record<string, unknown>;
    let text = '{';
    for (let j = 0; j < names.length; j++) text += `${j === 0 ? '' : ','}${keys[j]}${jsonValue(row[names[j]!])}`;
    parts[i] = `${text}}`;
  }
  return `[${parts.join(',')}]`;
}

async function insert<Row extends object>(sql: SqlSession, table: Table<Row>, rows: readonly Row[], conflict = ''): Promise<void> {
  if (rows.length === 0) return;
  if (!conflict && sql.copyFrom) {
    // COPY parses far less than json_to_recordset does for the same rows
    const out = new CopyBinary();
    rowWriter(table)(out, rows);
    await sql.copyFrom(copyStatement(table), [COPY_HEADER, out.view(), COPY_TRAILER]);
    return;
  }
  const names = table.columns.map(({ name }) => `"${name}"`).join(', ');
  const types = table.columns.map(({ name, sqlType }) => `"${name}" ${sqlType}`).join(', ');
  await sql.query(`INSERT INTO "${table.name}" (${names}) SELECT ${names} FROM json_to_recordset($1::json) AS x(${types}) ${conflict}`, [
    rowsJson(table, rows),
  ]);
}

function upsert(key: string[], table: Table): string {
  const updates = table.columns
    .filter(({ name }) => !key.includes(name))
    .map(({ name }) => `"${name}" = EXCLUDED."${name}"`)
    .join(', ');
  return `ON CONFLICT (${key.map((k) => `"${k}"`).join(', ')}) DO UPDATE SET ${updates}`;
}

/** Writes encoded history (of one or several ledgers) with one COPY per table; needs COPY support. */
export async function writeEncodedHistory(sql: SqlSession, parts: readonly EncodedHistory[]): Promise<void> {
  if (!sql.copyFrom) throw new Error('writeEncodedHistory needs a session with COPY');
  for (const { table } of HISTORY_TABLES) {
    const chunks = parts.flatMap((p) => p.copy[table.name] ?? []);
    if (chunks.length > 0) await sql.copyFrom(copyStatement(table), [COPY_HEADER, ...chunks, COPY_TRAILER]);
  }
  const trades = parts.flatMap((p) => p.trades);
  if (trades.length > 0) await writeTrades(sql, trades);
}

/** Inserts the history rows of the given ledgers (they must not exist yet). */
export async function writeHistory(sql: SqlSession, ledgers: readonly LedgerRows[]): Promise<void> {
  if (sql.copyFrom) return writeEncodedHistory(sql, [encodeHistory(ledgers)]);
  for (const { table, rows } of HISTORY_TABLES) {
    await insert(
      sql,
      table,
      ledgers.flatMap((l) => rows(l)),
    );
  }
  const trades = ledgers.flatMap((l) => l.trades);
  if (trades.length > 0) await writeTrades(sql, trades);
}

/** The statements that delete the history rows of ledgers from..to, each with its parameters. */
export function historyDeletes(from: number, to: number): [sql: string, params: unknown[]][] {
  const start = ledgerToidRange(from).start.toString();
  const end = ledgerToidRange(to).end.toString();
  return [
    ['DELETE FROM history_ledgers WHERE sequence BETWEEN $1 AND $2', [from, to]],
    ...(
      [
        ['history_transactions', 'id'],
        ['history_operations', 'id'],
        ['history_effects', 'operation_id'],
        ['history_trades', 'operation_id'],
        ['history_transaction_participants', 'transaction_id'],
        ['history_operation_participants', 'operation_id'],
        ['history_transaction_claimable_balances', 'transaction_id'],
        ['history_operation_claimable_balances', 'operation_id'],
        ['history_transaction_liquidity_pools', 'transaction_id'],
        ['history_operation_liquidity_pools', 'operation_id'],
      ] as const
    ).map(([table, column]): [string, unknown[]] => [`DELETE FROM ${table} WHERE ${column} >= $1 AND ${column} < $2`, [start, end]]),
  ];
}

/** Removes the history rows of ledgers [from, to] (for reingestion). */
export async function deleteHistory(sql: SqlSession, from: number, to: number): Promise<void> {
  for (const [statement, params] of historyDeletes(from, to)) await sql.query(statement, params);
}

function assetColumns(asset: AssetValue): AssetRow {
  return asset.type === 'native' ? { type: 'native', code: '', issuer: '' } : { type: asset.type, code: asset.code, issuer: asset.issuer };
}

async function writeTrades(sql: SqlSession, trades: readonly TradeRecord[]): Promise<void> {
  const assets: AssetValue[] = [];
  for (const t of trades) {
    for (const a of [t.sold_asset, t.bought_asset]) if (!assets.some((b) => assetsEqual(a, b))) assets.push(a);
  }
  // rows are inserted sorted by "type/code/issuer", as Horizon's asset loader does, so new assets
  // of one batch get their ids (and so the trades' base/counter order) in that order
  const keyOf = (c: AssetRow) => (c.type === 'native' ? 'native' : `${c.type}/${c.code}/${c.issuer}`);
  const columns = assets.map(assetColumns).sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
  await insert(sql, ASSETS, columns, 'ON CONFLICT ("type", "code", "issuer") DO NOTHING');
  const found = await sql.query<{ id: number; type: string; code: string; issuer: string }>(
    `SELECT a.id, a.type, a.code, a.issuer FROM history_assets a
       JOIN json_to_recordset($1::json) AS x(type text, code text, issuer text)
         ON a.type = x.type AND a.code = x.code AND a.issuer = x.issuer`,
    [json(columns)],
  );
  const idOf = (asset: AssetValue): number => {
    const c = assetColumns(asset);
    const row = found.find((r) => r.type === c.type && r.code === c.code && r.issuer === c.issuer);
    if (!row) throw new Error(`history_assets has no row for ${c.type} ${c.code} ${c.issuer}`);
    return Number(row.id);
  };
  const rows = trades.map((t) => tradeRow(t, idOf(t.sold_asset), idOf(t.bought_asset)));
  await insert(sql, TRADES, rows);
}

/** Applies the state rows of one ledger (upserts and deletes). */
export async function writeState(sql: SqlSession, rows: LedgerRows): Promise<void> {
  const s = rows.state;
  if (s.removedAccounts.length > 0) await sql.query('DELETE FROM accounts WHERE id = ANY($1)', [s.removedAccounts]);
  await insert(sql, ACCOUNTS, s.accounts, upsert(['id'], ACCOUNTS));
  if (s.signerAccounts.length > 0) {
    await sql.query('DELETE FROM accounts_signers WHERE account_id = ANY($1)', [s.signerAccounts]);
  }
  await insert(sql, SIGNERS, s.signers);
  if (s.removedData.length > 0) {
    await sql.query(
      `DELETE FROM accounts_data d USING json_to_recordset($1::json) AS x(account_id text, name text)
        WHERE d.account_id = x.account_id AND d.name = x.name`,
      [json(s.removedData)],
    );
  }
  await insert(sql, DATA, s.data, upsert(['account_id', 'name'], DATA));
  if (s.removedTrustLines.length > 0) {
    await sql.query(
      `DELETE FROM trust_lines t
        USING json_to_recordset($1::json) AS x(account_id text, asset_code text, asset_issuer text, liquidity_pool_id text)
        WHERE t.account_id = x.account_id AND t.asset_code = x.asset_code AND t.asset_issuer = x.asset_issuer
          AND t.liquidity_pool_id = x.liquidity_pool_id`,
      [json(s.removedTrustLines)],
    );
  }
  await insert(sql, TRUST_LINES, s.trustLines, upsert(['account_id', 'asset_code', 'asset_issuer', 'liquidity_pool_id'], TRUST_LINES));
  if (s.removedOffers.length > 0) {
    await sql.query('DELETE FROM offers WHERE id = ANY($1::bigint[])', [s.removedOffers.map(String)]);
  }
  await insert(sql, OFFERS, s.offers, upsert(['id'], OFFERS));
  // a balance's claimants are replaced with it, as an account's signers are
  const balances = [...s.removedClaimableBalances, ...s.claimableBalances.map((b) => b.id)];
  if (balances.length > 0) await sql.query('DELETE FROM claimable_balance_claimants WHERE id = ANY($1)', [balances]);
  if (s.removedClaimableBalances.length > 0) {
    await sql.query('DELETE FROM claimable_balances WHERE id = ANY($1)', [s.removedClaimableBalances]);
  }
  await insert(sql, CLAIMABLE_BALANCES, s.claimableBalances, upsert(['id'], CLAIMABLE_BALANCES));
  await insert(sql, CLAIMABLE_BALANCE_CLAIMANTS, s.claimableBalanceClaimants);
  if (s.removedLiquidityPools.length > 0) await sql.query('DELETE FROM liquidity_pools WHERE id = ANY($1)', [s.removedLiquidityPools]);
  await insert(sql, LIQUIDITY_POOLS, s.liquidityPools, upsert(['id'], LIQUIDITY_POOLS));
}
