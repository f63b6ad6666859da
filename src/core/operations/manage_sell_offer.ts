// manage_sell_offer: creates, updates or deletes (amount 0) an offer selling `amount` at `price`.
import type { xdr } from '@stellar/stellar-sdk/base';
import type { OperationDef } from './context.js';
import { applyManageOffer, checkOfferOpValid } from './manage_offer.js';
import type { OfferOpParams } from './manage_offer.js';
import { opBody } from './helpers.js';

function params(op: xdr.Operation): OfferOpParams {
  const b = opBody(op, 'manageSellOffer').manageSellOfferOp;
  return {
    opType: 'manageSellOffer',
    sheep: b.selling,
    wheat: b.buying,
    offerId: b.offerId,
    price: { n: b.price.n, d: b.price.d },
    passiveOnCreate: false,
    kind: 'sell',
    amount: b.amount,
  };
}

export const manageSellOffer: OperationDef = {
  threshold: () => 'medium',
  supported: true,
  checkValid: (op) => checkOfferOpValid(params(op)),
  apply: (ctx) => applyManageOffer(ctx, params(ctx.op)),
};
