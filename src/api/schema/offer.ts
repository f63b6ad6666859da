// Offer: an open offer of the order book as of the last ingested ledger, and the trades that
// crossed it.
import { parseCanonicalAsset } from '../../stellar/asset.js';
import { formatRatio } from '../../stellar/price.js';
import { assetShape, AssetRef, PriceRef } from './asset.js';
import { builder } from './builder.js';
import { idArg } from './inputs.js';
import { offerTrades, tradeList } from './lists.js';
import { keysetConnection, listArgs } from './paging.js';
import { TradeRef } from './trade.js';

export const OfferRef = builder.prismaNode('Offer', {
  description: 'An open offer to sell one asset for another.',
  id: { field: 'id' },
  fields: (t) => ({
    pagingToken: t.expose('id', { type: 'Int64' }),
    seller: t.exposeString('sellerId'),
    selling: t.field({ type: AssetRef, resolve: (offer) => assetShape(parseCanonicalAsset(offer.sellingAsset)) }),
    buying: t.field({ type: AssetRef, resolve: (offer) => assetShape(parseCanonicalAsset(offer.buyingAsset)) }),
    amount: t.expose('amount', { type: 'Amount', description: 'of the selling asset' }),
    priceR: t.field({ type: PriceRef, resolve: (offer) => ({ n: offer.priceN, d: offer.priceD }) }),
    price: t.string({ resolve: (offer) => formatRatio(BigInt(offer.priceN), BigInt(offer.priceD)) }),
    lastModifiedLedger: t.exposeInt('lastModifiedLedger'),
  }),
});

// Relations are added apart from the type so that the refs' types do not depend on each other.
builder.prismaObjectFields(OfferRef, (t) => ({
  trades: t.connection({
    type: TradeRef,
    args: listArgs,
    resolve: (offer, args, ctx, info) => keysetConnection(tradeList(ctx, info, offerTrades(offer.id)), args),
  }),
}));

builder.queryField('offer', (t) =>
  t.prismaField({
    type: 'Offer',
    nullable: true,
    description: 'The open offer with this id.',
    args: { id: t.arg({ type: 'Int64', required: true }) },
    resolve: (query, _root, args, ctx) => ctx.prisma.offer.findUnique({ ...query, where: { id: idArg('id', args.id) } }),
  }),
);
