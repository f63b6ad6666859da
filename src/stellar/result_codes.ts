import type { xdr } from '@stellar/stellar-sdk/base';
import { OPERATION_TYPE_NAMES } from './operation_types.js';

/**
 * Horizon's result-code strings (the `extras.result_codes` of a failed submission), as stellar/go
 * services/horizon/internal/codes/main.go (commit 096f654) produces them. The tables are keyed by
 * the XDR enum member names, which are also the arm names (`type`) of the result unions. The
 * strings are irregular (`op_no_source_account`, `sell_not_authorized` without `op_`,
 * `op_not_aut_maintain_liabilities`, ...): they are copied, not derived.
 */
const TRANSACTION_CODES: Readonly<Record<string, string>> = {
  txFeeBumpInnerSuccess: 'tx_fee_bump_inner_success',
  txFeeBumpInnerFailed: 'tx_fee_bump_inner_failed',
  txNotSupported: 'tx_not_supported',
  txSuccess: 'tx_success',
  txFailed: 'tx_failed',
  txTooEarly: 'tx_too_early',
  txTooLate: 'tx_too_late',
  txMissingOperation: 'tx_missing_operation',
  txBadSeq: 'tx_bad_seq',
  txBadAuth: 'tx_bad_auth',
  txInsufficientBalance: 'tx_insufficient_balance',
  txNoAccount: 'tx_no_source_account',
  txInsufficientFee: 'tx_insufficient_fee',
  txBadAuthExtra: 'tx_bad_auth_extra',
  txInternalError: 'tx_internal_error',
  txBadSponsorship: 'tx_bad_sponsorship',
  txBadMinSeqAgeOrGap: 'tx_bad_minseq_age_or_gap',
  txMalformed: 'tx_malformed',
  txSorobanInvalid: 'tx_soroban_invalid',
};

/** Outer OperationResultCode values (the operation did not run: `op_inner` means it did). */
const OPERATION_CODES: Readonly<Record<string, string>> = {
  opInner: 'op_inner',
  opBadAuth: 'op_bad_auth',
  opNoAccount: 'op_no_source_account',
  opNotSupported: 'op_not_supported',
  opTooManySubentries: 'op_too_many_subentries',
  opExceededWorkLimit: 'op_exceeded_work_limit',
};

const OP_SUCCESS = 'op_success';
const OP_MALFORMED = 'op_malformed';
const OP_UNDERFUNDED = 'op_underfunded';
const OP_LOW_RESERVE = 'op_low_reserve';
const OP_LINE_FULL = 'op_line_full';
const OP_NO_ISSUER = 'op_no_issuer';
const OP_NO_TRUST = 'op_no_trust';
const OP_NOT_AUTHORIZED = 'op_not_authorized';
const OP_DOES_NOT_EXIST = 'op_does_not_exist';

/**
 * Inner result codes of every operation. Member names are unique across the per-operation enums
 * (each is prefixed by its operation), so one flat table serves all; create_passive_sell_offer
 * reports ManageSellOfferResultCode values.
 */
