-- Asset stats (Horizon's exp_asset_stats) for GET /assets: per credit asset, its trust lines
-- (count and balance by authorization), claimable balances and liquidity pools (count and amount).
-- They are kept by statement triggers on trust_lines, claimable_balances and liquidity_pools, so
-- they change in the same transaction as the state rows (a ledger's commit) and the ingester needs
-- no change. Each statement folds its rows' deltas (old rows −, new rows +) into the stats; a stat
-- whose five counts are all zero is removed, as Horizon's asset stats processor removes it.
-- Native balances and pool shares are no asset stat (Horizon skips them).

CREATE TABLE "asset_stats" (
  "asset_type" TEXT NOT NULL,
  "asset_code" TEXT NOT NULL,
  "asset_issuer" TEXT NOT NULL,
  "accounts_authorized" INTEGER NOT NULL,
  "accounts_authorized_to_maintain_liabilities" INTEGER NOT NULL,
  "accounts_unauthorized" INTEGER NOT NULL,
  "num_claimable_balances" INTEGER NOT NULL,
  "num_liquidity_pools" INTEGER NOT NULL,
  -- stroops; sums of int64 balances may exceed int64 (Horizon keeps them as big integers)
  "balances_authorized" DECIMAL(65,30) NOT NULL,
  "balances_authorized_to_maintain_liabilities" DECIMAL(65,30) NOT NULL,
  "balances_unauthorized" DECIMAL(65,30) NOT NULL,
  "claimable_balances_amount" DECIMAL(65,30) NOT NULL,
  "liquidity_pools_amount" DECIMAL(65,30) NOT NULL,
  -- Horizon lists by (code, issuer); the type follows from the code's length
  CONSTRAINT "asset_stats_pkey" PRIMARY KEY ("asset_code", "asset_issuer")
);
CREATE INDEX "asset_stats_asset_issuer_asset_code_idx" ON "asset_stats"("asset_issuer", "asset_code");

-- The stat row of one credit asset ("CODE:ISSUER", as claimable_balances and liquidity_pools
-- name it) with the given counts and amounts; NULL for "native".
CREATE FUNCTION "asset_stats_delta"(asset TEXT, accounts INTEGER[], amounts NUMERIC[]) RETURNS "asset_stats"
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN asset = 'native' THEN NULL ELSE ROW(
    CASE WHEN length(split_part(asset, ':', 1)) <= 4 THEN 'credit_alphanum4' ELSE 'credit_alphanum12' END,
    split_part(asset, ':', 1), split_part(asset, ':', 2),
    accounts[1], accounts[2], accounts[3], accounts[4], accounts[5],
    amounts[1], amounts[2], amounts[3], amounts[4], amounts[5])::"asset_stats" END
$$;

-- A trust line's contribution (sign +1 or −1) to its asset's stat: authorized (flag 1), else
-- authorized to maintain liabilities (flag 2), else unauthorized, as Horizon's delta.addByFlags;
-- NULL for pool shares.
CREATE FUNCTION "asset_stats_of_trust_lines"(t "trust_lines", sign INTEGER) RETURNS "asset_stats"
LANGUAGE sql IMMUTABLE AS $$
  SELECT "asset_stats_delta"(t."asset_code" || ':' || t."asset_issuer",
    ARRAY[a * sign, m * sign, u * sign, 0, 0],
    ARRAY[a * sign * t."balance", m * sign * t."balance", u * sign * t."balance", 0, 0]::NUMERIC[])
  FROM (SELECT (t."flags" & 1 <> 0)::integer AS a,
               (t."flags" & 1 = 0 AND t."flags" & 2 <> 0)::integer AS m,
               (t."flags" & 3 = 0)::integer AS u) f
  WHERE t."asset_type" <> 'liquidity_pool_shares'
$$;

CREATE FUNCTION "asset_stats_of_claimable_balances"(b "claimable_balances", sign INTEGER) RETURNS "asset_stats"
LANGUAGE sql IMMUTABLE AS $$
  SELECT "asset_stats_delta"(b."asset", ARRAY[0, 0, 0, sign, 0], ARRAY[0, 0, 0, sign * b."amount", 0]::NUMERIC[])
$$;

-- A pool counts once for each of its two assets, with its reserve of that asset.
CREATE FUNCTION "asset_stats_of_liquidity_pools"(p "liquidity_pools", sign INTEGER) RETURNS SETOF "asset_stats"
LANGUAGE sql IMMUTABLE AS $$
  SELECT "asset_stats_delta"(p."asset_a", ARRAY[0, 0, 0, 0, sign], ARRAY[0, 0, 0, 0, sign * p."reserve_a"]::NUMERIC[])
  UNION ALL
  SELECT "asset_stats_delta"(p."asset_b", ARRAY[0, 0, 0, 0, sign], ARRAY[0, 0, 0, 0, sign * p."reserve_b"]::NUMERIC[])
$$;

-- Folds deltas into the stats: summed per asset, added to the stat (created when missing), and the
-- stats left without any holder, balance or pool removed.
CREATE FUNCTION "asset_stats_add"(deltas "asset_stats"[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  -- an upsert fires the insert and the update trigger, one of them usually without rows
  IF cardinality(deltas) = 0 THEN
    RETURN;
  END IF;
  INSERT INTO "asset_stats" AS s
  SELECT min(d."asset_type"), d."asset_code", d."asset_issuer",
    sum(d."accounts_authorized"), sum(d."accounts_authorized_to_maintain_liabilities"), sum(d."accounts_unauthorized"),
    sum(d."num_claimable_balances"), sum(d."num_liquidity_pools"),
    sum(d."balances_authorized"), sum(d."balances_authorized_to_maintain_liabilities"), sum(d."balances_unauthorized"),
    sum(d."claimable_balances_amount"), sum(d."liquidity_pools_amount")
  FROM unnest(deltas) AS d
  WHERE d."asset_code" IS NOT NULL
  GROUP BY d."asset_code", d."asset_issuer"
  -- an update that moved nothing (a trust line's limit) is no change
  HAVING sum(d."accounts_authorized") <> 0 OR sum(d."accounts_authorized_to_maintain_liabilities") <> 0
    OR sum(d."accounts_unauthorized") <> 0 OR sum(d."num_claimable_balances") <> 0 OR sum(d."num_liquidity_pools") <> 0
    OR sum(d."balances_authorized") <> 0 OR sum(d."balances_authorized_to_maintain_liabilities") <> 0
    OR sum(d."balances_unauthorized") <> 0 OR sum(d."claimable_balances_amount") <> 0 OR sum(d."liquidity_pools_amount") <> 0
  ON CONFLICT ("asset_code", "asset_issuer") DO UPDATE SET
    "accounts_authorized" = s."accounts_authorized" + EXCLUDED."accounts_authorized",
    "accounts_authorized_to_maintain_liabilities" = s."accounts_authorized_to_maintain_liabilities" + EXCLUDED."accounts_authorized_to_maintain_liabilities",
    "accounts_unauthorized" = s."accounts_unauthorized" + EXCLUDED."accounts_unauthorized",
    "num_claimable_balances" = s."num_claimable_balances" + EXCLUDED."num_claimable_balances",
    "num_liquidity_pools" = s."num_liquidity_pools" + EXCLUDED."num_liquidity_pools",
    "balances_authorized" = s."balances_authorized" + EXCLUDED."balances_authorized",
    "balances_authorized_to_maintain_liabilities" = s."balances_authorized_to_maintain_liabilities" + EXCLUDED."balances_authorized_to_maintain_liabilities",
    "balances_unauthorized" = s."balances_unauthorized" + EXCLUDED."balances_unauthorized",
    "claimable_balances_amount" = s."claimable_balances_amount" + EXCLUDED."claimable_balances_amount",
    "liquidity_pools_amount" = s."liquidity_pools_amount" + EXCLUDED."liquidity_pools_amount";
  DELETE FROM "asset_stats" s
  USING (SELECT DISTINCT d."asset_code", d."asset_issuer" FROM unnest(deltas) AS d WHERE d."asset_code" IS NOT NULL) k
  WHERE s."asset_code" = k."asset_code" AND s."asset_issuer" = k."asset_issuer"
    AND s."accounts_authorized" = 0 AND s."accounts_authorized_to_maintain_liabilities" = 0 AND s."accounts_unauthorized" = 0
    AND s."num_claimable_balances" = 0 AND s."num_liquidity_pools" = 0;
END
$$;

-- The stats recomputed from the three tables (after a TRUNCATE of any of them).
CREATE FUNCTION "asset_stats_rebuild"() RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "asset_stats";
  PERFORM "asset_stats_add"(ARRAY(
    SELECT "asset_stats_of_trust_lines"(t, 1) FROM "trust_lines" t
    UNION ALL SELECT "asset_stats_of_claimable_balances"(b, 1) FROM "claimable_balances" b
    UNION ALL SELECT "asset_stats_of_liquidity_pools"(p, 1) FROM "liquidity_pools" p));
END
$$;

-- One trigger function for the three tables: INSERT adds the new rows, DELETE subtracts the old
-- ones, UPDATE (also an upsert's ON CONFLICT DO UPDATE) both, through the table's asset_stats_of_*
-- function; TRUNCATE rebuilds. Dynamic SQL names that function (and sees the transition tables);
-- it is planned once per statement, not per row.
CREATE FUNCTION "asset_stats_changed"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  of_row TEXT := 'asset_stats_of_' || TG_TABLE_NAME;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM "asset_stats_rebuild"();
    RETURN NULL;
  END IF;
  EXECUTE format('SELECT "asset_stats_add"(ARRAY(%s))', concat_ws(' UNION ALL ',
    CASE WHEN TG_OP <> 'INSERT' THEN format('SELECT %I(o, -1) FROM "old_rows" o', of_row) END,
    CASE WHEN TG_OP <> 'DELETE' THEN format('SELECT %I(n, 1) FROM "new_rows" n', of_row) END));
  RETURN NULL;
END
$$;

DO $$
DECLARE
  t TEXT;
BEGIN
  FOREACH t IN ARRAY ARRAY['trust_lines', 'claimable_balances', 'liquidity_pools'] LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS "new_rows"
      FOR EACH STATEMENT EXECUTE FUNCTION "asset_stats_changed"()', t || '_asset_stats_insert', t);
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS "old_rows"
      FOR EACH STATEMENT EXECUTE FUNCTION "asset_stats_changed"()', t || '_asset_stats_delete', t);
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows"
      FOR EACH STATEMENT EXECUTE FUNCTION "asset_stats_changed"()', t || '_asset_stats_update', t);
    EXECUTE format('CREATE TRIGGER %I AFTER TRUNCATE ON %I
      FOR EACH STATEMENT EXECUTE FUNCTION "asset_stats_changed"()', t || '_asset_stats_truncate', t);
  END LOOP;
END
$$;

-- Stats for the state already ingested.
SELECT "asset_stats_rebuild"();
