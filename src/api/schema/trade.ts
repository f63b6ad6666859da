// Trade: one exchange between an offer and an operation (or two offers), with both sides' accounts
// and the operation that made it.
import type { Asset, Prisma } from '../../generated/prisma/client.js';
import { parseTradeTypeFilter, tradeTypeName } from '../../stellar/index.js';
import { formatPairPagingToken } from '../../stellar/toid.js';
import { AccountRef } from './account.js';
import { builder } from './builder.js';
import { idArg } from './inputs.js';
import { offerTrades, tradeList } from './lists.js';
import { keysetConnection, listArgs } from './paging.js';
import { ProblemError, parsed, problems } from '../problems.js';
import { follow, freshLoaders } from './follow.js';

interface TradePrice {
  n: bigint;
  d: bigint;
}

const TradePriceRef = builder.objectRef<TradePrice>('TradePrice').implement({
  description: 'The price of a trade, counter per base, as a fraction of int64s.',
  fields: (t) => ({
    n: t.expose('n', { type: 'Int64' }),
    d: t.expose('d', { type: 'Int64' }),
  }),
});

const code = (asset: Asset) => (asset.type === 'native' ? null : asset.code);
const issuer = (asset: Asset) => (asset.type === 'native' ? null : asset.issuer);

export const TradeRef = builder.prismaNode('Trade', {
  description: 'A trade: base asset exchanged for counter asset.',
  id: { field: 'operationId_order' },
  fields: (t) => ({
    pagingToken: t.string({ resolve: (trade) => formatPairPagingToken(trade.operationId, trade.order) }),
    ledgerCloseTime: t.expose('closedAt', { type: 'DateTime' }),
    tradeType: t.string({
      description: 'orderbook (an offer was crossed) or liquidity_pool',
      resolve: (trade) => tradeTypeName(trade.tradeType),
    }),
    liquidityPoolFeeBp: t.exposeInt('liquidityPoolFee', { nullable: true, description: "the pool's fee, basis points" }),
    offerId: t.expose('offerId', { type: 'Int64', nullable: true, description: 'the crossed offer (none for a pool)' }),
    baseLiquidityPoolId: t.exposeString('baseLiquidityPoolId', { nullable: true, description: 'the pool, when the base side is one' }),
    baseOfferId: t.expose('baseOfferId', { type: 'Int64', nullable: true }),
    baseAccountId: t.exposeString('baseAccount', { nullable: true }),
    baseAmount: t.expose('baseAmount', { type: 'Amount' }),
    baseAssetType: t.string({ select: { baseAsset: true }, resolve: (trade) => trade.baseAsset.type }),
    baseAssetCode: t.string({ nullable: true, select: { baseAsset: true }, resolve: (trade) => code(trade.baseAsset) }),
    baseAssetIssuer: t.string({ nullable: true, select: { baseAsset: true }, resolve: (trade) => issuer(trade.baseAsset) }),
    counterLiquidityPoolId: t.exposeString('counterLiquidityPoolId', {
      nullable: true,
      description: 'the pool, when the counter side is one',
    }),
    counterOfferId: t.expose('counterOfferId', { type: 'Int64', nullable: true }),
    counterAccountId: t.exposeString('counterAccount', { nullable: true }),
    counterAmount: t.expose('counterAmount', { type: 'Amount' }),
    counterAssetType: t.string({ select: { counterAsset: true }, resolve: (trade) => trade.counterAsset.type }),
    counterAssetCode: t.string({ nullable: true, select: { counterAsset: true }, resolve: (trade) => code(trade.counterAsset) }),
    counterAssetIssuer: t.string({
      nullable: true,
      select: { counterAsset: true },
      resolve: (trade) => issuer(trade.counterAsset),
    }),
    baseIsSeller: t.exposeBoolean('baseIsSeller'),
    price: t.field({ type: TradePriceRef, resolve: (trade) => ({ n: trade.priceN, d: trade.priceD }) }),
  }),
});

// Relations are added apart from the type so that the refs' types do not depend on each other.
builder.prismaObjectFields(TradeRef, (t) => ({
  operation: t.relation('operation'),
  baseAccount: t.field({
    type: AccountRef,
    nullable: true,
    resolve: (trade, _args, ctx) => (trade.baseAccount ? ctx.loaders.account.load(trade.baseAccount) : null),
  }),
  counterAccount: t.field({
    type: AccountRef,
    nullable: true,
    resolve: (trade, _args, ctx) => (trade.counterAccount ? ctx.loaders.account.load(trade.counterAccount) : null),
  }),
}));

/** The trades a `tradeType` argument keeps (all, orderbook or liquidity_pool; none is all). */
export function tradeTypeWhere(tradeType: string | null | undefined): Prisma.TradeWhereInput {
  if (tradeType == null) return {};
  const types = parsed(() => parseTradeTypeFilter(tradeType), 'tradeType');
  return types.length === 1 ? { tradeType: types[0] } : {};
}

export const tradeTypeArg = builder.args((t) => ({
  tradeType: t.string({ description: 'all (the default), orderbook or liquidity_pool' }),
}));

builder.queryField('trades', (t) =>
  t.connection({
    type: TradeRef,
    description: 'Trades, optionally of one offer (open or since consumed), of one type.',
    args: { ...listArgs, ...tradeTypeArg, offerId: t.arg({ type: 'Int64' }) },
    resolve: async (_root, args, ctx, info) => {
      const types = tradeTypeWhere(args.tradeType);
      if (args.offerId == null) return keysetConnection(tradeList(ctx, info, types), args);
      const offerId = idArg('offerId', args.offerId);
      // Horizon: an offer's trades are never a pool's
      if (args.tradeType === 'liquidity_pool') {
        throw new ProblemError(problems.badRequest('tradeType', 'trade_type liquidity_pool cannot be used with the offer_id filter'));
      }
      const where = offerTrades(offerId);
      const [offer, trade] = await Promise.all([
        ctx.prisma.offer.findUnique({ where: { id: offerId }, select: { id: true } }),
        ctx.prisma.trade.findFirst({ where, select: { operationId: true } }),
      ]);
      if (!offer && !trade) throw new ProblemError(problems.notFound());
      return keysetConnection(tradeList(ctx, info, { AND: [where, types] }), args);
    },
  }),
);

builder.subscriptionField('trades', (t) =>
  t.field({
    type: TradeRef,
    description: 'Each trade of an offer as its ledger is ingested, after replaying those after the cursor.',
    args: {
      offerId: t.arg({ type: 'Int64', required: true }),
      cursor: t.arg.string({ description: 'replay after this paging token (now: only what is new), then follow new ledgers' }),
    },
    subscribe: (_root, args, ctx, info) => {
      return follow(ctx, tradeList(ctx, info, offerTrades(idArg('offerId', args.offerId))), args.cursor);
    },
    resolve: (trade, _args, ctx) => freshLoaders(trade, ctx),
  }),
);
