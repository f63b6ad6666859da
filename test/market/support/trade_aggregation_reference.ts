// Trade aggregations computed directly from raw trades, in memory: the definition the SQL path
// (per-minute buckets) is tested against. Not meant for long histories.
import {
  mergePart,
  renderSegment,
  reversePart,
  segmentStart,
  type Segment,
  type TradeAggregationParams,
  type TradeAggregationRecord,
  type TradePart,
} from '../../../src/market/index.js';

/** A history_trades row, as stored (base/counter as ingested; price = counter per base). */
export interface RawTrade {
  readonly operationId: bigint;
  readonly order: number;
  /** ledger close time, ms since epoch */
  readonly closedAt: number;
  readonly baseAssetId: number;
  readonly counterAssetId: number;
  readonly baseAmount: bigint;
  readonly counterAmount: bigint;
  readonly priceN: bigint;
  readonly priceD: bigint;
}

/** The parameters of a trade aggregation, with the pair as history_assets ids. */
export interface ReferenceAggregationQuery extends Omit<TradeAggregationParams, 'base' | 'counter'> {
  readonly baseAssetId: number;
  readonly counterAssetId: number;
}

/** One trade as a part of a segment. */
export function tradePart(trade: RawTrade): TradePart {
  const price = { n: trade.priceN, d: trade.priceD };
  const key = { operationId: trade.operationId, order: trade.order };
  return {
    count: 1,
    baseVolume: trade.baseAmount,
    counterVolume: trade.counterAmount,
    high: price,
    low: price,
    open: price,
    openKey: key,
    close: price,
    closeKey: key,
  };
}

export function referenceTradeAggregations(trades: readonly RawTrade[], query: ReferenceAggregationQuery): TradeAggregationRecord[] {
  const segments = new Map<number, Segment>();
  for (const trade of trades) {
    let part: TradePart;
    if (trade.baseAssetId === query.baseAssetId && trade.counterAssetId === query.counterAssetId) part = tradePart(trade);
    else if (trade.baseAssetId === query.counterAssetId && trade.counterAssetId === query.baseAssetId) part = reversePart(tradePart(trade));
    else continue;
    const timestamp = segmentStart(trade.closedAt, query.resolution, query.offset);
    if (query.startTime !== null && timestamp < query.startTime) continue;
    if (query.endTime !== null && timestamp >= query.endTime) continue;
    const current = segments.get(timestamp);
    segments.set(timestamp, current ? mergePart(current, part) : { timestamp, ...part });
  }
  const ordered = [...segments.values()].sort((a, b) => (query.order === 'asc' ? a.timestamp - b.timestamp : b.timestamp - a.timestamp));
  return ordered.slice(0, query.limit).map(renderSegment);
}
