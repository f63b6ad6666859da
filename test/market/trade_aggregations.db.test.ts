// Property: the bucket-backed query equals a direct recomputation from raw trades, for random
// trades (both orientations of a pair, ties in price, out-of-order inserts) and random parameters
// (every resolution in turn, random hour offsets for days and weeks, rounded start and end, both
// orders, limits), while a range is deleted, after it is inserted again as reingestion does, after
// updates, and for buckets backfilled by migration 0003 from a database filled under 0002. Beside
// the answers, the stored buckets of every kind are compared with the trades: none missing, none
// stale.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { migrate, readMigrations } from '../../src/db/migrate.js';
import {
  ALLOWED_RESOLUTIONS,
  DAY_MS,
  HOUR_MS,
  mergePart,
  parseTradeAggregationParams,
  segmentStart,
  tradeAggregations,
  tradeAggregationsByIds,
  type Segment,
  type TradeAggregationInput,
} from '../../src/market/index.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { seededRandom, type Random } from './support/random.js';
import { referenceTradeAggregations, tradePart, type RawTrade } from './support/trade_aggregation_reference.js';
import { insertTrades, randomTrades, uniqueTrades } from './support/trades.js';

const ISSUER = 'GAXMF43TGZHW3QN3REOUA2U5PW5BTARXGGYJ3JIFHW3YT6QRKRL3CPPU';
const FROM = Date.UTC(2024, 0, 1, 5, 17, 3);
const SPAN = 21 * 86_400_000;

/** The stored bucket kinds: [resolution, offset]. */
const BUCKET_KINDS: [number, number][] = [
  [60_000, 0],
  [300_000, 0],
  [900_000, 0],
  [HOUR_MS, 0],
  ...Array.from({ length: 24 }, (_, h): [number, number] => [DAY_MS, h * HOUR_MS]),
];

/** Every stored bucket's key and contents, as stored and as the trades imply. */
async function bucketSummaries(db: Database, trades: readonly RawTrade[]): Promise<{ stored: string[]; expected: string[] }> {
  const rows = await db.session((sql) =>
    sql.query<{ line: string }>(
      `SELECT concat_ws(' ', base_asset_id, counter_asset_id, resolution, "offset", start, count, base_volume::numeric(65,0), counter_volume::numeric(65,0),
         high_n || '/' || high_d, low_n || '/' || low_d, open_n || '/' || open_d || '@' || open_operation_id || ':' || open_order,
         close_n || '/' || close_d || '@' || close_operation_id || ':' || close_order) AS line
       FROM history_trade_buckets`,
    ),
  );
  const expected = new Map<string, Segment>();
  for (const t of trades) {
    const part = tradePart(t);
    for (const [resolution, offset] of BUCKET_KINDS) {
      const timestamp = segmentStart(t.closedAt, resolution, offset);
      const id = `${t.baseAssetId} ${t.counterAssetId} ${resolution} ${offset} ${timestamp}`;
      const current = expected.get(id);
      expected.set(id, current ? mergePart(current, part) : { timestamp, ...part });
    }
  }
  const line = (id: string, b: Segment) =>
    `${id} ${b.count} ${b.baseVolume} ${b.counterVolume} ${b.high.n}/${b.high.d} ${b.low.n}/${b.low.d} ` +
    `${b.open.n}/${b.open.d}@${b.openKey.operationId}:${b.openKey.order} ${b.close.n}/${b.close.d}@${b.closeKey.operationId}:${b.closeKey.order}`;
  return { stored: rows.map((r) => r.line).sort(), expected: [...expected].map(([id, b]) => line(id, b)).sort() };
}

function randomQuery(random: Random, resolution: number = random.pick(ALLOWED_RESOLUTIONS)): TradeAggregationInput {
  const order = random.pick(['asc', 'desc']);
  const limit = random.pick([1, 2, 3, 10, 200]);
  let offset = resolution > HOUR_MS && random.chance(0.6) ? random.int(1, 23) * HOUR_MS : null;
  if ((offset ?? 0) >= resolution) offset = null;
  const start = random.chance(0.6) ? FROM + random.int(-86_400_000, SPAN) : null;
  const end = random.chance(0.6) ? (start ?? FROM) + random.int(0, SPAN) : null;
  const text = (value: number | null) => (value === null ? null : String(value));
  return {
    base: { assetType: 'native' },
    counter: { assetType: 'credit_alphanum4', assetCode: 'USD', assetIssuer: ISSUER },
    resolution: String(resolution),
    order,
    limit,
    offset: text(offset),
    startTime: text(start),
    endTime: text(end),
  };
}

