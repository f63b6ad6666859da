// create_passive_sell_offer: a new sell offer that does not take offers at exactly its own price.
import type { xdr } from '@stellar/stellar-sdk/base';
import type { OperationDef } from './context.js';
import { applyManageOffer, checkOfferOpValid } from './manage_offer.js';
import type { OfferOpParams } from './manage_offer.js';
import { opBody } from './helpers.js';

function params(op: xdr.Operation): OfferOpParams {
  const b = opBody(op, 'createPassiveSellOffer').createPassiveSellOfferOp;
  return {
    opType: 'createPassiveSellOffer',
    sheep: b.selling,
    wheat: b.buying,
    offerId: 0n,
    price: { n: b.price.n, d: b.price.d },
    passiveOnCreate: true,
    kind: 'sell',
    amount: b.amount,
  };
}

export const createPassiveSellOffer: OperationDef = {
  threshold: () => 'medium',
  supported: true,
  checkValid: (op) => checkOfferOpValid(params(op)),
  apply: (ctx) => applyManageOffer(ctx, params(ctx.op)),
};
