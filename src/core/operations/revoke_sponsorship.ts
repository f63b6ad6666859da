// revoke_sponsorship: the sponsor of an entry or signer (or its owner, when unsponsored) hands the
// reserve back to the owner, or, inside a sandwich, to the account sponsoring the source.
import type { xdr } from '@stellar/stellar-sdk/base';
import { accountIdFromXdr, isAssetValid } from '../../stellar/index.js';
import { asBuffer } from '../../stellar/bytes.js';
import { keyFromLedgerKey, signerKeyToHex } from '../ledger/entries.js';
import type { AccountRec, EntryRec } from '../ledger/entries.js';
import { opInner, opOuter } from '../ledger/results.js';
import type { OperationDef, OpContext, OpOutcome } from './context.js';
import { isStringValid, loadAccount, opBody } from './helpers.js';
import {
  canEstablishEntrySponsorship,
  canEstablishSignerSponsorship,
  canRemoveEntrySponsorship,
  canRemoveSignerSponsorship,
  canTransferEntrySponsorship,
  canTransferSignerSponsorship,
  establishEntrySponsorship,
  establishSignerSponsorship,
  removeEntrySponsorship,
  removeSignerSponsorship,
  transferEntrySponsorship,
  transferSignerSponsorship,
  type SponsorableEntry,
  type SponsorshipResult,
} from './sponsorship.js';

const T = 'revokeSponsorship';
const done = (code: string): OpOutcome => ({ success: code === 'revokeSponsorshipSuccess', result: opInner(T, code) });

/** The account an entry's reserve belongs to (a claimable balance's is its sponsor's). */
function ownerOf(e: SponsorableEntry): string {
  switch (e.type) {
    case 'account':
    case 'trustline':
    case 'data':
      return e.accountId;
    case 'offer':
      return e.sellerId;
    case 'claimableBalance':
      return e.sponsor!;
  }
}

// revoking never creates subentries, so too many subentries cannot come back here
function sponsorshipOutcome(res: SponsorshipResult): OpOutcome | null {
  if (res === 'ok') return null;
  if (res === 'lowReserve') return done('revokeSponsorshipLowReserve');
  if (res === 'tooManySponsoring') return { success: false, result: opOuter('opTooManySponsoring') };
  throw new Error(`unexpected sponsorship result ${res}`);
}

function malformedKey(k: xdr.LedgerKey): boolean {
  switch (k.type) {
    case 'account':
    case 'claimableBalance':
      return false;
    case 'trustline': {
      const a = k.trustLine.asset;
      if (a.type === 'assetTypePoolShare') return false;
      if (a.type === 'assetTypeNative' || !isAssetValid(a)) return true;
      const issuer = a.type === 'assetTypeCreditAlphanum4' ? a.alphaNum4.issuer : a.alphaNum12.issuer;
      return accountIdFromXdr(issuer) === accountIdFromXdr(k.trustLine.accountId);
    }
    case 'offer':
      return k.offer.offerId <= 0n;
    case 'data': {
      const name = asBuffer(k.data.dataName.bytes);
      return name.length < 1 || !isStringValid(name);
    }
    default:
      return true;
  }
}

