// Writes the rows of one ledger, or of a batch of ledgers, with one multi-row statement per table:
// history rows travel as binary COPY (copy_binary.ts), upserts as one JSON parameter expanded by
// json_to_recordset, so a ledger costs a fixed number of statements whatever its size. State rows
// are upserts and deletes by key.
import type { SqlSession } from '../db/database.js';
import { assetsEqual, type AssetValue } from '../stellar/index.js';
import { BufferPool } from './buffer_pool.js';
import { COPY_HEADER, COPY_TRAILER, CopyBinary, copyStatement, rowWriter, type Column, type RowWriter } from './copy_binary.js';
import type { LedgerRow, LedgerRows, TradeRecord, TransactionHistoryRows } from './rows.js';

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

/** The rows as a JSON array of objects with only `columns`; faster than JSON.stringify with a replacer. */
function rowsJson(columns: readonly Column[], rows: readonly object[]): string {
  const keys = columns.map(([name]) => `${JSON.stringify(name)}:`);
  const names = columns.map(([name]) => name);
  const parts: string[] = new Array<string>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] as Record<string, unknown>;
    let text = '{';
    for (let j = 0; j < names.length; j++) text += `${j === 0 ? '' : ','}${keys[j]}${jsonValue(row[names[j]!])}`;
    parts[i] = `${text}}`;
  }
  return `[${parts.join(',')}]`;
}

async function insert(sql: SqlSession, table: string, columns: readonly Column[], rows: readonly object[], conflict = ''): Promise<void> {
  if (rows.length === 0) return;
  if (!conflict && sql.copyFrom) {
    // COPY parses far less than json_to_recordset does for the same rows
    const out = new CopyBinary();
    rowWriter(columns)(out, rows);
    await sql.copyFrom(copyStatement(table, columns), [COPY_HEADER, out.view(), COPY_TRAILER]);
    return;
  }
  const names = columns.map(([name]) => `"${name}"`).join(', ');
  const types = columns.map(([name, type]) => `"${name}" ${type}`).join(', ');
  await sql.query(`INSERT INTO "${table}" (${names}) SELECT ${names} FROM json_to_recordset($1::json) AS x(${types}) ${conflict}`, [
    rowsJson(columns, rows),
  ]);
}

const LEDGER_COLUMNS: Column[] = [
  ['sequence', 'integer'],
  ['hash', 'text'],
  ['prev_hash', 'text'],
  ['closed_at', 'timestamp(3)'],
  ['successful_transaction_count', 'integer'],
  ['failed_transaction_count', 'integer'],
  ['operation_count', 'integer'],
  ['tx_set_operation_count', 'integer'],
  ['total_coins', 'bigint'],
  ['fee_pool', 'bigint'],
  ['base_fee', 'integer'],
  ['base_reserve', 'integer'],
  ['max_tx_set_size', 'integer'],
  ['protocol_version', 'integer'],
  ['header_xdr', 'text'],
];

const TRANSACTION_COLUMNS: Column[] = [
  ['id', 'bigint'],
  ['hash', 'text'],
  ['ledger_sequence', 'integer'],
  ['application_order', 'integer'],
  ['closed_at', 'timestamp(3)'],
  ['successful', 'boolean'],
  ['account', 'text'],
  ['account_muxed', 'text'],
  ['account_sequence', 'bigint'],
  ['max_fee', 'bigint'],
  ['fee_charged', 'bigint'],
  ['operation_count', 'integer'],
  ['memo_type', 'text'],
  ['memo', 'text'],
  ['signatures', 'text[]'],
  ['valid_after', 'bigint'],
  ['valid_before', 'bigint'],
  ['min_ledger', 'integer'],
  ['max_ledger', 'integer'],
  ['min_account_sequence', 'bigint'],
  ['min_account_sequence_age', 'bigint'],
  ['min_account_sequence_ledger_gap', 'integer'],
  ['extra_signers', 'text[]'],
  ['fee_account', 'text'],
  ['fee_account_muxed', 'text'],
  ['new_max_fee', 'bigint'],
  ['inner_transaction_hash', 'text'],
  ['inner_signatures', 'text[]'],
  ['envelope_xdr', 'text'],
  ['result_xdr', 'text'],
  ['result_meta_xdr', 'text'],
  ['fee_meta_xdr', 'text'],
];

const OPERATION_COLUMNS: Column[] = [
  ['id', 'bigint'],
  ['transaction_id', 'bigint'],
  ['transaction_hash', 'text'],
  ['application_order', 'integer'],
  ['closed_at', 'timestamp(3)'],
  ['type', 'integer'],
  ['details', 'jsonb'],
  ['source_account', 'text'],
  ['source_account_muxed', 'text'],
  ['transaction_successful', 'boolean'],
  ['is_payment', 'boolean'],
];

