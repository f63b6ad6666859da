-- More trade buckets, so every resolution and offset Horizon allows is tiled by few of them:
-- 5- and 15-minute buckets, and day buckets for every hour offset 0..23 (a day bucket with offset
-- h covers [floor((t − h) / day) · day + h, + 1 day)). 1d with offset h then reads one day-h bucket
-- per segment, 1w with offset o seven day-o buckets. Only day buckets have a non-zero offset.
--
-- Coarser buckets are folded from finer ones rather than from trades: trades → minutes; minutes →
-- 5 minutes, 15 minutes, hours; hours → days of every offset. An insert statement thus aggregates
-- its trades once, whatever the number of bucket kinds. The functions are PL/pgSQL because it keeps
-- their plans across statements, where SQL functions (not inlinable here) are planned at each call:
-- that dominated small statements such as one ledger's trades.

ALTER TABLE "history_trade_buckets" ADD COLUMN "offset" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "history_trade_buckets" ALTER COLUMN "offset" DROP DEFAULT;
ALTER TABLE "history_trade_buckets" DROP CONSTRAINT "history_trade_buckets_pkey",
  ADD CONSTRAINT "history_trade_buckets_pkey" PRIMARY KEY ("base_asset_id", "counter_asset_id", "resolution", "offset", "start");

-- The minute buckets of trades (the finest kind; every other kind is folded from them). Prices
-- compare exactly as n/d scaled by 10^40 and truncated (distinct int64 fractions stay distinct).
-- The best high/low/open/close come from min/max over arrays (value, tie-breaks, then the fields
-- wanted) rather than ordered aggregates: no sort per group, which matters when statements are
-- small and groups hold one or two rows. High ties go to the smaller numerator (max of −n).
CREATE OR REPLACE FUNCTION "history_trade_buckets_of"(trades "history_trades"[])
RETURNS SETOF "history_trade_buckets" LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN QUERY
    SELECT g.base, g.counter, 60000, g.start, g.count, g.base_volume, g.counter_volume,
      (-g.high[2])::bigint, g.high[3]::bigint, g.low[2]::bigint, g.low[3]::bigint,
      g.open[3], g.open[4], g.open[1], g.open[2]::integer, g.close[3], g.close[4], g.close[1], g.close[2]::integer, 0
    FROM (
      SELECT t."base_asset_id" AS base, t."counter_asset_id" AS counter, "history_trade_bucket_start"(t."closed_at", 60000) AS start,
        count(*)::integer AS count, sum(t."base_amount")::numeric(65,30) AS base_volume, sum(t."counter_amount")::numeric(65,30) AS counter_volume,
        max(ARRAY[div(t."price_n"::numeric * 1e40, t."price_d"), -t."price_n", t."price_d"]) AS high,
        min(ARRAY[div(t."price_n"::numeric * 1e40, t."price_d"), t."price_n", t."price_d"]) AS low,
        min(ARRAY[t."operation_id", t."order", t."price_n", t."price_d"]) AS open,
        max(ARRAY[t."operation_id", t."order", t."price_n", t."price_d"]) AS close
      FROM unnest(trades) AS t
      GROUP BY 1, 2, 3
    ) AS g;
END
$$;

