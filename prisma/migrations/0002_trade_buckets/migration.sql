-- Per-minute, per-hour and per-day trade buckets for trade aggregations, maintained by statement triggers on
-- history_trades so the ingester needs no change: inserts fold the new trades into their buckets;
-- deletes and updates rebuild the buckets they touched from history_trades, which keeps them right
-- through reingestion (delete a range, insert it again).

CREATE TABLE "history_trade_buckets" (
    "base_asset_id" INTEGER NOT NULL,
    "counter_asset_id" INTEGER NOT NULL,
    "resolution" INTEGER NOT NULL,
    "start" BIGINT NOT NULL,
    "count" INTEGER NOT NULL,
    "base_volume" DECIMAL(65,30) NOT NULL,
    "counter_volume" DECIMAL(65,30) NOT NULL,
    "high_n" BIGINT NOT NULL,
    "high_d" BIGINT NOT NULL,
    "low_n" BIGINT NOT NULL,
    "low_d" BIGINT NOT NULL,
    "open_n" BIGINT NOT NULL,
    "open_d" BIGINT NOT NULL,
    "open_operation_id" BIGINT NOT NULL,
    "open_order" INTEGER NOT NULL,
    "close_n" BIGINT NOT NULL,
    "close_d" BIGINT NOT NULL,
    "close_operation_id" BIGINT NOT NULL,
    "close_order" INTEGER NOT NULL,
    CONSTRAINT "history_trade_buckets_pkey" PRIMARY KEY ("base_asset_id", "counter_asset_id", "resolution", "start")
);

-- The start of the bucket of `resolution` ms a trade falls in, in ms since epoch (closed_at is
-- UTC without a time zone).
CREATE FUNCTION "history_trade_bucket_start"(closed_at TIMESTAMP(3), resolution BIGINT) RETURNS BIGINT
LANGUAGE sql IMMUTABLE AS $$
  SELECT (floor(extract(epoch FROM closed_at) * 1000 / resolution) * resolution)::bigint
$$;

-- Aggregates trades into bucket rows: prices are compared exactly (n/d scaled by 10^40 and
-- truncated keeps distinct int64 fractions distinct); high/low ties go to the smaller numerator;
-- open/close are the first/last trade by (operation_id, order).
CREATE FUNCTION "history_trade_buckets_of"(trades "history_trades"[])
RETURNS SETOF "history_trade_buckets" LANGUAGE sql STABLE AS $$
  SELECT t."base_asset_id", t."counter_asset_id", r.resolution, "history_trade_bucket_start"(t."closed_at", r.resolution), count(*)::integer,
    sum(t."base_amount")::numeric(65,30), sum(t."counter_amount")::numeric(65,30),
    (array_agg(t."price_n" ORDER BY div(t."price_n"::numeric * 1e40, t."price_d") DESC, t."price_n"))[1],
    (array_agg(t."price_d" ORDER BY div(t."price_n"::numeric * 1e40, t."price_d") DESC, t."price_n"))[1],
    (array_agg(t."price_n" ORDER BY div(t."price_n"::numeric * 1e40, t."price_d"), t."price_n"))[1],
    (array_agg(t."price_d" ORDER BY div(t."price_n"::numeric * 1e40, t."price_d"), t."price_n"))[1],
    (array_agg(t."price_n" ORDER BY t."operation_id", t."order"))[1],
    (array_agg(t."price_d" ORDER BY t."operation_id", t."order"))[1],
    (array_agg(t."operation_id" ORDER BY t."operation_id", t."order"))[1],
    (array_agg(t."order" ORDER BY t."operation_id", t."order"))[1],
    (array_agg(t."price_n" ORDER BY t."operation_id" DESC, t."order" DESC))[1],
    (array_agg(t."price_d" ORDER BY t."operation_id" DESC, t."order" DESC))[1],
    (array_agg(t."operation_id" ORDER BY t."operation_id" DESC, t."order" DESC))[1],
    (array_agg(t."order" ORDER BY t."operation_id" DESC, t."order" DESC))[1]
  FROM unnest(trades) AS t CROSS JOIN (VALUES (60000), (3600000), (86400000)) AS r(resolution)
  GROUP BY 1, 2, 3, 4
$$;

