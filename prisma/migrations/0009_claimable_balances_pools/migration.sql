-- Claimable balances (CAP-23) and liquidity pools (CAP-38) in the state, and the history rows that
-- link operations and transactions to them, as Horizon's tables of the same names (its
-- claimable_balances_*_processor.go and liquidity_pools_*_processor.go). History links keep the
-- entry's id itself, as the participants tables keep the account (no id mapping table).
CREATE TABLE "claimable_balances" (
  "id" TEXT NOT NULL,
  "asset" TEXT NOT NULL,
  "amount" BIGINT NOT NULL,
  "sponsor" TEXT,
  "flags" INTEGER NOT NULL,
  "claimants" JSONB NOT NULL,
  "last_modified_ledger" INTEGER NOT NULL,
  CONSTRAINT "claimable_balances_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "claimable_balances_last_modified_ledger_id_idx" ON "claimable_balances"("last_modified_ledger", "id");
CREATE INDEX "claimable_balances_asset_last_modified_ledger_id_idx" ON "claimable_balances"("asset", "last_modified_ledger", "id");
CREATE INDEX "claimable_balances_sponsor_last_modified_ledger_id_idx" ON "claimable_balances"("sponsor", "last_modified_ledger", "id");

CREATE TABLE "claimable_balance_claimants" (
  "id" TEXT NOT NULL,
  "destination" TEXT NOT NULL,
  "last_modified_ledger" INTEGER NOT NULL,
  CONSTRAINT "claimable_balance_claimants_pkey" PRIMARY KEY ("id", "destination")
);
CREATE INDEX "claimable_balance_claimants_destination_last_modified_ledger_id_idx" ON "claimable_balance_claimants"("destination", "last_modified_ledger", "id");

CREATE TABLE "liquidity_pools" (
  "id" TEXT NOT NULL,
  "type" INTEGER NOT NULL,
  "fee" INTEGER NOT NULL,
  "trustline_count" BIGINT NOT NULL,
  "share_count" BIGINT NOT NULL,
  "asset_a" TEXT NOT NULL,
  "asset_b" TEXT NOT NULL,
  "reserve_a" BIGINT NOT NULL,
  "reserve_b" BIGINT NOT NULL,
  "last_modified_ledger" INTEGER NOT NULL,
  CONSTRAINT "liquidity_pools_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "liquidity_pools_asset_a_id_idx" ON "liquidity_pools"("asset_a", "id");
CREATE INDEX "liquidity_pools_asset_b_id_idx" ON "liquidity_pools"("asset_b", "id");

CREATE TABLE "history_operation_claimable_balances" (
  "claimable_balance_id" TEXT NOT NULL,
  "operation_id" BIGINT NOT NULL,
  CONSTRAINT "history_operation_claimable_balances_pkey" PRIMARY KEY ("claimable_balance_id", "operation_id")
);
CREATE INDEX "history_operation_claimable_balances_operation_id_idx" ON "history_operation_claimable_balances"("operation_id");

CREATE TABLE "history_transaction_claimable_balances" (
  "claimable_balance_id" TEXT NOT NULL,
  "transaction_id" BIGINT NOT NULL,
  CONSTRAINT "history_transaction_claimable_balances_pkey" PRIMARY KEY ("claimable_balance_id", "transaction_id")
);
CREATE INDEX "history_transaction_claimable_balances_transaction_id_idx" ON "history_transaction_claimable_balances"("transaction_id");

CREATE TABLE "history_operation_liquidity_pools" (
  "liquidity_pool_id" TEXT NOT NULL,
  "operation_id" BIGINT NOT NULL,
  CONSTRAINT "history_operation_liquidity_pools_pkey" PRIMARY KEY ("liquidity_pool_id", "operation_id")
);
CREATE INDEX "history_operation_liquidity_pools_operation_id_idx" ON "history_operation_liquidity_pools"("operation_id");

CREATE TABLE "history_transaction_liquidity_pools" (
  "liquidity_pool_id" TEXT NOT NULL,
  "transaction_id" BIGINT NOT NULL,
  CONSTRAINT "history_transaction_liquidity_pools_pkey" PRIMARY KEY ("liquidity_pool_id", "transaction_id")
);
CREATE INDEX "history_transaction_liquidity_pools_transaction_id_idx" ON "history_transaction_liquidity_pools"("transaction_id");

-- A liquidity pool's trades, on either side (Horizon's htrd_by_base_liquidity_pool_id and counter).
CREATE INDEX "history_trades_base_liquidity_pool_id_operation_id_order_idx" ON "history_trades"("base_liquidity_pool_id", "operation_id", "order") WHERE base_liquidity_pool_id IS NOT NULL;
CREATE INDEX "history_trades_counter_liquidity_pool_id_operation_id_order_idx" ON "history_trades"("counter_liquidity_pool_id", "operation_id", "order") WHERE counter_liquidity_pool_id IS NOT NULL;
