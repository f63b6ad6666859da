// Trade aggregations from the minute, hour and day buckets of history_trade_buckets (kept by
// triggers, see prisma/migrations/0002_trade_buckets): the coarsest buckets that tile the segments
// (day buckets for days and weeks without offset; hour buckets when an offset, always whole hours,
// is given; minute buckets below an hour). Buckets of the pair and of its reverse are read in time
// order through the primary key, in batches, and folded into segments until `limit` segments are
// complete, so the cost follows the page asked for, not the length of the history.
import type { Database } from '../db/database.js';
import type { AssetValue } from '../stellar/index.js';
import { mergePart, renderSegment, reversePart, type Segment, type TradeAggregationRecord, type TradePart } from './trade_aggregation.js';
import { segmentStart, type TradeAggregationParams } from './trade_aggregation_params.js';

const MAX_BATCH = 20_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const FAR = 2n ** 62n;

interface BucketRow {
  rev: number;
  start: string | bigint;
  count: number;
  base_volume: string;
  counter_volume: string;
  high_n: string | bigint;
  high_d: string | bigint;
  low_n: string | bigint;
  low_d: string | bigint;
  open_n: string | bigint;
  open_d: string | bigint;
  open_operation_id: string | bigint;
  open_order: number;
  close_n: string | bigint;
  close_d: string | bigint;
  close_operation_id: string | bigint;
  close_order: number;
}

const big = (value: string | bigint): bigint => (typeof value === 'bigint' ? value : BigInt(value));

function bucketPart(row: BucketRow): TradePart {
  const part: TradePart = {
    count: Number(row.count),
    baseVolume: BigInt(row.base_volume),
    counterVolume: BigInt(row.counter_volume),
    high: { n: big(row.high_n), d: big(row.high_d) },
    low: { n: big(row.low_n), d: big(row.low_d) },
    open: { n: big(row.open_n), d: big(row.open_d) },
    openKey: { operationId: big(row.open_operation_id), order: Number(row.open_order) },
    close: { n: big(row.close_n), d: big(row.close_d) },
    closeKey: { operationId: big(row.close_operation_id), order: Number(row.close_order) },
  };
  return Number(row.rev) === 1 ? reversePart(part) : part;
}

/** history_assets ids of the assets, or null for one that never traded. */
export async function tradedAssetIds(db: Database, assets: readonly AssetValue[]): Promise<(number | null)[]> {
  const rows = await db.session((sql) =>
    sql.query<{ id: number; type: string; code: string; issuer: string }>(
      `SELECT id, type, code, issuer FROM history_assets WHERE (type, code, issuer) IN (SELECT * FROM unnest($1::text[], $2::text[], $3::text[]))`,
      [
        assets.map((a) => a.type),
        assets.map((a) => (a.type === 'native' ? '' : a.code)),
        assets.map((a) => (a.type === 'native' ? '' : a.issuer)),
      ],
    ),
  );
  return assets.map((a) => {
    const code = a.type === 'native' ? '' : a.code;
    const issuer = a.type === 'native' ? '' : a.issuer;
    const row = rows.find((r) => r.type === a.type && r.code === code && r.issuer === issuer);
    return row ? Number(row.id) : null;
  });
}

const COLUMNS = `start, count, base_volume::numeric(65,0) AS base_volume, counter_volume::numeric(65,0) AS counter_volume,
  high_n, high_d, low_n, low_d, open_n, open_d, open_operation_id, open_order, close_n, close_d, close_operation_id, close_order`;

/** The page of trade aggregations for validated parameters; empty when either asset never traded. */
export async function tradeAggregations(db: Database, params: TradeAggregationParams): Promise<TradeAggregationRecord[]> {
  const [baseId, counterId] = await tradedAssetIds(db, [params.base, params.counter]);
  if (baseId == null || counterId == null) return [];
  return tradeAggregationsByIds(db, baseId, counterId, params);
}

