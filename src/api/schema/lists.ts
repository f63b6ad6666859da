// The keyset sources of the lists, shared by root connections, relations and subscriptions: each is
// a Prisma `where` for the list plus the key it pages on. A history list is scoped once, here: the
// whole history, one account's (driven by its participant rows), one claimable balance's or one
// liquidity pool's (driven by their link rows), or a TOID range (a ledger's, a transaction's). Nodes are loaded with the selection the query asks for beneath `edges.node`
// (queryFromInfo), so nested relations join in one statement.
import { queryFromInfo } from '@pothos/plugin-prisma';
import DataLoader from 'dataloader';
import type { GraphQLResolveInfo } from 'graphql';
import {
  type Account,
  type AssetStat,
  type ClaimableBalance,
  type Effect,
  type Ledger,
  type LiquidityPool,
  type Offer,
  type Operation,
  Prisma,
  type Trade,
  type Transaction,
} from '../../generated/prisma/client.js';
import type { Order } from '../../market/index.js';
import { type AssetStatKey, type CreditAsset, formatAssetStatPagingToken, parseAssetStatPagingToken } from '../../stellar/asset.js';
import { formatBalancePagingToken, type BalancePagingToken } from '../../stellar/entry_ids.js';
import { formatPagingToken, ledgerSequenceBounds, toid, type PairPagingToken, type ToidRange } from '../../stellar/toid.js';
import type { ApiContext } from '../context.js';
import { builder } from './builder.js';
import { ProblemError, problems } from '../problems.js';
import { accountIdArg, balanceIdArg, poolIdArg } from './inputs.js';
import {
  balanceKey,
  balanceWhere,
  keysetConnection,
  pairCursor,
  pairKey,
  pairOrderBy,
  pairWhere,
  poolKey,
  textKey,
  accountIdKey,
  toidKey,
  toidWhere,
  type Connection,
  type KeyKind,
  type KeyRange,
  type KeysetSource,
  type PageArgs,
} from './paging.js';

/** The history of one account, claimable balance or liquidity pool: read through its link rows. */
export type LinkedScope = { readonly account: string } | { readonly claimableBalance: string } | { readonly liquidityPool: string };

/** What a history list holds: the whole history (null), one account's, balance's or pool's, or a TOID range (a ledger's, a transaction's). */
export type ListScope = null | LinkedScope | { readonly within: ToidRange };

/** The argument of a root history list that scopes it to one account (historyScope). */
export const forAccountArgs = builder.args((t) => ({
  forAccount: t.string({ description: 'only the history of this account (it need not exist any more)' }),
}));

/** The argument of a root history list that scopes it to one claimable balance (historyScope). */
export const forClaimableBalanceArgs = builder.args((t) => ({
  forClaimableBalance: t.string({ description: 'only the history of this claimable balance (it need not exist any more)' }),
}));

/** The argument of a root history list that scopes it to one liquidity pool (historyScope). */
export const forLiquidityPoolArgs = builder.args((t) => ({
  forLiquidityPool: t.string({ description: 'only the history of this liquidity pool (it need not exist any more)' }),
}));

interface ScopeArgs {
  forAccount?: string | null | undefined;
  forClaimableBalance?: string | null | undefined;
  forLiquidityPool?: string | null | undefined;
}

/** A root list's scope: the history of the one account, claimable balance or pool given (none: the whole history). */
export function historyScope(args: ScopeArgs): ListScope {
  const given = [args.forAccount, args.forClaimableBalance, args.forLiquidityPool].filter((value) => value != null);
  if (given.length > 1) {
    throw new ProblemError(
      problems.badRequest('filters', 'use a single filter: one of forAccount, forClaimableBalance or forLiquidityPool'),
    );
  }
  if (args.forAccount != null) return { account: accountIdArg('forAccount', args.forAccount) };
  if (args.forClaimableBalance != null) return { claimableBalance: balanceIdArg('forClaimableBalance', args.forClaimableBalance) };
  if (args.forLiquidityPool != null) return { liquidityPool: poolIdArg('forLiquidityPool', args.forLiquidityPool) };
  return null;
}

/**
 * A root history list's page. A claimable balance or pool the history never saw is not_found, as
 * Horizon's lookup of its history id is; asked only when the page is empty.
 */
