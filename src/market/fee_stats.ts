// Horizon's /fee_stats (and the older /operation_fee_stats): fees per operation over the last 5
// ledgers, as db2/history FeeStats and LedgerCapacityUsageStats compute them. A fee per operation
// is the transaction's fee divided (integer division) by its operation count, plus one operation
// for a fee-bump; max_fee of a fee-bump is its new max fee. The deprecated flat *_accepted_fee
// fields are the max_fee distribution, as Horizon maps them. Without transactions in the window
// every fee figure is the last ledger's base fee.
import type { Database } from '../db/database.js';

export const FEE_STATS_LEDGERS = 5;

const PERCENTILES = [10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99] as const;
type Percentile = (typeof PERCENTILES)[number];

/** A distribution of fees per operation; every value a string of stroops. */
export type FeeDistribution = { readonly max: string; readonly min: string; readonly mode: string } & {
  readonly [K in Percentile as `p${K}`]: string;
};

export type FeeStats = {
  readonly lastLedger: string;
  readonly lastLedgerBaseFee: string;
  /** operations / capacity over the window, rounded to 2 decimals ("0.04", "0") */
  readonly ledgerCapacityUsage: string;
  readonly minAcceptedFee: string;
  readonly modeAcceptedFee: string;
  readonly feeCharged: FeeDistribution;
  readonly maxFee: FeeDistribution;
} & { readonly [K in Percentile as `p${K}AcceptedFee`]: string };

const OPS = '(CASE WHEN new_max_fee IS NULL THEN operation_count ELSE operation_count + 1 END)';
const FEE_CHARGED = `(fee_charged / ${OPS})`;
const MAX_FEE = `(COALESCE(new_max_fee, max_fee) / ${OPS})`;

function distributionSql(expression: string, prefix: string): string {
  return [
    ...PERCENTILES.map(
      (p) => `percentile_disc(0.${String(p).padStart(2, '0')}) WITHIN GROUP (ORDER BY ${expression})::text AS ${prefix}_p${p}`,
    ),
    `max(${expression})::text AS ${prefix}_max`,
    `min(${expression})::text AS ${prefix}_min`,
    `mode() WITHIN GROUP (ORDER BY ${expression})::text AS ${prefix}_mode`,
  ].join(',\n');
}

// the transactions of ledgers ($1, $2] are the TOID range [($1 + 1) << 32, ($2 + 1) << 32)
const FEES = `SELECT ${distributionSql(FEE_CHARGED, 'fee_charged')}, ${distributionSql(MAX_FEE, 'max_fee')}
  FROM history_transactions WHERE id >= (($1::bigint + 1) << 32) AND id < (($2::bigint + 1) << 32)`;

const CAPACITY = `
  SELECT ROUND(SUM(operation_count::numeric) / SUM(max_tx_set_size), 2)::text AS usage FROM (
    SELECT l.sequence, COALESCE(SUM(t.operation_count), 0) AS operation_count, l.max_tx_set_size
    FROM history_ledgers l LEFT JOIN history_transactions t
      ON t.id >= (l.sequence::bigint << 32) AND t.id < ((l.sequence::bigint + 1) << 32)
    WHERE l.sequence > $1 AND l.sequence <= $2
    GROUP BY l.sequence, l.max_tx_set_size) a`;

function distribution(row: Record<string, string | null>, prefix: string, fallback: string): FeeDistribution {
  const get = (name: string) => row[`${prefix}_${name}`] ?? fallback;
  return {
    max: get('max'),
    min: get('min'),
    mode: get('mode'),
    p10: get('p10'),
    p20: get('p20'),
    p30: get('p30'),
    p40: get('p40'),
    p50: get('p50'),
    p60: get('p60'),
    p70: get('p70'),
    p80: get('p80'),
    p90: get('p90'),
    p95: get('p95'),
    p99: get('p99'),
  };
}

/** Fee statistics as of the last ingested ledger; all "0" on an empty database. */
export async function feeStats(db: Database): Promise<FeeStats> {
  return db.session(async (sql) => {
    const [latest] = await sql.query<{ sequence: number; base_fee: number }>(
      'SELECT sequence, base_fee FROM history_ledgers ORDER BY sequence DESC LIMIT 1',
    );
    const lastLedger = latest ? Number(latest.sequence) : 0;
    const baseFee = latest ? String(latest.base_fee) : '0';
    const window = [lastLedger - FEE_STATS_LEDGERS, lastLedger];
    const [fees] = latest ? await sql.query<Record<string, string | null>>(FEES, window) : [];
    const [capacity] = latest ? await sql.query<{ usage: string | null }>(CAPACITY, window) : [];
    // A JSON float as Go prints it: "0.04", "0.1", "0".
    const usage = String(Number(capacity?.usage ?? '0'));
    const feeCharged = distribution(fees ?? {}, 'fee_charged', baseFee);
    const maxFee = distribution(fees ?? {}, 'max_fee', baseFee);
    return {
      lastLedger: String(lastLedger),
      lastLedgerBaseFee: baseFee,
      ledgerCapacityUsage: usage,
      minAcceptedFee: maxFee.min,
      modeAcceptedFee: maxFee.mode,
      p10AcceptedFee: maxFee.p10,
      p20AcceptedFee: maxFee.p20,
      p30AcceptedFee: maxFee.p30,
      p40AcceptedFee: maxFee.p40,
      p50AcceptedFee: maxFee.p50,
      p60AcceptedFee: maxFee.p60,
      p70AcceptedFee: maxFee.p70,
      p80AcceptedFee: maxFee.p80,
      p90AcceptedFee: maxFee.p90,
      p95AcceptedFee: maxFee.p95,
      p99AcceptedFee: maxFee.p99,
      feeCharged,
      maxFee,
    };
  });
}
