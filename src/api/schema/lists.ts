// The keyset sources of the history lists, shared by root connections and relations: each is a
// Prisma `where` for the list plus the key it pages on. Nodes are loaded with the selection the
// query asks for beneath `edges.node` (queryFromInfo), so nested relations join in one statement.
import { queryFromInfo } from '@pothos/plugin-prisma';
import type { GraphQLResolveInfo } from 'graphql';
import type { Effect, Ledger, Offer, Operation, Prisma, Trade, Transaction } from '../../generated/prisma/client.js';
import { formatPagingToken, ledgerSequenceBounds, toid, type PairPagingToken } from '../../stellar/toid.js';
import type { ApiContext } from '../context.js';
import { pairCursor, pairKey, pairOrderBy, pairWhere, toidKey, toidWhere, type KeysetSource } from './paging.js';

function nodeQuery(ctx: ApiContext, info: GraphQLResolveInfo): object {
  // a subscription's root field is the node itself (one per event); a connection nests it in edges
  const path = info.parentType === info.schema.getSubscriptionType() ? [] : ['edges', 'node'];
  return queryFromInfo({ context: ctx, info, path });
}

/** The node query as a nested include: `true` when the selection needs no relations. */
function nodeInclude(ctx: ApiContext, info: GraphQLResolveInfo): true | object {
  const query = nodeQuery(ctx, info) as { include?: object; select?: object };
  return query.include || query.select ? query : true;
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

export function transactionList(
  ctx: ApiContext,
  info: GraphQLResolveInfo,
  where: Prisma.TransactionWhereInput,
  includeFailed: boolean,
  within?: { start: bigint; end: bigint },
): KeysetSource<Transaction, bigint> {
  return {
    key: toidKey,
    fetch: (range, direction, take) =>
      ctx.prisma.transaction.findMany({
        ...nodeQuery(ctx, info),
        where: { AND: [where, { id: toidWhere(range, within) }, includeFailed ? {} : { successful: true }] },
        orderBy: { id: direction },
        take,
      }),
    cursor: (tx) => tx.id.toString(),
  };
}

export function operationList(
  ctx: ApiContext,
  info: GraphQLResolveInfo,
  where: Prisma.OperationWhereInput,
  options: { includeFailed: boolean; paymentsOnly?: boolean; within?: { start: bigint; end: bigint } },
): KeysetSource<Operation, bigint> {
  const filters: Prisma.OperationWhereInput[] = [where];
  if (!options.includeFailed) filters.push({ transactionSuccessful: true });
  if (options.paymentsOnly) filters.push({ isPayment: true });
  return {
    key: toidKey,
    fetch: (range, direction, take) =>
      ctx.prisma.operation.findMany({
        ...nodeQuery(ctx, info),
        where: { AND: [...filters, { id: toidWhere(range, options.within) }] },
        orderBy: { id: direction },
        take,
      }),
    cursor: (op) => op.id.toString(),
  };
}

/**
 * An account's transactions, driven by its participant rows (primary key (account, transaction
 * id)), so a page reads the account's own index range instead of filtering the whole history.
 */
export function accountTransactionList(
  ctx: ApiContext,
  info: GraphQLResolveInfo,
  account: string,
  includeFailed: boolean,
): KeysetSource<Transaction, bigint> {
  return {
    key: toidKey,
    fetch: async (range, direction, take) => {
      const rows = await ctx.prisma.transactionParticipant.findMany({
        where: { account, transactionId: toidWhere(range), ...(includeFailed ? {} : { transaction: { is: { successful: true } } }) },
        orderBy: { transactionId: direction },
        take,
        include: { transaction: nodeInclude(ctx, info) },
      });
      return rows.map((row) => row.transaction);
    },
    cursor: (tx) => tx.id.toString(),
  };
}

/** An account's operations (or payments), driven by its participant rows like its transactions. */
export function accountOperationList(
  ctx: ApiContext,
  info: GraphQLResolveInfo,
  account: string,
  options: { includeFailed: boolean; paymentsOnly?: boolean },
): KeysetSource<Operation, bigint> {
  const operation: Prisma.OperationWhereInput = {};
  if (!options.includeFailed) operation.transactionSuccessful = true;
  if (options.paymentsOnly) operation.isPayment = true;
  return {
    key: toidKey,
    fetch: async (range, direction, take) => {
      const rows = await ctx.prisma.operationParticipant.findMany({
        where: { account, operationId: toidWhere(range), ...(Object.keys(operation).length > 0 ? { operation: { is: operation } } : {}) },
        orderBy: { operationId: direction },
        take,
        include: { operation: nodeInclude(ctx, info) },
      });
      return rows.map((row) => row.operation);
    },
    cursor: (op) => op.id.toString(),
  };
}

export function effectList(
  ctx: ApiContext,
  info: GraphQLResolveInfo,
  where: Prisma.EffectWhereInput,
): KeysetSource<Effect, PairPagingToken> {
  return {
    key: pairKey,
    fetch: (range, direction, take) =>
      ctx.prisma.effect.findMany({
        ...nodeQuery(ctx, info),
        where: { AND: [where, ...pairWhere(range)] },
        orderBy: pairOrderBy(direction),
        take,
      }),
    cursor: pairCursor,
  };
}

export function tradeList(ctx: ApiContext, info: GraphQLResolveInfo, where: Prisma.TradeWhereInput): KeysetSource<Trade, PairPagingToken> {
  return {
    key: pairKey,
    fetch: (range, direction, take) =>
      ctx.prisma.trade.findMany({
        ...nodeQuery(ctx, info),
        where: { AND: [where, ...pairWhere(range)] },
        orderBy: pairOrderBy(direction),
        take,
      }),
    cursor: pairCursor,
  };
}

export function offerList(ctx: ApiContext, info: GraphQLResolveInfo, where: Prisma.OfferWhereInput): KeysetSource<Offer, bigint> {
  return {
    key: toidKey,
    fetch: (range, direction, take) =>
      ctx.prisma.offer.findMany({
        ...nodeQuery(ctx, info),
        where: { AND: [where, { id: toidWhere(range) }] },
        orderBy: { id: direction },
        take,
      }),
    cursor: (offer) => offer.id.toString(),
  };
}
