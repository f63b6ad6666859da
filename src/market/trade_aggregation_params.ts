// The arguments of trade aggregations (GraphQL's tradeAggregations, REST's /trade_aggregations),
// validated and with the time range rounded as Horizon does (db2/history/trade_aggregation.go
// WithStartTime/WithEndTime): the start is rounded up and the end down to a segment boundary, so
// partial segments at either end are never shown. Errors name Horizon's query parameters.
import { InvalidValueError, parseAssetArg, type AssetQuery, type AssetValue } from '../stellar/index.js';

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/** The allowed `resolution` values in ms: 1 minute, 5 minutes, 15 minutes, 1 hour, 1 day, 1 week. */
export const ALLOWED_RESOLUTIONS: readonly number[] = [MINUTE_MS, 5 * MINUTE_MS, 15 * MINUTE_MS, HOUR_MS, DAY_MS, 7 * DAY_MS];

export const TRADE_AGGREGATIONS_DEFAULT_LIMIT = 10;
export const TRADE_AGGREGATIONS_MAX_LIMIT = 200;

export type Order = 'asc' | 'desc';

export interface TradeAggregationParams {
  readonly base: AssetValue;
  readonly counter: AssetValue;
  readonly resolution: number;
  readonly offset: number;
  /** first segment start, rounded up; null when no start_time was given */
  readonly startTime: number | null;
  /** end of the last segment (exclusive), rounded down; null when no end_time was given */
  readonly endTime: number | null;
  readonly order: Order;
  readonly limit: number;
}

/** The arguments as given (GraphQL's, or REST's query under these names); null or empty is not given. */
export interface TradeAggregationInput {
  readonly base: AssetQuery;
  readonly counter: AssetQuery;
  readonly resolution: string;
  readonly startTime?: string | null;
  readonly endTime?: string | null;
  readonly offset?: string | null;
  readonly order?: string | null;
  readonly limit?: number | null;
}

function given(value: string | null | undefined): value is string {
  return value !== undefined && value !== null && value !== '';
}

function wholeNumber(text: string | null | undefined, field: string): number | null {
  if (!given(text)) return null;
  if (!/^[0-9]{1,16}$/.test(text) || !Number.isSafeInteger(Number(text))) {
    throw new InvalidValueError(`${field} must be a whole number of milliseconds, got ${JSON.stringify(text)}`, { field });
  }
  return Number(text);
}

/** Parses `order` (default asc). */
export function parseOrder(text: string | null | undefined): Order {
  if (!given(text)) return 'asc';
  if (text === 'asc' || text === 'desc') return text;
  throw new InvalidValueError(`order must be "asc" or "desc", got ${JSON.stringify(text)}`, { field: 'order' });
}

function limitError(shown: string, max: number): InvalidValueError {
  return new InvalidValueError(`limit must be a whole number from 1 to ${max}, got ${JSON.stringify(shown)}`, { field: 'limit' });
}

/** Checks `limit` within 1..max (default `fallback`). */
export function parseLimit(value: number | null | undefined, fallback: number, max: number): number {
  if (value === null || value === undefined) return fallback;
  if (!(Number.isInteger(value) && value >= 1 && value <= max)) throw limitError(String(value), max);
  return value;
}

/** `limit` as a query string gives it (REST), within 1..max; null when not given. */
export function parseLimitText(text: string | undefined, max: number): number | null {
  if (!given(text)) return null;
  const value = /^[0-9]{1,9}$/.test(text) ? Number(text) : NaN;
  if (!(value >= 1 && value <= max)) throw limitError(text, max);
  return value;
}

const ceilTo = (value: number, step: number) => Math.ceil(value / step) * step;
const floorTo = (value: number, step: number) => Math.floor(value / step) * step;

/**
 * Validates and rounds. Errors are InvalidValueError with `field` set to Horizon's parameter name
 * (`base_asset_code`, `resolution`, `offset`, `start_time`, `end_time`, `order`, `limit`).
 */