/** As tradeAggregations, for history_assets ids. */
export async function tradeAggregationsByIds(
  db: Database,
  baseId: number,
  counterId: number,
  params: Pick<TradeAggregationParams, 'resolution' | 'offset' | 'startTime' | 'endTime' | 'order' | 'limit'>,
): Promise<TradeAggregationRecord[]> {
  const asc = params.order === 'asc';
  const dir = asc ? 'ASC' : 'DESC';
  const after = asc ? '>' : '<';
  const bucket =
    params.offset === 0 && params.resolution % DAY === 0
      ? DAY
      : params.resolution % HOUR === 0 && params.offset % HOUR === 0
        ? HOUR
        : 60_000;
  // enough rows for `limit` full segments of both orientations, plus one to see the next segment
  const batch = Math.min(MAX_BATCH, params.limit * (params.resolution / bucket) * 2 + 2);
  // One batch of buckets in time order (the pair's and the reverse's, through the primary key),
  // folded per segment and orientation in SQL, so only a few rows per segment reach JS.
  const text = `
    WITH rows AS (
      (SELECT 0 AS rev, ${COLUMNS} FROM history_trade_buckets
        WHERE base_asset_id = $1 AND counter_asset_id = $2 AND resolution = $8 AND start >= $3 AND start < $4
          AND (start ${after} $5 OR (start = $5 AND 0 ${after} $6))
        ORDER BY start ${dir} LIMIT $7)
      UNION ALL
      (SELECT 1 AS rev, ${COLUMNS} FROM history_trade_buckets
        WHERE base_asset_id = $2 AND counter_asset_id = $1 AND resolution = $8 AND start >= $3 AND start < $4
          AND (start ${after} $5 OR (start = $5 AND 1 ${after} $6))
        ORDER BY start ${dir} LIMIT $7)
      ORDER BY start ${dir}, rev ${dir} LIMIT $7
    ), segments AS (
      SELECT *, start - mod(mod(start - $9, $10) + $10, $10) AS ts FROM rows
    )
    SELECT ts, rev, count(*)::integer AS rows, ${asc ? 'max' : 'min'}(start) AS start,
      sum(count)::bigint AS count, sum(base_volume::numeric)::text AS base_volume, sum(counter_volume::numeric)::text AS counter_volume,
      (array_agg(high_n ORDER BY div(high_n::numeric * 1e40, high_d) DESC, high_n))[1] AS high_n,
      (array_agg(high_d ORDER BY div(high_n::numeric * 1e40, high_d) DESC, high_n))[1] AS high_d,
      (array_agg(low_n ORDER BY div(low_n::numeric * 1e40, low_d), low_n))[1] AS low_n,
      (array_agg(low_d ORDER BY div(low_n::numeric * 1e40, low_d), low_n))[1] AS low_d,
      (array_agg(open_n ORDER BY open_operation_id, open_order))[1] AS open_n,
      (array_agg(open_d ORDER BY open_operation_id, open_order))[1] AS open_d,
      min(open_operation_id) AS open_operation_id,
      (array_agg(open_order ORDER BY open_operation_id, open_order))[1] AS open_order,
      (array_agg(close_n ORDER BY close_operation_id DESC, close_order DESC))[1] AS close_n,
      (array_agg(close_d ORDER BY close_operation_id DESC, close_order DESC))[1] AS close_d,
      max(close_operation_id) AS close_operation_id,
      (array_agg(close_order ORDER BY close_operation_id DESC, close_order DESC))[1] AS close_order
    FROM segments GROUP BY ts, rev ORDER BY ts ${dir}, rev ${dir}`;
  const low = params.startTime === null ? -FAR : BigInt(params.startTime);
  const high = params.endTime === null ? FAR : BigInt(params.endTime);
  let cursorStart = asc ? -FAR - 1n : FAR + 1n;
  let cursorRev = asc ? 1 : 0;
  const segments: Segment[] = [];
  return db.session(async (sql) => {
    for (;;) {
      const groups = await sql.query<BucketRow & { ts: string | bigint; rows: number }>(text, [
        baseId,
        counterId,
        low.toString(),
        high.toString(),
        cursorStart.toString(),
        cursorRev,
        batch,
        bucket,
        params.offset,
        params.resolution,
      ]);
      let rows = 0;
      for (const group of groups) {
        rows += Number(group.rows);
        const timestamp = Number(big(group.ts));
        const last = segments[segments.length - 1];
        if (last && last.timestamp === timestamp) {
          segments[segments.length - 1] = mergePart(last, bucketPart(group));
        } else {
          // a new segment starts: the previous ones are complete
          if (segments.length === params.limit) return segments.map(renderSegment);
          segments.push({ timestamp, ...bucketPart(group) });
        }
        // the batch's last row: the furthest (start, rev) in the direction of the scan
        const start = big(group.start);
        const rev = Number(group.rev);
        const further = asc ? start > cursorStart || (start === cursorStart && rev > cursorRev) : start < cursorStart || (start === cursorStart && rev < cursorRev);
        if (further) {
          cursorStart = start;
          cursorRev = rev;
        }
      }
      if (rows < batch) return segments.map(renderSegment);
    }
  });
}
