// The rows one ledger produces, as plain data with database column names: the processors build
// them, the writer inserts them. Each table is declared once here: its columns (in COPY order,
// with their kinds) and, derived from them, its row type. Amounts and int64 ids are bigints;
// details are Horizon's JSON.
import type { AssetValue } from '../stellar/index.js';
import { table, type RowOf } from './table.js';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type Details = { [key: string]: JsonValue };

export const LEDGERS = table('history_ledgers', {
  sequence: 'integer',
  hash: 'ascii',
  prev_hash: 'ascii?',
  closed_at: 'timestamp',
  successful_transaction_count: 'integer',
  failed_transaction_count: 'integer',
  operation_count: 'integer',
  tx_set_operation_count: 'integer',
  total_coins: 'bigint',
  fee_pool: 'bigint',
  base_fee: 'integer',
  base_reserve: 'integer',
  max_tx_set_size: 'integer',
  protocol_version: 'integer',
  header_xdr: 'ascii',
});
export type LedgerRow = RowOf<typeof LEDGERS>;

export const TRANSACTIONS = table('history_transactions', {
  id: 'bigint',
  hash: 'ascii',
  ledger_sequence: 'integer',
  application_order: 'integer',
  closed_at: 'timestamp',
  successful: 'boolean',
  account: 'ascii',
  account_muxed: 'ascii?',
  account_sequence: 'bigint',
  max_fee: 'bigint',
  fee_charged: 'bigint',
  operation_count: 'integer',
  memo_type: 'ascii',
  memo: 'text?',
  memo_bytes: 'ascii?',
  signatures: 'text[]',
  valid_after: 'bigint?',
  valid_before: 'bigint?',
  min_ledger: 'integer?',
  max_ledger: 'integer?',
  min_account_sequence: 'bigint?',
  min_account_sequence_age: 'bigint?',
  min_account_sequence_ledger_gap: 'integer?',
  extra_signers: 'text[]',
  fee_account: 'ascii?',
  fee_account_muxed: 'ascii?',
  new_max_fee: 'bigint?',
  inner_transaction_hash: 'ascii?',
  inner_signatures: 'text[]',
  envelope_xdr: 'ascii',
  result_xdr: 'ascii',
  result_meta_xdr: 'ascii',
  fee_meta_xdr: 'ascii',
});
export type TransactionRow = RowOf<typeof TRANSACTIONS>;

export const OPERATIONS = table('history_operations', {
  id: 'bigint',
  transaction_id: 'bigint',
  transaction_hash: 'ascii',
  application_order: 'integer',
  closed_at: 'timestamp',
  type: 'integer',
  details: 'jsonb',
  source_account: 'ascii',
  source_account_muxed: 'ascii?',
  transaction_successful: 'boolean',
  is_payment: 'boolean',
});
export type OperationRow = RowOf<typeof OPERATIONS>;

export const EFFECTS = table('history_effects', {
  operation_id: 'bigint',
  order: 'integer',
  account: 'ascii',
  account_muxed: 'ascii?',
  closed_at: 'timestamp',
  type: 'integer',
  details: 'jsonb',
});
export type EffectRow = RowOf<typeof EFFECTS>;

export const TRANSACTION_PARTICIPANTS = table('history_transaction_participants', {
  account: 'ascii',
  transaction_id: 'bigint',
});
export type TransactionParticipantRow = RowOf<typeof TRANSACTION_PARTICIPANTS>;

export const OPERATION_PARTICIPANTS = table('history_operation_participants', {
  account: 'ascii',
  operation_id: 'bigint',
});
export type OperationParticipantRow = RowOf<typeof OPERATION_PARTICIPANTS>;

/** The claimable balances and liquidity pools (by Horizon's hex ids) each transaction and operation touched. */
export const TRANSACTION_CLAIMABLE_BALANCES = table('history_transaction_claimable_balances', {
  claimable_balance_id: 'ascii',
  transaction_id: 'bigint',
});
export type TransactionClaimableBalanceRow = RowOf<typeof TRANSACTION_CLAIMABLE_BALANCES>;

