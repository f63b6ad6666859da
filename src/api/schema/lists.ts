// The keyset sources of the history's lists, shared by root connections, relations and
// subscriptions: each is a Prisma `where` for the list plus the key it pages on. A history list is
// scoped once, here: the whole history, one account's (driven by its participant rows), one
// claimable balance's or one liquidity pool's (driven by their link rows), or a TOID range (a
// ledger's, a transaction's). Nodes are loaded with the selection the query asks for beneath
// `edges.node` (queryFromInfo), so nested relations join in one statement. The state's lists
// (offers, accounts, balances, pools, assets) are state_lists.ts.
import { queryFromInfo } from '@pothos/plugin-prisma';
import type { GraphQLResolveInfo } from 'graphql';
import type { Effect, Ledger, Operation, Prisma, Trade, Transaction } from '../../generated/prisma/client.js';
import { formatPagingToken, ledgerSequenceBounds, toid, type PairPagingToken, type ToidRange } from '../../stellar/toid.js';
import type { ApiContext } from '../context.js';
import { builder } from './builder.js';
import { ProblemError, problems } from '../problems.js';
import { accountIdArg, balanceIdArg, poolIdArg } from './inputs.js';
import {
  keysetConnection,
  pairCursor,
  pairKey,
  pairOrderBy,
  pairWhere,
  toidKey,
  toidWhere,
  type Connection,
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
export function nodeInclude(ctx: ApiContext, info: GraphQLResolveInfo): true | object {
  const query = nodeQuery(ctx, info) as { include?: object; select?: object };
  return query.include || query.select ? query : true;
}

/** The history's newest ledger, which a `now` cursor follows (read only for such a cursor). */
export function newestLedger(ctx: ApiContext): () => Promise<number> {
  return async () => (await ctx.prisma.ledger.aggregate({ _max: { sequence: true } }))._max.sequence ?? 0;
}

/** The history's oldest ledger (0 when it is empty): what a reaping left (Horizon's history_elder_ledger). */
export function oldestLedger(ctx: ApiContext): () => Promise<number> {
  return async () => (await ctx.prisma.ledger.aggregate({ _min: { sequence: true } }))._min.sequence ?? 0;
}

/**
 * What a lookup that found nothing answers: Horizon's before_history (410) for a ledger before the
 * oldest one the history keeps, else `missing`.
 */
export async function notKeptOr<T>(ctx: ApiContext, ledger: number, missing: T): Promise<T> {
  const oldest = await oldestLedger(ctx)();
  if (oldest > 0 && ledger < oldest) throw new ProblemError(problems.beforeHistory());
  return missing;
}

/** Where a history list ends on both sides: `now`, and the oldest ledger kept. */
function historyEnds(ctx: ApiContext): Pick<KeysetSource<unknown, unknown>, 'newestLedger' | 'oldestLedger'> {
  return { newestLedger: newestLedger(ctx), oldestLedger: oldestLedger(ctx) };
}

/** History rows keyed by a TOID, paged on it. */
function idKeyed<Row extends { id: bigint }>(ctx: ApiContext, fetch: KeysetSource<Row, bigint>['fetch']): KeysetSource<Row, bigint> {
  return { key: toidKey, fetch, cursor: (row) => row.id.toString(), ...historyEnds(ctx) };
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
    ...historyEnds(ctx),
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
    ...historyEnds(ctx),
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
