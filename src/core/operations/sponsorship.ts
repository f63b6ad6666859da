// Reserve sponsorship (CAP-33), as stellar-core's SponsorshipUtils: who pays the reserve of an
// entry or signer when it is created, removed, or has its sponsorship revoked or transferred.
// Every operation that creates or removes an account, a subentry, a signer or a claimable balance
// goes through here, so the counts (numSubEntries, numSponsoring, numSponsored) stay consistent.
import type { AccountRec, EntryRec } from '../ledger/entries.js';
import type { LedgerTxn } from '../ledger/ledger_txn.js';
import type { xdr } from '@stellar/stellar-sdk/base';
import { opOuter } from '../ledger/results.js';
import type { HeaderView, OpOutcome } from './context.js';
import { ACCOUNT_SUBENTRY_LIMIT, availableBalance, loadAccount, minBalance } from './helpers.js';

export type SponsorshipResult = 'ok' | 'lowReserve' | 'tooManySubentries' | 'tooManySponsoring' | 'tooManySponsored';

/** An entry that can carry a sponsor (stellar-core throws for liquidity pools). */
export type SponsorableEntry = Exclude<EntryRec, { type: 'liquidityPool' }>;

const UINT32_MAX = 0xffffffff;

/** Reserves an entry takes: 2 for an account or a pool-share line, one per claimant for a balance, else 1. */
export function computeMultiplier(e: SponsorableEntry): number {
  switch (e.type) {
    case 'account':
      return 2;
    case 'trustline':
      return e.asset.type === 'pool_share' ? 2 : 1;
    case 'claimableBalance':
      return e.claimants.length;
    default:
      return 1;
  }
}

function isSubentry(e: SponsorableEntry): boolean {
  return e.type !== 'account' && e.type !== 'claimableBalance';
}

/** stellar-core prepareAccountEntryExtensionV2: counts need the v2 extension, kept from then on. */
function prepareExtV2(acc: AccountRec): void {
  if (acc.extLevel < 2) acc.extLevel = 2;
}

// From protocol 18 numSponsoring + numSubEntries must fit in a uint32 (isSponsoringSubentrySumIncreaseValid).
function sumIncreaseValid(acc: AccountRec, mult: number): boolean {
  return acc.numSponsoring + acc.numSubEntries + mult <= UINT32_MAX;
}

function tooManySponsoring(acc: AccountRec, mult: number): boolean {
  return acc.numSponsoring > UINT32_MAX - mult || !sumIncreaseValid(acc, mult);
}

function tooManySubEntries(acc: AccountRec, mult: number): boolean {
  return acc.numSubEntries > ACCOUNT_SUBENTRY_LIMIT - mult || !sumIncreaseValid(acc, mult);
}

function canEstablish(header: HeaderView, sponsoring: AccountRec, sponsored: AccountRec | null, mult: number): SponsorshipResult {
  if (availableBalance(header, sponsoring) < BigInt(mult) * BigInt(header.baseReserve)) return 'lowReserve';
  if (tooManySponsoring(sponsoring, mult)) return 'tooManySponsoring';
  if (sponsored && sponsored.numSponsored > UINT32_MAX - mult) return 'tooManySponsored';
  return 'ok';
}

function canRemove(header: HeaderView, sponsoring: AccountRec, sponsored: AccountRec | null, mult: number): SponsorshipResult {
  if (sponsoring.numSponsoring < mult) throw new Error('insufficient numSponsoring');
  if (sponsored && sponsored.numSponsored < mult) throw new Error('insufficient numSponsored');
  if (sponsored && availableBalance(header, sponsored) < BigInt(mult) * BigInt(header.baseReserve)) return 'lowReserve';
  return 'ok';
}

function requireSponsor(sponsor: string | null | undefined, sponsoring: AccountRec): void {
  if (!sponsor || sponsor !== sponsoring.accountId) throw new Error("sponsorship doesn't match");
}

