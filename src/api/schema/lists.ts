// The keyset sources of the lists, shared by root connections, relations and subscriptions: each is
// a Prisma `where` for the list plus the key it pages on. A history list is scoped once, here: the
// whole history, one account's (driven by its participant rows), or a TOID range (a ledger's, a
// transaction's). Nodes are loaded with the selection the query asks for beneath `edges.node`
// (queryFromInfo), so nested relations join in one statement.
import { queryFromInfo } from '@pothos/plugin-prisma';
import type { GraphQLResolveInfo } from 'graphql';
import DataLoader from 'dataloader';
import type { Account, AssetStat, Effect, Ledger, Offer, Operation, Prisma, Trade, Transaction } from '../../generated/prisma/client.js';
import type { Order } from '../../market/index.js';
import { isAccountId } from '../../stellar/account_id.js';
import { InvalidValueError } from '../../stellar/invalid_value_error.js';
import { formatAssetStatPagingToken, parseAssetStatPagingToken, type AssetStatKey } from '../../stellar/asset.js';
import { formatPagingToken, ledgerSequenceBounds, toid, type PairPagingToken, type ToidRange } from '../../stellar/toid.js';
import type { ApiContext } from '../context.js';
import { builder } from './builder.js';
import { accountIdArg } from './inputs.js';
import {
  pairCursor,
  pairKey,
  pairOrderBy,
  pairWhere,
  toidKey,
  toidWhere,
  type KeyKind,
  type KeyRange,
  type KeysetSource,
} from './paging.js';

/** What a history list holds: the whole history (null), one account's, or a TOID range (a ledger's, a transaction's). */
export type ListScope = null | { readonly account: string } | { readonly within: ToidRange };

/** The argument of a root history list that scopes it to one account (forAccountScope). */
export const forAccountArgs = builder.args((t) => ({
  forAccount: t.string({ description: 'only the history of this account (it need not exist any more)' }),
}));

/** A root list's scope: the history of `forAccount` when given (the account need not exist any more). */
export function forAccountScope(forAccount: string | null | undefined): ListScope {
  return forAccount == null ? null : { account: accountIdArg('forAccount', forAccount) };
}

export function nodeQuery(ctx: ApiContext, info: GraphQLResolveInfo): object {
  // a subscription's root field is the node itself (one per event); a connection nests it in edges
  const path = info.parentType === info.schema.getSubscriptionType() ? [] : ['edges', 'node'];
  return queryFromInfo({ context: ctx, info, path });
}

/** The node query as a nested include: `true` when the selection needs no relations. */
function nodeInclude(ctx: ApiContext, info: GraphQLResolveInfo): true | object {
  const query = nodeQuery(ctx, info) as { include?: object; select?: object };
  return query.include || query.select ? query : true;
}

/** Rows keyed by a TOID (or an offer id), paged on it. */
function idKeyed<Row extends { id: bigint }>(fetch: KeysetSource<Row, bigint>['fetch']): KeysetSource<Row, bigint> {
  return { key: toidKey, fetch, cursor: (row) => row.id.toString() };
}

/** Rows keyed by (operation id, order), paged on the pair. */
function pairKeyed<Row extends { operationId: bigint; order: number }>(
  fetch: (conditions: ReturnType<typeof pairWhere>, orderBy: ReturnType<typeof pairOrderBy>, take: number) => Promise<Row[]>,
): KeysetSource<Row, PairPagingToken> {
  return { key: pairKey, fetch: (range, direction, take) => fetch(pairWhere(range), pairOrderBy(direction), take), cursor: pairCursor };
}

export function ledgerList(ctx: ApiContext, info: GraphQLResolveInfo): KeysetSource<Ledger, bigint> {
  return {
    key: toidKey,
    // a ledger's paging token is toid(sequence, 0, 0): compare sequences
    fetch: (range, direction, take) => {
      const sequence: Prisma.IntFilter = ledgerSequenceBounds(range);
      return ctx.prisma.ledger.findMany({ ...nodeQuery(ctx, info), where: { sequence }, orderBy: { sequence: direction }, take });
    },
    cursor: (ledger) => formatPagingToken(toid(ledger.sequence, 0, 0)),
  };
}

/**
 * Transactions of a scope. An account's are driven by its participant rows (primary key (account,
 * transaction id)), so a page reads the account's own index range instead of filtering the whole history.
 */
