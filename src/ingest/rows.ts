// The rows one ledger produces, as plain data with database column names: the processors build
// them, the writer inserts them. Amounts and int64 ids are bigints; details are Horizon's JSON.
import type { AssetValue } from '../stellar/index.js';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type Details = { [key: string]: JsonValue };

export interface LedgerRow {
  sequence: number;
  hash: string;
  prev_hash: string | null;
  closed_at: string;
  successful_transaction_count: number;
  failed_transaction_count: number;
  operation_count: number;
  tx_set_operation_count: number;
  total_coins: bigint;
  fee_pool: bigint;
  base_fee: number;
  base_reserve: number;
  max_tx_set_size: number;
  protocol_version: number;
  header_xdr: string;
}

export interface TransactionRow {
  id: bigint;
  hash: string;
  ledger_sequence: number;
  application_order: number;
  closed_at: string;
  successful: boolean;
  account: string;
  account_muxed: string | null;
  account_sequence: bigint;
  max_fee: bigint;
  fee_charged: bigint;
  operation_count: number;
  memo_type: string;
  memo: string | null;
  signatures: string[];
  valid_after: bigint | null;
  valid_before: bigint | null;
  min_ledger: number | null;
  max_ledger: number | null;
  min_account_sequence: bigint | null;
  min_account_sequence_age: bigint | null;
  min_account_sequence_ledger_gap: number | null;
  extra_signers: string[];
  fee_account: string | null;
  fee_account_muxed: string | null;
  new_max_fee: bigint | null;
  inner_transaction_hash: string | null;
  inner_signatures: string[];
  envelope_xdr: string;
  result_xdr: string;
  result_meta_xdr: string;
  fee_meta_xdr: string;
}

export interface OperationRow {
  id: bigint;
  transaction_id: bigint;
  transaction_hash: string;
  application_order: number;
  closed_at: string;
  type: number;
  details: Details;
  source_account: string;
  source_account_muxed: string | null;
  transaction_successful: boolean;
  is_payment: boolean;
}

export interface EffectRow {
  operation_id: bigint;
  order: number;
  account: string;
  account_muxed: string | null;
  closed_at: string;
  type: number;
  details: Details;
}

/** A trade before its assets have ids: seller side (the crossed offer) and buyer side. */
export interface TradeRecord {
  operation_id: bigint;
  order: number;
  closed_at: string;
  offer_id: bigint;
  seller: string;
  seller_offer_id: bigint;
  buyer: string;
  buyer_offer_id: bigint;
  sold_asset: AssetValue;
  sold_amount: bigint;
  bought_asset: AssetValue;
  bought_amount: bigint;
  /** the crossed offer's price (bought per sold, as the offer stood before the trade) */
  price_n: bigint;
  price_d: bigint;
}

export interface ParticipantRow {
  account: string;
  id: bigint;
}

export interface AccountRow {
  id: string;
  balance: bigint;
  buying_liabilities: bigint;
  selling_liabilities: bigint;
  sequence: bigint;
  sequence_ledger: number | null;
  sequence_time: bigint | null;
  subentry_count: number;
  num_sponsoring: number;
  num_sponsored: number;
  inflation_destination: string | null;
  home_domain: string;
  flags: number;
  master_weight: number;
  threshold_low: number;
  threshold_medium: number;
  threshold_high: number;
  last_modified_ledger: number;
}

export interface SignerRow {
  account_id: string;
  signer: string;
  weight: number;
  sponsor: string | null;
}

export interface DataRow {
  account_id: string;
  name: string;
  value: string;
  last_modified_ledger: number;
}

export interface TrustLineRow {
  account_id: string;
  asset_type: string;
  asset_code: string;
  asset_issuer: string;
  balance: bigint;
  limit: bigint;
  buying_liabilities: bigint;
  selling_liabilities: bigint;
  flags: number;
  last_modified_ledger: number;
}

export interface OfferRow {
  id: bigint;
  seller_id: string;
  selling_asset: string;
  buying_asset: string;
  amount: bigint;
  price_n: number;
  price_d: number;
  price: number;
  flags: number;
  last_modified_ledger: number;
}

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
  removedTrustLines: { account_id: string; asset_code: string; asset_issuer: string }[];
  offers: OfferRow[];
  removedOffers: bigint[];
}

/** The history rows of some transactions of a ledger. */
export interface TransactionHistoryRows {
  transactions: TransactionRow[];
  operations: OperationRow[];
  effects: EffectRow[];
  trades: TradeRecord[];
  transactionParticipants: ParticipantRow[];
  operationParticipants: ParticipantRow[];
}

export interface LedgerRows extends TransactionHistoryRows {
  ledger: LedgerRow;
  state: StateRows;
}