/** A random valid query: an end rounded below the rounded start is rejected (end_time), as it should be. */
function randomValid(
  random: Random,
  resolution?: number,
): { query: TradeAggregationInput; params: ReturnType<typeof parseTradeAggregationParams> } {
  for (;;) {
    const query = randomQuery(random, resolution);
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
    // 21 days of trades, plus a burst of 400 in 2 hours so that minute buckets hold several trades
    // and equal prices written differently (1/2, 2/4) meet inside one
    const burst = randomTrades(random, 400, { from: FROM + 5 * DAY_MS + 7 * 60_000, span: 7_200_000, assets: [1, 2] });
    trades = uniqueTrades([
      ...randomTrades(random, 3000, { from: FROM, span: SPAN, assets: [1, 2, 3] }),
      ...burst.map((t) => ({ ...t, operationId: t.operationId + (1n << 40n) })),
    ]);
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

  /** `queries` random queries, cycling through the resolutions, against the current `trades`. */
  async function check(queries: number) {
    for (let i = 0; i < queries; i += 1) {
      const { query, params } = randomValid(random, ALLOWED_RESOLUTIONS[i % ALLOWED_RESOLUTIONS.length]);
      const expected = referenceTradeAggregations(trades, { baseAssetId: 1, counterAssetId: 2, ...params });
      const reversed = referenceTradeAggregations(trades, { baseAssetId: 2, counterAssetId: 1, ...params });
      expect(await tradeAggregationsByIds(test.db, 1, 2, params), JSON.stringify(query)).toEqual(expected);
      expect(await tradeAggregationsByIds(test.db, 2, 1, params), JSON.stringify(query)).toEqual(reversed);
    }
    const { stored, expected } = await bucketSummaries(test.db, trades);
    expect(stored).toEqual(expected);
  }

  it('equals the recomputation from raw trades', async () => {
    await check(72);
  });

  it('resolves assets through history_assets', async () => {
    const query: TradeAggregationInput = { ...randomQuery(random), resolution: '3600000', limit: 200, offset: null, endTime: null };
    const params = parseTradeAggregationParams(query);
    const records = await tradeAggregations(test.db, params);
    expect(records).toEqual(referenceTradeAggregations(trades, { baseAssetId: 1, counterAssetId: 2, ...params }));
    const unknown = parseTradeAggregationParams({ ...query, counter: { ...query.counter, assetCode: 'ABC' } });
    expect(await tradeAggregations(test.db, unknown)).toEqual([]);
  });

  it('renders Horizon records', async () => {
    const params = parseTradeAggregationParams({
      base: { assetType: 'native' },
      counter: { assetType: 'credit_alphanum4', assetCode: 'USD', assetIssuer: ISSUER },
      resolution: '604800000',
      limit: 1,
    });
    const [record] = await tradeAggregations(test.db, params);
    expect(record).toBeDefined();
    expect(Object.keys(record ?? {})).toEqual([
      'timestamp',
      'tradeCount',
      'baseVolume',
      'counterVolume',
      'avg',
      'high',
      'highR',
      'low',
      'lowR',
      'open',
      'openR',
      'close',
      'closeR',
    ]);
    expect(record?.baseVolume).toMatch(/^\d+\.\d{7}$/);
    expect(record?.highR).toEqual({ N: expect.any(Number), D: expect.any(Number) });
  });

  it('stays right after a range is deleted and inserted again, and after updates', async () => {
    // a day not aligned to UTC days, so day buckets of every offset are cut on both sides
    const cut = FROM + SPAN / 3;
    const all = trades;
    const removed = all.filter((t) => t.closedAt >= cut && t.closedAt < cut + 86_400_000);
    await test.db.session((sql) =>
      sql.query(`DELETE FROM history_trades WHERE closed_at >= $1::timestamp AND closed_at < $2::timestamp`, [
        new Date(cut).toISOString().replace('Z', ''),
        new Date(cut + 86_400_000).toISOString().replace('Z', ''),
      ]),
    );
    trades = all.filter((t) => !removed.includes(t));
    await check(18);
    await test.db.session((sql) => insertTrades(sql, removed));
    trades = all;
    await check(18);
    // an update moving trades to another minute (some across an hour or day) rebuilds both places
    const moved = trades.slice(0, 50);
    await test.db.session((sql) =>
      sql.query(`UPDATE history_trades SET closed_at = closed_at + interval '90 minutes' WHERE operation_id = ANY($1::bigint[])`, [
        moved.map((t) => t.operationId.toString()),
      ]),
    );
    const movedIds = new Set(moved.map((t) => t.operationId));
    trades = trades.map((t) => (movedIds.has(t.operationId) ? { ...t, closedAt: t.closedAt + 90 * 60_000 } : t));
    await check(18);
  });
});

