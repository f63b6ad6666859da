// path_payment_strict_receive: the destination receives exactly destAmount of destAsset, bought
// through up to 5 intermediate assets; the source pays at most sendMax of sendAsset.
import { opOuter } from '../ledger/results.js';
import { opBody } from './helpers.js';
import type { OperationDef } from './context.js';
import { exchangeOpResult, pathPaymentSuccess, simplePaymentResult } from './exchange_results.js';
import { applyStrictReceive, pathAmountsAndAssetsValid, pathSpec } from './path_payment.js';

const T = 'pathPaymentStrictReceive';

export const pathPaymentStrictReceive: OperationDef = {
  threshold: () => 'medium',
  supported: true,
  checkValid(op) {
    const b = opBody(op, T).pathPaymentStrictReceiveOp;
    const assets = [b.sendAsset, b.destAsset, ...b.path];
    if (!pathAmountsAndAssetsValid(b.destAmount, b.sendMax, assets)) return exchangeOpResult(T, `${T}Malformed`);
    return null;
  },
  apply(ctx) {
    const b = opBody(ctx.op, T).pathPaymentStrictReceiveOp;
    const spec = pathSpec(b.sendAsset, b.destAsset, b.destination, b.path);
    const r = applyStrictReceive(ctx, spec, b.destAmount, b.sendMax);
    if (!r.ok) {
      if (r.code === 'ExceededWorkLimit') return { success: false, result: opOuter('opExceededWorkLimit') };
      return { success: false, result: exchangeOpResult(T, `${T}${r.code}`) };
    }
    return { success: true, result: pathPaymentSuccess(T, r.trail, simplePaymentResult(r.destId, r.destAsset, r.destAmount)) };
  },
};
