// bump_sequence: raises the source's sequence number; never lowers it.
import { opInner } from '../ledger/results.js';
import type { OperationDef } from './context.js';
import { loadAccount, opBody, touchSeqLedger } from './helpers.js';

const T = 'bumpSequence';

export const bumpSequence: OperationDef = {
  threshold: () => 'low',
  supported: true,
  checkValid(op) {
    if (opBody(op, T).bumpSequenceOp.bumpTo < 0n) return opInner(T, 'bumpSequenceBadSeq');
    return null;
  },
  apply(ctx) {
    const bumpTo = opBody(ctx.op, T).bumpSequenceOp.bumpTo;
    const source = loadAccount(ctx.ltx, ctx.sourceId)!;
    // protocol ≥ 19 records the ledger and time even when the number does not move
    touchSeqLedger(source, ctx.header);
    if (bumpTo > source.seqNum) source.seqNum = bumpTo;
    return { success: true, result: opInner(T, 'bumpSequenceSuccess') };
  },
};
