// The per-type fields of effects: Horizon's JSON names (protocols/horizon/effects at 096f654)
// with their kinds, as history_effects.details holds them (see operation_details.ts).
import type { EffectTypeName } from '../../stellar/effect_types.js';

const ASSET = 'asset_type asset_code asset_issuer';
const SIGNER = 'weight:int public_key key';
const TRUSTLINE = `limit:amount ${ASSET} liquidity_pool_id`;
const AUTHORIZATION = 'trustor asset_type asset_code';
const BALANCE = 'asset balance_id amount:amount';
const TRADE_SIDE = (side: string) => `${side}_amount:amount ${side}_asset_type ${side}_asset_code ${side}_asset_issuer`;
const TRUSTLINE_SPONSORSHIP = 'asset_type asset liquidity_pool_id';

export const EFFECT_DETAILS: Record<EffectTypeName, string> = {
  account_created: 'starting_balance:amount',
  account_removed: '',
  account_credited: `amount:amount ${ASSET}`,
  account_debited: `amount:amount ${ASSET}`,
  account_thresholds_updated: 'low_threshold:int med_threshold:int high_threshold:int',
  account_home_domain_updated: 'home_domain',
  account_flags_updated: 'auth_required_flag:boolean auth_revokable_flag:boolean',
  account_inflation_destination_updated: 'inflation_destination',
  signer_created: SIGNER,
  signer_removed: SIGNER,
  signer_updated: SIGNER,
  trustline_created: TRUSTLINE,
  trustline_removed: TRUSTLINE,
  trustline_updated: TRUSTLINE,
  trustline_authorized: AUTHORIZATION,
  trustline_deauthorized: AUTHORIZATION,
  trustline_authorized_to_maintain_liabilities: AUTHORIZATION,
  trustline_flags_updated: `${ASSET} trustor authorized_flag:boolean authorized_to_maintain_liabilites_flag:boolean clawback_enabled_flag:boolean`,
  trade: `seller seller_muxed seller_muxed_id:int64 offer_id:int64 ${TRADE_SIDE('sold')} ${TRADE_SIDE('bought')}`,
  data_created: 'name value',
  data_removed: 'name',
  data_updated: 'name value',
  sequence_bumped: 'new_seq:int64',
  claimable_balance_created: BALANCE,
  claimable_balance_claimant_created: `${BALANCE} predicate:json`,
  claimable_balance_claimed: BALANCE,
  account_sponsorship_created: 'sponsor',
  account_sponsorship_updated: 'former_sponsor new_sponsor',
  account_sponsorship_removed: 'former_sponsor',
  trustline_sponsorship_created: `${TRUSTLINE_SPONSORSHIP} sponsor`,
  trustline_sponsorship_updated: `${TRUSTLINE_SPONSORSHIP} former_sponsor new_sponsor`,
  trustline_sponsorship_removed: `${TRUSTLINE_SPONSORSHIP} former_sponsor`,
  data_sponsorship_created: 'data_name sponsor',
  data_sponsorship_updated: 'data_name former_sponsor new_sponsor',
  data_sponsorship_removed: 'data_name former_sponsor',
  claimable_balance_sponsorship_created: 'balance_id sponsor',
  claimable_balance_sponsorship_updated: 'balance_id former_sponsor new_sponsor',
  claimable_balance_sponsorship_removed: 'balance_id former_sponsor',
  signer_sponsorship_created: 'signer sponsor',
  signer_sponsorship_updated: 'signer former_sponsor new_sponsor',
  signer_sponsorship_removed: 'signer former_sponsor',
  claimable_balance_clawed_back: 'balance_id',
  liquidity_pool_deposited: 'liquidity_pool:json reserves_deposited:json shares_received:amount',
  liquidity_pool_withdrew: 'liquidity_pool:json reserves_received:json shares_redeemed:amount',
  liquidity_pool_trade: 'liquidity_pool:json sold:json bought:json',
  liquidity_pool_created: 'liquidity_pool:json',
  liquidity_pool_removed: 'liquidity_pool_id',
  liquidity_pool_revoked: 'liquidity_pool:json reserves_revoked:json shares_revoked:amount',
  contract_credited: `${ASSET} contract amount:amount`,
  contract_debited: `${ASSET} contract amount:amount`,
};
