import { describe, expect, it } from 'vitest';
import { EFFECT_TYPES, InvalidValueError, effectTypeName, effectTypeNumber } from '../../src/stellar/index.js';

describe('effect types', () => {
  it.each([
    [0, 'account_created'],
    [1, 'account_removed'],
    [2, 'account_credited'],
    [3, 'account_debited'],
    [4, 'account_thresholds_updated'],
    [5, 'account_home_domain_updated'],
    [6, 'account_flags_updated'],
    [7, 'account_inflation_destination_updated'],
    [10, 'signer_created'],
    [11, 'signer_removed'],
    [12, 'signer_updated'],
    [20, 'trustline_created'],
    [21, 'trustline_removed'],
    [22, 'trustline_updated'],
    [23, 'trustline_authorized'],
    [24, 'trustline_deauthorized'],
    [25, 'trustline_authorized_to_maintain_liabilities'],
    [26, 'trustline_flags_updated'],
    [33, 'trade'],
    [40, 'data_created'],
    [41, 'data_removed'],
    [42, 'data_updated'],
    [43, 'sequence_bumped'],
    [50, 'claimable_balance_created'],
    [51, 'claimable_balance_claimant_created'],
    [52, 'claimable_balance_claimed'],
    [60, 'account_sponsorship_created'],
    [61, 'account_sponsorship_updated'],
    [62, 'account_sponsorship_removed'],
    [63, 'trustline_sponsorship_created'],
    [64, 'trustline_sponsorship_updated'],
    [65, 'trustline_sponsorship_removed'],
    [66, 'data_sponsorship_created'],
    [67, 'data_sponsorship_updated'],
    [68, 'data_sponsorship_removed'],
    [69, 'claimable_balance_sponsorship_created'],
    [70, 'claimable_balance_sponsorship_updated'],
    [71, 'claimable_balance_sponsorship_removed'],
    [72, 'signer_sponsorship_created'],
    [73, 'signer_sponsorship_updated'],
    [74, 'signer_sponsorship_removed'],
    [80, 'claimable_balance_clawed_back'],
    [90, 'liquidity_pool_deposited'],
    [91, 'liquidity_pool_withdrew'],
    [92, 'liquidity_pool_trade'],
    [93, 'liquidity_pool_created'],
    [94, 'liquidity_pool_removed'],
    [95, 'liquidity_pool_revoked'],
    [96, 'contract_credited'],
    [97, 'contract_debited'],
  ] as const)('%i is %s both ways', (typeI, name) => {
    expect(effectTypeName(typeI)).toBe(name);
    expect(effectTypeNumber(name)).toBe(typeI);
  });

  it('has no other entries and no duplicate numbers', () => {
    const numbers = Object.values(EFFECT_TYPES);
    expect(numbers.length).toBe(50);
    expect(new Set(numbers).size).toBe(numbers.length);
  });

  it('does not know the never-produced offer effects or anything else', () => {
    for (const typeI of [8, 9, 13, 27, 30, 31, 32, 34, 44, 53, 75, 81, 98, -1, 2.5]) {
      expect(() => effectTypeName(typeI)).toThrow(InvalidValueError);
    }
    for (const name of ['offer_created', 'offer_removed', 'offer_updated', '', 'Trade', 'toString', '__proto__']) {
      expect(() => effectTypeNumber(name)).toThrow(InvalidValueError);
    }
  });
});
