// payment: stellar-core applies it as a strict-receive path payment with an empty path (same asset
// sent and received, sendMax = amount) and maps the codes back to payment's own.
import { opInner } from '../ledger/results.js';
import { assetFromXdr, isAssetValid, muxedAccountBase } from '../../stellar/index.js';
import type { OperationDef } from './context.js';
import { applyStrictReceive } from './path_payment.js';
import type { PathFailure } from './path_payment.js';
import { opBody } from './helpers.js';

const T = 'payment';

const CODES: Partial<Record<PathFailure, string>> = {
  Underfunded: 'paymentUnderfunded',
  SrcNotAuthorized: 'paymentSrcNotAuthorized',
  SrcNoTrust: 'paymentSrcNoTrust',
  NoDestination: 'paymentNoDestination',
  NoTrust: 'paymentNoTrust',
  NotAuthorized: 'paymentNotAuthorized',
  LineFull: 'paymentLineFull',
};

export const payment: OperationDef = {
  threshold: () => 'medium',
  supported: true,
  checkValid(op) {
    const body = opBody(op, T).paymentOp;
    if (body.amount <= 0n) return opInner(T, 'paymentMalformed');
    if (!isAssetValid(body.asset)) return opInner(T, 'paymentMalformed');
    return null;
  },
  apply(ctx) {
    const body = opBody(ctx.op, T).paymentOp;
    const dest = muxedAccountBase(body.destination);
    const asset = assetFromXdr(body.asset);
    const amount = body.amount;
    if (dest === ctx.sourceId && asset.type === 'native') return { success: true, result: opInner(T, 'paymentSuccess') };
    const r = applyStrictReceive(ctx, { sendAsset: asset, destAsset: asset, destId: dest, path: [] }, amount, amount);
    if (r.ok) return { success: true, result: opInner(T, 'paymentSuccess') };
    const code = CODES[r.code];
    if (!code) throw new Error(`unexpected error code from pathPaymentStrictReceive: ${r.code}`);
    return { success: false, result: opInner(T, code) };
  },
};
