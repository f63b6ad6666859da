// end_sponsoring_future_reserves: the sponsored account (the source) closes its sandwich.
import { opInner } from '../ledger/results.js';
import type { OperationDef } from './context.js';

const T = 'endSponsoringFutureReserves';

export const endSponsoringFutureReserves: OperationDef = {
  threshold: () => 'medium',
  supported: true,
  checkValid: () => null,
  apply(ctx) {
    const { ltx, sourceId } = ctx;
    const sponsoringId = ltx.futureSponsor(sourceId);
    if (sponsoringId === undefined) return { success: false, result: opInner(T, 'endSponsoringFutureReservesNotSponsored') };
    const count = ltx.futureSponsoredCount(sponsoringId);
    if (count <= 0) throw new Error('bad sponsorship counter');
    ltx.writeFutureSponsoredCount(sponsoringId, count - 1);
    ltx.writeFutureSponsor(sourceId, null);
    return { success: true, result: opInner(T, 'endSponsoringFutureReservesSuccess') };
  },
};
