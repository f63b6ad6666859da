// Horizon's own fee stats cases (actions_operation_fee_stats_test.go at 096f654) on the ledgers and
// transactions of its scenarios operation_fee_stats_1..3 (the -horizon.sql dumps), loaded into
// our tables. As in Horizon's test, every ledger's max_tx_set_size is set to 50 first.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { feeStats, type FeeDistribution } from '../../src/market/index.js';
import type { SqlSession } from '../../src/db/database.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

const SCENARIOS = '/work/shared/fixtures/horizon-scenarios';
const BUSY_TX = '6a349e7331e93a251367287e274fb1699abaf723bde37aebe96248c76fd3071a';

function values(line: string): string[] {
  const body = line.slice(line.indexOf('VALUES (') + 8, line.lastIndexOf(')'));
  const out: string[] = [];
  let current = '';
  let quoted = false;
  for (const ch of body) {
    if (ch === "'") quoted = !quoted;
    if (ch === ',' && !quoted) {
      out.push(current.trim());
      current = '';
    } else current += ch;
  }
  out.push(current.trim());
  return out.map((v) => v.replace(/^'|'$/g, ''));
}

async function loadScenario(sql: SqlSession, name: string): Promise<void> {
  const lines = readFileSync(`${SCENARIOS}/${name}-horizon.sql`, 'utf8').split('\n');
  for (const line of lines.filter((l) => l.startsWith('INSERT INTO history_ledgers VALUES'))) {
    // sequence, hash, prev, tx count, op count, closed_at, ..., base_fee (12), base_reserve, max_tx_set_size, protocol
    const v = values(line);
    await sql.query(
      `INSERT INTO history_ledgers (sequence, hash, closed_at, successful_transaction_count, failed_transaction_count,
         operation_count, tx_set_operation_count, total_coins, fee_pool, base_fee, base_reserve, max_tx_set_size,
         protocol_version, header_xdr)
       VALUES ($1, $2, $3, $4, 0, $5, $5, 0, 0, $6, $7, $8, $9, '')`,
      [v[0], v[1], v[5], v[3], v[4], v[12], v[13], v[14], v[15]],
    );
  }
  for (const line of lines.filter((l) => l.startsWith('INSERT INTO history_transactions VALUES'))) {
    // hash, ledger, order, account, sequence, max_fee, operation_count, ..., id (9), ..., successful, fee_charged
    const v = values(line);
    await sql.query(
      `INSERT INTO history_transactions (id, hash, ledger_sequence, application_order, closed_at, successful, account,
         account_sequence, max_fee, fee_charged, operation_count, memo_type, envelope_xdr, result_xdr, result_meta_xdr, fee_meta_xdr)
       VALUES ($1, $2, $3, $4, now(), $5, $6, $7, $8, $9, $10, 'none', '', '', '', '')`,
      [v[9], v[0], v[1], v[2], v[v.length - 2], v[3], v[4], v[5], v[v.length - 1], v[6]],
    );
  }
  await sql.exec('UPDATE history_ledgers SET max_tx_set_size = 50');
}

type Expected = { usage: string; maxFee: number[]; feeCharged: number[] };

// [max, min, mode, p10, p20, p30, p40, p50, p60, p70, p80, p90, p95, p99]
function dist(values: number[]): FeeDistribution {
  const [max, min, mode, p10, p20, p30, p40, p50, p60, p70, p80, p90, p95, p99] = values.map(String) as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  return { max, min, mode, p10, p20, p30, p40, p50, p60, p70, p80, p90, p95, p99 };
}

const ALL_100 = Array<number>(14).fill(100);

describe('fee stats on Horizon scenarios', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase();
  });
  beforeEach(() => test.db.session((sql) => sql.exec('DELETE FROM history_transactions; DELETE FROM history_ledgers;')));
  afterAll(() => test.drop());

  async function expectStats(expected: Expected, lastLedger: string) {
    const stats = await feeStats(test.db);
    expect(stats.lastLedger).toBe(lastLedger);
    expect(stats.lastLedgerBaseFee).toBe('100');
    expect(stats.ledgerCapacityUsage).toBe(expected.usage);
    expect(stats.maxFee).toEqual(dist(expected.maxFee));
    expect(stats.feeCharged).toEqual(dist(expected.feeCharged));
    expect(stats.minAcceptedFee).toBe(stats.maxFee.min);
    expect(stats.modeAcceptedFee).toBe(stats.maxFee.mode);
    expect(stats.p95AcceptedFee).toBe(stats.maxFee.p95);
    for (const value of Object.values(stats)) {
      if (typeof value === 'string') expect(value).toMatch(/^\d+(\.\d+)?$/);
    }
  }

  it('operation_fee_stats_1: happy path', async () => {
    await test.db.session((sql) => loadScenario(sql, 'operation_fee_stats_1'));
    await expectStats({ usage: '0.04', maxFee: ALL_100, feeCharged: ALL_100 }, '7');
  });

  it('operation_fee_stats_2: no transactions in the last 5 ledgers', async () => {
    await test.db.session((sql) => loadScenario(sql, 'operation_fee_stats_2'));
    await expectStats({ usage: '0', maxFee: ALL_100, feeCharged: ALL_100 }, '7');
  });

  it('operation_fee_stats_3: varying fees', async () => {
    await test.db.session((sql) => loadScenario(sql, 'operation_fee_stats_3'));
    await expectStats(
      {
        usage: '0.03',
        maxFee: [400, 200, 400, 200, 300, 400, 400, 400, 400, 400, 400, 400, 400, 400],
        feeCharged: ALL_100,
      },
      '9',
    );
  });

  it('counts operations, not transactions (multi-op)', async () => {
    await test.db.session(async (sql) => {
      await loadScenario(sql, 'operation_fee_stats_3');
      await sql.exec('UPDATE history_transactions SET operation_count = operation_count * 2');
    });
    await expectStats(
      {
        usage: '0.06',
        maxFee: [200, 100, 200, 100, 150, 200, 200, 200, 200, 200, 200, 200, 200, 200],
        feeCharged: Array<number>(14).fill(50),
      },
      '9',
    );
  });

  it('does not interpolate percentiles', async () => {
    await test.db.session(async (sql) => {
      await loadScenario(sql, 'operation_fee_stats_3');
      await sql.exec(`UPDATE history_transactions SET max_fee = 256000, operation_count = 16 WHERE hash = '${BUSY_TX}'`);
    });
    await expectStats(
      {
        usage: '0.09',
        maxFee: [16000, 200, 400, 200, 300, 400, 400, 400, 400, 400, 400, 16000, 16000, 16000],
        feeCharged: [100, 6, 100, 6, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100],
      },
      '9',
    );
  });

  it('counts a fee bump as one more operation and uses its new max fee', async () => {
    await test.db.session(async (sql) => {
      await loadScenario(sql, 'operation_fee_stats_3');
      await sql.exec(`UPDATE history_transactions SET max_fee = 10, new_max_fee = 1000, fee_charged = 200 WHERE hash = '${BUSY_TX}'`);
    });
    const stats = await feeStats(test.db);
    expect(stats.maxFee).toEqual(dist([500, 200, 400, 200, 300, 400, 400, 400, 400, 400, 400, 500, 500, 500]));
    expect(stats.feeCharged).toEqual(dist(ALL_100));
  });

  it('is all zeros on an empty database', async () => {
    const stats = await feeStats(test.db);
    expect([stats.lastLedger, stats.lastLedgerBaseFee, stats.ledgerCapacityUsage, stats.feeCharged.p50]).toEqual(['0', '0', '0', '0']);
  });
});
