// The ledgers processor on real ledgers: every ledger of Horizon's scenarios (stellar-core's
// headers and transactions) gives Horizon's history_ledgers row; the testnet ledgers 997–999 give
// the hash of their header and chain onto each other.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ledgerRow } from '../../../src/ingest/processors/ledgers.js';
import { SCENARIOS } from '../../core/support/scenario.js';
import type { SqlRow } from '../../core/support/sql_dump.js';
import { dumpTime, horizonDump, scenarioViews, testnetViews } from '../support/scenarios.js';

/** Horizon's history_ledgers row with our column names. */
function horizonLedger(r: SqlRow) {
  return {
    sequence: Number(r.sequence),
    hash: r.ledger_hash,
    prev_hash: r.previous_ledger_hash,
    closed_at: dumpTime(r.closed_at),
    successful_transaction_count: Number(r.successful_transaction_count),
    failed_transaction_count: Number(r.failed_transaction_count),
    operation_count: Number(r.operation_count),
    total_coins: BigInt(String(r.total_coins)),
    fee_pool: BigInt(String(r.fee_pool)),
    base_fee: Number(r.base_fee),
    base_reserve: Number(r.base_reserve),
    max_tx_set_size: Number(r.max_tx_set_size),
    protocol_version: Number(r.protocol_version),
    header_xdr: r.ledger_header,
    // Horizon added tx_set_operation_count later: the older dumps have no such column or a NULL
    ...(r.tx_set_operation_count === null || r.tx_set_operation_count === undefined
      ? {}
      : { tx_set_operation_count: Number(r.tx_set_operation_count) }),
  };
}

describe.each(SCENARIOS)('ledgers of scenario %s', (name) => {
  const expected = horizonDump(name);
  const views = scenarioViews(name);

  it('gives Horizon’s row for every ledger', () => {
    expect(views.map((v) => v.sequence)).toEqual([...expected.ledgers.keys()].sort((a, b) => a - b));
    for (const view of views) {
      const theirs = horizonLedger(expected.ledgers.get(view.sequence)!);
      const ours = ledgerRow(view);
      expect(ours, `ledger ${view.sequence}`).toMatchObject(theirs);
      if (!('tx_set_operation_count' in theirs)) {
        // without Horizon's figure: every applied transaction's operations, the failed ones too
        expect(ours.tx_set_operation_count).toBeGreaterThanOrEqual(ours.operation_count);
      }
    }
  });
});

const testnet = await testnetViews();

describe('ledgers of the testnet datastore', () => {
  it('hash their headers, chain onto each other and count the failed transactions', () => {
    const rows = testnet.map((v) => ledgerRow(v));
    expect(rows.map((r) => r.sequence)).toEqual([997, 998, 999]);
    rows.forEach((row, i) => {
      const header = Buffer.from(row.header_xdr, 'base64');
      expect(createHash('sha256').update(header).digest('hex')).toBe(row.hash);
      if (i > 0) expect(row.prev_hash).toBe(rows[i - 1]!.hash);
      expect(row.protocol_version).toBe(20);
      expect(row.successful_transaction_count + row.failed_transaction_count).toBe(testnet[i]!.txs.length);
    });
    // the fixtures' README: 3 failed transactions in 997, 5 in 998, none in 999
    expect(rows.map((r) => r.failed_transaction_count)).toEqual([3, 5, 0]);
  });
});
