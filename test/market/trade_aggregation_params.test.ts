import { describe, expect, it } from 'vitest';
import { parseTradeAggregationParams, tradeAggregationsNextQuery, type TradeAggregationInput } from '../../src/market/index.js';
import { InvalidValueError } from '../../src/stellar/index.js';

const ISSUER = 'GAXMF43TGZHW3QN3REOUA2U5PW5BTARXGGYJ3JIFHW3YT6QRKRL3CPPU';
const USD = { assetType: 'credit_alphanum4', assetCode: 'USD', assetIssuer: ISSUER };
const pair = { base: { assetType: 'native' }, counter: USD };

function fieldOf(input: TradeAggregationInput): string | undefined {
  try {
    parseTradeAggregationParams(input);
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
    expect(fieldOf({ ...pair, resolution: '' })).toBe('resolution');
    expect(fieldOf({ ...pair, resolution: '-60000' })).toBe('resolution');
  });

  it('names the asset field at fault', () => {
    expect(fieldOf({ ...pair, base: { assetType: '' }, resolution: '60000' })).toBe('base_asset_type');
    expect(fieldOf({ ...pair, base: { assetType: 'native', assetCode: 'XLM' }, resolution: '60000' })).toBe('base_asset_code');
    expect(fieldOf({ ...pair, counter: { ...USD, assetIssuer: '' }, resolution: '60000' })).toBe('counter_asset_issuer');
    expect(fieldOf({ ...pair, counter: { ...USD, assetCode: '' }, resolution: '60000' })).toBe('counter_asset_code');
    expect(fieldOf({ ...pair, counter: { ...USD, assetType: 'credit' }, resolution: '60000' })).toBe('counter_asset_type');
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
    const p = parseTradeAggregationParams({ ...pair, resolution: '3600000', startTime: '3600001', endTime: '10799999' });
    expect([p.startTime, p.endTime]).toEqual([7_200_000, 7_200_000]);
    const q = parseTradeAggregationParams({
      ...pair,
      resolution: '86400000',
      offset: '7200000',
      startTime: '1000',
      endTime: '200000000',
    });
    expect([q.startTime, q.endTime]).toEqual([7_200_000, 7_200_000 + 2 * 86_400_000]);
    const exact = parseTradeAggregationParams({ ...pair, resolution: '60000', startTime: '120000', endTime: '240000' });
    expect([exact.startTime, exact.endTime]).toEqual([120_000, 240_000]);
    expect(fieldOf({ ...pair, resolution: '86400000', offset: '7200000', endTime: '3600000' })).toBe('end_time');
    expect(fieldOf({ ...pair, resolution: '3600000', startTime: '3600001', endTime: '3600002' })).toBe('end_time');
    expect(fieldOf({ ...pair, resolution: '60000', startTime: '1.5' })).toBe('start_time');
  });

  it('reads order and limit', () => {
    const p = parseTradeAggregationParams({ ...pair, resolution: '60000' });
    expect([p.order, p.limit]).toEqual(['asc', 10]);
    expect(parseTradeAggregationParams({ ...pair, resolution: '60000', order: 'desc', limit: 200 }).limit).toBe(200);
    expect(fieldOf({ ...pair, resolution: '60000', limit: 201 })).toBe('limit');
    expect(fieldOf({ ...pair, resolution: '60000', limit: 0 })).toBe('limit');
    expect(fieldOf({ ...pair, resolution: '60000', order: 'up' })).toBe('order');
  });

  it('builds the next query as Horizon does', () => {
    // REST's query, as the route has it
    const query = { base_asset_type: 'native', resolution: '60000', start_time: '60000', end_time: '600000' };
    expect(tradeAggregationsNextQuery(query, 120_000)?.start_time).toBe('180000');
    expect(tradeAggregationsNextQuery(query, 540_000)?.start_time).toBe('600000');
    expect(tradeAggregationsNextQuery(query, null)).toBeNull();
    const desc = { ...query, order: 'desc' };
    expect(tradeAggregationsNextQuery(desc, 300_000)?.end_time).toBe('300000');
    expect(tradeAggregationsNextQuery(desc, 30_000)?.end_time).toBe('60000');
  });
});
