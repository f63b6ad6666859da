// Trade aggregations (src/market/trade_aggregations.ts): trades of a pair folded into segments of
// `resolution` ms. REST renders them as Horizon's GET /trade_aggregations page.
import { parseTradeAggregationParams, tradeAggregations, type TradeAggregationRecord } from '../../market/index.js';
import { parsed } from '../problems.js';
import { AssetInput } from './asset_input.js';
import { builder } from './builder.js';
import { verbatim } from './verbatim.js';

// Horizon spells these fractions {N, D}: JSON values that REST must not rename
const fraction = (value: { N: number; D: number }) => verbatim({ N: value.N, D: value.D });

const TradeAggregationRef = builder.objectRef<TradeAggregationRecord>('TradeAggregation').implement({
  description: 'The trades of one segment of a pair.',
  fields: (t) => ({
    // ms since epoch exceed GraphQL's 32-bit Int: a Float holds them exactly
    timestamp: t.exposeFloat('timestamp', { description: 'start of the segment, ms since epoch' }),
    tradeCount: t.exposeInt('tradeCount'),
    baseVolume: t.exposeString('baseVolume'),
    counterVolume: t.exposeString('counterVolume'),
    avg: t.exposeString('avg'),
    high: t.exposeString('high'),
    highR: t.field({ type: 'JSON', description: '{N, D}', resolve: (r) => fraction(r.highR) }),
    low: t.exposeString('low'),
    lowR: t.field({ type: 'JSON', description: '{N, D}', resolve: (r) => fraction(r.lowR) }),
    open: t.exposeString('open'),
    openR: t.field({ type: 'JSON', description: '{N, D}', resolve: (r) => fraction(r.openR) }),
    close: t.exposeString('close'),
    closeR: t.field({ type: 'JSON', description: '{N, D}', resolve: (r) => fraction(r.closeR) }),
  }),
});

builder.queryField('tradeAggregations', (t) =>
  t.field({
    type: [TradeAggregationRef],
    description: 'Segments of resolution ms (1m, 5m, 15m, 1h, 1d, 1w) with trades of base/counter; times in ms since epoch.',
    args: {
      base: t.arg({ type: AssetInput, required: true }),
      counter: t.arg({ type: AssetInput, required: true }),
      resolution: t.arg.string({ required: true }),
      startTime: t.arg.string(),
      endTime: t.arg.string(),
      offset: t.arg.string(),
      order: t.arg.string(),
      limit: t.arg.int(),
    },
    resolve: (_root, args, ctx) => {
      const params = parsed(() => parseTradeAggregationParams(args));
      return tradeAggregations(ctx.services.db, params);
    },
  }),
);