export const OPERATION_CLAIMABLE_BALANCES = table('history_operation_claimable_balances', {
  claimable_balance_id: 'ascii',
  operation_id: 'bigint',
});
export type OperationClaimableBalanceRow = RowOf<typeof OPERATION_CLAIMABLE_BALANCES>;

export const TRANSACTION_LIQUIDITY_POOLS = table('history_transaction_liquidity_pools', {
  liquidity_pool_id: 'ascii',
  transaction_id: 'bigint',
});
export type TransactionLiquidityPoolRow = RowOf<typeof TRANSACTION_LIQUIDITY_POOLS>;

export const OPERATION_LIQUIDITY_POOLS = table('history_operation_liquidity_pools', {
  liquidity_pool_id: 'ascii',
  operation_id: 'bigint',
});
export type OperationLiquidityPoolRow = RowOf<typeof OPERATION_LIQUIDITY_POOLS>;

export const TRADES = table('history_trades', {
  operation_id: 'bigint',
  order: 'integer',
  closed_at: 'timestamp',
  offer_id: 'bigint?',
  base_offer_id: 'bigint?',
  base_account: 'ascii?',
  base_asset_id: 'integer',
  base_amount: 'bigint',
  counter_offer_id: 'bigint?',
  counter_account: 'ascii?',
  counter_asset_id: 'integer',
  counter_amount: 'bigint',
  base_is_seller: 'boolean',
  price_n: 'bigint',
  price_d: 'bigint',
  trade_type: 'integer',
  base_liquidity_pool_id: 'ascii?',
  counter_liquidity_pool_id: 'ascii?',
  liquidity_pool_fee: 'integer?',
  rounding_slippage: 'bigint?',
});
export type TradeRow = RowOf<typeof TRADES>;

/**
 * A trade before its assets have ids: the seller's side (a crossed offer and its owner, or a
 * liquidity pool) and the buyer's (the operation's source, with its resting offer or the
 * operation's synthetic offer id).
 */
export interface TradeRecord {
  operation_id: bigint;
  order: number;
  closed_at: string;
  /** the crossed offer (Horizon's older offer_id); null for a pool */
  offer_id: bigint | null;
  /** the crossed offer's owner; null for a pool */
  seller: string | null;
  seller_offer_id: bigint | null;
  /** the pool's id (hex) when the seller is a liquidity pool */
  seller_liquidity_pool_id: string | null;
  buyer: string;
  buyer_offer_id: bigint;
  sold_asset: AssetValue;
  sold_amount: bigint;
  bought_asset: AssetValue;
  bought_amount: bigint;
  /** the seller's price, bought per sold: the crossed offer's before the trade, a pool's amounts */
  price_n: bigint;
  price_d: bigint;
  /** TRADE_TYPE_ORDERBOOK or TRADE_TYPE_LIQUIDITY_POOL */
  trade_type: number;
  /** a pool's fee in basis points */
  liquidity_pool_fee: number | null;
  /** a pool trade's rounding slippage in basis points (trade aggregations leave out 1000 and more) */
  rounding_slippage: bigint | null;
}

/** The assets of trades; code and issuer are '' for the native asset. */
export const ASSETS = table('history_assets', {
  type: 'text',
  code: 'text',
  issuer: 'text',
});
export type AssetRow = RowOf<typeof ASSETS>;

export const ACCOUNTS = table('accounts', {
  id: 'text',
  balance: 'bigint',
  buying_liabilities: 'bigint',
  selling_liabilities: 'bigint',
  sequence: 'bigint',
  sequence_ledger: 'integer?',
  sequence_time: 'bigint?',
  subentry_count: 'integer',
  num_sponsoring: 'integer',
  num_sponsored: 'integer',
  inflation_destination: 'text?',
  home_domain: 'text',
  flags: 'integer',
  master_weight: 'integer',
  threshold_low: 'integer',
  threshold_medium: 'integer',
  threshold_high: 'integer',
  last_modified_ledger: 'integer',
  sponsor: 'text?',
});
export type AccountRow = RowOf<typeof ACCOUNTS>;

export const SIGNERS = table('accounts_signers', {
  account_id: 'text',
  signer: 'text',
  weight: 'integer',
  sponsor: 'text?',
});
export type SignerRow = RowOf<typeof SIGNERS>;