// ---- entries ------------------------------------------------------------------------------------

export function canEstablishEntrySponsorship(
  header: HeaderView,
  e: SponsorableEntry,
  sponsoring: AccountRec,
  sponsored: AccountRec | null,
): SponsorshipResult {
  if (e.sponsor) throw new Error('sponsoring a sponsored entry');
  return canEstablish(header, sponsoring, sponsored, computeMultiplier(e));
}

export function canRemoveEntrySponsorship(
  header: HeaderView,
  e: SponsorableEntry,
  sponsoring: AccountRec,
  sponsored: AccountRec | null,
): SponsorshipResult {
  requireSponsor(e.sponsor, sponsoring);
  return canRemove(header, sponsoring, sponsored, computeMultiplier(e));
}

export function canTransferEntrySponsorship(
  header: HeaderView,
  e: SponsorableEntry,
  oldSponsoring: AccountRec,
  newSponsoring: AccountRec,
): SponsorshipResult {
  requireSponsor(e.sponsor, oldSponsoring);
  const mult = computeMultiplier(e);
  const removed = canRemove(header, oldSponsoring, null, mult);
  return removed === 'ok' ? canEstablish(header, newSponsoring, null, mult) : removed;
}

export function establishEntrySponsorship(e: SponsorableEntry, sponsoring: AccountRec, sponsored: AccountRec | null): void {
  const mult = computeMultiplier(e);
  e.sponsor = sponsoring.accountId;
  prepareExtV2(sponsoring);
  sponsoring.numSponsoring += mult;
  if (sponsored) {
    prepareExtV2(sponsored);
    sponsored.numSponsored += mult;
  }
}

export function removeEntrySponsorship(e: SponsorableEntry, sponsoring: AccountRec, sponsored: AccountRec | null): void {
  requireSponsor(e.sponsor, sponsoring);
  const mult = computeMultiplier(e);
  e.sponsor = null;
  sponsoring.numSponsoring -= mult;
  if (sponsored) sponsored.numSponsored -= mult;
}

export function transferEntrySponsorship(e: SponsorableEntry, oldSponsoring: AccountRec, newSponsoring: AccountRec): void {
  requireSponsor(e.sponsor, oldSponsoring);
  const mult = computeMultiplier(e);
  e.sponsor = newSponsoring.accountId;
  prepareExtV2(newSponsoring);
  newSponsoring.numSponsoring += mult;
  oldSponsoring.numSponsoring -= mult;
}

// ---- signers (by index in the sponsored account's signers) -------------------------------------

function signerSponsor(sponsored: AccountRec, index: number): string | null {
  const signer = sponsored.signers[index];
  if (!signer) throw new Error('no such signer');
  return signer.sponsor;
}

export function canEstablishSignerSponsorship(
  header: HeaderView,
  index: number,
  sponsoring: AccountRec,
  sponsored: AccountRec,
): SponsorshipResult {
  if (signerSponsor(sponsored, index) !== null) throw new Error('bad signer sponsorship');
  return canEstablish(header, sponsoring, sponsored, 1);
}

export function canRemoveSignerSponsorship(
  header: HeaderView,
  index: number,
  sponsoring: AccountRec,
  sponsored: AccountRec,
): SponsorshipResult {
  requireSponsor(signerSponsor(sponsored, index), sponsoring);
  return canRemove(header, sponsoring, sponsored, 1);
}

export function canTransferSignerSponsorship(
  header: HeaderView,
  index: number,
  oldSponsoring: AccountRec,
  newSponsoring: AccountRec,
  sponsored: AccountRec,
): SponsorshipResult {
  requireSponsor(signerSponsor(sponsored, index), oldSponsoring);
  const removed = canRemove(header, oldSponsoring, null, 1);
  return removed === 'ok' ? canEstablish(header, newSponsoring, null, 1) : removed;
}

