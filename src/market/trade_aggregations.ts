// Trade aggregations from the buckets of history_trade_buckets (kept by triggers, see
// prisma/migrations/0002_trade_buckets and 0003_trade_bucket_offsets): the coarsest buckets that
// tile the segments — minute, 5-minute, 15-minute and hour buckets for those resolutions, day
// buckets shifted by the offset for days and weeks (a week with offset o is seven day-o buckets).
// Buckets of the pair and of its reverse are read in time order through the primary key, in
// batches, and folded into segments until `limit` segments are complete, so the cost follows the
// page asked for, not the length of the history.
import type { Database } from '../db/database.js';
import type { AssetValue } from '../stellar/index.js';
import { mergePart, renderSegment, reversePart, type Segment, type TradeAggregationRecord, type TradePart } from './trade_aggregation.js';
import { segmentStart, type TradeAggregationParams } from './trade_aggregation_params.js';

const MAX_BATCH = 20_000;
const DAY = 86_400_000;
/** Resolutions of the stored buckets below a day, coarsest first (they all have offset 0). */
const SHORT_BUCKETS = [3_600_000, 900_000, 300_000, 60_000];
const FAR = 2n ** 62n;

/**
 * One stored bucket as the query returns it: [rev (1 = the reverse pair), start, count, base volume,
 * counter volume, high n, high d, low n, low d, open n, open d, open operation id, open order,
 * close n, close d, close operation id, close order]; 64-bit values as text.
 */
type BucketTuple = [
  number,
  string,
  number,
  string,
  string,
  string,
  string,
  string,
  string,
  string,
  string,
  string,
  number,
  string,
  string,
  string,
  number,
];

function bucketPart(row: BucketTuple): TradePart {
  const [
    rev,
    ,
    count,
    baseVolume,
    counterVolume,
    highN,
    highD,
    lowN,
    lowD,
    openN,
    openD,
    openOp,
    openOrder,
    closeN,
    closeD,
    closeOp,
    closeOrder,
  ] = row;
  const part: TradePart = {
    count,
    baseVolume: BigInt(baseVolume),
    counterVolume: BigInt(counterVolume),
    high: { n: BigInt(highN), d: BigInt(highD) },
    low: { n: BigInt(lowN), d: BigInt(lowD) },
    open: { n: BigInt(openN), d: BigInt(openD) },
    openKey: { operationId: BigInt(openOp), order: openOrder },
    close: { n: BigInt(closeN), d: BigInt(closeD) },
    closeKey: { operationId: BigInt(closeOp), order: closeOrder },
  };
  return rev === 1 ? reversePart(part) : part;
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

const COLUMNS = `start, count, base_volume, counter_volume, high_n, high_d, low_n, low_d, open_n, open_d,
  open_operation_id, open_order, close_n, close_d, close_operation_id, close_order`;

/**
 * The stored bucket kind (resolution, offset) that tiles segments of `resolution` shifted by
 * `offset`: day buckets with the offset for days and weeks (a week starts on a day-offset
 * boundary), else the coarsest short bucket dividing both.
 */
export function bucketFor(resolution: number, offset: number): [number, number] {
  if (resolution % DAY === 0) return [DAY, offset % DAY];
  const bucket = SHORT_BUCKETS.find((b) => resolution % b === 0 && offset % b === 0);
  if (bucket === undefined) throw new Error(`no bucket tiles resolution ${resolution} with offset ${offset}`);
  return [bucket, 0];
}

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
  const [bucket, bucketOffset] = bucketFor(params.resolution, params.offset);
  // enough rows for `limit` full segments of both orientations, plus one to see the next segment
  const batch = Math.min(MAX_BATCH, params.limit * (params.resolution / bucket) * 2 + 2);
  // One batch of buckets in time order (the pair's and the reverse's, through the primary key),
  // returned as one JSON text: drivers (PGlite above all) spend far more on each row and value of
  // a result than the database spends finding them. Segments are folded here.
  const text = `
    SELECT coalesce(json_agg(json_build_array(rev, start::text, count, base_volume::numeric(65,0)::text, counter_volume::numeric(65,0)::text,
        high_n::text, high_d::text, low_n::text, low_d::text, open_n::text, open_d::text, open_operation_id::text, open_order,
        close_n::text, close_d::text, close_operation_id::text, close_order) ORDER BY start ${dir}, rev ${dir}), '[]')::text AS rows
    FROM (
      (SELECT 0 AS rev, ${COLUMNS} FROM history_trade_buckets
        WHERE base_asset_id = $1 AND counter_asset_id = $2 AND resolution = $8 AND "offset" = $9 AND start >= $3 AND start < $4
          AND (start ${after} $5 OR (start = $5 AND 0 ${after} $6))
        ORDER BY start ${dir} LIMIT $7)
      UNION ALL
      (SELECT 1 AS rev, ${COLUMNS} FROM history_trade_buckets
        WHERE base_asset_id = $2 AND counter_asset_id = $1 AND resolution = $8 AND "offset" = $9 AND start >= $3 AND start < $4
          AND (start ${after} $5 OR (start = $5 AND 1 ${after} $6))
        ORDER BY start ${dir} LIMIT $7)
      ORDER BY start ${dir}, rev ${dir} LIMIT $7
    ) AS batch`;
  const low = params.startTime === null ? -FAR : BigInt(params.startTime);
  const high = params.endTime === null ? FAR : BigInt(params.endTime);
  let cursorStart = asc ? -FAR - 1n : FAR + 1n;
  let cursorRev = asc ? 1 : 0;
  const segments: Segment[] = [];
  return db.session(async (sql) => {
    for (;;) {
      const [result] = await sql.query<{ rows: string }>(text, [
        baseId,
        counterId,
        low.toString(),
        high.toString(),
        cursorStart.toString(),
        cursorRev,
        batch,
        bucket,
        bucketOffset,
      ]);
      const rows = JSON.parse(result?.rows ?? '[]') as BucketTuple[];
      for (const row of rows) {
        const start = Number(row[1]);
        const timestamp = segmentStart(start, params.resolution, params.offset);
        const last = segments[segments.length - 1];
        if (last && last.timestamp === timestamp) {
          segments[segments.length - 1] = mergePart(last, bucketPart(row));
        } else {
          // a new segment starts: the previous ones are complete
          if (segments.length === params.limit) return segments.map(renderSegment);
          segments.push({ timestamp, ...bucketPart(row) });
        }
      }
      const lastRow = rows[rows.length - 1];
      if (lastRow === undefined || rows.length < batch) return segments.map(renderSegment);
      // rows come in scan order: the next batch continues after the last one
      cursorStart = BigInt(lastRow[1]);
      cursorRev = lastRow[0];
    }
  });
}
