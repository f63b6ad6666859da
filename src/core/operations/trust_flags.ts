// What allow_trust and set_trust_line_flags share (stellar-core TrustFlagsOpFrameBase): the issuer
// (source) changes the flags of a trustor's line to its asset; a line that loses authorization to
// maintain liabilities loses its offers and its pool shares in that asset.
import type { CreditAsset } from '../../stellar/index.js';
import { accountKey, trustLineKey } from '../ledger/entries.js';
import type { AccountRec, TrustLineRec } from '../ledger/entries.js';
import { opInner, opOuter } from '../ledger/results.js';
import type { OpContext, OpOutcome } from './context.js';
import { isAuthorizedToMaintainLiabilities } from './helpers.js';
import { removeOffersAndPoolShareTrustLines } from './pool_shares.js';

/** One of the two operations, as the shared apply sees it (stellar-core's virtual methods). */
export interface TrustFlagsOp {
  /** the operation's result type ('allowTrust', 'setTrustLineFlags') */
  type: string;
  trustor: string;
  asset: CreditAsset;
  /** result codes of the shared steps; selfNotAllowed null where checkValid already refuses it */
  codes: { selfNotAllowed: string | null; noTrustLine: string; lowReserve: string; success: string };
  /** isAuthRevocationValid: null, or the failure code (the source account as it stands) */
  authRevocationFailure(source: AccountRec): string | null;
  /** calcExpectedFlagValue: the line's new flags, or the failure code */
  expectedFlags(line: TrustLineRec): number | string;
  /** isRevocationToMaintainLiabilitiesValid: null, or the failure code */
  maintainLiabilitiesFailure(source: AccountRec, line: TrustLineRec, expected: number): string | null;
}

/** stellar-core TrustFlagsOpFrameBase::doApply (protocol ≥ 18). */
export function applyTrustFlags(ctx: OpContext, op: TrustFlagsOp): OpOutcome {
  const fail = (code: string): OpOutcome => ({ success: false, result: opInner(op.type, code) });
  if (op.trustor === ctx.sourceId) {
    if (op.codes.selfNotAllowed === null) throw new Error('trust flags on the source itself passed checkValid');
    return fail(op.codes.selfNotAllowed);
  }
  // stellar-core reads the source in a transaction it rolls back: no load in the meta
  const source = ctx.ltx.get(accountKey(ctx.sourceId)) as AccountRec;
  const revocation = op.authRevocationFailure(source);
  if (revocation) return fail(revocation);
  const key = trustLineKey(op.trustor, op.asset);
  const line = ctx.ltx.load<TrustLineRec>(key);
  if (!line) return fail(op.codes.noTrustLine);
  const expected = op.expectedFlags(line);
  if (typeof expected === 'string') return fail(expected);
  const maintain = op.maintainLiabilitiesFailure(source, line, expected);
  if (maintain) return fail(maintain);
  if (isAuthorizedToMaintainLiabilities(line.flags) && !isAuthorizedToMaintainLiabilities(expected)) {
    const removed = removeOffersAndPoolShareTrustLines(ctx, op.trustor, op.asset);
    if (removed === 'lowReserve') return fail(op.codes.lowReserve);
    if (removed === 'tooManySponsoring') return { success: false, result: opOuter('opTooManySponsoring') };
  }
  // the line was loaded again (and may have been replaced) while offers and pool shares went
  ctx.ltx.load<TrustLineRec>(key)!.flags = expected;
  return { success: true, result: opInner(op.type, op.codes.success) };
}
