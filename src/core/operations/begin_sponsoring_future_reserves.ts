// begin_sponsoring_future_reserves: the source pays the reserves of what the sponsored account
// creates until that account's end_sponsoring_future_reserves, in the same transaction.
import { accountIdFromXdr } from '../../stellar/index.js';
import { opInner } from '../ledger/results.js';
import type { OperationDef } from './context.js';
import { opBody } from './helpers.js';

const T = 'beginSponsoringFutureReserves';
const fail = (code: string) => ({ success: false, result: opInner(T, code) });

export const beginSponsoringFutureReserves: OperationDef = {
  threshold: () => 'medium',
  supported: true,
  checkValid(op, sourceId) {
    if (accountIdFromXdr(opBody(op, T).beginSponsoringFutureReservesOp.sponsoredId) === sourceId) {
      return opInner(T, 'beginSponsoringFutureReservesMalformed');
    }
    return null;
  },
  apply(ctx) {
    const { ltx, sourceId } = ctx;
    const sponsoredId = accountIdFromXdr(opBody(ctx.op, T).beginSponsoringFutureReservesOp.sponsoredId);
    if (ltx.futureSponsor(sponsoredId) !== undefined) return fail('beginSponsoringFutureReservesAlreadySponsored');
    // no chains: a sponsor is not itself sponsored, and a sponsored account sponsors no one
    if (ltx.futureSponsor(sourceId) !== undefined || ltx.futureSponsoredCount(sponsoredId) > 0) {
      return fail('beginSponsoringFutureReservesRecursive');
    }
    ltx.writeFutureSponsor(sponsoredId, sourceId);
    ltx.writeFutureSponsoredCount(sourceId, ltx.futureSponsoredCount(sourceId) + 1);
    return { success: true, result: opInner(T, 'beginSponsoringFutureReservesSuccess') };
  },
};