export function establishSignerSponsorship(index: number, sponsoring: AccountRec, sponsored: AccountRec): void {
  prepareExtV2(sponsored);
  sponsored.signers[index]!.sponsor = sponsoring.accountId;
  sponsored.numSponsored += 1;
  prepareExtV2(sponsoring);
  sponsoring.numSponsoring += 1;
}

export function removeSignerSponsorship(index: number, sponsoring: AccountRec, sponsored: AccountRec): void {
  requireSponsor(signerSponsor(sponsored, index), sponsoring);
  sponsored.signers[index]!.sponsor = null;
  sponsored.numSponsored -= 1;
  sponsoring.numSponsoring -= 1;
}

export function transferSignerSponsorship(
  index: number,
  oldSponsoring: AccountRec,
  newSponsoring: AccountRec,
  sponsored: AccountRec,
): void {
  requireSponsor(signerSponsor(sponsored, index), oldSponsoring);
  sponsored.signers[index]!.sponsor = newSponsoring.accountId;
  prepareExtV2(newSponsoring);
  newSponsoring.numSponsoring += 1;
  oldSponsoring.numSponsoring -= 1;
}

// ---- creating and removing with a possible sponsor ----------------------------------------------

function canCreateWithoutSponsorship(header: HeaderView, e: SponsorableEntry, acc: AccountRec): SponsorshipResult {
  if (e.type === 'account') return e.balance < minBalance(header, acc) ? 'lowReserve' : 'ok';
  const mult = computeMultiplier(e);
  if (tooManySubEntries(acc, mult)) return 'tooManySubentries';
  if (availableBalance(header, acc) < BigInt(mult) * BigInt(header.baseReserve)) return 'lowReserve';
  return 'ok';
}

function canCreateWithSponsorship(
  header: HeaderView,
  e: SponsorableEntry,
  sponsoring: AccountRec,
  sponsored: AccountRec | null,
): SponsorshipResult {
  if (sponsored && isSubentry(e) && tooManySubEntries(sponsored, computeMultiplier(e))) return 'tooManySubentries';
  return canEstablishEntrySponsorship(header, e, sponsoring, sponsored);
}

function createWithoutSponsorship(e: SponsorableEntry, acc: AccountRec): void {
  if (isSubentry(e)) acc.numSubEntries += computeMultiplier(e);
}

function createWithSponsorship(e: SponsorableEntry, sponsoring: AccountRec, sponsored: AccountRec | null): void {
  if (sponsored) createWithoutSponsorship(e, sponsored);
  establishEntrySponsorship(e, sponsoring, sponsored);
}

/**
 * Accounts for a new entry (before it is stored): the reserve falls on the account sponsoring
 * `acc`'s future reserves, if any, else on `acc`. For an account entry `acc` is null and the
 * sandwich is looked up for the new account; a claimable balance is always sponsored (by its
 * creator when no sandwich is open) and is nobody's subentry.
 */
export function createEntryWithPossibleSponsorship(
  ltx: LedgerTxn,
  header: HeaderView,
  e: SponsorableEntry,
  acc: AccountRec | null,
): SponsorshipResult {
  const sponsoredAcc = e.type === 'account' ? e : acc;
  if (!sponsoredAcc) throw new Error('a new subentry without its account');
  const sponsorId = ltx.futureSponsor(sponsoredAcc.accountId);
  const sponsored = e.type === 'claimableBalance' ? null : sponsoredAcc;
  if (sponsorId !== undefined) {
    const sponsoring = loadAccount(ltx, sponsorId)!;
    const res = canCreateWithSponsorship(header, e, sponsoring, sponsored);
    if (res === 'ok') createWithSponsorship(e, sponsoring, sponsored);
    return res;
  }
  if (!sponsored) {
    const res = canCreateWithSponsorship(header, e, sponsoredAcc, null);
    if (res === 'ok') createWithSponsorship(e, sponsoredAcc, null);
    return res;
  }
  const res = canCreateWithoutSponsorship(header, e, sponsored);
  if (res === 'ok') createWithoutSponsorship(e, sponsored);
  return res;
}

