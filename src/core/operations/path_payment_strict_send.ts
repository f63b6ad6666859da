// path_payment_strict_send: the source pays exactly sendAmount of sendAsset, converted through up
// to 5 intermediate assets; the destination must receive at least destMin of destAsset.
import { opOuter } from '../ledger/results.js';
import { opBody } from './helpers.js';
import type { OperationDef } from './context.js';
import { exchangeOpResult, pathPaymentSuccess, simplePaymentResult } from './exchange_results.js';
import { applyStrictSend, pathAmountsAndAssetsValid, pathSpec } from './path_payment.js';

const T = 'pathPaymentStrictSend';

export const pathPaymentStrictSend: OperationDef = {
  threshold: () => 'medium',
  supported: true,
  checkValid(op) {
    const b = opBody(op, T).pathPaymentStrictSendOp;
    const assets = [b.sendAsset, b.destAsset, ...b.path];
    if (!pathAmountsAndAssetsValid(b.sendAmount, b.destMin, assets)) return exchangeOpResult(T, `${T}Malformed`);
    return null;
  },
  apply(ctx) {
    const b = opBody(ctx.op, T).pathPaymentStrictSendOp;
    const spec = pathSpec(b.sendAsset, b.destAsset, b.destination, b.path);
    const r = applyStrictSend(ctx, spec, b.sendAmount, b.destMin);
    if (!r.ok) {
      if (r.code === 'ExceededWorkLimit') return { success: false, result: opOuter('opExceededWorkLimit') };
      return { success: false, result: exchangeOpResult(T, `${T}${r.code}`) };
    }
    return { success: true, result: pathPaymentSuccess(T, r.trail, simplePaymentResult(r.destId, r.destAsset, r.destAmount)) };
  },
};
