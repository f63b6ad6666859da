-- The account sponsoring an entry's reserve (LedgerEntry.ext.v1.sponsoringID, CAP-33), kept for
-- accounts, trust lines, offers and data entries as Horizon keeps it; signers have theirs since 0001.
-- Entries ingested before this migration show no sponsor until their next change.
ALTER TABLE "accounts" ADD COLUMN "sponsor" TEXT;
ALTER TABLE "accounts_data" ADD COLUMN "sponsor" TEXT;
ALTER TABLE "trust_lines" ADD COLUMN "sponsor" TEXT;
ALTER TABLE "offers" ADD COLUMN "sponsor" TEXT;