export const DATA = table('accounts_data', {
  account_id: 'text',
  name: 'text',
  value: 'text',
  last_modified_ledger: 'integer',
  sponsor: 'text?',
});
export type DataRow = RowOf<typeof DATA>;

export const TRUST_LINES = table('trust_lines', {
  account_id: 'text',
  asset_type: 'text',
  asset_code: 'text',
  asset_issuer: 'text',
  liquidity_pool_id: 'ascii',
  balance: 'bigint',
  limit: 'bigint',
  buying_liabilities: 'bigint',
  selling_liabilities: 'bigint',
  flags: 'integer',
  last_modified_ledger: 'integer',
  sponsor: 'text?',
});
export type TrustLineRow = RowOf<typeof TRUST_LINES>;

export const OFFERS = table('offers', {
  id: 'bigint',
  seller_id: 'text',
  selling_asset: 'text',
  buying_asset: 'text',
  amount: 'bigint',
  price_n: 'integer',
  price_d: 'integer',
  price: 'double',
  flags: 'integer',
  last_modified_ledger: 'integer',
  sponsor: 'text?',
});
export type OfferRow = RowOf<typeof OFFERS>;

export const CLAIMABLE_BALANCES = table('claimable_balances', {
  id: 'ascii',
  asset: 'text',
  amount: 'bigint',
  sponsor: 'text?',
  flags: 'integer',
  claimants: 'jsonb_array',
  last_modified_ledger: 'integer',
});
export type ClaimableBalanceRow = RowOf<typeof CLAIMABLE_BALANCES>;

export const CLAIMABLE_BALANCE_CLAIMANTS = table('claimable_balance_claimants', {
  id: 'ascii',
  destination: 'ascii',
  last_modified_ledger: 'integer',
});
export type ClaimableBalanceClaimantRow = RowOf<typeof CLAIMABLE_BALANCE_CLAIMANTS>;

export const LIQUIDITY_POOLS = table('liquidity_pools', {
  id: 'ascii',
  type: 'integer',
  fee: 'integer',
  trustline_count: 'bigint',
  share_count: 'bigint',
  asset_a: 'text',
  asset_b: 'text',
  reserve_a: 'bigint',
  reserve_b: 'bigint',
  last_modified_ledger: 'integer',
});
export type LiquidityPoolRow = RowOf<typeof LIQUIDITY_POOLS>;

/** The state at the end of a ledger for every entry the ledger touched. */
export interface StateRows {
  accounts: AccountRow[];
  removedAccounts: string[];
  /** accounts whose signers are replaced by `signers` (every touched account that still exists) */
  signerAccounts: string[];
  signers: SignerRow[];
  data: DataRow[];
  removedData: { account_id: string; name: string }[];
  trustLines: TrustLineRow[];
  removedTrustLines: { account_id: string; asset_code: string; asset_issuer: string; liquidity_pool_id: string }[];
  offers: OfferRow[];
  removedOffers: bigint[];
  claimableBalances: ClaimableBalanceRow[];
  /** the claimants of `claimableBalances`, which replace those of every balance the ledger touched */
  claimableBalanceClaimants: ClaimableBalanceClaimantRow[];
  removedClaimableBalances: string[];
  liquidityPools: LiquidityPoolRow[];
  removedLiquidityPools: string[];
}

/** The history rows of some transactions of a ledger. */
export interface TransactionHistoryRows {
  transactions: TransactionRow[];
  operations: OperationRow[];
  effects: EffectRow[];
  trades: TradeRecord[];
  transactionParticipants: TransactionParticipantRow[];
  operationParticipants: OperationParticipantRow[];
  transactionClaimableBalances: TransactionClaimableBalanceRow[];
  operationClaimableBalances: OperationClaimableBalanceRow[];
  transactionLiquidityPools: TransactionLiquidityPoolRow[];
  operationLiquidityPools: OperationLiquidityPoolRow[];
}

export interface LedgerRows extends TransactionHistoryRows {
  ledger: LedgerRow;
  state: StateRows;
}
