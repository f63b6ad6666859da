-- The first schema: history (ledgers, transactions, operations, effects, trades, participants,
-- assets), state (accounts, signers, data, trust lines, offers) and bookkeeping.
-- Written by hand in Prisma's conventions (names, types); test/db/schema_match.db.test.ts keeps it
-- equal to prisma/schema.prisma.

-- history ---------------------------------------------------------------------------------------

CREATE TABLE "history_ledgers" (
    "sequence" INTEGER NOT NULL,
    "hash" TEXT NOT NULL,
    "prev_hash" TEXT,
    "closed_at" TIMESTAMP(3) NOT NULL,
    "successful_transaction_count" INTEGER NOT NULL,
    "failed_transaction_count" INTEGER NOT NULL,
    "operation_count" INTEGER NOT NULL,
    "tx_set_operation_count" INTEGER NOT NULL,
    "total_coins" BIGINT NOT NULL,
    "fee_pool" BIGINT NOT NULL,
    "base_fee" INTEGER NOT NULL,
    "base_reserve" INTEGER NOT NULL,
    "max_tx_set_size" INTEGER NOT NULL,
    "protocol_version" INTEGER NOT NULL,
    "header_xdr" TEXT NOT NULL,
    CONSTRAINT "history_ledgers_pkey" PRIMARY KEY ("sequence")
);
CREATE UNIQUE INDEX "history_ledgers_hash_key" ON "history_ledgers"("hash");