const EFFECT_COLUMNS: Column[] = [
  ['operation_id', 'bigint'],
  ['order', 'integer'],
  ['account', 'text'],
  ['account_muxed', 'text'],
  ['closed_at', 'timestamp(3)'],
  ['type', 'integer'],
  ['details', 'jsonb'],
];

const TRADE_COLUMNS: Column[] = [
  ['operation_id', 'bigint'],
  ['order', 'integer'],
  ['closed_at', 'timestamp(3)'],
  ['offer_id', 'bigint'],
  ['base_offer_id', 'bigint'],
  ['base_account', 'text'],
  ['base_asset_id', 'integer'],
  ['base_amount', 'bigint'],
  ['counter_offer_id', 'bigint'],
  ['counter_account', 'text'],
  ['counter_asset_id', 'integer'],
  ['counter_amount', 'bigint'],
  ['base_is_seller', 'boolean'],
  ['price_n', 'bigint'],
  ['price_d', 'bigint'],
];

const ACCOUNT_COLUMNS: Column[] = [
  ['id', 'text'],
  ['balance', 'bigint'],
  ['buying_liabilities', 'bigint'],
  ['selling_liabilities', 'bigint'],
  ['sequence', 'bigint'],
  ['sequence_ledger', 'integer'],
  ['sequence_time', 'bigint'],
  ['subentry_count', 'integer'],
  ['num_sponsoring', 'integer'],
  ['num_sponsored', 'integer'],
  ['inflation_destination', 'text'],
  ['home_domain', 'text'],
  ['flags', 'integer'],
  ['master_weight', 'integer'],
  ['threshold_low', 'integer'],
  ['threshold_medium', 'integer'],
  ['threshold_high', 'integer'],
  ['last_modified_ledger', 'integer'],
];

const SIGNER_COLUMNS: Column[] = [
  ['account_id', 'text'],
  ['signer', 'text'],
  ['weight', 'integer'],
  ['sponsor', 'text'],
];

const DATA_COLUMNS: Column[] = [
  ['account_id', 'text'],
  ['name', 'text'],
  ['value', 'text'],
  ['last_modified_ledger', 'integer'],
];

const TRUST_LINE_COLUMNS: Column[] = [
  ['account_id', 'text'],
  ['asset_type', 'text'],
  ['asset_code', 'text'],
  ['asset_issuer', 'text'],
  ['balance', 'bigint'],
  ['limit', 'bigint'],
  ['buying_liabilities', 'bigint'],
  ['selling_liabilities', 'bigint'],
  ['flags', 'integer'],
  ['last_modified_ledger', 'integer'],
];

const OFFER_COLUMNS: Column[] = [
  ['id', 'bigint'],
  ['seller_id', 'text'],
  ['selling_asset', 'text'],
  ['buying_asset', 'text'],
  ['amount', 'bigint'],
  ['price_n', 'integer'],
  ['price_d', 'integer'],
  ['price', 'double precision'],
  ['flags', 'integer'],
  ['last_modified_ledger', 'integer'],
];

function upsert(key: string[], columns: readonly Column[]): string {
  const updates = columns
    .filter(([name]) => !key.includes(name))
    .map(([name]) => `"${name}" = EXCLUDED."${name}"`)
    .join(', ');
  return `ON CONFLICT (${key.map((k) => `"${k}"`).join(', ')}) DO UPDATE SET ${updates}`;
}

/** history rows: a ledger's (LedgerRows), or those of some of its transactions */
type HistoryRows = TransactionHistoryRows & { ledger?: LedgerRow };

interface HistoryTable {
  table: string;
  columns: readonly Column[];
  rows: (ledger: HistoryRows) => readonly object[];
}

// The history tables COPY fills, in the order they are written (trades need asset ids: writeTrades).
const HISTORY_TABLES: readonly HistoryTable[] = [
  { table: 'history_ledgers', columns: LEDGER_COLUMNS, rows: (l) => (l.ledger ? [l.ledger] : []) },
  { table: 'history_transactions', columns: TRANSACTION_COLUMNS, rows: (l) => l.transactions },
  { table: 'history_operations', columns: OPERATION_COLUMNS, rows: (l) => l.operations },
  { table: 'history_effects', columns: EFFECT_COLUMNS, rows: (l) => l.effects },
  {
    table: 'history_transaction_participants',
    columns: [
      ['account', 'text'],
      ['transaction_id', 'bigint'],
    ],
    rows: (l) => l.transactionParticipants.map((p) => ({ account: p.account, transaction_id: p.id })),
  },
  {
    table: 'history_operation_participants',
    columns: [
      ['account', 'text'],
      ['operation_id', 'bigint'],
    ],
    rows: (l) => l.operationParticipants.map((p) => ({ account: p.account, operation_id: p.id })),
  },
];