function revokeEntry(ctx: OpContext, key: xdr.LedgerKey): OpOutcome {
  const { ltx, header, sourceId } = ctx;
  const e = ltx.load<EntryRec>(keyFromLedgerKey(key)) as SponsorableEntry | undefined;
  if (!e) return done('revokeSponsorshipDoesNotExist');
  const owner = ownerOf(e);
  const wasSponsored = !!e.sponsor;
  // a sponsored entry is revoked by its sponsor, an unsponsored one by its owner
  if (wasSponsored ? e.sponsor !== sourceId : owner !== sourceId) return done('revokeSponsorshipNotSponsor');
  // A revokes; B owns: no sandwich on A → B pays; A sponsored by B → B pays; by C ≠ B → C pays
  const newSponsorId = ltx.futureSponsor(sourceId);
  const willBeSponsored = newSponsorId !== undefined && newSponsorId !== owner;
  if (!willBeSponsored && e.type === 'claimableBalance') return done('revokeSponsorshipOnlyTransferable');
  const sponsoredAcc = (): AccountRec => (e.type === 'account' ? e : loadAccount(ltx, owner)!);
  if (wasSponsored && willBeSponsored) {
    const oldSponsoring = loadAccount(ltx, e.sponsor!)!;
    const newSponsoring = loadAccount(ltx, newSponsorId!)!;
    const bad = sponsorshipOutcome(canTransferEntrySponsorship(header, e, oldSponsoring, newSponsoring));
    if (bad) return bad;
    transferEntrySponsorship(e, oldSponsoring, newSponsoring);
  } else if (wasSponsored) {
    const oldSponsoring = loadAccount(ltx, e.sponsor!)!;
    const sponsored = sponsoredAcc();
    const bad = sponsorshipOutcome(canRemoveEntrySponsorship(header, e, oldSponsoring, sponsored));
    if (bad) return bad;
    removeEntrySponsorship(e, oldSponsoring, sponsored);
  } else if (willBeSponsored) {
    const sponsoring = loadAccount(ltx, newSponsorId!)!;
    const sponsored = sponsoredAcc();
    const bad = sponsorshipOutcome(canEstablishEntrySponsorship(header, e, sponsoring, sponsored));
    if (bad) return bad;
    establishEntrySponsorship(e, sponsoring, sponsored);
  }
  return done('revokeSponsorshipSuccess');
}

function revokeSigner(ctx: OpContext, s: xdr.RevokeSponsorshipOpSigner): OpOutcome {
  const { ltx, header, sourceId } = ctx;
  const accountId = accountIdFromXdr(s.accountId);
  const sponsored = loadAccount(ltx, accountId);
  if (!sponsored) return done('revokeSponsorshipDoesNotExist');
  const index = sponsored.signers.findIndex((x) => x.key === signerKeyToHex(s.signerKey));
  if (index < 0) return done('revokeSponsorshipDoesNotExist');
  const current = sponsored.extLevel >= 2 ? sponsored.signers[index]!.sponsor : null;
  if (current ? current !== sourceId : accountId !== sourceId) return done('revokeSponsorshipNotSponsor');
  const newSponsorId = ltx.futureSponsor(sourceId);
  const willBeSponsored = newSponsorId !== undefined && newSponsorId !== accountId;
  if (current && willBeSponsored) {
    const oldSponsoring = loadAccount(ltx, current)!;
    const newSponsoring = loadAccount(ltx, newSponsorId!)!;
    const bad = sponsorshipOutcome(canTransferSignerSponsorship(header, index, oldSponsoring, newSponsoring, sponsored));
    if (bad) return bad;
    transferSignerSponsorship(index, oldSponsoring, newSponsoring, sponsored);
  } else if (current) {
    const oldSponsoring = loadAccount(ltx, current)!;
    const bad = sponsorshipOutcome(canRemoveSignerSponsorship(header, index, oldSponsoring, sponsored));
    if (bad) return bad;
    removeSignerSponsorship(index, oldSponsoring, sponsored);
  } else if (willBeSponsored) {
    const sponsoring = loadAccount(ltx, newSponsorId!)!;
    const bad = sponsorshipOutcome(canEstablishSignerSponsorship(header, index, sponsoring, sponsored));
    if (bad) return bad;
    establishSignerSponsorship(index, sponsoring, sponsored);
  }
  return done('revokeSponsorshipSuccess');
}

export const revokeSponsorship: OperationDef = {
  threshold: () => 'medium',
  supported: true,
  checkValid(op) {
    const r = opBody(op, T).revokeSponsorshipOp;
    if (r.type === 'revokeSponsorshipLedgerEntry' && malformedKey(r.ledgerKey)) return opInner(T, 'revokeSponsorshipMalformed');
    return null;
  },
  apply(ctx) {
    const r = opBody(ctx.op, T).revokeSponsorshipOp;
    return r.type === 'revokeSponsorshipLedgerEntry' ? revokeEntry(ctx, r.ledgerKey) : revokeSigner(ctx, r.signer);
  },
};