CREATE TABLE "history_transactions" (
    "id" BIGINT NOT NULL,
    "hash" TEXT NOT NULL,
    "ledger_sequence" INTEGER NOT NULL,
    "application_order" INTEGER NOT NULL,
    "closed_at" TIMESTAMP(3) NOT NULL,
    "successful" BOOLEAN NOT NULL,
    "account" TEXT NOT NULL,
    "account_muxed" TEXT,
    "account_sequence" BIGINT NOT NULL,
    "max_fee" BIGINT NOT NULL,
    "fee_charged" BIGINT NOT NULL,
    "operation_count" INTEGER NOT NULL,
    "memo_type" TEXT NOT NULL,
    "memo" TEXT,
    "signatures" TEXT[],
    "valid_after" BIGINT,
    "valid_before" BIGINT,
    "min_ledger" INTEGER,
    "max_ledger" INTEGER,
    "min_account_sequence" BIGINT,
    "min_account_sequence_age" BIGINT,
    "min_account_sequence_ledger_gap" INTEGER,
    "extra_signers" TEXT[],
    "fee_account" TEXT,
    "fee_account_muxed" TEXT,
    "new_max_fee" BIGINT,
    "inner_transaction_hash" TEXT,
    "inner_signatures" TEXT[],
    "envelope_xdr" TEXT NOT NULL,
    "result_xdr" TEXT NOT NULL,
    "result_meta_xdr" TEXT NOT NULL,
    "fee_meta_xdr" TEXT NOT NULL,
    CONSTRAINT "history_transactions_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "history_transactions_hash_key" ON "history_transactions"("hash");
CREATE INDEX "history_transactions_ledger_sequence_idx" ON "history_transactions"("ledger_sequence");
CREATE INDEX "history_transactions_inner_transaction_hash_idx" ON "history_transactions"("inner_transaction_hash");

CREATE TABLE "history_operations" (
    "id" BIGINT NOT NULL,
    "transaction_id" BIGINT NOT NULL,
    "transaction_hash" TEXT NOT NULL,
    "application_order" INTEGER NOT NULL,
    "closed_at" TIMESTAMP(3) NOT NULL,
    "type" INTEGER NOT NULL,
    "details" JSONB NOT NULL,
    "source_account" TEXT NOT NULL,
    "source_account_muxed" TEXT,
    "transaction_successful" BOOLEAN NOT NULL,
    "is_payment" BOOLEAN NOT NULL,
    CONSTRAINT "history_operations_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "history_operations_transaction_id_idx" ON "history_operations"("transaction_id");

CREATE TABLE "history_effects" (
    "operation_id" BIGINT NOT NULL,
    "order" INTEGER NOT NULL,
    "account" TEXT NOT NULL,
    "account_muxed" TEXT,
    "closed_at" TIMESTAMP(3) NOT NULL,
    "type" INTEGER NOT NULL,
    "details" JSONB NOT NULL,
    CONSTRAINT "history_effects_pkey" PRIMARY KEY ("operation_id", "order")
);
CREATE INDEX "history_effects_account_operation_id_order_idx" ON "history_effects"("account", "operation_id", "order");
CREATE INDEX "history_effects_type_operation_id_order_idx" ON "history_effects"("type", "operation_id", "order");

CREATE TABLE "history_trades" (
    "operation_id" BIGINT NOT NULL,
    "order" INTEGER NOT NULL,
    "closed_at" TIMESTAMP(3) NOT NULL,
    "offer_id" BIGINT,
    "base_offer_id" BIGINT,
    "base_account" TEXT,
    "base_asset_id" INTEGER NOT NULL,
    "base_amount" BIGINT NOT NULL,
    "counter_offer_id" BIGINT,
    "counter_account" TEXT,
    "counter_asset_id" INTEGER NOT NULL,
    "counter_amount" BIGINT NOT NULL,
    "base_is_seller" BOOLEAN NOT NULL,
    "price_n" BIGINT NOT NULL,
    "price_d" BIGINT NOT NULL,
    CONSTRAINT "history_trades_pkey" PRIMARY KEY ("operation_id", "order")
);
CREATE INDEX "history_trades_base_asset_id_counter_asset_id_closed_at_idx" ON "history_trades"("base_asset_id", "counter_asset_id", "closed_at");
CREATE INDEX "history_trades_base_asset_id_counter_asset_id_operation_id_idx" ON "history_trades"("base_asset_id", "counter_asset_id", "operation_id", "order");
CREATE INDEX "history_trades_base_offer_id_operation_id_order_idx" ON "history_trades"("base_offer_id", "operation_id", "order");
CREATE INDEX "history_trades_counter_offer_id_operation_id_order_idx" ON "history_trades"("counter_offer_id", "operation_id", "order");
CREATE INDEX "history_trades_base_account_operation_id_order_idx" ON "history_trades"("base_account", "operation_id", "order");
CREATE INDEX "history_trades_counter_account_operation_id_order_idx" ON "history_trades"("counter_account", "operation_id", "order");

CREATE TABLE "history_assets" (
    "id" SERIAL NOT NULL,
    "type" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "issuer" TEXT NOT NULL,
    CONSTRAINT "history_assets_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "history_assets_type_code_issuer_key" ON "history_assets"("type", "code", "issuer");

CREATE TABLE "history_transaction_participants" (
    "account" TEXT NOT NULL,
    "transaction_id" BIGINT NOT NULL,
    CONSTRAINT "history_transaction_participants_pkey" PRIMARY KEY ("account", "transaction_id")
);
CREATE INDEX "history_transaction_participants_transaction_id_idx" ON "history_transaction_participants"("transaction_id");

CREATE TABLE "history_operation_participants" (
    "account" TEXT NOT NULL,
    "operation_id" BIGINT NOT NULL,
    CONSTRAINT "history_operation_participants_pkey" PRIMARY KEY ("account", "operation_id")
);
CREATE INDEX "history_operation_participants_operation_id_idx" ON "history_operation_participants"("operation_id");

-- state -----------------------------------------------------------------------------------------

CREATE TABLE "accounts" (
    "id" TEXT NOT NULL,
    "balance" BIGINT NOT NULL,
    "buying_liabilities" BIGINT NOT NULL DEFAULT 0,
    "selling_liabilities" BIGINT NOT NULL DEFAULT 0,
    "sequence" BIGINT NOT NULL,
    "sequence_ledger" INTEGER,
    "sequence_time" BIGINT,
    "subentry_count" INTEGER NOT NULL,
    "num_sponsoring" INTEGER NOT NULL DEFAULT 0,
    "num_sponsored" INTEGER NOT NULL DEFAULT 0,
    "inflation_destination" TEXT,
    "home_domain" TEXT NOT NULL DEFAULT '',
    "flags" INTEGER NOT NULL,
    "master_weight" INTEGER NOT NULL,
    "threshold_low" INTEGER NOT NULL,
    "threshold_medium" INTEGER NOT NULL,
    "threshold_high" INTEGER NOT NULL,
    "last_modified_ledger" INTEGER NOT NULL,
    CONSTRAINT "accounts_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "accounts_signers" (
    "account_id" TEXT NOT NULL,
    "signer" TEXT NOT NULL,
    "weight" INTEGER NOT NULL,
    "sponsor" TEXT,
    CONSTRAINT "accounts_signers_pkey" PRIMARY KEY ("account_id", "signer")
);
CREATE INDEX "accounts_signers_signer_idx" ON "accounts_signers"("signer");

CREATE TABLE "accounts_data" (
    "account_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "last_modified_ledger" INTEGER NOT NULL,
    CONSTRAINT "accounts_data_pkey" PRIMARY KEY ("account_id", "name")
);

CREATE TABLE "trust_lines" (
    "account_id" TEXT NOT NULL,
    "asset_type" TEXT NOT NULL,
    "asset_code" TEXT NOT NULL,
    "asset_issuer" TEXT NOT NULL,
    "balance" BIGINT NOT NULL,
    "limit" BIGINT NOT NULL,
    "buying_liabilities" BIGINT NOT NULL DEFAULT 0,
    "selling_liabilities" BIGINT NOT NULL DEFAULT 0,
    "flags" INTEGER NOT NULL,
    "last_modified_ledger" INTEGER NOT NULL,
    CONSTRAINT "trust_lines_pkey" PRIMARY KEY ("account_id", "asset_code", "asset_issuer")
);
CREATE INDEX "trust_lines_asset_code_asset_issuer_idx" ON "trust_lines"("asset_code", "asset_issuer");

CREATE TABLE "offers" (
    "id" BIGINT NOT NULL,
    "seller_id" TEXT NOT NULL,
    "selling_asset" TEXT NOT NULL,
    "buying_asset" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "price_n" INTEGER NOT NULL,
    "price_d" INTEGER NOT NULL,
    "price" DOUBLE PRECISION NOT NULL,
    "flags" INTEGER NOT NULL,
    "last_modified_ledger" INTEGER NOT NULL,
    CONSTRAINT "offers_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "offers_seller_id_id_idx" ON "offers"("seller_id", "id");
CREATE INDEX "offers_selling_asset_buying_asset_price_id_idx" ON "offers"("selling_asset", "buying_asset", "price", "id");

-- bookkeeping -----------------------------------------------------------------------------------

CREATE TABLE "ingest_cursor" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "ledger_sequence" INTEGER NOT NULL,
    "ledger_hash" TEXT NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ingest_cursor_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "key_value_store" (
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    CONSTRAINT "key_value_store_pkey" PRIMARY KEY ("key")
);
