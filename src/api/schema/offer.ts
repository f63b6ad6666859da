// Offer: an open offer of the order book as of the last ingested ledger, and the trades that
// crossed it; the list of offers with Horizon's filters (seller, selling, buying, sponsor).
import type { Prisma } from '../../generated/prisma/client.js';
import { formatCanonicalAsset, storedAsset } from '../../stellar/asset.js';
import { formatRatio } from '../../stellar/price.js';
import { assetShape, AssetRef, PriceRef } from './asset.js';
import { builder } from './builder.js';
import { lastModifiedInclude, lastModifiedTimeField } from './state_entry.js';
import { follow, freshLoaders } from './follow.js';
import { accountIdArg, canonicalAssetArg, idArg } from './inputs.js';
import { offerList, offerTradeList } from './state_lists.js';
import { keysetConnection, listArgs } from './paging.js';
import { TradeRef } from './trade.js';

export const OfferRef = builder.prismaNode('Offer', {
  description: 'An open offer to sell one asset for another.',
  id: { field: 'id' },
  include: lastModifiedInclude,
  fields: (t) => ({
    pagingToken: t.expose('id', { type: 'Int64' }),
    seller: t.exposeString('sellerId'),
    selling: t.field({ type: AssetRef, resolve: (offer) => assetShape(storedAsset(offer.sellingAsset)) }),
    buying: t.field({ type: AssetRef, resolve: (offer) => assetShape(storedAsset(offer.buyingAsset)) }),
    amount: t.expose('amount', { type: 'Amount', description: 'of the selling asset' }),
    priceR: t.field({ type: PriceRef, resolve: (offer) => ({ n: offer.priceN, d: offer.priceD }) }),
    price: t.string({ resolve: (offer) => formatRatio(BigInt(offer.priceN), BigInt(offer.priceD)) }),
    lastModifiedLedger: t.exposeInt('lastModifiedLedger'),
    lastModifiedTime: t.field(lastModifiedTimeField()),
    sponsor: t.exposeString('sponsor', { nullable: true, description: 'the account sponsoring the offer’s reserve' }),
  }),
});

// Relations are added apart from the type so that the refs' types do not depend on each other.
builder.prismaObjectFields(OfferRef, (t) => ({
  trades: t.connection({
    type: TradeRef,
    args: listArgs,
    resolve: (offer, args, ctx, info) => keysetConnection(offerTradeList(ctx, info, offer.id), args),
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

/** Horizon's filters of the offers list (GetOffersHandler); each is optional, all given must hold. */
const offerFilterArgs = builder.args((t) => ({
  seller: t.string({ description: 'offers of this account (it need not exist)' }),
  selling: t.string({ description: 'offers selling this asset: native or CODE:ISSUER' }),
  buying: t.string({ description: 'offers buying this asset: native or CODE:ISSUER' }),
  sponsor: t.string({ description: 'offers whose reserve this account sponsors' }),
}));

interface OfferFilters {
  seller?: string | null | undefined;
  selling?: string | null | undefined;
  buying?: string | null | undefined;
  sponsor?: string | null | undefined;
}

/** The filters as a `where`; empty values are absent, as Horizon reads its query. */
export function offerFilterWhere(filters: OfferFilters): Prisma.OfferWhereInput {
  const where: Prisma.OfferWhereInput = {};
  if (filters.seller) where.sellerId = accountIdArg('seller', filters.seller);
  if (filters.selling) where.sellingAsset = formatCanonicalAsset(canonicalAssetArg('selling', filters.selling));
  if (filters.buying) where.buyingAsset = formatCanonicalAsset(canonicalAssetArg('buying', filters.buying));
  if (filters.sponsor) where.sponsor = accountIdArg('sponsor', filters.sponsor);
  return where;
}

builder.queryField('offers', (t) =>
  t.connection({
    type: OfferRef,
    description: 'Open offers in id order, filtered by seller, selling and buying asset, and sponsor.',
    args: { ...listArgs, ...offerFilterArgs },
    resolve: (_root, args, ctx, info) => keysetConnection(offerList(ctx, info, offerFilterWhere(args)), args),
  }),
);

builder.subscriptionField('offers', (t) =>
  t.field({
    type: OfferRef,
    description: 'Each new offer (by id) matching the filters as its ledger is ingested, after replaying those after the cursor.',
    args: {
      ...offerFilterArgs,
      cursor: t.arg.string({ description: 'replay after this paging token (now: only what is new), then follow new ledgers' }),
    },
    subscribe: (_root, args, ctx, info) => follow(ctx, info, offerList(ctx, info, offerFilterWhere(args)), args.cursor),
    resolve: (offer, _args, ctx) => freshLoaders(offer, ctx),
  }),
);
