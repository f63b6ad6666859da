import { describe, expect, it } from 'vitest';
import { snakeCase, toRestJson } from '../../../src/api/rest/render.js';
import { verbatim } from '../../../src/api/schema/verbatim.js';

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
  it('renames keys at every depth, keeps values, drops __typename and null fields', () => {
    expect(
      toRestJson({
        __typename: 'X',
        pagingToken: '1',
        thresholds: { lowThreshold: 1 },
        balances: [{ assetType: 'native', assetCode: null }],
        prevHash: null,
      }),
    ).toEqual({ paging_token: '1', thresholds: { low_threshold: 1 }, balances: [{ asset_type: 'native' }] });
  });

  it('passes JSON-scalar values through untouched', () => {
    expect(
      toRestJson({
        data: verbatim({ myKey: 'dmFsdWU=' }),
        claimants: verbatim([{ destination: 'G', predicate: { unconditional: true } }]),
      }),
    ).toEqual({
      data: { myKey: 'dmFsdWU=' },
      claimants: [{ destination: 'G', predicate: { unconditional: true } }],
    });
  });
});
