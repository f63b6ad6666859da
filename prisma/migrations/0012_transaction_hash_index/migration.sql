-- The transactions' hash: a hash index in place of the unique B-tree.
--
-- The B-tree's keys are 64-character hex strings that arrive in random order, so every insert
-- lands on a random leaf. At a million transactions it outgrew PGlite's 128 MB of shared buffers
-- and a reingest read ~2.2 GB of it back from the file system (docs/ingest.md), the one index
-- whose cost grew with the history. A hash index keeps a 4-byte hash code per row (~4x smaller)
-- and is only ever asked for equality, which is all the hash is asked for (GET /transactions/{hash},
-- GraphQL's transaction(hash:), submissions looking for their result).
--
-- Uniqueness is not lost: a transaction's id (its TOID) is the primary key, and a network applies
-- a transaction once (it consumes its source's sequence number). Horizon's index on the hash was
-- never unique either (by_hash, a B-tree, later a bigint prefix of the hash).
DROP INDEX "history_transactions_hash_key";
CREATE INDEX "history_transactions_hash_idx" ON "history_transactions" USING HASH ("hash");