export function transactionList(
  ctx: ApiContext,
  info: GraphQLResolveInfo,
  scope: ListScope,
  includeFailed: boolean,
): KeysetSource<Transaction, bigint> {
  if (scope && 'account' in scope) {
    const { account } = scope;
    return idKeyed(async (range, direction, take) => {
      const rows = await ctx.prisma.transactionParticipant.findMany({
        where: { account, transactionId: toidWhere(range), ...(includeFailed ? {} : { transaction: { is: { successful: true } } }) },
        orderBy: { transactionId: direction },
        take,
        include: { transaction: nodeInclude(ctx, info) },
      });
      return rows.map((row) => row.transaction);
    });
  }
  const within = scope?.within;
  return idKeyed((range, direction, take) =>
    ctx.prisma.transaction.findMany({
      ...nodeQuery(ctx, info),
      where: { AND: [{ id: toidWhere(range, within) }, includeFailed ? {} : { successful: true }] },
      orderBy: { id: direction },
      take,
    }),
  );
}

/** Operations (or payment-like ones) of a scope; an account's are driven by its participant rows like its transactions. */
export function operationList(
  ctx: ApiContext,
  info: GraphQLResolveInfo,
  scope: ListScope,
  options: { includeFailed: boolean; paymentsOnly?: boolean },
): KeysetSource<Operation, bigint> {
  const operation: Prisma.OperationWhereInput = {};
  if (!options.includeFailed) operation.transactionSuccessful = true;
  if (options.paymentsOnly) operation.isPayment = true;
  if (scope && 'account' in scope) {
    const { account } = scope;
    return idKeyed(async (range, direction, take) => {
      const rows = await ctx.prisma.operationParticipant.findMany({
        where: { account, operationId: toidWhere(range), ...(Object.keys(operation).length > 0 ? { operation: { is: operation } } : {}) },
        orderBy: { operationId: direction },
        take,
        include: { operation: nodeInclude(ctx, info) },
      });
      return rows.map((row) => row.operation);
    });
  }
  const within = scope?.within;
  return idKeyed((range, direction, take) =>
    ctx.prisma.operation.findMany({
      ...nodeQuery(ctx, info),
      where: { AND: [operation, { id: toidWhere(range, within) }] },
      orderBy: { id: direction },
      take,
    }),
  );
}

/** Effects of a scope, or of one operation. */
export function effectList(
  ctx: ApiContext,
  info: GraphQLResolveInfo,
  scope: ListScope | { readonly operation: bigint },
): KeysetSource<Effect, PairPagingToken> {
  let where: Prisma.EffectWhereInput = {};
  if (scope && 'account' in scope) where = { account: scope.account };
  else if (scope && 'operation' in scope) where = { operationId: scope.operation };
  else if (scope) where = { operationId: { gte: scope.within.start, lt: scope.within.end } };
  return pairKeyed((conditions, orderBy, take) =>
    ctx.prisma.effect.findMany({ ...nodeQuery(ctx, info), where: { AND: [where, ...conditions] }, orderBy, take }),
  );
}

/** The trades that crossed an offer (as base or counter). */
export function offerTrades(offerId: bigint): Prisma.TradeWhereInput {
  return { OR: [{ baseOfferId: offerId }, { counterOfferId: offerId }] };
}

export function tradeList(ctx: ApiContext, info: GraphQLResolveInfo, where: Prisma.TradeWhereInput): KeysetSource<Trade, PairPagingToken> {
  return pairKeyed((conditions, orderBy, take) =>
    ctx.prisma.trade.findMany({ ...nodeQuery(ctx, info), where: { AND: [where, ...conditions] }, orderBy, take }),
  );
}

export function offerList(ctx: ApiContext, info: GraphQLResolveInfo, where: Prisma.OfferWhereInput): KeysetSource<Offer, bigint> {
  return idKeyed((range, direction, take) =>
    ctx.prisma.offer.findMany({
      ...nodeQuery(ctx, info),
      where: { AND: [where, { id: toidWhere(range) }] },
      orderBy: { id: direction },
      take,
    }),
  );
}

/** Asset stats, keyed by (code, issuer) as Horizon lists them; the cursor is their paging token. */
const assetStatKey: KeyKind<AssetStatKey> = { parse: parseAssetStatPagingToken };

function keyWhere(key: AssetStatKey, op: 'gt' | 'lt'): Prisma.AssetStatWhereInput {
  return { OR: [{ assetCode: { [op]: key.code } }, { assetCode: key.code, assetIssuer: { [op]: key.issuer } }] };
}