const HISTORY_WRITERS: readonly RowWriter[] = HISTORY_TABLES.map(({ columns }) => rowWriter(columns));

/**
 * History rows ready to write: COPY tuples per table (each its own buffer, which a worker thread
 * can transfer), and the trades (their base/counter order needs the assets' database ids).
 */
export interface EncodedHistory {
  copy: Record<string, Uint8Array<ArrayBuffer>>;
  trades: TradeRecord[];
}

// each table's size in the previous ledger: the next buffers start about that large
const sizeHints = HISTORY_TABLES.map(() => 1 << 16);

// COPY buffers whose rows have been written, handed back for the next ledgers (recycleHistory)
const spareBuffers = new BufferPool();

/** The buffers of encoded history that has been written, for the encoder of this thread to reuse. */
export function recycleHistory(buffers: readonly ArrayBuffer[]): void {
  for (const buffer of buffers) spareBuffers.give(buffer);
}

/** The buffers that hold encoded history's COPY bytes. */
export function historyBuffers(history: EncodedHistory): ArrayBuffer[] {
  return [...new Set(Object.values(history.copy).map((bytes) => bytes.buffer))];
}

/** Encodes history rows as they come, so a caller can build a ledger's rows a few transactions at a time. */
export class HistoryEncoder {
  private readonly tables = sizeHints.map((size) => new CopyBinary(size, spareBuffers));
  private readonly trades: TradeRecord[] = [];

  add(rows: HistoryRows): void {
    HISTORY_TABLES.forEach((table, i) => {
      HISTORY_WRITERS[i]!(this.tables[i]!, table.rows(rows));
    });
    this.trades.push(...rows.trades);
  }

  finish(): EncodedHistory {
    const copy: Record<string, Uint8Array<ArrayBuffer>> = {};
    HISTORY_TABLES.forEach(({ table }, i) => {
      const out = this.tables[i]!;
      sizeHints[i] = Math.max(1 << 12, out.length + (out.length >> 3));
      if (out.length > 0) copy[table] = out.view();
    });
    return { copy, trades: this.trades };
  }
}

export function encodeHistory(ledgers: readonly HistoryRows[]): EncodedHistory {
  const encoder = new HistoryEncoder();
  for (const ledger of ledgers) encoder.add(ledger);
  return encoder.finish();
}

/** Writes encoded history (of one or several ledgers) with one COPY per table; needs COPY support. */
export async function writeEncodedHistory(sql: SqlSession, parts: readonly EncodedHistory[]): Promise<void> {
  if (!sql.copyFrom) throw new Error('writeEncodedHistory needs a session with COPY');
  for (const { table, columns } of HISTORY_TABLES) {
    const chunks = parts.flatMap((p) => p.copy[table] ?? []);
    if (chunks.length > 0) await sql.copyFrom(copyStatement(table, columns), [COPY_HEADER, ...chunks, COPY_TRAILER]);
  }
  const trades = parts.flatMap((p) => p.trades);
  if (trades.length > 0) await writeTrades(sql, trades);
}

/** Inserts the history rows of the given ledgers (they must not exist yet). */
export async function writeHistory(sql: SqlSession, ledgers: readonly LedgerRows[]): Promise<void> {
  if (sql.copyFrom) return writeEncodedHistory(sql, [encodeHistory(ledgers)]);
  for (const { table, columns, rows } of HISTORY_TABLES)
    await insert(
      sql,
      table,
      columns,
      ledgers.flatMap((l) => rows(l)),
    );
  const trades = ledgers.flatMap((l) => l.trades);
  if (trades.length > 0) await writeTrades(sql, trades);
}

/** The statements that delete the history rows of ledgers from..to, each with its parameters. */
export function historyDeletes(from: number, to: number): [sql: string, params: unknown[]][] {
  const start = (BigInt(from) << 32n).toString();
  const end = (BigInt(to + 1) << 32n).toString();
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
      ] as const
    ).map(([table, column]): [string, unknown[]] => [`DELETE FROM ${table} WHERE ${column} >= $1 AND ${column} < $2`, [start, end]]),
  ];
}

/** Removes the history rows of ledgers [from, to] (for reingestion). */
export async function deleteHistory(sql: SqlSession, from: number, to: number): Promise<void> {
  for (const [statement, params] of historyDeletes(from, to)) await sql.query(statement, params);
}

