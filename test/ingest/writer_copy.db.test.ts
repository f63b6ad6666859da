// History rows travel as binary COPY when the session supports it: text with tabs, newlines,
// backslashes and non-ASCII characters, quotes in arrays, empty arrays, JSON details, int64
// extremes, nulls and millisecond timestamps must come back exactly as they went in, and a session
// without COPY (json_to_recordset inserts) must give the very same rows in every history table.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlSession } from '../../src/db/database.js';
import type { LedgerRows } from '../../src/ingest/index.js';
import { emptyStateRows } from '../../src/ingest/processors/state.js';
import { writeHistory } from '../../src/ingest/writer.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

const TRICKY = 'tab\there, line\nbreak, cr\r, back\\slash \\N "quoted" {braces} ünï';

function rows(sequence: number): LedgerRows {
  const txId = (BigInt(sequence) << 32n) | 4096n;
  const opId = txId + 1n;
  const closedAt = '2024-01-02T03:04:05.678Z';
  return {
    ledger: {
      sequence,
      hash: sequence.toString(16).padStart(64, '0'),
      prev_hash: null,
      closed_at: closedAt,
      successful_transaction_count: 1,
      failed_transaction_count: 0,
      operation_count: 1,
      tx_set_operation_count: 1,
      total_coins: 1_000_000_000_000_000_000n,
      fee_pool: 9_223_372_036_854_775_807n,
      base_fee: 100,
      base_reserve: 5_000_000,
      max_tx_set_size: 100,
      protocol_version: 21,
      header_xdr: 'AAAA',
    },
    transactions: [
      {
        id: txId,
        hash: `${sequence.toString(16)}`.padStart(64, 'a'),
        ledger_sequence: sequence,
        application_order: 1,
        closed_at: closedAt,
        successful: true,
        account: 'GA',
        account_muxed: null,
        account_sequence: -9_223_372_036_854_775_808n,
        max_fee: 100n,
        fee_charged: 100n,
        operation_count: 1,
        memo_type: 'text',
        memo: TRICKY,
        memo_bytes: Buffer.from(TRICKY).toString('base64'),
        signatures: ['a"b', 'c\\d', 'e,f{}', ''],
        valid_after: 0n,
        valid_before: null,
        min_ledger: null,
        max_ledger: null,
        min_account_sequence: null,
        min_account_sequence_age: null,
        min_account_sequence_ledger_gap: null,
        extra_signers: [],
        fee_account: null,
        fee_account_muxed: null,
        new_max_fee: null,
        inner_transaction_hash: null,
        inner_signatures: [],
        envelope_xdr: 'AAAA',
        result_xdr: 'AAAA',
        result_meta_xdr: 'AAAA',
        fee_meta_xdr: 'AAAA',
      },
    ],
    operations: [
      {
        id: opId,
        transaction_id: txId,
        transaction_hash: 'ab',
        application_order: 1,
        closed_at: closedAt,
        type: 10,
        details: { name: TRICKY, value: null, nested: { list: [1, 'x\\y', true] } },
        source_account: 'GA',
        source_account_muxed: null,
        transaction_successful: true,
        is_payment: false,
      },
    ],
    effects: [
      { operation_id: opId, order: 1, account: 'GA', account_muxed: null, closed_at: closedAt, type: 40, details: { name: TRICKY } },
    ],
    trades: [
      {
        operation_id: opId,
        order: 0,
        closed_at: closedAt,
        offer_id: 4_611_686_018_427_387_905n,
        seller: 'GSELLER',
        seller_offer_id: 12n,
        seller_liquidity_pool_id: null,
        buyer: 'GBUYER',
        buyer_offer_id: 4_611_686_018_427_387_905n,
        sold_asset: { type: 'native' },
        sold_amount: 9_223_372_036_854_775_807n,
        bought_asset: { type: 'credit_alphanum4', code: 'USD', issuer: 'GISSUER' },
        bought_amount: 1n,
        price_n: 2_147_483_647n,
        price_d: 3n,
        trade_type: 1,
        liquidity_pool_fee: null,
        rounding_slippage: null,
      },
      {
        operation_id: opId,
        order: 1,
        closed_at: closedAt,
        offer_id: null,
        seller: null,
        seller_offer_id: null,
        seller_liquidity_pool_id: 'ab'.repeat(32),
        buyer: 'GBUYER',
        buyer_offer_id: 4_611_686_018_427_387_905n,
        sold_asset: { type: 'credit_alphanum4', code: 'USD', issuer: 'GISSUER' },
        sold_amount: 5n,
        bought_asset: { type: 'native' },
        bought_amount: 9_223_372_036_854_775_807n,
        price_n: 9_223_372_036_854_775_807n,
        price_d: 5n,
        trade_type: 2,
        liquidity_pool_fee: 30,
        rounding_slippage: 9_223_372_036_854_775_807n,
      },
    ],
    transactionParticipants: [{ account: 'GA', transaction_id: txId }],
    operationParticipants: [{ account: 'GA', operation_id: opId }],
    transactionClaimableBalances: [{ claimable_balance_id: `00000000${'ab'.repeat(32)}`, transaction_id: txId }],
    operationClaimableBalances: [{ claimable_balance_id: `00000000${'ab'.repeat(32)}`, operation_id: opId }],
    transactionLiquidityPools: [{ liquidity_pool_id: 'cd'.repeat(32), transaction_id: txId }],
    operationLiquidityPools: [{ liquidity_pool_id: 'cd'.repeat(32), operation_id: opId }],
    state: emptyStateRows(),
  };
}

