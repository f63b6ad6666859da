// payment: stellar-core applies it as a strict-receive path payment with an empty path and maps
// the codes back; the destination is credited before the source is debited.
import { assetFromXdr, isNative, muxedToAccountId } from '../ledger/entries.js';
import { opInner } from '../ledger/results.js';
import type { OperationDef } from './context.js';
import {
  accountExists,
  addAccountBalance,
  assetValid,
  availableBalance,
  loadAccount,
  loadTrustLineView,
  viewAddBalance,
  viewAuthorized,
} from './helpers.js';

const T = 'payment';
const fail = (code: string) => ({ success: false, result: opInner(T, code) });

export const payment: OperationDef = {
  threshold: () => 'medium',
  supported: true,
  checkValid(op) {
    const body = op.body().paymentOp();
    if (body.amount().toBigInt() <= 0n) return opInner(T, 'paymentMalformed');
    if (!assetValid(body.asset())) return opInner(T, 'paymentMalformed');
    return null;
  },
  apply(ctx) {
    const body = ctx.op.body().paymentOp();
    const dest = muxedToAccountId(body.destination());
    const asset = assetFromXdr(body.asset());
    const amount = body.amount().toBigInt();
    if (dest === ctx.sourceId && isNative(asset)) return { success: true, result: opInner(T, 'paymentSuccess') };

    // sending an asset back to its issuer does not need the issuer account to exist
    const bypassIssuerCheck = !isNative(asset) && asset.issuer === dest;
    if (!bypassIssuerCheck && !accountExists(ctx.ltx, dest)) return fail('paymentNoDestination');

    if (isNative(asset)) {
      const d = loadAccount(ctx.ltx, dest)!;
      if (!addAccountBalance(ctx.header, d, amount)) return fail('paymentLineFull');
    } else {
      const line = loadTrustLineView(ctx.ltx, dest, asset);
      if (!line) return fail('paymentNoTrust');
      if (!viewAuthorized(line)) return fail('paymentNotAuthorized');
      if (!viewAddBalance(line, amount)) return fail('paymentLineFull');
    }

    if (isNative(asset)) {
      const s = loadAccount(ctx.ltx, ctx.sourceId);
      if (!s) return fail('paymentMalformed');
      if (amount > availableBalance(ctx.header, s)) return fail('paymentUnderfunded');
      if (!addAccountBalance(ctx.header, s, -amount)) throw new Error('payment: balance invariant');
    } else {
      const line = loadTrustLineView(ctx.ltx, ctx.sourceId, asset);
      if (!line) return fail('paymentSrcNoTrust');
      if (!viewAuthorized(line)) return fail('paymentSrcNotAuthorized');
      if (!viewAddBalance(line, -amount)) return fail('paymentUnderfunded');
    }
    return { success: true, result: opInner(T, 'paymentSuccess') };
  },
};