describe('buckets backfilled by migration 0003', () => {
  let test: TestDatabase;
  let trades: RawTrade[];
  const random = seededRandom(20_251_121);

  beforeAll(async () => {
    test = await createTestDatabase({ migrated: false });
    const migrations = readMigrations();
    await migrate(
      test.db,
      migrations.filter((m) => m.name < '0003'),
    );
    // 80 days: the backfill works in 32-day windows, so day buckets straddle windows
    trades = uniqueTrades(randomTrades(random, 1500, { from: FROM, span: 80 * 86_400_000, assets: [1, 2, 3] }));
    await test.db.session(async (sql) => {
      await sql.query(
        `INSERT INTO history_assets (id, type, code, issuer) VALUES (1, 'native', '', ''), (2, 'credit_alphanum4', 'USD', $1), (3, 'credit_alphanum4', 'EUR', $1)`,
        [ISSUER],
      );
      for (let i = 0; i < trades.length; i += 300) await insertTrades(sql, trades.slice(i, i + 300));
    });
    await migrate(test.db, migrations);
  });
  afterAll(() => test.drop());

  it('has every bucket kind right', async () => {
    const { stored, expected } = await bucketSummaries(test.db, trades);
    expect(stored).toEqual(expected);
    for (let i = 0; i < 36; i += 1) {
      const { query, params } = randomValid(random, ALLOWED_RESOLUTIONS[i % ALLOWED_RESOLUTIONS.length]);
      for (const [base, counter] of [
        [1, 2],
        [2, 1],
        [1, 3],
      ] as const) {
        expect(await tradeAggregationsByIds(test.db, base, counter, params), JSON.stringify(query)).toEqual(
          referenceTradeAggregations(trades, { baseAssetId: base, counterAssetId: counter, ...params }),
        );
      }
    }
  });
});

describe('trades with liquidity pools', () => {
  let test: TestDatabase;

  beforeAll(async () => {
    test = await createTestDatabase();
  });
  afterAll(() => test.drop());

  // Horizon aggregates pool trades too, but only those whose rounding slippage is under its
  // --rounding-slippage-filter (default 1000 bps: RebuildTradeAggregationTimes's
  // coalesce(rounding_slippage, 0) < 1000); an offer's trade has no slippage.
  it('counts those under 1000 bps of rounding slippage, on insert and on rebuild', async () => {
    const at = '2024-01-01 00:00:10';
    const minute = Date.UTC(2024, 0, 1);
    const insert = (sql: Parameters<Parameters<Database['session']>[0]>[0]) =>
      sql.query(
        `INSERT INTO history_trades (operation_id, "order", closed_at, base_asset_id, base_amount, counter_asset_id, counter_amount,
           base_is_seller, price_n, price_d, trade_type, liquidity_pool_fee, rounding_slippage, base_liquidity_pool_id)
         VALUES (4294971393, 0, $1, 1, 100, 2, 200, true, 2, 1, 1, NULL, NULL, NULL),
                (4294971394, 0, $1, 1, 10, 2, 30, true, 3, 1, 2, 30, 999, $2),
                (4294971395, 0, $1, 1, 1, 2, 9, true, 9, 1, 2, 30, 1000, $2)`,
        [at, 'ab'.repeat(32)],
      );
    const aggregate = () =>
      tradeAggregationsByIds(
        test.db,
        1,
        2,
        parseTradeAggregationParams({
          base: { assetType: 'native' },
          counter: { assetType: 'credit_alphanum4', assetCode: 'USD', assetIssuer: ISSUER },
          resolution: '60000',
          startTime: String(minute),
          endTime: String(minute + 60_000),
        }),
      );
    const expected = [
      {
        timestamp: minute,
        tradeCount: 2,
        baseVolume: '0.0000110',
        counterVolume: '0.0000230',
        avg: '2.0909091',
        high: '3.0000000',
        highR: { N: 3, D: 1 },
        low: '2.0000000',
        lowR: { N: 2, D: 1 },
        open: '2.0000000',
        openR: { N: 2, D: 1 },
        close: '3.0000000',
        closeR: { N: 3, D: 1 },
      },
    ];
    await test.db.session(insert);
    expect(await aggregate()).toEqual(expected);
    // a reingest deletes and inserts again: the rebuilt buckets leave the same trade out
    await test.db.session((sql) => sql.query('DELETE FROM history_trades WHERE operation_id = 4294971393'));
    expect((await aggregate())[0]?.tradeCount).toBe(1);
    await test.db.session((sql) => sql.query('DELETE FROM history_trades'));
    await test.db.session(insert);
    expect(await aggregate()).toEqual(expected);
  });
});