export async function historyConnection<Row, Key>(
  ctx: ApiContext,
  scope: ListScope,
  source: KeysetSource<Row, Key>,
  args: PageArgs,
): Promise<Connection<Row>> {
  const page = await keysetConnection(source, args);
  if (page.edges.length > 0 || scope === null) return page;
  let seen = true;
  if ('claimableBalance' in scope) {
    seen = (await ctx.prisma.transactionClaimableBalance.findFirst({ where: { claimableBalanceId: scope.claimableBalance } })) !== null;
  } else if ('liquidityPool' in scope) {
    seen = (await ctx.prisma.transactionLiquidityPool.findFirst({ where: { liquidityPoolId: scope.liquidityPool } })) !== null;
  }
  if (!seen) throw new ProblemError(problems.notFound());
  return page;
}

/**
 * Whether the history knows the account: it exists, or it took part in an operation (a merged
 * account keeps its history; Horizon's history_accounts).
 */
export async function accountInHistory(ctx: ApiContext, account: string): Promise<boolean> {
  const [state, participant] = await Promise.all([
    ctx.prisma.account.count({ where: { id: account } }),
    ctx.prisma.operationParticipant.count({ where: { account }, take: 1 }),
  ]);
  return state > 0 || participant > 0;
}

export function nodeQuery(
  ctx: ApiContext,
  info: GraphQLResolveInfo,
): { include?: Record<string, unknown>; select?: Record<string, unknown> } {
  // a subscription's root field is the node itself (one per event); a connection nests it in edges
  const path = info.parentType === info.schema.getSubscriptionType() ? [] : ['edges', 'node'];
  return queryFromInfo({ context: ctx, info, path });
}

/** The node query as a nested include: `true` when the selection needs no relations. */
function nodeInclude(ctx: ApiContext, info: GraphQLResolveInfo): true | object {
  const query = nodeQuery(ctx, info) as { include?: object; select?: object };
  return query.include || query.select ? query : true;
}

/** The history's newest ledger, which a `now` cursor follows (read only for such a cursor). */
function newestLedger(ctx: ApiContext): () => Promise<number> {
  return async () => (await ctx.prisma.ledger.aggregate({ _max: { sequence: true } }))._max.sequence ?? 0;
}

/** Rows keyed by a TOID (or an offer id), paged on it. */
function idKeyed<Row extends { id: bigint }>(ctx: ApiContext, fetch: KeysetSource<Row, bigint>['fetch']): KeysetSource<Row, bigint> {
  return { key: toidKey, fetch, cursor: (row) => row.id.toString(), newestLedger: newestLedger(ctx) };
}

