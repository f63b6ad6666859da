// One trade aggregation segment: how trades (or per-minute buckets of trades) fold into it, and
// the record Horizon renders for it. Shared by the SQL-backed query and the reference aggregator,
// so both apply the same rules: prices are counter per base; a pair asked in the reverse of how
// trades are stored swaps volumes and inverts prices (high and low trade places); high/low ties
// go to the smaller numerator; open/close are the first/last trade by (operation id, order).
import { formatAmount, formatRatio } from '../stellar/index.js';

export interface Fraction {
  readonly n: bigint;
  readonly d: bigint;
}

/** Orders trades inside a segment. */
export interface TradeKey {
  readonly operationId: bigint;
  readonly order: number;
}

/** A trade or a bucket of trades of one pair, oriented as the request's base/counter. */
export interface TradePart {
  readonly count: number;
  readonly baseVolume: bigint;
  readonly counterVolume: bigint;
  readonly high: Fraction;
  readonly low: Fraction;
  readonly open: Fraction;
  readonly openKey: TradeKey;
  readonly close: Fraction;
  readonly closeKey: TradeKey;
}

export interface Segment extends TradePart {
  /** segment start, ms since epoch */
  readonly timestamp: number;
}

/** `{N, D}` as Horizon spells price fractions in trade aggregations. */
export interface TradePriceR {
  readonly N: number;
  readonly D: number;
}

/** Horizon's trade aggregation record, with camelCase keys (REST renders them in snake_case). */
export interface TradeAggregationRecord {
  readonly timestamp: number;
  readonly tradeCount: number;
  readonly baseVolume: string;
  readonly counterVolume: string;
  readonly avg: string;
  readonly high: string;
  readonly highR: TradePriceR;
  readonly low: string;
  readonly lowR: TradePriceR;
  readonly open: string;
  readonly openR: TradePriceR;
  readonly close: string;
  readonly closeR: TradePriceR;
}

/** -1, 0, 1 as a/b compares with c/d (positive denominators), exactly. */
export function compareFractions(a: Fraction, b: Fraction): number {
  const left = a.n * b.d;
  const right = b.n * a.d;
  return left < right ? -1 : left > right ? 1 : 0;
}

function compareKeys(a: TradeKey, b: TradeKey): number {
  if (a.operationId !== b.operationId) return a.operationId < b.operationId ? -1 : 1;
  return a.order - b.order;
}

const invert = (f: Fraction): Fraction => ({ n: f.d, d: f.n });

/** The same part seen from the other side of the pair. */
export function reversePart(part: TradePart): TradePart {
  return {
    count: part.count,
    baseVolume: part.counterVolume,
    counterVolume: part.baseVolume,
    high: invert(part.low),
    low: invert(part.high),
    open: invert(part.open),
    openKey: part.openKey,
    close: invert(part.close),
    closeKey: part.closeKey,
  };
}

/** Folds `part` into `segment` (either may be the first). */
export function mergePart(segment: Segment, part: TradePart): Segment {
  const highCmp = compareFractions(part.high, segment.high);
  const lowCmp = compareFractions(part.low, segment.low);
  return {
    timestamp: segment.timestamp,
    count: segment.count + part.count,
    baseVolume: segment.baseVolume + part.baseVolume,
    counterVolume: segment.counterVolume + part.counterVolume,
    high: highCmp > 0 || (highCmp === 0 && part.high.n < segment.high.n) ? part.high : segment.high,
    low: lowCmp < 0 || (lowCmp === 0 && part.low.n < segment.low.n) ? part.low : segment.low,
    ...(compareKeys(part.openKey, segment.openKey) < 0
      ? { open: part.open, openKey: part.openKey }
      : { open: segment.open, openKey: segment.openKey }),
    ...(compareKeys(part.closeKey, segment.closeKey) > 0
      ? { close: part.close, closeKey: part.closeKey }
      : { close: segment.close, closeKey: segment.closeKey }),
  };
}

const priceR = (f: Fraction): TradePriceR => ({ N: Number(f.n), D: Number(f.d) });

/** Renders a segment as Horizon does; avg is counter volume / base volume (exact, 7 decimals). */
export function renderSegment(segment: Segment): TradeAggregationRecord {
  return {
    timestamp: segment.timestamp,
    tradeCount: segment.count,
    baseVolume: formatAmount(segment.baseVolume),
    counterVolume: formatAmount(segment.counterVolume),
    avg: segment.baseVolume === 0n ? '0.0000000' : formatRatio(segment.counterVolume, segment.baseVolume),
    high: formatRatio(segment.high.n, segment.high.d),
    highR: priceR(segment.high),
    low: formatRatio(segment.low.n, segment.low.d),
    lowR: priceR(segment.low),
    open: formatRatio(segment.open.n, segment.open.d),
    openR: priceR(segment.open),
    close: formatRatio(segment.close.n, segment.close.d),
    closeR: priceR(segment.close),
  };
}
