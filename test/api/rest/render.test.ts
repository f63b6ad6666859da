import { describe, expect, it } from 'vitest';
import { snakeCase, toRestJson } from '../../../src/api/rest/render.js';

describe('snakeCase', () => {
  it.each([
    ['pagingToken', 'paging_token'],
    ['baseFeeInStroops', 'base_fee_in_stroops'],
    ['p99AcceptedFee', 'p99_accepted_fee'],
    ['envelopeXdr', 'envelope_xdr'],
    ['id', 'id'],
    ['highR', 'high_r'],
  ])('%s → %s', (camel, snake) => expect(snakeCase(camel)).toBe(snake));
});

describe('toRestJson', () => {
  it('renames keys at every depth, keeps values, drops __typename', () => {
    expect(
      toRestJson({ __typename: 'X', pagingToken: '1', thresholds: { lowThreshold: 1 }, balances: [{ assetType: 'native' }], prevHash: null }),
    ).toEqual({ paging_token: '1', thresholds: { low_threshold: 1 }, balances: [{ asset_type: 'native' }], prev_hash: null });
  });
});
