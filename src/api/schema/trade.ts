// Trade: one exchange between an offer and an operation (or two offers), with both sides' accounts
// and the operation that made it.
import type { Asset, Prisma } from '../../generated/prisma/client.js';
import { parseTradeTypeFilter, tradeTypeName } from '../../stellar/index.js';
import { formatPairPagingToken } from '../../stellar/toid.js';
import { AccountRef } from './account.js';
import { builder } from './builder.js';
import { parseTradesFilter, tradedAssetIds, type TradesInput } from '../../market/index.js';
import type { ApiContext } from '../context.js';
import { AssetInput } from './asset_input.js';
import { accountInHistory, offerTrades, poolTrades, tradeList } from './lists.js';
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

export const tradesFilterArgs = builder.args((t) => ({
  ...tradeTypeArg,
  forAccount: t.string({ description: 'only the trades of this account (it need not exist any more)' }),
  offerId: t.field({ type: 'Int64', description: 'only the trades of this offer (open or since consumed)' }),
  liquidityPoolId: t.string({ description: 'only the trades of this liquidity pool (hex id)' }),
  baseAsset: t.field({ type: AssetInput, description: 'with counterAsset: only the trades of the pair, shown with this asset as base' }),
  counterAsset: t.field({ type: AssetInput }),
}));

interface TradesSelection {
  where: Prisma.TradeWhereInput;
  /** the pair was asked in the order opposite to the stored one */
  flipped: boolean;
  /** whether the account, offer or pool filtered on is known at all (an empty list of an unknown one is a 404) */
  known: () => Promise<boolean>;
}

/** The rows the filters select (Horizon's getTrades): an unknown asset of a pair is a 404, as Horizon's. */
async function tradesOf(ctx: ApiContext, args: TradesInput): Promise<TradesSelection> {
  const filter = parsed(() => parseTradesFilter(args));
  const conditions: Prisma.TradeWhereInput[] = [];
  let flipped = false;
  let known = async () => true;
  if (filter.pair) {
    const [baseId, counterId] = await tradedAssetIds(ctx.services.db, [filter.pair.base, filter.pair.counter]);
    if (baseId == null || counterId == null) throw new ProblemError(problems.notFound());
    // stored with the smaller asset id as base (Horizon's getCanonicalAssetOrder)
    flipped = baseId >= counterId;
    conditions.push({ baseAssetId: Math.min(baseId, counterId), counterAssetId: Math.max(baseId, counterId) });
  }
  if (filter.tradeType !== null) conditions.push({ tradeType: filter.tradeType });
  const { account, offerId, liquidityPoolId } = filter;
  if (account !== null) {
    conditions.push({ OR: [{ baseAccount: account }, { counterAccount: account }] });
    known = () => accountInHistory(ctx, account);
  } else if (offerId !== null) {
    const where = offerTrades(offerId);
    conditions.push(where);
    known = async () =>
      (await ctx.prisma.offer.count({ where: { id: offerId } })) > 0 || (await ctx.prisma.trade.count({ where, take: 1 })) > 0;
  } else if (liquidityPoolId !== null) {
    const where = poolTrades(liquidityPoolId);
    conditions.push(where);
    // a pool the state or the history has (Horizon's history_liquidity_pools)
    known = async () =>
      (await ctx.prisma.liquidityPool.count({ where: { id: liquidityPoolId } })) > 0 ||
      (await ctx.prisma.operationLiquidityPool.count({ where: { liquidityPoolId }, take: 1 })) > 0 ||
      (await ctx.prisma.trade.count({ where, take: 1 })) > 0;
  }
  return { where: { AND: conditions }, flipped, known };
}

builder.queryField('trades', (t) =>
  t.connection({
    type: TradeRef,
    description:
      'Trades: all, or those of one account, offer or liquidity pool, or of an asset pair (with or without an account), of one type. ' +
      'Errors name Horizon’s parameters (base_asset_type, offer_id, liquidity_pool_id, trade_type …).',
    args: { ...listArgs, ...tradesFilterArgs },
    resolve: async (_root, args, ctx, info) => {
      const { where, flipped, known } = await tradesOf(ctx, args);
      const connection = await keysetConnection(tradeList(ctx, info, where, flipped), args);
      if (connection.edges.length === 0 && !(await known())) throw new ProblemError(problems.notFound());
      return connection;
    },
  }),
);

builder.subscriptionField('trades', (t) =>
  t.field({
    type: TradeRef,
    description:
      'Each trade (of an account, an offer, a liquidity pool or a pair, as the trades list filters) as its ledger is ingested, after replaying those after the cursor.',
    args: {
      ...tradesFilterArgs,
      cursor: t.arg.string({ description: 'replay after this paging token (now: only what is new), then follow new ledgers' }),
    },
    subscribe: async (_root, args, ctx, info) => {
      const { where, flipped, known } = await tradesOf(ctx, args);
      if (!(await known())) throw new ProblemError(problems.notFound());
      return follow(ctx, info, tradeList(ctx, info, where, flipped), args.cursor);
    },
    resolve: (trade, _args, ctx) => freshLoaders(trade, ctx),
  }),
);
