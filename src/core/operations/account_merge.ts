// account_merge: moves the whole native balance to the destination and removes the source.
import { muxedAccountBase, startingSequenceNumber } from '../../stellar/index.js';
import { accountKey } from '../ledger/entries.js';
import { opInner } from '../ledger/results.js';
import type { OperationDef } from './context.js';
import { AUTH_IMMUTABLE_FLAG, accountExists, addAccountBalance, loadAccount, opBody } from './helpers.js';
import { removeEntryWithPossibleSponsorship, removeSignerWithPossibleSponsorship } from './sponsorship.js';

const T = 'accountMerge';
const fail = (code: string) => ({ success: false, result: opInner(T, code) });

export const accountMerge: OperationDef = {
  threshold: () => 'high',
  supported: true,
  checkValid(op, sourceId) {
    if (muxedAccountBase(opBody(op, T).destination) === sourceId) return opInner(T, 'accountMergeMalformed');
    return null;
  },
  apply(ctx) {
    const dest = muxedAccountBase(opBody(ctx.op, T).destination);
    if (!accountExists(ctx.ltx, dest)) return fail('accountMergeNoAccount');
    const source = loadAccount(ctx.ltx, ctx.sourceId)!;
    if (source.flags & AUTH_IMMUTABLE_FLAG) return fail('accountMergeImmutableSet');
    if (source.numSubEntries !== source.signers.length) return fail('accountMergeHasSubEntries');
    // an account recreated in the same ledger could otherwise replay old sequence numbers
    if (source.seqNum >= startingSequenceNumber(ctx.header.ledgerSeq)) return fail('accountMergeSeqnumTooFar');
    // sponsoring someone's future reserves (an open sandwich) or existing entries
    if (ctx.ltx.futureSponsoredCount(ctx.sourceId) > 0 || source.numSponsoring > 0) return fail('accountMergeIsSponsor');
    while (source.signers.length > 0) removeSignerWithPossibleSponsorship(ctx.ltx, source.signers.length - 1, source);
    const balance = source.balance;
    const d = loadAccount(ctx.ltx, dest)!;
    if (!addAccountBalance(ctx.header, d, balance)) return fail('accountMergeDestFull');
    removeEntryWithPossibleSponsorship(ctx.ltx, source, source);
    ctx.ltx.erase(accountKey(ctx.sourceId));
    return { success: true, result: opInner(T, 'accountMergeSuccess', balance) };
  },
};