const INNER_OPERATION_CODES: Readonly<Record<string, string>> = {
  createAccountSuccess: OP_SUCCESS,
  createAccountMalformed: OP_MALFORMED,
  createAccountUnderfunded: OP_UNDERFUNDED,
  createAccountLowReserve: OP_LOW_RESERVE,
  createAccountAlreadyExist: 'op_already_exists',

  paymentSuccess: OP_SUCCESS,
  paymentMalformed: OP_MALFORMED,
  paymentUnderfunded: OP_UNDERFUNDED,
  paymentSrcNoTrust: 'op_src_no_trust',
  paymentSrcNotAuthorized: 'op_src_not_authorized',
  paymentNoDestination: 'op_no_destination',
  paymentNoTrust: OP_NO_TRUST,
  paymentNotAuthorized: OP_NOT_AUTHORIZED,
  paymentLineFull: OP_LINE_FULL,
  paymentNoIssuer: OP_NO_ISSUER,

  pathPaymentStrictReceiveSuccess: OP_SUCCESS,
  pathPaymentStrictReceiveMalformed: OP_MALFORMED,
  pathPaymentStrictReceiveUnderfunded: OP_UNDERFUNDED,
  pathPaymentStrictReceiveSrcNoTrust: 'op_src_no_trust',
  pathPaymentStrictReceiveSrcNotAuthorized: 'op_src_not_authorized',
  pathPaymentStrictReceiveNoDestination: 'op_no_destination',
  pathPaymentStrictReceiveNoTrust: OP_NO_TRUST,
  pathPaymentStrictReceiveNotAuthorized: OP_NOT_AUTHORIZED,
  pathPaymentStrictReceiveLineFull: OP_LINE_FULL,
  pathPaymentStrictReceiveNoIssuer: OP_NO_ISSUER,
  pathPaymentStrictReceiveTooFewOffers: 'op_too_few_offers',
  pathPaymentStrictReceiveOfferCrossSelf: 'op_cross_self',
  pathPaymentStrictReceiveOverSendmax: 'op_over_source_max',

  manageBuyOfferSuccess: OP_SUCCESS,
  manageBuyOfferMalformed: OP_MALFORMED,
  manageBuyOfferSellNoTrust: 'op_sell_no_trust',
  manageBuyOfferBuyNoTrust: 'op_buy_no_trust',
  manageBuyOfferSellNotAuthorized: 'sell_not_authorized',
  manageBuyOfferBuyNotAuthorized: 'buy_not_authorized',
  manageBuyOfferLineFull: OP_LINE_FULL,
  manageBuyOfferUnderfunded: OP_UNDERFUNDED,
  manageBuyOfferCrossSelf: 'op_cross_self',
  manageBuyOfferSellNoIssuer: 'op_sell_no_issuer',
  manageBuyOfferBuyNoIssuer: 'buy_no_issuer',
  manageBuyOfferNotFound: 'op_offer_not_found',
  manageBuyOfferLowReserve: OP_LOW_RESERVE,

  manageSellOfferSuccess: OP_SUCCESS,
  manageSellOfferMalformed: OP_MALFORMED,
  manageSellOfferSellNoTrust: 'op_sell_no_trust',
  manageSellOfferBuyNoTrust: 'op_buy_no_trust',
  manageSellOfferSellNotAuthorized: 'sell_not_authorized',
  manageSellOfferBuyNotAuthorized: 'buy_not_authorized',
  manageSellOfferLineFull: OP_LINE_FULL,
  manageSellOfferUnderfunded: OP_UNDERFUNDED,
  manageSellOfferCrossSelf: 'op_cross_self',
  manageSellOfferSellNoIssuer: 'op_sell_no_issuer',
  manageSellOfferBuyNoIssuer: 'buy_no_issuer',
  manageSellOfferNotFound: 'op_offer_not_found',
  manageSellOfferLowReserve: OP_LOW_RESERVE,

  setOptionsSuccess: OP_SUCCESS,
  setOptionsLowReserve: OP_LOW_RESERVE,
  setOptionsTooManySigners: 'op_too_many_signers',
  setOptionsBadFlags: 'op_bad_flags',
  setOptionsInvalidInflation: 'op_invalid_inflation',
  setOptionsCantChange: 'op_cant_change',
  setOptionsUnknownFlag: 'op_unknown_flag',
  setOptionsThresholdOutOfRange: 'op_threshold_out_of_range',
  setOptionsBadSigner: 'op_bad_signer',
  setOptionsInvalidHomeDomain: 'op_invalid_home_domain',
  setOptionsAuthRevocableRequired: 'op_auth_revocable_required',

  changeTrustSuccess: OP_SUCCESS,
  changeTrustMalformed: OP_MALFORMED,
  changeTrustNoIssuer: OP_NO_ISSUER,
  changeTrustInvalidLimit: 'op_invalid_limit',
  changeTrustLowReserve: OP_LOW_RESERVE,
  changeTrustSelfNotAllowed: 'op_self_not_allowed',
  changeTrustTrustLineMissing: 'op_trust_line_missing',
  changeTrustCannotDelete: 'op_cannot_delete',
  changeTrustNotAuthMaintainLiabilities: 'op_not_aut_maintain_liabilities',

  allowTrustSuccess: OP_SUCCESS,
  allowTrustMalformed: OP_MALFORMED,
  allowTrustNoTrustLine: OP_NO_TRUST,
  allowTrustTrustNotRequired: 'op_not_required',
  allowTrustCantRevoke: 'op_cant_revoke',
  allowTrustSelfNotAllowed: 'op_self_not_allowed',
  allowTrustLowReserve: OP_LOW_RESERVE,

  accountMergeSuccess: OP_SUCCESS,
  accountMergeMalformed: OP_MALFORMED,
  accountMergeNoAccount: 'op_no_account',
  accountMergeImmutableSet: 'op_immutable_set',
  accountMergeHasSubEntries: 'op_has_sub_entries',
  accountMergeSeqnumTooFar: 'op_seq_num_too_far',
  accountMergeDestFull: 'op_dest_full',
  accountMergeIsSponsor: 'op_is_sponsor',

  inflationSuccess: OP_SUCCESS,
  inflationNotTime: 'op_not_time',

  manageDataSuccess: OP_SUCCESS,
  manageDataNotSupportedYet: 'op_not_supported_yet',
  manageDataNameNotFound: 'op_data_name_not_found',
  manageDataLowReserve: OP_LOW_RESERVE,
  manageDataInvalidName: 'op_data_invalid_name',

  bumpSequenceSuccess: OP_SUCCESS,
  bumpSequenceBadSeq: 'op_bad_seq',

  pathPaymentStrictSendSuccess: OP_SUCCESS,
  pathPaymentStrictSendMalformed: OP_MALFORMED,
  pathPaymentStrictSendUnderfunded: OP_UNDERFUNDED,
  pathPaymentStrictSendSrcNoTrust: 'op_src_no_trust',
  pathPaymentStrictSendSrcNotAuthorized: 'op_src_not_authorized',
  pathPaymentStrictSendNoDestination: 'op_no_destination',
  pathPaymentStrictSendNoTrust: OP_NO_TRUST,
  pathPaymentStrictSendNotAuthorized: OP_NOT_AUTHORIZED,
  pathPaymentStrictSendLineFull: OP_LINE_FULL,
  pathPaymentStrictSendNoIssuer: OP_NO_ISSUER,
  pathPaymentStrictSendTooFewOffers: 'op_too_few_offers',
  pathPaymentStrictSendOfferCrossSelf: 'op_cross_self',
  pathPaymentStrictSendUnderDestmin: 'op_under_dest_min',

  createClaimableBalanceSuccess: OP_SUCCESS,
  createClaimableBalanceMalformed: OP_MALFORMED,
  createClaimableBalanceLowReserve: OP_LOW_RESERVE,
  createClaimableBalanceNoTrust: OP_NO_TRUST,
  createClaimableBalanceNotAuthorized: OP_NOT_AUTHORIZED,
  createClaimableBalanceUnderfunded: OP_UNDERFUNDED,

  claimClaimableBalanceSuccess: OP_SUCCESS,
  claimClaimableBalanceDoesNotExist: OP_DOES_NOT_EXIST,
  claimClaimableBalanceCannotClaim: 'op_cannot_claim',
  claimClaimableBalanceLineFull: OP_LINE_FULL,
  claimClaimableBalanceNoTrust: OP_NO_TRUST,
  claimClaimableBalanceNotAuthorized: OP_NOT_AUTHORIZED,

  beginSponsoringFutureReservesSuccess: OP_SUCCESS,
  beginSponsoringFutureReservesMalformed: OP_MALFORMED,
  beginSponsoringFutureReservesAlreadySponsored: 'op_already_sponsored',
  beginSponsoringFutureReservesRecursive: 'op_recursive',

  endSponsoringFutureReservesSuccess: OP_SUCCESS,
  endSponsoringFutureReservesNotSponsored: 'op_not_sponsored',

  revokeSponsorshipSuccess: OP_SUCCESS,
  revokeSponsorshipDoesNotExist: OP_DOES_NOT_EXIST,
  revokeSponsorshipNotSponsor: 'op_not_sponsor',
  revokeSponsorshipLowReserve: OP_LOW_RESERVE,
  revokeSponsorshipOnlyTransferable: 'op_only_transferable',
  revokeSponsorshipMalformed: OP_MALFORMED,

  clawbackSuccess: OP_SUCCESS,
  clawbackMalformed: OP_MALFORMED,
  clawbackNotClawbackEnabled: 'op_not_clawback_enabled',
  clawbackNoTrust: OP_NO_TRUST,
  clawbackUnderfunded: OP_UNDERFUNDED,

  clawbackClaimableBalanceSuccess: OP_SUCCESS,
  clawbackClaimableBalanceDoesNotExist: OP_DOES_NOT_EXIST,
  clawbackClaimableBalanceNotIssuer: OP_NO_ISSUER,
  clawbackClaimableBalanceNotClawbackEnabled: 'op_not_clawback_enabled',

  setTrustLineFlagsSuccess: OP_SUCCESS,
  setTrustLineFlagsMalformed: OP_MALFORMED,
  setTrustLineFlagsNoTrustLine: OP_NO_TRUST,
  setTrustLineFlagsCantRevoke: 'op_cant_revoke',
  setTrustLineFlagsInvalidState: 'op_invalid_state',
  setTrustLineFlagsLowReserve: OP_LOW_RESERVE,

  liquidityPoolDepositSuccess: OP_SUCCESS,
  liquidityPoolDepositMalformed: OP_MALFORMED,
  liquidityPoolDepositNoTrust: OP_NO_TRUST,
  liquidityPoolDepositNotAuthorized: OP_NOT_AUTHORIZED,
  liquidityPoolDepositUnderfunded: OP_UNDERFUNDED,
  liquidityPoolDepositLineFull: OP_LINE_FULL,
  liquidityPoolDepositBadPrice: 'op_bad_price',
  liquidityPoolDepositPoolFull: 'op_pool_full',

  liquidityPoolWithdrawSuccess: OP_SUCCESS,
  liquidityPoolWithdrawMalformed: OP_MALFORMED,
  liquidityPoolWithdrawNoTrust: OP_NO_TRUST,
  liquidityPoolWithdrawUnderfunded: OP_UNDERFUNDED,
  liquidityPoolWithdrawLineFull: OP_LINE_FULL,
  liquidityPoolWithdrawUnderMinimum: 'op_under_minimum',

  invokeHostFunctionSuccess: OP_SUCCESS,
  invokeHostFunctionMalformed: OP_MALFORMED,
  invokeHostFunctionTrapped: 'function_trapped',
  invokeHostFunctionResourceLimitExceeded: 'resource_limit_exceeded',
  invokeHostFunctionEntryArchived: 'entry_archived',
  invokeHostFunctionInsufficientRefundableFee: 'insufficient_refundable_fee',

  extendFootprintTtlSuccess: OP_SUCCESS,
  extendFootprintTtlMalformed: OP_MALFORMED,
  extendFootprintTtlResourceLimitExceeded: 'resource_limit_exceeded',
  extendFootprintTtlInsufficientRefundableFee: 'insufficient_refundable_fee',

  restoreFootprintSuccess: OP_SUCCESS,
  restoreFootprintMalformed: OP_MALFORMED,
  restoreFootprintResourceLimitExceeded: 'resource_limit_exceeded',
  restoreFootprintInsufficientRefundableFee: 'insufficient_refundable_fee',
};