function assetColumns(asset: AssetValue): { type: string; code: string; issuer: string } {
  return asset.type === 'native' ? { type: 'native', code: '', issuer: '' } : { type: asset.type, code: asset.code, issuer: asset.issuer };
}

async function writeTrades(sql: SqlSession, trades: readonly TradeRecord[]): Promise<void> {
  const assets: AssetValue[] = [];
  for (const t of trades) {
    for (const a of [t.sold_asset, t.bought_asset]) if (!assets.some((b) => assetsEqual(a, b))) assets.push(a);
  }
  // rows are inserted sorted by "type/code/issuer", as Horizon's asset loader does, so new assets
  // of one batch get their ids (and so the trades' base/counter order) in that order
  const keyOf = (c: { type: string; code: string; issuer: string }) => (c.type === 'native' ? 'native' : `${c.type}/${c.code}/${c.issuer}`);
  const columns = assets.map(assetColumns).sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
  await insert(
    sql,
    'history_assets',
    [
      ['type', 'text'],
      ['code', 'text'],
      ['issuer', 'text'],
    ],
    columns,
    'ON CONFLICT ("type", "code", "issuer") DO NOTHING',
  );
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
  const rows = trades.map((t) => {
    const soldId = idOf(t.sold_asset);
    const boughtId = idOf(t.bought_asset);
    // Horizon: the base asset is the one with the smaller history id
    const baseIsSeller = soldId < boughtId;
    return {
      operation_id: t.operation_id,
      order: t.order,
      closed_at: t.closed_at,
      offer_id: t.offer_id,
      base_offer_id: baseIsSeller ? t.seller_offer_id : t.buyer_offer_id,
      base_account: baseIsSeller ? t.seller : t.buyer,
      base_asset_id: baseIsSeller ? soldId : boughtId,
      base_amount: baseIsSeller ? t.sold_amount : t.bought_amount,
      counter_offer_id: baseIsSeller ? t.buyer_offer_id : t.seller_offer_id,
      counter_account: baseIsSeller ? t.buyer : t.seller,
      counter_asset_id: baseIsSeller ? boughtId : soldId,
      counter_amount: baseIsSeller ? t.bought_amount : t.sold_amount,
      base_is_seller: baseIsSeller,
      price_n: baseIsSeller ? t.price_n : t.price_d,
      price_d: baseIsSeller ? t.price_d : t.price_n,
    };
  });
  await insert(sql, 'history_trades', TRADE_COLUMNS, rows);
}

/** Applies the state rows of one ledger (upserts and deletes). */
export async function writeState(sql: SqlSession, rows: LedgerRows): Promise<void> {
  const s = rows.state;
  if (s.removedAccounts.length > 0) await sql.query('DELETE FROM accounts WHERE id = ANY($1)', [s.removedAccounts]);
  await insert(sql, 'accounts', ACCOUNT_COLUMNS, s.accounts, upsert(['id'], ACCOUNT_COLUMNS));
  if (s.signerAccounts.length > 0) {
    await sql.query('DELETE FROM accounts_signers WHERE account_id = ANY($1)', [s.signerAccounts]);
  }
  await insert(sql, 'accounts_signers', SIGNER_COLUMNS, s.signers);
  if (s.removedData.length > 0) {
    await sql.query(
      `DELETE FROM accounts_data d USING json_to_recordset($1::json) AS x(account_id text, name text)
        WHERE d.account_id = x.account_id AND d.name = x.name`,
      [json(s.removedData)],
    );
  }
  await insert(sql, 'accounts_data', DATA_COLUMNS, s.data, upsert(['account_id', 'name'], DATA_COLUMNS));
  if (s.removedTrustLines.length > 0) {
    await sql.query(
      `DELETE FROM trust_lines t USING json_to_recordset($1::json) AS x(account_id text, asset_code text, asset_issuer text)
        WHERE t.account_id = x.account_id AND t.asset_code = x.asset_code AND t.asset_issuer = x.asset_issuer`,
      [json(s.removedTrustLines)],
    );
  }
  await insert(
    sql,
    'trust_lines',
    TRUST_LINE_COLUMNS,
    s.trustLines,
    upsert(['account_id', 'asset_code', 'asset_issuer'], TRUST_LINE_COLUMNS),
  );
  if (s.removedOffers.length > 0) {
    await sql.query('DELETE FROM offers WHERE id = ANY($1::bigint[])', [s.removedOffers.map(String)]);
  }
  await insert(sql, 'offers', OFFER_COLUMNS, s.offers, upsert(['id'], OFFER_COLUMNS));
}
