-- Fewer index insertions per ingested row: they were half of PostgreSQL's work in a reingest.
--
-- Rows arrive in id (TOID) order and the API reads a ledger's transactions, a transaction's
-- operations and an account's participations by id ranges or by primary key. The indexes below
-- only served range deletes (reingest) or nothing at all:
-- * history_transactions(ledger_sequence): fee stats now read the ledgers' TOID range;
-- * history_transactions(inner_transaction_hash): only fee-bump transactions have one;
-- * the transaction id of operations and participants: a BRIN index (a few pages, nearly free to
--   keep up) finds a range of ids as well as a B-tree does for rows stored in id order.
DROP INDEX "history_transactions_ledger_sequence_idx";

DROP INDEX "history_transactions_inner_transaction_hash_idx";
CREATE INDEX "history_transactions_inner_transaction_hash_idx" ON "history_transactions"("inner_transaction_hash")
  WHERE "inner_transaction_hash" IS NOT NULL;

DROP INDEX "history_operations_transaction_id_idx";
CREATE INDEX "history_operations_transaction_id_idx" ON "history_operations" USING BRIN ("transaction_id");

DROP INDEX "history_transaction_participants_transaction_id_idx";
CREATE INDEX "history_transaction_participants_transaction_id_idx" ON "history_transaction_participants" USING BRIN ("transaction_id");

DROP INDEX "history_operation_participants_operation_id_idx";
CREATE INDEX "history_operation_participants_operation_id_idx" ON "history_operation_participants" USING BRIN ("operation_id");
