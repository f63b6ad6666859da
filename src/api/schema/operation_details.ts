// The per-type fields of operations: Horizon's JSON names (protocols/horizon/operations at
// 096f654) with their kinds, as history_operations.details holds them. Each entry becomes typed
// camelCase GraphQL fields of that type's object type; REST renders them back to these names.
import type { OperationTypeName } from '../../stellar/operation_types.js';

const ASSET = 'asset_type asset_code asset_issuer';
const PAYMENT = `${ASSET} from from_muxed from_muxed_id:int64 to to_muxed to_muxed_id:int64 amount:amount`;
const SOURCE_ASSET = 'source_asset_type source_asset_code source_asset_issuer';
const OFFER = `amount:amount price price_r:price buying_${ASSET.replaceAll(' ', ' buying_')} selling_${ASSET.replaceAll(' ', ' selling_')}`;
const FLAGS = 'set_flags:ints set_flags_s:strings clear_flags:ints clear_flags_s:strings';

/** `name[:kind]` separated by spaces; kind defaults to string (see detail_fields.ts for the kinds) */
export const OPERATION_DETAILS: Record<OperationTypeName, string> = {
  create_account: 'starting_balance:amount funder funder_muxed funder_muxed_id:int64 account',
  payment: PAYMENT,
  path_payment_strict_receive: `${PAYMENT} path:assets source_amount:amount source_max:amount ${SOURCE_ASSET}`,
  manage_sell_offer: `${OFFER} offer_id:int64`,
  create_passive_sell_offer: OFFER,
  set_options: `home_domain inflation_dest master_key_weight:int signer_key signer_weight:int ${FLAGS} low_threshold:int med_threshold:int high_threshold:int`,
  change_trust: `${ASSET} liquidity_pool_id limit:amount trustee trustor trustor_muxed trustor_muxed_id:int64`,
  allow_trust: `${ASSET} trustee trustee_muxed trustee_muxed_id:int64 trustor authorize:boolean authorize_to_maintain_liabilities:boolean`,
  account_merge: 'account account_muxed account_muxed_id:int64 into into_muxed into_muxed_id:int64',
  inflation: '',
  manage_data: 'name value',
  bump_sequence: 'bump_to:int64',
  manage_buy_offer: `${OFFER} offer_id:int64`,
  path_payment_strict_send: `${PAYMENT} path:assets source_amount:amount destination_min:amount ${SOURCE_ASSET}`,
  create_claimable_balance: 'asset amount:amount claimants:json',
  claim_claimable_balance: 'balance_id claimant claimant_muxed claimant_muxed_id:int64',
  begin_sponsoring_future_reserves: 'sponsored_id',
  end_sponsoring_future_reserves: 'begin_sponsor begin_sponsor_muxed begin_sponsor_muxed_id:int64',
  revoke_sponsorship:
    'account_id claimable_balance_id data_account_id data_name offer_id:int64 trustline_account_id trustline_liquidity_pool_id trustline_asset signer_account_id signer_key',
  clawback: `${ASSET} from from_muxed from_muxed_id:int64 amount:amount`,
  clawback_claimable_balance: 'balance_id',
  set_trust_line_flags: `${ASSET} trustor ${FLAGS}`,
  liquidity_pool_deposit:
    'liquidity_pool_id reserves_max:json min_price min_price_r:price max_price max_price_r:price reserves_deposited:json shares_received:amount',
  liquidity_pool_withdraw: 'liquidity_pool_id reserves_min:json shares:amount reserves_received:json',
  invoke_host_function: 'function parameters:json address salt asset_balance_changes:json',
  extend_footprint_ttl: 'extend_to:int',
  restore_footprint: '',
};