-- Recomputes the buckets the given trades fall in from history_trades (after deletes and updates):
-- every bucket of the days they touched.
CREATE FUNCTION "history_trade_buckets_rebuild"(changed "history_trades"[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  first_at TIMESTAMP(3);
  last_at TIMESTAMP(3);
BEGIN
  SELECT min(c."closed_at"), max(c."closed_at") INTO first_at, last_at FROM unnest(changed) AS c;
  IF first_at IS NULL THEN
    RETURN;
  END IF;
  DELETE FROM "history_trade_buckets" b
  USING (SELECT DISTINCT c."base_asset_id", c."counter_asset_id", "history_trade_bucket_start"(c."closed_at", 86400000) AS day
         FROM unnest(changed) AS c) k
  WHERE b."base_asset_id" = k."base_asset_id" AND b."counter_asset_id" = k."counter_asset_id"
    AND b."start" >= k.day AND b."start" < k.day + 86400000;
  INSERT INTO "history_trade_buckets"
  SELECT * FROM "history_trade_buckets_of"(ARRAY(
    SELECT t FROM "history_trades" t
    WHERE t."closed_at" >= date_trunc('day', first_at) AND t."closed_at" < date_trunc('day', last_at) + INTERVAL '1 day'
      AND (t."base_asset_id", t."counter_asset_id", "history_trade_bucket_start"(t."closed_at", 86400000)) IN (
        SELECT c."base_asset_id", c."counter_asset_id", "history_trade_bucket_start"(c."closed_at", 86400000) FROM unnest(changed) AS c)));
END
$$;

-- n1/d1 beats n2/d2 as a high (as a low with `lower`): exactly, ties to the smaller numerator.
CREATE FUNCTION "history_trade_price_wins"(n1 BIGINT, d1 BIGINT, n2 BIGINT, d2 BIGINT, lower BOOLEAN) RETURNS BOOLEAN
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN n1::numeric * d2 = n2::numeric * d1 THEN n1 < n2
    WHEN lower THEN n1::numeric * d2 < n2::numeric * d1
    ELSE n1::numeric * d2 > n2::numeric * d1 END
$$;

-- Inserts fold the new trades into their buckets without reading history_trades: sums add,
-- high/low/open/close take the better of the bucket's and the new trades'.
CREATE FUNCTION "history_trade_buckets_after_insert"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "history_trade_buckets" AS b
  SELECT * FROM "history_trade_buckets_of"(ARRAY(SELECT ROW(n.*)::"history_trades" FROM "new_trades" n))
  ON CONFLICT ("base_asset_id", "counter_asset_id", "resolution", "start") DO UPDATE SET
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
  RETURN NULL;
END
$$;

CREATE FUNCTION "history_trade_buckets_after_delete"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "history_trade_buckets_rebuild"(ARRAY(SELECT ROW(o.*)::"history_trades" FROM "old_trades" o));
  RETURN NULL;
END
$$;

CREATE FUNCTION "history_trade_buckets_after_update"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "history_trade_buckets_rebuild"(ARRAY(SELECT ROW(o.*)::"history_trades" FROM "old_trades" o UNION ALL SELECT ROW(n.*)::"history_trades" FROM "new_trades" n));
  RETURN NULL;
END
$$;

CREATE FUNCTION "history_trade_buckets_after_truncate"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE "history_trade_buckets";
  RETURN NULL;
END
$$;

CREATE TRIGGER "history_trades_buckets_insert" AFTER INSERT ON "history_trades"
  REFERENCING NEW TABLE AS "new_trades" FOR EACH STATEMENT EXECUTE FUNCTION "history_trade_buckets_after_insert"();
CREATE TRIGGER "history_trades_buckets_delete" AFTER DELETE ON "history_trades"
  REFERENCING OLD TABLE AS "old_trades" FOR EACH STATEMENT EXECUTE FUNCTION "history_trade_buckets_after_delete"();
CREATE TRIGGER "history_trades_buckets_update" AFTER UPDATE ON "history_trades"
  REFERENCING OLD TABLE AS "old_trades" NEW TABLE AS "new_trades" FOR EACH STATEMENT EXECUTE FUNCTION "history_trade_buckets_after_update"();
CREATE TRIGGER "history_trades_buckets_truncate" AFTER TRUNCATE ON "history_trades"
  FOR EACH STATEMENT EXECUTE FUNCTION "history_trade_buckets_after_truncate"();
