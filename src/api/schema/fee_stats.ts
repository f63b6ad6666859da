// Fee statistics over the last ledgers (src/market/fee_stats.ts); REST renders them as Horizon's
// /fee_stats and /operation_fee_stats. Every figure is a string, as Horizon sends them.
import { feeStats, type FeeDistribution, type FeeStats } from '../../market/index.js';
import { builder } from './builder.js';

const DISTRIBUTION_FIELDS = ['max', 'min', 'mode', 'p10', 'p20', 'p30', 'p40', 'p50', 'p60', 'p70', 'p80', 'p90', 'p95', 'p99'] as const;

const FeeDistributionRef = builder.objectRef<FeeDistribution>('FeeDistribution').implement({
  description: 'A distribution of fees per operation, in stroops.',
  fields: (t) => Object.fromEntries(DISTRIBUTION_FIELDS.map((name) => [name, t.exposeString(name)])),
});

const PERCENTILE_FIELDS = [
  'p10AcceptedFee',
  'p20AcceptedFee',
  'p30AcceptedFee',
  'p40AcceptedFee',
  'p50AcceptedFee',
  'p60AcceptedFee',
  'p70AcceptedFee',
  'p80AcceptedFee',
  'p90AcceptedFee',
  'p95AcceptedFee',
  'p99AcceptedFee',
] as const;

const FeeStatsRef = builder.objectRef<FeeStats>('FeeStats').implement({
  description:
    'Fees per operation over the last 5 ledgers; the flat *AcceptedFee fields are the maxFee distribution (deprecated in Horizon).',
  fields: (t) => ({
    lastLedger: t.exposeString('lastLedger'),
    lastLedgerBaseFee: t.exposeString('lastLedgerBaseFee'),
    ledgerCapacityUsage: t.exposeString('ledgerCapacityUsage', { description: 'operations / capacity over the window' }),
    minAcceptedFee: t.exposeString('minAcceptedFee'),
    modeAcceptedFee: t.exposeString('modeAcceptedFee'),
    ...Object.fromEntries(PERCENTILE_FIELDS.map((name) => [name, t.exposeString(name)])),
    feeCharged: t.field({ type: FeeDistributionRef, resolve: (stats) => stats.feeCharged }),
    maxFee: t.field({ type: FeeDistributionRef, resolve: (stats) => stats.maxFee }),
  }),
});

builder.queryField('feeStats', (t) =>
  t.field({
    type: FeeStatsRef,
    description: 'Fee statistics as of the last ingested ledger.',
    resolve: (_root, _args, ctx) => feeStats(ctx.services.db),
  }),
);
