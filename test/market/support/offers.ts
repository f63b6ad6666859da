// Offers rows for market tests and benches.
import type { SqlSession } from '../../../src/db/database.js';

export interface OfferRow {
  id: bigint;
  seller: string;
  selling: string;
  buying: string;
  amount: bigint;
  priceN: number;
  priceD: number;
  lastModifiedLedger?: number;
}

export async function insertOffers(sql: SqlSession, offers: readonly OfferRow[]): Promise<void> {
  if (offers.length === 0) return;
  await sql.query(
    `INSERT INTO offers (id, seller_id, selling_asset, buying_asset, amount, price_n, price_d, price, flags, last_modified_ledger)
     SELECT id, seller, selling, buying, amount, n, d, n::float8 / d, 0, ledger
     FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::int[], $7::int[], $8::int[])
       AS o(id, seller, selling, buying, amount, n, d, ledger)
     ON CONFLICT (id) DO UPDATE SET amount = EXCLUDED.amount, price_n = EXCLUDED.price_n, price_d = EXCLUDED.price_d,
       price = EXCLUDED.price, last_modified_ledger = EXCLUDED.last_modified_ledger`,
    [
      offers.map((o) => o.id.toString()),
      offers.map((o) => o.seller),
      offers.map((o) => o.selling),
      offers.map((o) => o.buying),
      offers.map((o) => o.amount.toString()),
      offers.map((o) => o.priceN),
      offers.map((o) => o.priceD),
      offers.map((o) => o.lastModifiedLedger ?? 1),
    ],
  );
}