/** Releases an entry's reserve (before it is erased), from its sponsor if it has one. */
export function removeEntryWithPossibleSponsorship(ltx: LedgerTxn, e: SponsorableEntry, acc: AccountRec): void {
  const sponsored = e.type === 'claimableBalance' ? null : acc;
  if (e.sponsor) {
    if (acc.accountId === e.sponsor && e.type !== 'claimableBalance') throw new Error('an entry sponsored by its own account');
    const sponsoring = acc.accountId === e.sponsor ? acc : loadAccount(ltx, e.sponsor)!;
    const mult = computeMultiplier(e);
    if (sponsoring.numSponsoring < mult) throw new Error('invalid sponsoring account state');
    if (sponsored && ((e.type !== 'account' && sponsored.numSubEntries < mult) || sponsored.numSponsored < mult)) {
      throw new Error('invalid sponsored account state');
    }
    if (sponsored && e.type !== 'account') sponsored.numSubEntries -= mult;
    removeEntrySponsorship(e, sponsoring, sponsored);
    return;
  }
  if (e.type === 'account') return;
  const mult = computeMultiplier(e);
  if (acc.numSubEntries < mult) throw new Error('invalid account state');
  acc.numSubEntries -= mult;
}

/** Accounts for a signer already inserted at `index` in `acc.signers` (with no sponsor). */
export function createSignerWithPossibleSponsorship(ltx: LedgerTxn, header: HeaderView, index: number, acc: AccountRec): SponsorshipResult {
  const sponsorId = ltx.futureSponsor(acc.accountId);
  if (sponsorId !== undefined) {
    const sponsoring = loadAccount(ltx, sponsorId)!;
    if (tooManySubEntries(acc, 1)) return 'tooManySubentries';
    const res = canEstablishSignerSponsorship(header, index, sponsoring, acc);
    if (res !== 'ok') return res;
    acc.numSubEntries += 1;
    establishSignerSponsorship(index, sponsoring, acc);
    return 'ok';
  }
  if (tooManySubEntries(acc, 1)) return 'tooManySubentries';
  if (availableBalance(header, acc) < BigInt(header.baseReserve)) return 'lowReserve';
  acc.numSubEntries += 1;
  return 'ok';
}

/** Removes the signer at `index` from `acc` and releases its reserve, from its sponsor if it has one. */
export function removeSignerWithPossibleSponsorship(ltx: LedgerTxn, index: number, acc: AccountRec): void {
  const sponsorId = acc.extLevel >= 2 ? signerSponsor(acc, index) : null;
  if (sponsorId) {
    const sponsoring = loadAccount(ltx, sponsorId)!;
    if (sponsoring.numSponsoring < 1) throw new Error('invalid sponsoring account state');
    if (acc.numSubEntries < 1 || acc.numSponsored < 1) throw new Error('invalid sponsored account state');
    removeSignerSponsorship(index, sponsoring, acc);
  } else if (acc.numSubEntries < 1) {
    throw new Error('invalid account state');
  }
  acc.numSubEntries -= 1;
  acc.signers.splice(index, 1);
}

/**
 * The failed outcome of a sponsored creation, as every operation maps it: low reserve is the
 * operation's own result, the counts are the generic opTOO_MANY_* results (too many sponsored
 * cannot happen while subentries are limited, so stellar-core throws).
 */
export function sponsorshipFailure(res: Exclude<SponsorshipResult, 'ok'>, lowReserve: xdr.OperationResult): OpOutcome {
  switch (res) {
    case 'lowReserve':
      return { success: false, result: lowReserve };
    case 'tooManySubentries':
      return { success: false, result: opOuter('opTooManySubentries') };
    case 'tooManySponsoring':
      return { success: false, result: opOuter('opTooManySponsoring') };
    case 'tooManySponsored':
      throw new Error('too many sponsored');
  }
}