// XDR operation type names (camelCase) longest first, to strip an inner code's prefix in fallback.
const OPERATION_PREFIXES = OPERATION_TYPE_NAMES.map((name) => name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase())).sort(
  (a, b) => b.length - a.length,
);

function snakeCase(camel: string): string {
  return camel.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/**
 * Codes newer than Horizon 096f654's table (txFrozenKeyAccessed, opTooManySponsoring, the
 * *TrustlineFrozen codes) make Horizon fail with "Unknown result code". Here they get the
 * obvious snake_case name instead (`tx_frozen_key_accessed`, `op_too_many_sponsoring`,
 * `op_trustline_frozen`), so a failed submission still reports something useful.
 */
function fallbackTransactionCode(name: string): string {
  return snakeCase(name); // txFooBar → tx_foo_bar
}

function fallbackInnerOperationCode(name: string): string {
  const prefix = OPERATION_PREFIXES.find((candidate) => name.startsWith(candidate)) ?? '';
  return `op${snakeCase(name.slice(prefix.length))}`;
}

/** Horizon's string for a TransactionResultCode (`tx_success`, `tx_bad_seq`, ...). */
export function transactionCodeString(code: xdr.TransactionResultCode): string {
  return codeNameString(code.name);
}

/** Horizon's string for a TransactionResultCode's name (also a TransactionResultResult arm's name). */
function codeNameString(name: xdr.TransactionResultCodeName): string {
  return TRANSACTION_CODES[name] ?? fallbackTransactionCode(name);
}

/**
 * Horizon's string for one operation's result (codes.ForOperationResult): the outer code unless it
 * is opInner, else the operation-specific code (`op_success`, `op_underfunded`, ...).
 */
export function operationResultCode(result: xdr.OperationResult): string {
  if (result.type !== 'opInner') return OPERATION_CODES[result.type] ?? snakeCase(result.type); // opFooBar → op_foo_bar
  const inner = result.tr.value.type;
  return INNER_OPERATION_CODES[inner] ?? fallbackInnerOperationCode(inner);
}

/** The top-level code of a TransactionResult: for a fee bump, the fee bump's own code. */
export function transactionResultCode(result: xdr.TransactionResult): string {
  return codeNameString(result.result.type);
}

/** For a fee-bump result, the inner transaction's code; undefined otherwise. */
export function innerTransactionResultCode(result: xdr.TransactionResult): string | undefined {
  const inner = innerResult(result);
  return inner === undefined ? undefined : codeNameString(inner.type);
}

function innerResult(result: xdr.TransactionResult): xdr.InnerTransactionResultResult | undefined {
  const outer = result.result;
  if (outer.type !== 'txFeeBumpInnerSuccess' && outer.type !== 'txFeeBumpInnerFailed') return undefined;
  return outer.innerResultPair.result.result;
}

/**
 * One code per operation, as Horizon's TransactionResult.OperationResults: a fee bump reports the
 * inner transaction's operations. Empty when the transaction failed before its operations were
 * applied (tx_bad_seq, tx_insufficient_fee, ...): the results arm is absent then.
 */
export function operationResultCodes(result: xdr.TransactionResult): string[] {
  const holder = innerResult(result) ?? result.result;
  if (holder.type !== 'txSuccess' && holder.type !== 'txFailed') return [];
  return holder.results.map(operationResultCode);
}

/** Horizon's `extras.result_codes` of a failed transaction submission. */
export interface TransactionResultCodes {
  transaction: string;
  /** Only for fee bumps, when the submitted transaction is the fee bump itself. */
  inner_transaction?: string;
  /** Omitted, like Horizon's omitempty, when there are no operation results. */
  operations?: string[];
}

/**
 * Builds `extras.result_codes` as Horizon's txsub (FailedTransactionError.TransactionResultCodes +
 * OperationResultCodes). For a fee-bump result, if `submittedHash` (hex) is the inner
 * transaction's hash, the client submitted the inner transaction and was fee-bumped by someone
 * else, so it sees the inner code as `transaction`; otherwise it sees the fee bump's code, plus
 * `inner_transaction`.
 */
export function transactionResultCodes(result: xdr.TransactionResult, submittedHash?: string): TransactionResultCodes {
  const codes: TransactionResultCodes = { transaction: transactionResultCode(result) };
  const inner = innerTransactionResultCode(result);
  const outer = result.result;
  if (inner !== undefined && (outer.type === 'txFeeBumpInnerSuccess' || outer.type === 'txFeeBumpInnerFailed')) {
    const innerHash = Buffer.from(outer.innerResultPair.transactionHash.value).toString('hex');
    if (submittedHash !== undefined && submittedHash.toLowerCase() === innerHash) {
      codes.transaction = inner;
    } else {
      codes.inner_transaction = inner;
    }
  }
  const operations = operationResultCodes(result);
  if (operations.length > 0) codes.operations = operations;
  return codes;
}
