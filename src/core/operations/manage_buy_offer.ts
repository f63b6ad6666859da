// manage_buy_offer: an offer to buy `buyAmount` at `price` (selling per buying), kept in the book as
// a sell offer at the inverse price.
import type { xdr } from '@stellar/stellar-sdk/base';
import type { OperationDef } from './context.js';
import { applyManageOffer, checkOfferOpValid } from './manage_offer.js';
import type { OfferOpParams } from './manage_offer.js';
import { opBody } from './helpers.js';

function params(op: xdr.Operation): OfferOpParams {
  const b = opBody(op, 'manageBuyOffer').manageBuyOfferOp;
  return {
    opType: 'manageBuyOffer',
    sheep: b.selling,
    wheat: b.buying,
    offerId: b.offerId,
    price: { n: b.price.d, d: b.price.n },
    passiveOnCreate: false,
    kind: 'buy',
    amount: b.buyAmount,
  };
}

export const manageBuyOffer: OperationDef = {
  threshold: () => 'medium',
  supported: true,
  checkValid: (op) => checkOfferOpValid(params(op)),
  apply: (ctx) => applyManageOffer(ctx, params(ctx.op)),
};