/** Rows keyed by (operation id, order), paged on the pair. */
function pairKeyed<Row extends { operationId: bigint; order: number }>(
  ctx: ApiContext,
  fetch: (conditions: ReturnType<typeof pairWhere>, orderBy: ReturnType<typeof pairOrderBy>, take: number) => Promise<Row[]>,
): KeysetSource<Row, PairPagingToken> {
  return {
    key: pairKey,
    fetch: (range, direction, take) => fetch(pairWhere(range), pairOrderBy(direction), take),
    cursor: pairCursor,
    newestLedger: newestLedger(ctx),
  };
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
    newestLedger: newestLedger(ctx),
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
  if (scope && !('within' in scope)) {
    return idKeyed(ctx, async (range, direction, take) => {
      const where = { transactionId: toidWhere(range), ...(includeFailed ? {} : { transaction: { is: { successful: true } } }) };
      const query = { orderBy: { transactionId: direction }, take, include: { transaction: nodeInclude(ctx, info) } };
      const rows =
        'account' in scope
          ? await ctx.prisma.transactionParticipant.findMany({ ...query, where: { ...where, account: scope.account } })
          : 'claimableBalance' in scope
            ? await ctx.prisma.transactionClaimableBalance.findMany({
                ...query,
                where: { ...where, claimableBalanceId: scope.claimableBalance },
              })
            : await ctx.prisma.transactionLiquidityPool.findMany({ ...query, where: { ...where, liquidityPoolId: scope.liquidityPool } });
      return rows.map((row) => row.transaction);
    });
  }
  const within = scope?.within;
  return idKeyed(ctx, (range, direction, take) =>
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
  if (scope && !('within' in scope)) {
    return idKeyed(ctx, async (range, direction, take) => {
      const where = { operationId: toidWhere(range), ...(Object.keys(operation).length > 0 ? { operation: { is: operation } } : {}) };
      const query = { orderBy: { operationId: direction }, take, include: { operation: nodeInclude(ctx, info) } };
      const rows =
        'account' in scope
          ? await ctx.prisma.operationParticipant.findMany({ ...query, where: { ...where, account: scope.account } })
          : 'claimableBalance' in scope
            ? await ctx.prisma.operationClaimableBalance.findMany({
                ...query,
                where: { ...where, claimableBalanceId: scope.claimableBalance },
              })
            : await ctx.prisma.operationLiquidityPool.findMany({ ...query, where: { ...where, liquidityPoolId: scope.liquidityPool } });
      return rows.map((row) => row.operation);
    });
  }
  const within = scope?.within;
  return idKeyed(ctx, (range, direction, take) =>
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
  if (scope && ('claimableBalance' in scope || 'liquidityPool' in scope)) return linkedEffects(ctx, info, scope);
  let where: Prisma.EffectWhereInput = {};
  if (scope && 'account' in scope) where = { account: scope.account };
  else if (scope && 'operation' in scope) where = { operationId: scope.operation };
  else if (scope) where = { operationId: { gte: scope.within.start, lt: scope.within.end } };
  return pairKeyed(ctx, (conditions, orderBy, take) =>
    ctx.prisma.effect.findMany({ ...nodeQuery(ctx, info), where: { AND: [where, ...conditions] }, orderBy, take }),
  );
}

/**
 * The effects of a pool or a balance: every effect of the operations that touched it, read as
 * Horizon's EffectsForLiquidityPool does — the first `take` of those operations from the cursor's
 * operation (their link rows' index), then their effects — rather than filtering every effect.
 */
function linkedEffects(
  ctx: ApiContext,
  info: GraphQLResolveInfo,
  scope: { readonly claimableBalance: string } | { readonly liquidityPool: string },
): KeysetSource<Effect, PairPagingToken> {
  return {
    key: pairKey,
    cursor: pairCursor,
    fetch: async (range, direction, take) => {
      const operationId: Prisma.BigIntFilter = {};
      if (range.gt) operationId.gte = range.gt.operationId;
      if (range.lt) operationId.lte = range.lt.operationId;
      const query = { orderBy: { operationId: direction }, take, select: { operationId: true } };
      const links =
        'claimableBalance' in scope
          ? await ctx.prisma.operationClaimableBalance.findMany({
              ...query,
              where: { claimableBalanceId: scope.claimableBalance, operationId },
            })
          : await ctx.prisma.operationLiquidityPool.findMany({ ...query, where: { liquidityPoolId: scope.liquidityPool, operationId } });
      if (links.length === 0) return [];
      const operations = { operationId: { in: links.map((link) => link.operationId) } };
      return ctx.prisma.effect.findMany({
        ...nodeQuery(ctx, info),
        where: { AND: [operations, ...pairWhere(range)] },
        orderBy: pairOrderBy(direction),
        take,
      });
    },
  };
}

/** The trades that crossed an offer (as base or counter). */
export function offerTrades(offerId: bigint): Prisma.TradeWhereInput {
  return { OR: [{ baseOfferId: offerId }, { counterOfferId: offerId }] };
}

/**
 * Trades matching `where`; `flipped` shows each from its counter side (Horizon's reversed trade
 * fields, for a pair asked in the order opposite to the stored one).
 */
/** The trades of a liquidity pool (on either side). */
export function poolTrades(liquidityPoolId: string): Prisma.TradeWhereInput {
  return { OR: [{ baseLiquidityPoolId: liquidityPoolId }, { counterLiquidityPoolId: liquidityPoolId }] };
}

export function tradeList(
  ctx: ApiContext,
  info: GraphQLResolveInfo,
  where: Prisma.TradeWhereInput,
  flipped = false,
): KeysetSource<Trade, PairPagingToken> {
  return pairKeyed(ctx, async (conditions, orderBy, take) => {
    const query = nodeQuery(ctx, info);
    if (flipped) withTwins(query);
    const rows = await ctx.prisma.trade.findMany({ ...query, where: { AND: [where, ...conditions] }, orderBy, take });
    return flipped ? rows.map(flipTrade) : rows;
  });
}

/** the other side of a trade's field (`baseAsset` ↔ `counterAsset`, `priceN` ↔ `priceD`) */
function twinOf(key: string): string | null {
  if (key === 'baseIsSeller') return null;
  if (key.startsWith('base')) return `counter${key.slice('base'.length)}`;
  if (key.startsWith('counter')) return `base${key.slice('counter'.length)}`;
  return key === 'priceN' ? 'priceD' : key === 'priceD' ? 'priceN' : null;
}

/** A flipped trade shows one side's fields from the other: whatever side is selected, load both. */
function withTwins(query: { include?: Record<string, unknown>; select?: Record<string, unknown> }): void {
  for (const fields of [query.include, query.select]) {
    if (!fields) continue;
    for (const key of Object.keys(fields)) {
      const twin = twinOf(key);
      if (twin !== null && !(twin in fields)) fields[twin] = fields[key];
    }
  }
}

/** A trade seen from its counter side: the sides swapped, the price inverted, base_is_seller negated. */
function flipTrade<Row extends Trade>(row: Row): Row {
  const fields = row as Record<string, unknown>;
  // every base* column or relation loaded with its counter* twin (offer, account, asset, amount, pool), and the price
  for (const key of Object.keys(fields)) {
    const twin = twinOf(key);
    if (twin !== null && (key.startsWith('base') || key === 'priceN') && twin in fields) {
      [fields[key], fields[twin]] = [fields[twin], fields[key]];
    }
  }
  row.baseIsSeller = !row.baseIsSeller;
  return row;
}

export function offerList(ctx: ApiContext, info: GraphQLResolveInfo, where: Prisma.OfferWhereInput): KeysetSource<Offer, bigint> {
  return idKeyed(ctx, (range, direction, take) =>
    ctx.prisma.offer.findMany({
      ...nodeQuery(ctx, info),
      where: { AND: [where, { id: toidWhere(range) }] },
      orderBy: { id: direction },
      take,
    }),
  );
}

/** The filters of a claimable balance list, checked: an asset as stored, account ids. */
export interface BalanceFilter {
  asset?: string;
  sponsor?: string;
  claimant?: string;
}

/**
 * Claimable balances in Horizon's order (last modified ledger, id). A claimant's alone are driven by
 * its claimant rows (their own (destination, ledger, id) index), as Horizon's subquery is; with
 * another filter the claimant is a condition on the balances.
 */
export function claimableBalanceList(
  ctx: ApiContext,
  info: GraphQLResolveInfo,
  filter: BalanceFilter,
): KeysetSource<ClaimableBalance, BalancePagingToken> {
  const cursor = (row: ClaimableBalance) => formatBalancePagingToken(row.lastModifiedLedger, row.id);
  const { asset, sponsor, claimant } = filter;
  if (claimant !== undefined && asset === undefined && sponsor === undefined) {
    return {
      key: balanceKey,
      fetch: async (range, direction, take) => {
        const bounds = balanceWhere(range, {
          ledger: 'lastModifiedLedger',
          id: 'balanceId',
        }) as Prisma.ClaimableBalanceClaimantWhereInput[];
        const rows = await ctx.prisma.claimableBalanceClaimant.findMany({
          where: { AND: [{ destination: claimant }, ...bounds] },
          orderBy: [{ lastModifiedLedger: direction }, { balanceId: direction }],
          take,
          include: { balance: nodeInclude(ctx, info) },
        });
        return rows.map((row) => row.balance);
      },
      cursor,
    };
  }
  const where: Prisma.ClaimableBalanceWhereInput = {};
  if (asset !== undefined) where.asset = asset;
  if (sponsor !== undefined) where.sponsor = sponsor;
  if (claimant !== undefined) where.destinations = { some: { destination: claimant } };
  return {
    key: balanceKey,
    fetch: (range, direction, take) => {
      const bounds = balanceWhere(range, { ledger: 'lastModifiedLedger', id: 'id' }) as Prisma.ClaimableBalanceWhereInput[];
      return ctx.prisma.claimableBalance.findMany({
        ...nodeQuery(ctx, info),
        where: { AND: [where, ...bounds] },
        orderBy: [{ lastModifiedLedger: direction }, { id: direction }],
        take,
      });
    },
    cursor,
  };
}

/** Liquidity pools by id (Horizon's order and paging token). */
export function liquidityPoolList(
  ctx: ApiContext,
  info: GraphQLResolveInfo,
  where: Prisma.LiquidityPoolWhereInput,
): KeysetSource<LiquidityPool, string> {
  return {
    key: poolKey,
    fetch: (range, direction, take) => {
      const id: Prisma.StringFilter = {};
      if (range.gt !== undefined) id.gt = range.gt;
      if (range.lt !== undefined) id.lt = range.lt;
      return ctx.prisma.liquidityPool.findMany({
        // a pool has no relations: its query selects scalars only
        ...(nodeQuery(ctx, info) as object),
        where: { AND: [where, { id }] },
        orderBy: { id: direction },
        take,
      });
    },
    cursor: (pool) => pool.id,
  };
}

/**
 * What an account list holds (Horizon's GetAccountsHandler, exactly one filter): the accounts
 * with a signer (the master key counts while its weight is not zero, as in Horizon's
 * accounts_signers), with a trust line to a credit asset or to a pool's shares, or whose entry or
 * sub-entries (data, signers, trust lines) a sponsor sponsors (AccountsForSponsor).
 */
export type AccountFilter =
  | { readonly signer: string }
  | { readonly asset: CreditAsset }
  | { readonly liquidityPool: string }
  | { readonly sponsor: string };

type AccountRange = KeyRange<string>;

const textWhere = (range: AccountRange): Prisma.StringFilter => ({
  ...(range.gt !== undefined ? { gt: range.gt } : {}),
  ...(range.lt !== undefined ? { lt: range.lt } : {}),
});

/** ids in key order, without repeats, at most `take` */
function firstIds(ids: string[], direction: Order, take: number): string[] {
  const sorted = [...new Set(ids)].sort();
  if (direction === 'desc') sorted.reverse();
  return sorted.slice(0, take);
}

/** The accounts of `ids` with the node selection, in the order of `ids`. */
async function accountsInOrder(ctx: ApiContext, info: GraphQLResolveInfo, ids: readonly string[]): Promise<Account[]> {
  if (ids.length === 0) return [];
  const rows = await ctx.prisma.account.findMany({ ...nodeQuery(ctx, info), where: { id: { in: [...ids] } } });
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * The ids of the accounts each sponsor sponsors (the account entry, or any of its data entries,
 * signers and trust lines: Horizon's union), at most `take` per sponsor in key order: one statement
 * for any number of sponsors.
 */
async function sponsoredIds(
  ctx: ApiContext,
  sponsors: readonly string[],
  range: AccountRange,
  direction: Order,
  take: number,
): Promise<Map<string, string[]>> {
  const bounds = [
    ...(range.gt !== undefined ? [Prisma.sql`account_id > ${range.gt}`] : []),
    ...(range.lt !== undefined ? [Prisma.sql`account_id < ${range.lt}`] : []),
  ];
  const order = Prisma.raw(direction === 'asc' ? 'ASC' : 'DESC');
  const list = [...sponsors];
  const rows = await ctx.prisma.$queryRaw<{ sponsor: string; account_id: string }[]>`
    SELECT sponsor, account_id FROM (
      SELECT sponsor, account_id, row_number() OVER (PARTITION BY sponsor ORDER BY account_id ${order}) AS n
      FROM (
        SELECT sponsor, id AS account_id FROM accounts WHERE sponsor = ANY(${list})
        UNION SELECT sponsor, account_id FROM accounts_data WHERE sponsor = ANY(${list})
        UNION SELECT sponsor, account_id FROM accounts_signers WHERE sponsor = ANY(${list})
        UNION SELECT sponsor, account_id FROM trust_lines WHERE sponsor = ANY(${list})
      ) sponsored
      ${bounds.length > 0 ? Prisma.sql`WHERE ${Prisma.join(bounds, ' AND ')}` : Prisma.empty}
    ) ranked
    WHERE n <= ${take}
    ORDER BY sponsor, n`;
  const ids = new Map<string, string[]>(sponsors.map((sponsor) => [sponsor, []]));
  for (const row of rows) ids.get(row.sponsor)?.push(row.account_id);
  return ids;
}

/** The ids of the accounts a filter holds, within `range`, in key order. */
async function filteredIds(ctx: ApiContext, filter: AccountFilter, range: AccountRange, direction: Order, take: number): Promise<string[]> {
  const accountId = textWhere(range);
  const trustLineIds = async (where: Prisma.TrustLineWhereInput) =>
    (
      await ctx.prisma.trustLine.findMany({
        where: { ...where, accountId },
        orderBy: { accountId: direction },
        take,
        select: { accountId: true },
      })
    ).map((row) => row.accountId);
  if ('sponsor' in filter) return (await sponsoredIds(ctx, [filter.sponsor], range, direction, take)).get(filter.sponsor) ?? [];
  if ('asset' in filter) {
    const { type, code, issuer } = filter.asset;
    return trustLineIds({ assetType: type, assetCode: code, assetIssuer: issuer });
  }
  if ('liquidityPool' in filter) return trustLineIds({ liquidityPoolId: filter.liquidityPool });
  const { signer } = filter;
  const inRange = (range.gt === undefined || signer > range.gt) && (range.lt === undefined || signer < range.lt);
  const [signed, master] = await Promise.all([
    ctx.prisma.signer.findMany({ where: { signer, accountId }, orderBy: { accountId: direction }, take, select: { accountId: true } }),
    inRange ? ctx.prisma.account.findFirst({ where: { id: signer, masterWeight: { gt: 0 } }, select: { id: true } }) : null,
  ]);
  return firstIds([...signed.map((row) => row.accountId), ...(master ? [master.id] : [])], direction, take);
}

export function accountList(ctx: ApiContext, info: GraphQLResolveInfo, filter: AccountFilter): KeysetSource<Account, string> {
  return {
    key: textKey,
    fetch: async (range, direction, take) => accountsInOrder(ctx, info, await filteredIds(ctx, filter, range, direction, take)),
    cursor: (account) => account.id,
  };
}

// biome-ignore lint/suspicious/noExplicitAny: loaders of every key and value type share the cache
type AnyLoader = DataLoader<any, any, any>;
const relationLoaders = new WeakMap<ApiContext['loaders'], WeakMap<object, Map<string, AnyLoader>>>();

/**
 * The same page of a relation for every parent of a list, read together: one DataLoader per
 * request, per field in the document (its AST node) and per page asked.
 */
function relationPage<K, V, C = K>(
  ctx: ApiContext,
  info: GraphQLResolveInfo,
  page: { range: KeyRange<unknown>; direction: Order; take: number },
  batch: DataLoader.BatchLoadFn<K, V>,
  options?: DataLoader.Options<K, V, C>,
): DataLoader<K, V, C> {
  let byNode = relationLoaders.get(ctx.loaders);
  if (!byNode) relationLoaders.set(ctx.loaders, (byNode = new WeakMap()));
  const node = info.fieldNodes[0] ?? info;
  let byPage = byNode.get(node);
  if (!byPage) byNode.set(node, (byPage = new Map()));
  const key = JSON.stringify([page.range.gt ?? null, page.range.lt ?? null, page.direction, page.take]);
  let loader = byPage.get(key) as DataLoader<K, V, C> | undefined;
  if (!loader) byPage.set(key, (loader = new DataLoader(batch, options)));
  return loader;
}

/**
 * The accounts a sponsor sponsors, as a relation: the sponsors of one list of parents are read
 * together (one statement for their ids, one for the accounts), whatever the number of parents.
 */
export function sponsoringList(ctx: ApiContext, info: GraphQLResolveInfo, sponsor: string): KeysetSource<Account, string> {
  return {
    key: textKey,
    fetch: (range, direction, take) =>
      relationPage<string, Account[]>(ctx, info, { range, direction, take }, async (sponsors) => {
        const ids = await sponsoredIds(ctx, sponsors, range, direction, take);
        const accounts = await accountsInOrder(ctx, info, [...new Set([...ids.values()].flat())]);
        const byId = new Map(accounts.map((account) => [account.id, account]));
        return sponsors.map((one) => (ids.get(one) ?? []).flatMap((id) => byId.get(id) ?? []));
      }).load(sponsor),
    cursor: (account) => account.id,
  };
}

/**
 * An offer's trades as a relation (Offer.trades): the first `take` trades of every offer of a page
 * in one statement (a window over the trades of either side), then those trades with the selection
 * in one more, whatever the number of offers.
 */
export function offerTradeList(ctx: ApiContext, info: GraphQLResolveInfo, offerId: bigint): KeysetSource<Trade, PairPagingToken> {
  return {
    key: pairKey,
    fetch: (range, direction, take) =>
      relationPage<bigint, Trade[], string>(
        ctx,
        info,
        { range, direction, take },
        async (offers) => {
          const order = Prisma.raw(direction === 'asc' ? 'ASC' : 'DESC');
          const bounds = [
            ...(range.gt ? [Prisma.sql`(t.operation_id, t."order") > (${range.gt.operationId}, ${range.gt.order})`] : []),
            ...(range.lt ? [Prisma.sql`(t.operation_id, t."order") < (${range.lt.operationId}, ${range.lt.order})`] : []),
          ];
          const keys = await ctx.prisma.$queryRaw<{ offer: bigint; operation_id: bigint; order: number }[]>`
            SELECT offer, operation_id, "order" FROM (
              SELECT k.offer, t.operation_id, t."order",
                row_number() OVER (PARTITION BY k.offer ORDER BY t.operation_id ${order}, t."order" ${order}) AS n
              FROM unnest(${offers.map(String)}::bigint[]) AS k(offer)
              JOIN history_trades t ON t.base_offer_id = k.offer OR t.counter_offer_id = k.offer
              ${bounds.length > 0 ? Prisma.sql`WHERE ${Prisma.join(bounds, ' AND ')}` : Prisma.empty}
            ) ranked
            WHERE n <= ${take}
            ORDER BY offer, n`;
          const trades =
            keys.length === 0
              ? []
              : await ctx.prisma.trade.findMany({
                  ...nodeQuery(ctx, info),
                  where: { OR: keys.map((key) => ({ operationId: key.operation_id, order: key.order })) },
                });
          const byKey = new Map(trades.map((trade) => [`${trade.operationId}-${trade.order}`, trade]));
          return offers.map((offer) =>
            keys.filter((key) => key.offer === offer).flatMap((key) => byKey.get(`${key.operation_id}-${key.order}`) ?? []),
          );
        },
        { cacheKeyFn: (offer) => offer.toString() },
      ).load(offerId),
    cursor: pairCursor,
  };
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

/** The first `take` holders of each asset of a page (one statement), then their accounts (one more). */
function holderPages(ctx: ApiContext, info: GraphQLResolveInfo, range: KeyRange<string>, direction: Order, take: number) {
  return relationPage<AssetStatKey, Account[], string>(
    ctx,
    info,
    { range, direction, take },
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
      const accounts = await accountsInOrder(ctx, info, [...new Set(rows.map((r) => r.account_id))]);
      const byId = new Map(accounts.map((a) => [a.id, a]));
      const sign = direction === 'asc' ? 1 : -1;
      return assets.map((asset) =>
        rows
          .filter((r) => r.asset_code === asset.code && r.asset_issuer === asset.issuer)
          .flatMap((r) => byId.get(r.account_id) ?? [])
          .sort((a, b) => (a.id < b.id ? -sign : a.id > b.id ? sign : 0)),
      );
    },
    { cacheKeyFn: (asset) => `${asset.code}:${asset.issuer}` },
  );
}

/** The accounts with a trust line in a credit asset, by account id; batched over the assets of one page. */
export function assetHolderList(ctx: ApiContext, info: GraphQLResolveInfo, asset: AssetStatKey): KeysetSource<Account, string> {
  return {
    key: accountIdKey,
    fetch: (range, direction, take) => holderPages(ctx, info, range, direction, take).load(asset),
    cursor: (account) => account.id,
  };
}
