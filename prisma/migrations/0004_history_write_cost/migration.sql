-- Less work per ingested row.
--
-- A transaction row carries its envelope, result and meta XDR (~2 KB of base64), so PostgreSQL
-- TOAST-compresses most rows; with the default pglz that compression was a third of the server's
-- CPU in a payment-heavy reingest (bench/ingest.ts). lz4 does the same job for a fraction of
-- the CPU. Servers built without lz4 (PGlite) keep pglz.
DO $$
BEGIN
  ALTER TABLE "history_transactions"
    ALTER COLUMN "envelope_xdr" SET COMPRESSION lz4,
    ALTER COLUMN "result_xdr" SET COMPRESSION lz4,
    ALTER COLUMN "result_meta_xdr" SET COMPRESSION lz4,
    ALTER COLUMN "fee_meta_xdr" SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  NULL;
END
$$;

-- No query reads effects by type: the index only cost an insertion per effect.
DROP INDEX "history_effects_type_operation_id_order_idx";