export function assetStatList(
  ctx: ApiContext,
  info: GraphQLResolveInfo,
  where: Prisma.AssetStatWhereInput,
): KeysetSource<AssetStat, AssetStatKey> {
  return {
    key: assetStatKey,
    fetch: (range, direction, take) =>
      ctx.prisma.assetStat.findMany({
        ...nodeQuery(ctx, info),
        where: { AND: [where, ...(range.gt ? [keyWhere(range.gt, 'gt')] : []), ...(range.lt ? [keyWhere(range.lt, 'lt')] : [])] },
        orderBy: [{ assetCode: direction }, { assetIssuer: direction }],
        take,
      }),
    cursor: (s) => formatAssetStatPagingToken(s.assetType, s.assetCode, s.assetIssuer),
  };
}

/** An account id as a cursor (an account's paging token). */
const accountKey: KeyKind<string> = {
  parse: (cursor) => {
    if (!isAccountId(cursor)) throw new InvalidValueError(`${cursor} is not an account id`);
    return cursor;
  },
};

type HolderPages = DataLoader<AssetStatKey, Account[], string>;
// one loader per request, field selection (its AST node) and page: the holders of every asset of
// a page are read together, so a page of assets with their holders is two statements
const holderLoaders = new WeakMap<ApiContext, WeakMap<object, Map<string, HolderPages>>>();

function holderPages(ctx: ApiContext, info: GraphQLResolveInfo, range: KeyRange<string>, direction: Order, take: number): HolderPages {
  const byNode = holderLoaders.get(ctx) ?? new WeakMap<object, Map<string, HolderPages>>();
  holderLoaders.set(ctx, byNode);
  const node = info.fieldNodes[0] as object;
  const byPage = byNode.get(node) ?? new Map<string, HolderPages>();
  byNode.set(node, byPage);
  const page = JSON.stringify([range.gt ?? null, range.lt ?? null, direction, take]);
  let loader = byPage.get(page);
  if (!loader) {
    loader = new DataLoader(
      async (assets) => {
        // the first `take` holders of each asset in one statement, then their accounts in one more
        const rows = await ctx.prisma.$queryRaw<{ asset_code: string; asset_issuer: string; account_id: string }[]>`
          SELECT asset_code, asset_issuer, account_id FROM (
            SELECT t.asset_code, t.asset_issuer, t.account_id, row_number() OVER (
              PARTITION BY t.asset_code, t.asset_issuer
              ORDER BY CASE WHEN ${direction} = 'asc' THEN t.account_id END ASC, CASE WHEN ${direction} = 'desc' THEN t.account_id END DESC
            ) AS n
            FROM trust_lines t
            JOIN unnest(${assets.map((a) => a.code)}::text[], ${assets.map((a) => a.issuer)}::text[]) AS k(code, issuer)
              ON t.asset_code = k.code AND t.asset_issuer = k.issuer
            WHERE t.liquidity_pool_id = ''
              AND (${range.gt ?? null}::text IS NULL OR t.account_id > ${range.gt ?? null}::text)
              AND (${range.lt ?? null}::text IS NULL OR t.account_id < ${range.lt ?? null}::text)
          ) h WHERE n <= ${take}`;
        const accounts = await ctx.prisma.account.findMany({
          ...(nodeQuery(ctx, info) as object),
          where: { id: { in: [...new Set(rows.map((r) => r.account_id))] } },
        });
        const byId = new Map(accounts.map((a) => [a.id, a]));
        const sign = direction === 'asc' ? 1 : -1;
        return assets.map((asset) =>
          rows
            .filter((r) => r.asset_code === asset.code && r.asset_issuer === asset.issuer)
            .map((r) => byId.get(r.account_id))
            .filter((a): a is Account => a !== undefined)
            .sort((a, b) => (a.id < b.id ? -sign : a.id > b.id ? sign : 0)),
        );
      },
      { cacheKeyFn: (asset) => `${asset.code}:${asset.issuer}` },
    );
    byPage.set(page, loader);
  }
  return loader;
}

/** The accounts with a trust line in a credit asset, by account id; batched over the assets of one page. */
export function assetHolderList(ctx: ApiContext, info: GraphQLResolveInfo, asset: AssetStatKey): KeysetSource<Account, string> {
  return {
    key: accountKey,
    fetch: (range, direction, take) => holderPages(ctx, info, range, direction, take).load(asset),
    cursor: (account) => account.id,
  };
}
