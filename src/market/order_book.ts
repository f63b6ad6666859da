// Horizon's /order_book summary (db2/history/orderbook.go): base = selling, counter = buying;
// asks are offers selling base for counter, bids are offers selling counter for base. Offers are
// aggregated into price levels (the level's reduced n/d), best first: asks by ascending price,
// bids by descending price, i.e. ascending price of the offers behind them. A bid's price is
// inverted into counter per base; its amount stays the offers' amount, in the counter asset.
import type { Database } from '../db/database.js';
import {
  assetRecord,
  formatAmount,
  formatCanonicalAsset,
  formatRatio,
  parseAssetArg,
  type AssetQuery,
  type AssetRecord,
  type AssetValue,
} from '../stellar/index.js';
import { parseLimit } from './trade_aggregation_params.js';

export const ORDER_BOOK_DEFAULT_LIMIT = 20;
export const ORDER_BOOK_MAX_LIMIT = 200;

export interface PriceLevel {
  readonly priceR: { readonly n: number; readonly d: number };
  readonly price: string;
  readonly amount: string;
}

export interface OrderBookSummary {
  readonly base: AssetRecord;
  readonly counter: AssetRecord;
  readonly bids: PriceLevel[];
  readonly asks: PriceLevel[];
}

export interface OrderBookParams {
  readonly selling: AssetValue;
  readonly buying: AssetValue;
  readonly limit: number;
}

/** The arguments as given (GraphQL's orderBook, REST's /order_book query). */
export interface OrderBookInput {
  readonly selling: AssetQuery;
  readonly buying: AssetQuery;
  readonly limit?: number | null;
}

/** Errors are InvalidValueError naming the REST field (`buying_asset_issuer`, `limit`). */
export function parseOrderBookParams(input: OrderBookInput): OrderBookParams {
  const selling = parseAssetArg(input.selling, 'selling');
  const buying = parseAssetArg(input.buying, 'buying');
  return { selling, buying, limit: parseLimit(input.limit, ORDER_BOOK_DEFAULT_LIMIT, ORDER_BOOK_MAX_LIMIT) };
}

// Reduced fractions grouped; ordered exactly (n·10^20 div d separates distinct int32 fractions).
const LEVELS = `
  SELECT n, d, sum(amount)::text AS amount FROM (
    SELECT price_n / gcd(price_n, price_d) AS n, price_d / gcd(price_n, price_d) AS d, amount
    FROM offers WHERE selling_asset = $1 AND buying_asset = $2) o
  GROUP BY n, d ORDER BY div(n::numeric * 1e20, d), n LIMIT $3`;

interface LevelRow {
  n: number;
  d: number;
  amount: string;
}

function level(row: LevelRow, invert: boolean): PriceLevel {
  const n = invert ? Number(row.d) : Number(row.n);
  const d = invert ? Number(row.n) : Number(row.d);
  return { priceR: { n, d }, price: formatRatio(BigInt(n), BigInt(d)), amount: formatAmount(BigInt(row.amount)) };
}

export async function orderBook(
  db: Database,
  selling: AssetValue,
  buying: AssetValue,
  limit: number = ORDER_BOOK_DEFAULT_LIMIT,
): Promise<OrderBookSummary> {
  const base = formatCanonicalAsset(selling);
  const counter = formatCanonicalAsset(buying);
  const [asks, bids] = await db.session(async (sql) => [
    await sql.query<LevelRow>(LEVELS, [base, counter, limit]),
    await sql.query<LevelRow>(LEVELS, [counter, base, limit]),
  ]);
  return {
    base: assetRecord(selling),
    counter: assetRecord(buying),
    bids: bids.map((row) => level(row, true)),
    asks: asks.map((row) => level(row, false)),
  };
}