-- Folds buckets into coarser ones, once per (resolution, offset) target, by the same rules as for
-- trades. Parts must tile the targets (a finer resolution whose buckets do not straddle a
-- target's edge).
CREATE FUNCTION "history_trade_buckets_fold"(parts "history_trade_buckets"[], resolutions INTEGER[], offsets INTEGER[])
RETURNS SETOF "history_trade_buckets" LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN QUERY
    SELECT g.base, g.counter, g.resolution, g.start, g.count, g.base_volume, g.counter_volume,
      (-g.high[2])::bigint, g.high[3]::bigint, g.low[2]::bigint, g.low[3]::bigint,
      g.open[3], g.open[4], g.open[1], g.open[2]::integer, g.close[3], g.close[4], g.close[1], g.close[2]::integer, g.off
    FROM (
      SELECT p."base_asset_id" AS base, p."counter_asset_id" AS counter, r.resolution, r.off,
        p."start" - ((p."start" - r.off) % r.resolution + r.resolution) % r.resolution AS start,
        sum(p."count")::integer AS count, sum(p."base_volume")::numeric(65,30) AS base_volume, sum(p."counter_volume")::numeric(65,30) AS counter_volume,
        max(ARRAY[div(p."high_n"::numeric * 1e40, p."high_d"), -p."high_n", p."high_d"]) AS high,
        min(ARRAY[div(p."low_n"::numeric * 1e40, p."low_d"), p."low_n", p."low_d"]) AS low,
        min(ARRAY[p."open_operation_id", p."open_order", p."open_n", p."open_d"]) AS open,
        max(ARRAY[p."close_operation_id", p."close_order", p."close_n", p."close_d"]) AS close
      FROM unnest(parts) AS p CROSS JOIN unnest(resolutions, offsets) AS r(resolution, off)
      GROUP BY 1, 2, 3, 4, 5
    ) AS g;
END
$$;

-- Every bucket above the minute that the given minute buckets fall in: 5 and 15 minutes and hours
-- from the minutes, days of each hour offset from those hours.
CREATE FUNCTION "history_trade_buckets_above"(minutes "history_trade_buckets"[])
RETURNS SETOF "history_trade_buckets" LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN QUERY
    WITH hours AS (SELECT * FROM "history_trade_buckets_fold"(minutes, ARRAY[3600000], ARRAY[0]))
    SELECT * FROM "history_trade_buckets_fold"(minutes, ARRAY[300000, 900000], ARRAY[0, 0])
    UNION ALL SELECT * FROM hours
    UNION ALL SELECT * FROM "history_trade_buckets_fold"(
      ARRAY(SELECT ROW(h.*)::"history_trade_buckets" FROM hours h),
      array_fill(86400000, ARRAY[24]), ARRAY(SELECT generate_series(0, 23) * 3600000));
END
$$;

-- Adds partial buckets into the table: a new bucket is stored as is; an existing one adds counts
-- and volumes and keeps the better high/low/open/close. Parts must have distinct keys.
CREATE FUNCTION "history_trade_buckets_merge"(parts "history_trade_buckets"[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "history_trade_buckets" AS b
  SELECT * FROM unnest(parts)
  ON CONFLICT ("base_asset_id", "counter_asset_id", "resolution", "offset", "start") DO UPDATE SET
    "count" = b."count" + EXCLUDED."count",
    "base_volume" = b."base_volume" + EXCLUDED."base_volume",
    "counter_volume" = b."counter_volume" + EXCLUDED."counter_volume",
    "high_n" = CASE WHEN "history_trade_price_wins"(EXCLUDED."high_n", EXCLUDED."high_d", b."high_n", b."high_d", false) THEN EXCLUDED."high_n" ELSE b."high_n" END,
    "high_d" = CASE WHEN "history_trade_price_wins"(EXCLUDED."high_n", EXCLUDED."high_d", b."high_n", b."high_d", false) THEN EXCLUDED."high_d" ELSE b."high_d" END,
    "low_n" = CASE WHEN "history_trade_price_wins"(EXCLUDED."low_n", EXCLUDED."low_d", b."low_n", b."low_d", true) THEN EXCLUDED."low_n" ELSE b."low_n" END,
    "low_d" = CASE WHEN "history_trade_price_wins"(EXCLUDED."low_n", EXCLUDED."low_d", b."low_n", b."low_d", true) THEN EXCLUDED."low_d" ELSE b."low_d" END,
    "open_n" = CASE WHEN (EXCLUDED."open_operation_id", EXCLUDED."open_order") < (b."open_operation_id", b."open_order") THEN EXCLUDED."open_n" ELSE b."open_n" END,
    "open_d" = CASE WHEN (EXCLUDED."open_operation_id", EXCLUDED."open_order") < (b."open_operation_id", b."open_order") THEN EXCLUDED."open_d" ELSE b."open_d" END,
    "open_operation_id" = LEAST(EXCLUDED."open_operation_id", b."open_operation_id"),
    "open_order" = CASE WHEN (EXCLUDED."open_operation_id", EXCLUDED."open_order") < (b."open_operation_id", b."open_order") THEN EXCLUDED."open_order" ELSE b."open_order" END,
    "close_n" = CASE WHEN (EXCLUDED."close_operation_id", EXCLUDED."close_order") > (b."close_operation_id", b."close_order") THEN EXCLUDED."close_n" ELSE b."close_n" END,
    "close_d" = CASE WHEN (EXCLUDED."close_operation_id", EXCLUDED."close_order") > (b."close_operation_id", b."close_order") THEN EXCLUDED."close_d" ELSE b."close_d" END,
    "close_operation_id" = GREATEST(EXCLUDED."close_operation_id", b."close_operation_id"),
    "close_order" = CASE WHEN (EXCLUDED."close_operation_id", EXCLUDED."close_order") > (b."close_operation_id", b."close_order") THEN EXCLUDED."close_order" ELSE b."close_order" END;
END
$$;

-- Inserts fold the new trades into their buckets of every kind without reading history_trades.
CREATE OR REPLACE FUNCTION "history_trade_buckets_after_insert"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  minutes "history_trade_buckets"[];
BEGIN
  minutes := ARRAY(SELECT b FROM "history_trade_buckets_of"(ARRAY(SELECT ROW(n.*)::"history_trades" FROM "new_trades" n)) b);
  PERFORM "history_trade_buckets_merge"(minutes || ARRAY(SELECT b FROM "history_trade_buckets_above"(minutes) b));
  RETURN NULL;
END
$$;

-- Recomputes the buckets the given trades fall in (after deletes and updates): the buckets below a
-- day of every UTC day they touched, from history_trades; then the day buckets of every offset that
-- overlap those days, from the hour buckets of the days around (right again by then).
CREATE OR REPLACE FUNCTION "history_trade_buckets_rebuild"(changed "history_trades"[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  first_at TIMESTAMP(3);
  last_at TIMESTAMP(3);
  -- the touched (pair, UTC day) keys, as parallel arrays
  bases INTEGER[];
  counters INTEGER[];
  days BIGINT[];
  minutes "history_trade_buckets"[];
BEGIN
  SELECT min(c."closed_at"), max(c."closed_at") INTO first_at, last_at FROM unnest(changed) AS c;
  IF first_at IS NULL THEN
    RETURN;
  END IF;
  SELECT array_agg(k.base), array_agg(k.counter), array_agg(k.day) INTO bases, counters, days
  FROM (SELECT DISTINCT c."base_asset_id" AS base, c."counter_asset_id" AS counter, "history_trade_bucket_start"(c."closed_at", 86400000) AS day
        FROM unnest(changed) AS c) k;
  DELETE FROM "history_trade_buckets" b
  USING unnest(bases, counters, days) AS k(base, counter, day)
  WHERE b."base_asset_id" = k.base AND b."counter_asset_id" = k.counter
    AND b."start" > k.day - 86400000 AND b."start" < k.day + 86400000
    AND (b."resolution" = 86400000 OR b."start" >= k.day);
  minutes := ARRAY(SELECT b FROM "history_trade_buckets_of"(ARRAY(
    SELECT t FROM "history_trades" t
    WHERE t."closed_at" >= date_trunc('day', first_at) AND t."closed_at" < date_trunc('day', last_at) + INTERVAL '1 day'
      AND (t."base_asset_id", t."counter_asset_id", "history_trade_bucket_start"(t."closed_at", 86400000)) IN (
        SELECT * FROM unnest(bases, counters, days)))) b);
  INSERT INTO "history_trade_buckets"
  SELECT * FROM unnest(minutes)
  UNION ALL SELECT * FROM "history_trade_buckets_fold"(minutes, ARRAY[300000, 900000, 3600000], ARRAY[0, 0, 0]);
  INSERT INTO "history_trade_buckets"
  SELECT d.* FROM "history_trade_buckets_fold"(
    ARRAY(SELECT DISTINCT ON (h."base_asset_id", h."counter_asset_id", h."start") h
      FROM unnest(bases, counters, days) AS k(base, counter, day)
      JOIN "history_trade_buckets" h ON h."base_asset_id" = k.base AND h."counter_asset_id" = k.counter
        AND h."resolution" = 3600000 AND h."offset" = 0
        AND h."start" >= k.day - 86400000 AND h."start" < k.day + 2 * 86400000),
    array_fill(86400000, ARRAY[24]), ARRAY(SELECT generate_series(0, 23) * 3600000)) d
  WHERE EXISTS (
    SELECT 1 FROM unnest(bases, counters, days) AS k(base, counter, day)
    WHERE d."base_asset_id" = k.base AND d."counter_asset_id" = k.counter
      AND d."start" > k.day - 86400000 AND d."start" < k.day + 86400000);
END
$$;

-- Backfill: 5 and 15 minutes from the stored minutes, days of offsets 1..23 h from the stored
-- hours, per pair and 32-day window so no array grows with the whole history; a day bucket
-- straddling two windows is merged from both halves.
DO $$
DECLARE
  w RECORD;
BEGIN
  FOR w IN
    SELECT "base_asset_id" AS base, "counter_asset_id" AS counter, "start" - "start" % (32 * 86400000::bigint) AS first
    FROM "history_trade_buckets" WHERE "resolution" = 86400000 AND "offset" = 0
    GROUP BY 1, 2, 3
  LOOP
    PERFORM "history_trade_buckets_merge"(ARRAY(
      SELECT b FROM "history_trade_buckets_fold"(ARRAY(
        SELECT m FROM "history_trade_buckets" m
        WHERE m."base_asset_id" = w.base AND m."counter_asset_id" = w.counter AND m."resolution" = 60000 AND m."offset" = 0
          AND m."start" >= w.first AND m."start" < w.first + 32 * 86400000::bigint), ARRAY[300000, 900000], ARRAY[0, 0]) b
      UNION ALL
      SELECT b FROM "history_trade_buckets_fold"(ARRAY(
        SELECT h FROM "history_trade_buckets" h
        WHERE h."base_asset_id" = w.base AND h."counter_asset_id" = w.counter AND h."resolution" = 3600000 AND h."offset" = 0
          AND h."start" >= w.first AND h."start" < w.first + 32 * 86400000::bigint),
        array_fill(86400000, ARRAY[23]), ARRAY(SELECT generate_series(1, 23) * 3600000)) b));
  END LOOP;
END
$$;
