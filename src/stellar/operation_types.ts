import { InvalidValueError } from './invalid_value_error.js';

/**
 * Horizon's operation `type` names, indexed by `type_i` (the xdr OperationType value), exactly as
 * stellar/go protocols/horizon/operations TypeNames (commit 096f654), which covers every
 * OperationType of the SDK's XDR.
 */
export const OPERATION_TYPE_NAMES = [
  'create_account',
  'payment',
  'path_payment_strict_receive',
  'manage_sell_offer',
  'create_passive_sell_offer',
  'set_options',
  'change_trust',
  'allow_trust',
  'account_merge',
  'inflation',
  'manage_data',
  'bump_sequence',
  'manage_buy_offer',
  'path_payment_strict_send',
  'create_claimable_balance',
  'claim_claimable_balance',
  'begin_sponsoring_future_reserves',
  'end_sponsoring_future_reserves',
  'revoke_sponsorship',
  'clawback',
  'clawback_claimable_balance',
  'set_trust_line_flags',
  'liquidity_pool_deposit',
  'liquidity_pool_withdraw',
  'invoke_host_function',
  'extend_footprint_ttl',
  'restore_footprint',
] as const;

export type OperationTypeName = (typeof OPERATION_TYPE_NAMES)[number];

const NUMBER_BY_NAME = new Map<string, number>(OPERATION_TYPE_NAMES.map((name, typeI) => [name, typeI]));

/** `type` for a `type_i`; throws InvalidValueError for a number no operation has. */
export function operationTypeName(typeI: number): OperationTypeName {
  const name = Number.isInteger(typeI) ? OPERATION_TYPE_NAMES[typeI] : undefined;
  if (name === undefined) throw new InvalidValueError(`unknown operation type number ${typeI}`);
  return name;
}

/** `type_i` for a `type` name; throws InvalidValueError for an unknown name. */
export function operationTypeNumber(name: string): number {
  const typeI = NUMBER_BY_NAME.get(name);
  if (typeI === undefined) throw new InvalidValueError(`unknown operation type ${JSON.stringify(name)}`);
  return typeI;
}

/**
 * The operation types `/payments` always lists (Horizon's OperationsQ.OnlyPayments and the
 * ingest IsPayment at 096f654): create_account, payment, both path payments, account_merge.
 */
export const PAYMENT_OPERATION_TYPES: readonly number[] = [0, 1, 2, 13, 8];

/**
 * True when every operation of this type is a "payment" for `/payments`. invoke_host_function (24)
 * is a payment only when its Stellar Asset Contract events include a transfer, mint, clawback or
 * burn; Horizon stores that per operation (`is_payment`) at ingestion, and so must the caller.
 */
export function isPaymentType(typeI: number): boolean {
  return PAYMENT_OPERATION_TYPES.includes(typeI);
}