export function parseTradeAggregationParams(input: TradeAggregationInput): TradeAggregationParams {
  const base = parseAssetArg(input.base, 'base');
  const counter = parseAssetArg(input.counter, 'counter');
  const resolution = wholeNumber(input.resolution, 'resolution');
  if (resolution === null || !ALLOWED_RESOLUTIONS.includes(resolution)) {
    throw new InvalidValueError(
      'illegal or missing resolution. allowed resolutions are: 1 minute (60000), 5 minutes (300000), ' +
        '15 minutes (900000), 1 hour (3600000), 1 day (86400000) and 1 week (604800000)',
      { field: 'resolution' },
    );
  }
  const offset = wholeNumber(input.offset, 'offset') ?? 0;
  // The spec: only with a resolution above one hour, whole hours, below the resolution and below 24 hours.
  if (offset !== 0 && (resolution <= HOUR_MS || offset % HOUR_MS !== 0 || offset >= resolution || offset >= DAY_MS)) {
    throw new InvalidValueError(
      'illegal offset. offset must be a multiple of an hour, less than the resolution and less than 24 hours, ' +
        'and is only allowed with a resolution greater than 1 hour',
      { field: 'offset' },
    );
  }
  const rawStart = wholeNumber(input.startTime, 'start_time');
  const rawEnd = wholeNumber(input.endTime, 'end_time');
  // As Horizon's time.Millis, 0 means "not given".
  const startTime =
    rawStart === null || rawStart === 0 ? null : rawStart < offset ? offset : ceilTo(rawStart - offset, resolution) + offset;
  let endTime: number | null = null;
  if (rawEnd !== null && rawEnd !== 0) {
    if (rawEnd < offset) {
      throw new InvalidValueError('illegal end time. adjusted end time must be greater than the offset', { field: 'end_time' });
    }
    endTime = floorTo(rawEnd - offset, resolution) + offset;
    if (startTime !== null && endTime < startTime) {
      throw new InvalidValueError(
        'illegal end time. adjusted end time must be greater than the offset and greater than the provided start time',
        { field: 'end_time' },
      );
    }
  }
  return {
    base,
    counter,
    resolution,
    offset,
    startTime,
    endTime,
    order: parseOrder(input.order),
    limit: parseLimit(input.limit, TRADE_AGGREGATIONS_DEFAULT_LIMIT, TRADE_AGGREGATIONS_MAX_LIMIT),
  };
}

/** The start of the segment a time (ms) falls in. */
export function segmentStart(time: number, resolution: number, offset: number): number {
  return floorTo(time - offset, resolution) + offset;
}

/**
 * The query of the `next` link of a REST page, or null when the page is empty: ascending pages
 * continue at the segment after the last one (capped at end_time), descending ones end at the last
 * one (not before start_time), as Horizon's buildPage does. `query` has been validated (by
 * parseTradeAggregationParams); its other parameters are kept as given.
 */
export function tradeAggregationsNextQuery(
  query: Readonly<Record<string, string | undefined>>,
  lastTimestamp: number | null,
): Record<string, string> | null {
  if (lastTimestamp === null) return null;
  const next: Record<string, string> = {};
  for (const [key, value] of Object.entries(query)) if (value !== undefined) next[key] = value;
  const rawStart = wholeNumber(query.start_time, 'start_time');
  const rawEnd = wholeNumber(query.end_time, 'end_time');
  if (parseOrder(query.order) === 'asc') {
    let start = lastTimestamp + Number(query.resolution);
    if (rawEnd !== null && rawEnd !== 0 && start >= rawEnd) start = rawEnd;
    next.start_time = String(start);
  } else {
    let end = lastTimestamp;
    if (rawStart !== null && end <= rawStart) end = rawStart;
    next.end_time = String(end);
  }
  return next;
}
