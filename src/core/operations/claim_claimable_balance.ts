// claim_claimable_balance: a claimant whose predicate holds at the ledger's close time takes the
// whole balance; the balance's reserve goes back to its sponsor.
import type { xdr } from '@stellar/stellar-sdk/base';
import { claimPredicateHolds } from '../../stellar/index.js';
import { claimableBalanceKey, type ClaimableBalanceRec } from '../ledger/entries.js';
import { opInner } from '../ledger/results.js';
import type { OpContext, OperationDef } from './context.js';
import { addAccountBalance, loadAccount, loadTrustLineView, opBody, viewAddBalance, viewAuthorized } from './helpers.js';
import { removeEntryWithPossibleSponsorship } from './sponsorship.js';

const T = 'claimClaimableBalance';
const fail = (code: string) => ({ success: false, result: opInner(T, code) });

/** The balance an operation names, loaded (marked in the meta, as stellar-core's load), with its key. */
export function loadClaimableBalance(
  ctx: OpContext,
  id: xdr.ClaimableBalanceId,
): { key: string; balance: ClaimableBalanceRec | undefined } {
  const key = claimableBalanceKey(id.v0.toString());
  return { key, balance: ctx.ltx.load<ClaimableBalanceRec>(key) };
}

/**
 * Erases a claimed or clawed-back balance, its reserve back to its sponsor. The operation's source
 * is loaded even when it is not the sponsor, as stellar-core does (it shows in the meta).
 */
export function eraseClaimableBalance(ctx: OpContext, key: string, balance: ClaimableBalanceRec): void {
  const source = loadAccount(ctx.ltx, ctx.sourceId)!;
  removeEntryWithPossibleSponsorship(ctx.ltx, balance, source);
  ctx.ltx.erase(key);
}

export const claimClaimableBalance: OperationDef = {
  threshold: () => 'low',
  supported: true,
  checkValid: () => null,
  apply(ctx) {
    const { key, balance } = loadClaimableBalance(ctx, opBody(ctx.op, T).claimClaimableBalanceOp.balanceId);
    if (!balance) return fail('claimClaimableBalanceDoesNotExist');
    const claimant = balance.claimants.find((c) => c.destination === ctx.sourceId);
    if (!claimant || !claimPredicateHolds(claimant.predicate, ctx.header.closeTime)) return fail('claimClaimableBalanceCannotClaim');
    const { asset, amount } = balance;
    if (asset.type === 'native') {
      const source = loadAccount(ctx.ltx, ctx.sourceId)!;
      if (!addAccountBalance(ctx.header, source, amount)) return fail('claimClaimableBalanceLineFull');
    } else {
      const line = loadTrustLineView(ctx.ltx, ctx.sourceId, asset);
      if (!line) return fail('claimClaimableBalanceNoTrust');
      if (!viewAuthorized(line)) return fail('claimClaimableBalanceNotAuthorized');
      if (!viewAddBalance(line, amount)) return fail('claimClaimableBalanceLineFull');
    }
    eraseClaimableBalance(ctx, key, balance);
    return { success: true, result: opInner(T, 'claimClaimableBalanceSuccess') };
  },
};
