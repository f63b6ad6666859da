// Reserve, balance and trust line rules shared by operations (stellar-core's TransactionUtils).
import type { xdr } from '@stellar/stellar-sdk/base';
import { INT64_MAX, type CreditAsset } from '../../stellar/index.js';
import { accountKey, trustLineKey } from '../ledger/entries.js';
import type { AccountRec, TrustLineRec } from '../ledger/entries.js';
import type { LedgerTxn } from '../ledger/ledger_txn.js';
import type { HeaderView } from './context.js';

export const ACCOUNT_SUBENTRY_LIMIT = 1000;

/** The body arm of an operation of type `T` (e.g. `OperationBodyOf<'payment'>`, whose op is `paymentOp`). */
export type OperationBodyOf<T extends xdr.OperationBody['type']> = Extract<xdr.OperationBody, { readonly type: T }>;

/** An operation's body, which its registry entry knows the type of (anything else is a bug). */
export function opBody<T extends xdr.OperationBody['type']>(op: xdr.Operation, type: T): OperationBodyOf<T> {
  const body = op.body;
  if (body.type !== type) throw new Error(`a ${body.type} operation where ${type} was expected`);
  return body as OperationBodyOf<T>;
}

export const AUTH_REQUIRED_FLAG = 0x1;
export const AUTH_REVOCABLE_FLAG = 0x2;
export const AUTH_IMMUTABLE_FLAG = 0x4;
export const AUTH_CLAWBACK_ENABLED_FLAG = 0x8;
export const MASK_ACCOUNT_FLAGS = 0xf;

export const TL_AUTHORIZED_FLAG = 0x1;
export const TL_AUTHORIZED_TO_MAINTAIN_LIABILITIES_FLAG = 0x2;
export const TL_CLAWBACK_ENABLED_FLAG = 0x4;
export const TRUSTLINE_AUTH_FLAGS = TL_AUTHORIZED_FLAG | TL_AUTHORIZED_TO_MAINTAIN_LIABILITIES_FLAG;
/** MASK_TRUSTLINE_FLAGS_V17: the trust line flags that exist from protocol 17 */
const MASK_TRUSTLINE_FLAGS = 0x7;

/** stellar-core trustLineFlagMaskCheckIsValid (protocol ≥ 17): no unknown trust line flag. */
export function trustLineFlagMaskCheckIsValid(flags: number): boolean {
  return (flags & ~MASK_TRUSTLINE_FLAGS) === 0;
}

/** stellar-core trustLineFlagAuthIsValid: never both authorization flags at once. */
export function trustLineFlagAuthIsValid(flags: number): boolean {
  return (flags & TRUSTLINE_AUTH_FLAGS) !== TRUSTLINE_AUTH_FLAGS;
}

/** stellar-core trustLineFlagIsValid (protocol ≥ 13). */
export function trustLineFlagIsValid(flags: number): boolean {
  return trustLineFlagMaskCheckIsValid(flags) && trustLineFlagAuthIsValid(flags);
}

/** ClaimableBalanceEntryExtensionV1.flags: the asset's issuer may claw the balance back. */
export const CLAIMABLE_BALANCE_CLAWBACK_ENABLED_FLAG = 0x1;

export function minBalance(header: HeaderView, acc: AccountRec, extraSubEntries = 0): bigint {
  const count = 2 + acc.numSubEntries + extraSubEntries + acc.numSponsoring - acc.numSponsored;
  return BigInt(count) * BigInt(header.baseReserve);
}

export function availableBalance(header: HeaderView, acc: AccountRec): bigint {
  return acc.balance - minBalance(header, acc) - acc.sellingLiabilities;
}

/** stellar-core addBalance for accounts: keeps the reserve (plus selling liabilities) and the int64 ceiling. */
export function addAccountBalance(header: HeaderView, acc: AccountRec, delta: bigint): boolean {
  if (delta === 0n) return true;
  const nb = acc.balance + delta;
  if (nb < 0n || nb > INT64_MAX) return false;
  if (delta < 0n && nb - minBalance(header, acc) < acc.sellingLiabilities) return false;
  if (nb > INT64_MAX - acc.buyingLiabilities) return false;
  acc.balance = nb;
  return true;
}

export function addTrustLineBalance(tl: TrustLineRec, delta: bigint): boolean {
  if (delta === 0n) return true;
  const nb = tl.balance + delta;
  if (nb < 0n || nb > tl.limit) return false;
  if (delta < 0n && nb < tl.sellingLiabilities) return false;
  if (delta > 0n && nb > tl.limit - tl.buyingLiabilities) return false;
  tl.balance = nb;
  return true;
}

export function isAuthorized(tl: TrustLineRec): boolean {
  return (tl.flags & TL_AUTHORIZED_FLAG) !== 0;
}

export function isAuthorizedToMaintainLiabilities(flags: number): boolean {
  return (flags & (TL_AUTHORIZED_FLAG | TL_AUTHORIZED_TO_MAINTAIN_LIABILITIES_FLAG)) !== 0;
}

export function loadAccount(ltx: LedgerTxn, id: string): AccountRec | undefined {
  return ltx.load<AccountRec>(accountKey(id));
}

export function accountExists(ltx: LedgerTxn, id: string): boolean {
  return ltx.get(accountKey(id)) !== undefined;
}

/**
 * A trust line view: the issuer of an asset has an implicit, always authorized, unlimited line
 * (stellar-core's TrustLineWrapper IssuerImpl).
 */
export type TrustLineView = { issuer: true } | { issuer: false; line: TrustLineRec };

export function loadTrustLineView(ltx: LedgerTxn, accountId: string, asset: CreditAsset): TrustLineView | undefined {
  if (asset.issuer === accountId) return { issuer: true };
  const line = ltx.load<TrustLineRec>(trustLineKey(accountId, asset));
  return line ? { issuer: false, line } : undefined;
}

export function viewAuthorized(v: TrustLineView): boolean {
  return v.issuer || isAuthorized(v.line);
}

export function viewAddBalance(v: TrustLineView, delta: bigint): boolean {
  return v.issuer ? true : addTrustLineBalance(v.line, delta);
}

/** stellar-core isStringValid: no control characters, ASCII only. */
export function isStringValid(b: Buffer | string): boolean {
  const buf = typeof b === 'string' ? Buffer.from(b, 'latin1') : b;
  for (const c of buf) {
    if (c < 0x20 || c > 0x7e) return false;
  }
  return true;
}

/** stellar-core maybeUpdateAccountOnLedgerSeqUpdate (protocol ≥ 19): records when the sequence moved. */
export function touchSeqLedger(acc: AccountRec, header: HeaderView): void {
  acc.extLevel = 3;
  acc.seqLedger = header.ledgerSeq;
  acc.seqTime = header.closeTime;
}
