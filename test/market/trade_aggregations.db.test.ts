// Property: the bucket-backed query equals a direct recomputation from raw trades, for random
// trades (both orientations of a pair, ties in price, out-of-order inserts) and random parameters
// (every resolution, offsets, rounded start and end, both orders, limits), before and after a
// delete-and-reinsert as reingestion does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALLOWED_RESOLUTIONS,
  HOUR_MS,
  parseTradeAggregationParams,
  referenceTradeAggregations,
  tradeAggregations,
  tradeAggregationsByIds,
  type RawTrade,
} from '../../src/market/index.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { seededRandom, type Random } from './support/random.js';
import { insertTrades, randomTrades, uniqueTrades } from './support/trades.js';

const ISSUER = 'GAXMF43TGZHW3QN3REOUA2U5PW5BTARXGGYJ3JIFHW3YT6QRKRL3CPPU';
const FROM = Date.UTC(2024, 0, 1, 5, 17, 3);
const SPAN = 21 * 86_400_000;

function randomQuery(random: Random): Record<string, string> {
  const resolution = random.pick(ALLOWED_RESOLUTIONS);
  const query: Record<string, string> = {
    base_asset_type: 'native',
    counter_asset_type: 'credit_alphanum4',
    counter_asset_code: 'USD',
    counter_asset_issuer: ISSUER,
    resolution: String(resolution),
    order: random.pick(['asc', 'desc']),
    limit: String(random.pick([1, 2, 3, 10, 200])),
  };
  if (resolution > HOUR_MS && random.chance(0.6)) query.offset = String(random.int(1, 23) * HOUR_MS);
  if (Number(query.offset ?? 0) >= resolution) delete query.offset;
  if (random.chance(0.6)) query.start_time = String(FROM + random.int(-86_400_000, SPAN));
  if (random.chance(0.6)) {
    const start = Number(query.start_time ?? FROM);
    query.end_time = String(start + random.int(0, SPAN));
  }
  return query;
}

/** A random valid query: an end rounded below the rounded start is rejected (end_time), as it should be. */
function randomValid(random: Random): { query: Record<string, string>; params: ReturnType<typeof parseTradeAggregationParams> } {
  for (;;) {
    const query = randomQuery(random);
    try {
      return { query, params: parseTradeAggregationParams(query) };
    } catch (error) {
      expect((error as { field?: string }).field).toBe('end_time');
    }
  }
}

describe('trade aggregations from buckets', () => {
  let test: TestDatabase;
  let trades: RawTrade[];
  const random = seededRandom(20_241_121);

  beforeAll(async () => {
    test = await createTestDatabase();
    trades = uniqueTrades(randomTrades(random, 3000, { from: FROM, span: SPAN, assets: [1, 2, 3] }));
    await test.db.session(async (sql) => {
      await sql.query(
        `INSERT INTO history_assets (id, type, code, issuer) VALUES (1, 'native', '', ''), (2, 'credit_alphanum4', 'USD', $1), (3, 'credit_alphanum4', 'EUR', $1)`,
        [ISSUER],
      );
      // in chunks of shuffled order, so buckets are built incrementally
      const shuffled = [...trades].sort(() => random.next() - 0.5);
      for (let i = 0; i < shuffled.length; i += 500) await insertTrades(sql, shuffled.slice(i, i + 500));
    });
  });
  afterAll(() => test.drop());

  async function check(seedQueries: number) {
    for (let i = 0; i < seedQueries; i += 1) {
      const { query, params } = randomValid(random);
      const expected = referenceTradeAggregations(trades, { baseAssetId: 1, counterAssetId: 2, ...params });
      const reversed = referenceTradeAggregations(trades, { baseAssetId: 2, counterAssetId: 1, ...params });
      expect(await tradeAggregationsByIds(test.db, 1, 2, params), JSON.stringify(query)).toEqual(expected);
      expect(await tradeAggregationsByIds(test.db, 2, 1, params), JSON.stringify(query)).toEqual(reversed);
    }
  }

  it('equals the recomputation from raw trades', async () => {
    await check(60);
  });

  it('resolves assets through history_assets', async () => {
    const query: Record<string, string> = { ...randomQuery(random), resolution: '3600000', limit: '200' };
    delete query.offset;
    delete query.end_time;
    const params = parseTradeAggregationParams(query);
    const records = await tradeAggregations(test.db, params);
    expect(records).toEqual(referenceTradeAggregations(trades, { baseAssetId: 1, counterAssetId: 2, ...params }));
    const unknown = parseTradeAggregationParams({ ...query, counter_asset_code: 'ABC' });
    expect(await tradeAggregations(test.db, unknown)).toEqual([]);
  });

  it('renders Horizon records', async () => {
    const params = parseTradeAggregationParams({
      base_asset_type: 'native',
      counter_asset_type: 'credit_alphanum4',
      counter_asset_code: 'USD',
      counter_asset_issuer: ISSUER,
      resolution: '604800000',
      limit: '1',
    });
    const [record] = await tradeAggregations(test.db, params);
    expect(record).toBeDefined();
    expect(Object.keys(record ?? {})).toEqual([
      'timestamp', 'tradeCount', 'baseVolume', 'counterVolume', 'avg', 'high', 'highR', 'low', 'lowR', 'open', 'openR', 'close', 'closeR',
    ]);
    expect(record?.baseVolume).toMatch(/^\d+\.\d{7}$/);
    expect(record?.highR).toEqual({ N: expect.any(Number), D: expect.any(Number) });
  });

  it('stays right after a range is deleted and inserted again, and after updates', async () => {
    const cut = FROM + SPAN / 3;
    const removed = trades.filter((t) => t.closedAt >= cut && t.closedAt < cut + 86_400_000);
    await test.db.session((sql) => sql.query(`DELETE FROM history_trades WHERE closed_at >= $1::timestamp AND closed_at < $2::timestamp`, [
      new Date(cut).toISOString().replace('Z', ''),
      new Date(cut + 86_400_000).toISOString().replace('Z', ''),
    ]));
    const kept = trades.filter((t) => !removed.includes(t));
    const params = parseTradeAggregationParams({
      ...randomQuery(random),
      resolution: '3600000',
      offset: '',
      end_time: '',
      limit: '200',
      start_time: String(cut - 86_400_000),
    });
    expect(await tradeAggregationsByIds(test.db, 1, 2, params)).toEqual(
      referenceTradeAggregations(kept, { baseAssetId: 1, counterAssetId: 2, ...params }),
    );
    await test.db.session((sql) => insertTrades(sql, removed));
    await check(10);
    // an update moving trades to another minute rebuilds both minutes
    const moved = trades.slice(0, 50);
    await test.db.session((sql) => sql.query(`UPDATE history_trades SET closed_at = closed_at + interval '90 seconds' WHERE operation_id = ANY($1::bigint[])`, [
      moved.map((t) => t.operationId.toString()),
    ]));
    const movedIds = new Set(moved.map((t) => t.operationId));
    trades = trades.map((t) => (movedIds.has(t.operationId) ? { ...t, closedAt: t.closedAt + 90_000 } : t));
    await check(10);
  });
});
