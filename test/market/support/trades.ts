// Random history_trades rows and a bulk insert for them.
import type { SqlSession } from '../../../src/db/database.js';
import type { RawTrade } from './trade_aggregation_reference.js';
import type { Random } from './random.js';

export function randomTrades(random: Random, count: number, options: { from: number; span: number; assets: number[] }): RawTrade[] {
  const trades: RawTrade[] = [];
  let operation = 1n << 32n;
  for (let i = 0; i < count; i += 1) {
    operation += BigInt(random.int(1, 3)) << 12n;
    const base = random.pick(options.assets);
    let counter = random.pick(options.assets);
    while (counter === base) counter = random.pick(options.assets);
    const n = BigInt(random.int(1, 12));
    const d = BigInt(random.int(1, 12));
    const baseAmount = random.bigint(1n, 10n ** 12n);
    trades.push({
      operationId: operation,
      order: random.int(1, 3),
      // whole seconds, not in operation order: ingestion order and time order need not agree
      closedAt: options.from + random.int(0, options.span / 1000) * 1000,
      baseAssetId: base,
      counterAssetId: counter,
      baseAmount,
      counterAmount: (baseAmount * n) / d + 1n,
      priceN: n,
      priceD: d,
    });
  }
  return trades;
}

export async function insertTrades(sql: SqlSession, trades: readonly RawTrade[]): Promise<void> {
  await sql.query(
    `INSERT INTO history_trades (operation_id, "order", closed_at, base_asset_id, base_amount, counter_asset_id,
       counter_amount, base_is_seller, price_n, price_d)
     SELECT * FROM unnest($1::bigint[], $2::int[], $3::timestamp[], $4::int[], $5::bigint[], $6::int[], $7::bigint[],
       $8::boolean[], $9::bigint[], $10::bigint[])
     ON CONFLICT DO NOTHING`,
    [
      trades.map((t) => t.operationId.toString()),
      trades.map((t) => t.order),
      trades.map((t) => new Date(t.closedAt).toISOString().replace('T', ' ').replace('Z', '')),
      trades.map((t) => t.baseAssetId),
      trades.map((t) => t.baseAmount.toString()),
      trades.map((t) => t.counterAssetId),
      trades.map((t) => t.counterAmount.toString()),
      trades.map(() => true),
      trades.map((t) => t.priceN.toString()),
      trades.map((t) => t.priceD.toString()),
    ],
  );
}

/** Keeps one trade per (operation id, order), as the primary key does. */
export function uniqueTrades(trades: readonly RawTrade[]): RawTrade[] {
  const seen = new Set<string>();
  return trades.filter((t) => {
    const key = `${t.operationId}-${t.order}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
