// The order book summary of a market (src/market/order_book.ts): price levels, best first.
// REST renders it as Horizon's GET /order_book.
import {
  orderBook,
  parseOrderBookParams,
  type OrderBookInput,
  type OrderBookParams,
  type OrderBookSummary,
  type PriceLevel,
} from '../../market/index.js';
import type { ApiContext } from '../context.js';
import { followChanges } from '../follow/index.js';
import { parsed } from '../problems.js';
import { AssetRef, PriceRef } from './asset.js';
import { AssetInput } from './asset_input.js';
import { builder } from './builder.js';

const PriceLevelRef = builder.objectRef<PriceLevel>('PriceLevel').implement({
  description: 'The offers at one price, aggregated.',
  fields: (t) => ({
    priceR: t.field({ type: PriceRef, resolve: (level) => level.priceR }),
    price: t.exposeString('price', { description: 'counter per base, 7 decimals' }),
    amount: t.exposeString('amount', { description: 'asks: in the base asset; bids: in the counter asset' }),
  }),
});

const OrderBookRef = builder.objectRef<OrderBookSummary>('OrderBook').implement({
  description: 'Offers between two assets: asks sell the base (selling) asset, bids buy it.',
  fields: (t) => ({
    base: t.field({ type: AssetRef, resolve: (book) => book.base }),
    counter: t.field({ type: AssetRef, resolve: (book) => book.counter }),
    bids: t.field({ type: [PriceLevelRef], resolve: (book) => book.bids }),
    asks: t.field({ type: [PriceLevelRef], resolve: (book) => book.asks }),
  }),
});

/** the arguments of the query and of the subscription */
const bookArgs = builder.args((t) => ({
  selling: t.field({ type: AssetInput, required: true }),
  buying: t.field({ type: AssetInput, required: true }),
  limit: t.int(),
}));

const bookParams = (args: OrderBookInput): OrderBookParams => parsed(() => parseOrderBookParams(args));

builder.queryField('orderBook', (t) =>
  t.field({
    type: OrderBookRef,
    description: 'The order book of selling/buying, up to limit (1..200, default 20) price levels a side.',
    args: bookArgs,
    resolve: (_root, args, ctx) => {
      const params = bookParams(args);
      return orderBook(ctx.services.db, params.selling, params.buying, params.limit);
    },
  }),
);

/** The book now, then again after each ledger that changed it (as the REST stream sends it). */
function followBook(ctx: ApiContext, params: OrderBookParams): Promise<AsyncIterable<OrderBookSummary>> {
  return followChanges(ctx.services.events, () => orderBook(ctx.services.db, params.selling, params.buying, params.limit));
}

builder.subscriptionField('orderBook', (t) =>
  t.field({
    type: OrderBookRef,
    description: 'The order book of selling/buying now, then whenever an ingested ledger changed it.',
    args: bookArgs,
    // the arguments are checked before the first event: a bad one is the subscription's error
    subscribe: (_root, args, ctx) => followBook(ctx, bookParams(args)),
    resolve: (book) => book,
  }),
);