async function read(sql: SqlSession, sequence: number): Promise<unknown[][]> {
  const txId = (BigInt(sequence) << 32n) | 4096n;
  return [
    await sql.query(
      'SELECT memo, signatures, account_sequence::text AS seq, valid_before FROM history_transactions WHERE ledger_sequence = $1',
      [sequence],
    ),
    await sql.query('SELECT details FROM history_operations WHERE transaction_id = $1', [txId.toString()]),
    await sql.query('SELECT details FROM history_effects WHERE operation_id = $1', [(txId + 1n).toString()]),
    await sql.query('SELECT fee_pool::text AS fee_pool, closed_at FROM history_ledgers WHERE sequence = $1', [sequence]),
  ];
}

const HISTORY_TABLES = [
  'history_ledgers',
  'history_transactions',
  'history_operations',
  'history_effects',
  'history_trades',
  'history_assets',
  'history_transaction_participants',
  'history_operation_participants',
  'history_transaction_claimable_balances',
  'history_operation_claimable_balances',
  'history_transaction_liquidity_pools',
  'history_operation_liquidity_pools',
];

describe('history rows through COPY', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => {
    await t.drop();
  });

  it('keeps special characters, arrays, JSON and int64 extremes', async () => {
    const [txs, ops, effects, ledgers] = await t.db.transaction(async (sql) => {
      expect(sql.copyFrom).toBeTypeOf('function');
      await writeHistory(sql, [rows(7)]);
      return read(sql, 7);
    });
    expect(txs).toEqual([{ memo: TRICKY, signatures: ['a"b', 'c\\d', 'e,f{}', ''], seq: '-9223372036854775808', valid_before: null }]);
    expect(ops).toEqual([{ details: { name: TRICKY, value: null, nested: { list: [1, 'x\\y', true] } } }]);
    expect(effects).toEqual([{ details: { name: TRICKY } }]);
    expect(ledgers).toEqual([{ fee_pool: '9223372036854775807', closed_at: expect.anything() }]);
  });

  it('gives the same rows as the json_to_recordset inserts, in every history table', async () => {
    const other = await createTestDatabase();
    try {
      await other.db.transaction(async (sql) => {
        const withoutCopy: SqlSession = { query: (text, params) => sql.query(text, params), exec: (script) => sql.exec(script) };
        await writeHistory(withoutCopy, [rows(7)]);
      });
      for (const table of HISTORY_TABLES) {
        const all = (sql: SqlSession) => sql.query<{ row: string }>(`SELECT to_jsonb(t)::text AS row FROM ${table} t ORDER BY 1`);
        const viaCopy = await t.db.session(all);
        expect(viaCopy.length, table).toBeGreaterThan(0);
        expect(await other.db.session(all), table).toEqual(viaCopy);
      }
    } finally {
      await other.drop();
    }
  });

  it('fails the transaction on a COPY error and leaves the connection usable', async () => {
    await expect(t.db.transaction((sql) => writeHistory(sql, [rows(7)]))).rejects.toThrow(/duplicate key/);
    const count = await t.db.session((sql) => sql.query<{ n: number }>('SELECT count(*)::int AS n FROM history_ledgers'));
    expect(count).toEqual([{ n: 1 }]);
  });
});
