-- Liquidity pools in the history and the state, and the transaction fields Horizon has that were
-- missing.
--
-- Trades with a liquidity pool (Horizon's trades_processor.go and its migrations 50 and 53): a
-- trade's type (1 orderbook, 2 liquidity_pool), the pool on the side that is one (its account and
-- offer id are then null), the pool's fee and the exchange's rounding slippage in basis points.
-- Existing trades all crossed offers: trade_type defaults to 1, as Horizon's does. Lists filtered
-- by trade type read it with an index, as Horizon's htrd_by_trade_type.
ALTER TABLE "history_trades"
  ADD COLUMN "trade_type" INTEGER NOT NULL DEFAULT 1,
  ADD COLUMN "base_liquidity_pool_id" TEXT,
  ADD COLUMN "counter_liquidity_pool_id" TEXT,
  ADD COLUMN "liquidity_pool_fee" INTEGER,
  ADD COLUMN "rounding_slippage" BIGINT;
CREATE INDEX "history_trades_trade_type_operation_id_order_idx" ON "history_trades"("trade_type", "operation_id", "order");

-- Trade aggregations take pool trades too, except those whose rounding slippage is 1000 bps or
-- more (Horizon's RebuildTradeAggregationTimes with its default --rounding-slippage-filter 1000;
-- an offer's trade has no slippage). The minute buckets are folded from trades here, so every
-- other bucket and every rebuild leaves them out as well. Otherwise as in 0003.
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
      WHERE coalesce(t."rounding_slippage", 0) < 1000
      GROUP BY 1, 2, 3
    ) AS g;
END
$$;

-- Pool shares are trust lines too (Horizon's trust_lines.liquidity_pool_id): asset type
-- liquidity_pool_shares, an empty code and issuer, and the pool's id, which joins the key; an
-- asset's trust line has an empty pool id.
ALTER TABLE "trust_lines" ADD COLUMN "liquidity_pool_id" TEXT NOT NULL DEFAULT '';
ALTER TABLE "trust_lines" DROP CONSTRAINT "trust_lines_pkey",
  ADD CONSTRAINT "trust_lines_pkey" PRIMARY KEY ("account_id", "asset_code", "asset_issuer", "liquidity_pool_id");

-- A text memo's raw bytes (Horizon's memo_bytes): memo holds their UTF-8 reading. Rows ingested
-- before have none; the API reads them from memo (exact unless the memo was not valid UTF-8).
ALTER TABLE "history_transactions" ADD COLUMN "memo_bytes" TEXT;
