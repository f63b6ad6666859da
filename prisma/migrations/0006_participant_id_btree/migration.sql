-- The participant tables are read by id only when a reingest deletes a range before writing it
-- again. The BRIN indexes of 0005 could not serve that delete: block ranges filled after an index
-- is built stay unsummarized until a VACUUM, and an unsummarized range matches every query, so
-- each delete read the whole table (the planner often chose a sequential scan outright). A B-tree
-- on ids that only grow is cheap to keep: each insert goes to the rightmost page.
DROP INDEX "history_transaction_participants_transaction_id_idx";
CREATE INDEX "history_transaction_participants_transaction_id_idx" ON "history_transaction_participants"("transaction_id");

DROP INDEX "history_operation_participants_operation_id_idx";
CREATE INDEX "history_operation_participants_operation_id_idx" ON "history_operation_participants"("operation_id");
