-- The filters of the state lists (issue #17), each read in its list's key order so a page is an
-- index range: /offers by selling or buying asset or by sponsor (in offer id order), /accounts by
-- sponsor (Horizon's union of accounts, data, signers and trust lines sponsored), by asset and by
-- liquidity pool (in account id order). Sponsors and pool shares are rare: partial indexes.
CREATE INDEX "offers_selling_asset_id_idx" ON "offers"("selling_asset", "id");
CREATE INDEX "offers_buying_asset_id_idx" ON "offers"("buying_asset", "id");
CREATE INDEX "offers_sponsor_id_idx" ON "offers"("sponsor", "id") WHERE "sponsor" IS NOT NULL;
CREATE INDEX "accounts_sponsor_id_idx" ON "accounts"("sponsor", "id") WHERE "sponsor" IS NOT NULL;
CREATE INDEX "accounts_data_sponsor_account_id_idx" ON "accounts_data"("sponsor", "account_id") WHERE "sponsor" IS NOT NULL;
CREATE INDEX "accounts_signers_sponsor_account_id_idx" ON "accounts_signers"("sponsor", "account_id") WHERE "sponsor" IS NOT NULL;
CREATE INDEX "trust_lines_sponsor_account_id_idx" ON "trust_lines"("sponsor", "account_id") WHERE "sponsor" IS NOT NULL;
-- an asset's holders in account order: supersedes the index on (asset_code, asset_issuer)
DROP INDEX "trust_lines_asset_code_asset_issuer_idx";
CREATE INDEX "trust_lines_asset_code_asset_issuer_account_id_idx" ON "trust_lines"("asset_code", "asset_issuer", "account_id");
CREATE INDEX "trust_lines_liquidity_pool_id_account_id_idx" ON "trust_lines"("liquidity_pool_id", "account_id") WHERE "liquidity_pool_id" <> '';
