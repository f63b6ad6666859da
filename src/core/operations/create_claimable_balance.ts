// create_claimable_balance: moves an amount from the source into a new claimable balance, which
// holds one base reserve per claimant on the source (or on whoever sponsors its future reserves).
import {
  absoluteClaimPredicate,
  accountIdFromXdr,
  assetFromXdr,
  claimableBalanceHash,
  isAssetValid,
  isClaimPredicateValid,
} from '../../stellar/index.js';
import { claimableBalanceIdToXdr, type ClaimableBalanceRec } from '../ledger/entries.js';
import { opInner } from '../ledger/results.js';
import type { OperationDef } from './context.js';
import {
  AUTH_CLAWBACK_ENABLED_FLAG,
  CLAIMABLE_BALANCE_CLAWBACK_ENABLED_FLAG,
  TL_CLAWBACK_ENABLED_FLAG,
  addAccountBalance,
  availableBalance,
  loadAccount,
  loadTrustLineView,
  opBody,
  viewAddBalance,
  viewAuthorized,
} from './helpers.js';
import { createEntryWithPossibleSponsorship, sponsorshipFailure } from './sponsorship.js';

const T = 'createClaimableBalance';
const fail = (code: string) => ({ success: false, result: opInner(T, code) });

export const createClaimableBalance: OperationDef = {
  threshold: () => 'medium',
  supported: true,
  checkValid(op) {
    const body = opBody(op, T).createClaimableBalanceOp;
    if (!isAssetValid(body.asset) || body.amount <= 0n || body.claimants.length === 0) return opInner(T, 'createClaimableBalanceMalformed');
    const destinations = new Set<string>();
    for (const claimant of body.claimants) {
      const destination = accountIdFromXdr(claimant.v0.destination);
      if (destinations.has(destination)) return opInner(T, 'createClaimableBalanceMalformed');
      destinations.add(destination);
    }
    for (const claimant of body.claimants) {
      if (!isClaimPredicateValid(claimant.v0.predicate)) return opInner(T, 'createClaimableBalanceMalformed');
    }
    return null;
  },
  apply(ctx) {
    const body = opBody(ctx.op, T).createClaimableBalanceOp;
    const asset = assetFromXdr(body.asset);
    const amount = body.amount;
    const source = loadAccount(ctx.ltx, ctx.sourceId)!;
    let flags = 0;
    if (asset.type === 'native') {
      if (availableBalance(ctx.header, source) < amount) return fail('createClaimableBalanceUnderfunded');
      if (!addAccountBalance(ctx.header, source, -amount)) throw new Error('an available native amount could not be taken');
    } else {
      const line = loadTrustLineView(ctx.ltx, ctx.sourceId, asset);
      if (!line) return fail('createClaimableBalanceNoTrust');
      if (!viewAuthorized(line)) return fail('createClaimableBalanceNotAuthorized');
      if (!viewAddBalance(line, -amount)) return fail('createClaimableBalanceUnderfunded');
      // from protocol 17 a balance can be clawed back when the amount could have been
      const clawback = line.issuer ? (source.flags & AUTH_CLAWBACK_ENABLED_FLAG) !== 0 : (line.line.flags & TL_CLAWBACK_ENABLED_FLAG) !== 0;
      if (clawback) flags = CLAIMABLE_BALANCE_CLAWBACK_ENABLED_FLAG;
    }
    // the id comes from the transaction (source, sequence number), never the operation's own source
    const balanceId = claimableBalanceHash(ctx.frame.sourceId, ctx.frame.seqNum, ctx.opIndex).toString('hex');
    const balance: ClaimableBalanceRec = {
      type: 'claimableBalance',
      balanceId,
      claimants: body.claimants.map((c) => ({
        destination: accountIdFromXdr(c.v0.destination),
        predicate: absoluteClaimPredicate(c.v0.predicate, ctx.header.closeTime),
      })),
      asset,
      amount,
      flags,
      extLevel: flags === 0 ? 0 : 1,
      lastModified: 0,
    };
    const r = createEntryWithPossibleSponsorship(ctx.ltx, ctx.header, balance, source);
    if (r !== 'ok') return sponsorshipFailure(r, opInner(T, 'createClaimableBalanceLowReserve'));
    ctx.ltx.create(balance);
    return { success: true, result: opInner(T, 'createClaimableBalanceSuccess', claimableBalanceIdToXdr(balanceId)) };
  },
};
