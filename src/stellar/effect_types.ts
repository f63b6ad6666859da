import { InvalidValueError } from './invalid_value_error.js';

/**
 * Horizon's effect `type` names and `type_i` numbers, exactly as stellar/go (commit 096f654)
 * services/horizon/internal/db2/history/main.go (EffectType constants) and
 * resourceadapter/effects.go (EffectTypeNames). The numbers are stored in history_effects.type.
 * 30–32 (offer_created/removed/updated) are declared but commented out in Horizon and never
 * produced, so they are absent here too.
 */
export const EFFECT_TYPES = {
  account_created: 0,
  account_removed: 1,
  account_credited: 2,
  account_debited: 3,
  account_thresholds_updated: 4,
  account_home_domain_updated: 5,
  account_flags_updated: 6,
  account_inflation_destination_updated: 7,
  signer_created: 10,
  signer_removed: 11,
  signer_updated: 12,
  trustline_created: 20,
  trustline_removed: 21,
  trustline_updated: 22,
  trustline_authorized: 23,
  trustline_deauthorized: 24,
  trustline_authorized_to_maintain_liabilities: 25,
  trustline_flags_updated: 26,
  trade: 33,
  data_created: 40,
  data_removed: 41,
  data_updated: 42,
  sequence_bumped: 43,
  claimable_balance_created: 50,
  claimable_balance_claimant_created: 51,
  claimable_balance_claimed: 52,
  account_sponsorship_created: 60,
  account_sponsorship_updated: 61,
  account_sponsorship_removed: 62,
  trustline_sponsorship_created: 63,
  trustline_sponsorship_updated: 64,
  trustline_sponsorship_removed: 65,
  data_sponsorship_created: 66,
  data_sponsorship_updated: 67,
  data_sponsorship_removed: 68,
  claimable_balance_sponsorship_created: 69,
  claimable_balance_sponsorship_updated: 70,
  claimable_balance_sponsorship_removed: 71,
  signer_sponsorship_created: 72,
  signer_sponsorship_updated: 73,
  signer_sponsorship_removed: 74,
  claimable_balance_clawed_back: 80,
  liquidity_pool_deposited: 90,
  liquidity_pool_withdrew: 91,
  liquidity_pool_trade: 92,
  liquidity_pool_created: 93,
  liquidity_pool_removed: 94,
  liquidity_pool_revoked: 95,
  contract_credited: 96,
  contract_debited: 97,
} as const;

export type EffectTypeName = keyof typeof EFFECT_TYPES;

const NAME_BY_NUMBER = new Map<number, EffectTypeName>(
  (Object.entries(EFFECT_TYPES) as [EffectTypeName, number][]).map(([name, typeI]) => [typeI, name]),
);

/** `type` for a `type_i`; throws InvalidValueError for a number Horizon does not produce. */
export function effectTypeName(typeI: number): EffectTypeName {
  const name = NAME_BY_NUMBER.get(typeI);
  if (name === undefined) throw new InvalidValueError(`unknown effect type number ${typeI}`);
  return name;
}

/** `type_i` for a `type` name; throws InvalidValueError for an unknown name. */
export function effectTypeNumber(name: string): number {
  if (!Object.hasOwn(EFFECT_TYPES, name)) throw new InvalidValueError(`unknown effect type ${JSON.stringify(name)}`);
  return EFFECT_TYPES[name as EffectTypeName];
}
