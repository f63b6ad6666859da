import { describe, expect, it } from 'vitest';
import { parseTradeAggregationParams, tradeAggregationsNextQuery } from '../../src/market/index.js';
import { InvalidValueError } from '../../src/stellar/index.js';

const ISSUER = 'GAXMF43TGZHW3QN3REOUA2U5PW5BTARXGGYJ3JIFHW3YT6QRKRL3CPPU';
const pair = {
  base_asset_type: 'native',
  counter_asset_type: 'credit_alphanum4',
  counter_asset_code: 'USD',
  counter_asset_issuer: ISSUER,
};

function fieldOf(query: Record<string, string>): string | undefined {
  try {
    parseTradeAggregationParams(query);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidValueError);
    return (error as InvalidValueError).field;
  }
  return undefined;
}

describe('parseTradeAggregationParams', () => {
  it('takes the allowed resolutions only', () => {
    for (const resolution of ['60000', '300000', '900000', '3600000', '86400000', '604800000']) {
      expect(parseTradeAggregationParams({ ...pair, resolution }).resolution).toBe(Number(resolution));
    }
    expect(fieldOf({ ...pair, resolution: '120000' })).toBe('resolution');
    expect(fieldOf({ ...pair })).toBe('resolution');
    expect(fieldOf({ ...pair, resolution: '-60000' })).toBe('resolution');
  });

  it('names the asset field at fault', () => {
    expect(fieldOf({ ...pair, base_asset_type: '', resolution: '60000' })).toBe('base_asset_type');
    expect(fieldOf({ ...pair, base_asset_code: 'XLM', resolution: '60000' })).toBe('base_asset_code');
    expect(fieldOf({ ...pair, counter_asset_issuer: '', resolution: '60000' })).toBe('counter_asset_issuer');
    expect(fieldOf({ ...pair, counter_asset_code: '', resolution: '60000' })).toBe('counter_asset_code');
    expect(fieldOf({ ...pair, counter_asset_type: 'credit', resolution: '60000' })).toBe('counter_asset_type');
  });

  it('applies the offset rules', () => {
    expect(parseTradeAggregationParams({ ...pair, resolution: '86400000', offset: '3600000' }).offset).toBe(3_600_000);
    expect(parseTradeAggregationParams({ ...pair, resolution: '604800000', offset: '82800000' }).offset).toBe(82_800_000);
    expect(fieldOf({ ...pair, resolution: '3600000', offset: '3600000' })).toBe('offset'); // not above 1 hour
    expect(fieldOf({ ...pair, resolution: '86400000', offset: '1800000' })).toBe('offset'); // not whole hours
    expect(fieldOf({ ...pair, resolution: '86400000', offset: '86400000' })).toBe('offset'); // not below resolution
    expect(fieldOf({ ...pair, resolution: '604800000', offset: '86400000' })).toBe('offset'); // not below 24 hours
    expect(fieldOf({ ...pair, resolution: '60000', offset: 'x' })).toBe('offset');
  });

  it('rounds start up and end down to segment boundaries', () => {
    const p = parseTradeAggregationParams({ ...pair, resolution: '3600000', start_time: '3600001', end_time: '10799999' });
    expect([p.startTime, p.endTime]).toEqual([7_200_000, 7_200_000]);
    const q = parseTradeAggregationParams({
      ...pair,
      resolution: '86400000',
      offset: '7200000',
      start_time: '1000',
      end_time: '200000000',
    });
    expect([q.startTime, q.endTime]).toEqual([7_200_000, 7_200_000 + 2 * 86_400_000]);
    const exact = parseTradeAggregationParams({ ...pair, resolution: '60000', start_time: '120000', end_time: '240000' });
    expect([exact.startTime, exact.endTime]).toEqual([120_000, 240_000]);
    expect(fieldOf({ ...pair, resolution: '86400000', offset: '7200000', end_time: '3600000' })).toBe('end_time');
    expect(fieldOf({ ...pair, resolution: '3600000', start_time: '3600001', end_time: '3600002' })).toBe('end_time');
    expect(fieldOf({ ...pair, resolution: '60000', start_time: '1.5' })).toBe('start_time');
  });

  it('reads order and limit', () => {
    const p = parseTradeAggregationParams({ ...pair, resolution: '60000' });
    expect([p.order, p.limit]).toEqual(['asc', 10]);
    expect(parseTradeAggregationParams({ ...pair, resolution: '60000', order: 'desc', limit: '200' }).limit).toBe(200);
    expect(fieldOf({ ...pair, resolution: '60000', limit: '201' })).toBe('limit');
    expect(fieldOf({ ...pair, resolution: '60000', limit: '0' })).toBe('limit');
    expect(fieldOf({ ...pair, resolution: '60000', order: 'up' })).toBe('order');
  });

  it('builds the next query as Horizon does', () => {
    const query = { ...pair, resolution: '60000', start_time: '60000', end_time: '600000' };
    const p = parseTradeAggregationParams(query);
    expect(tradeAggregationsNextQuery(query, p, 120_000)?.start_time).toBe('180000');
    expect(tradeAggregationsNextQuery(query, p, 540_000)?.start_time).toBe('600000');
    expect(tradeAggregationsNextQuery(query, p, null)).toBeNull();
    const desc = { ...query, order: 'desc' };
    expect(tradeAggregationsNextQuery(desc, parseTradeAggregationParams(desc), 300_000)?.end_time).toBe('300000');
  });
});
