// Operation: an interface with the fields every operation has, and one object type per operation
// type whose fields are that type's details (operation_details.ts).
import { shownMuxedId } from '../../stellar/account_id.js';
import { OPERATION_TYPE_NAMES, operationTypeName } from '../../stellar/operation_types.js';
import { builder } from './builder.js';
import { detailFields } from './detail_fields.js';
import { EffectRef } from './effect.js';
import { accountIdArg, idArg } from './inputs.js';
import {
  accountInHistory,
  effectList,
  forAccountArgs,
  forClaimableBalanceArgs,
  forLiquidityPoolArgs,
  historyConnection,
  historyScope,
  notKeptOr,
  operationList,
} from './lists.js';
import { ProblemError, problems } from '../problems.js';
import { OPERATION_DETAILS } from './operation_details.js';
import { includeFailedArg, keysetConnection, listArgs } from './paging.js';
import { operationTypeObjectName } from './type_names.js';
import { follow, freshLoaders } from './follow.js';

export const OperationRef = builder.prismaInterface('Operation', {
  interfaces: [builder.nodeInterfaceRef()],
  description: 'An operation of a transaction; its type names the object type with its details.',
  resolveType: (op) => operationTypeObjectName(operationTypeName(op.type)),
  fields: (t) => ({
    pagingToken: t.expose('id', { type: 'Int64', description: 'the cursor of this operation in lists (its TOID)' }),
    transactionSuccessful: t.exposeBoolean('transactionSuccessful'),
    sourceAccount: t.exposeString('sourceAccount'),
    sourceAccountMuxed: t.exposeString('sourceAccountMuxed', { nullable: true }),
    sourceAccountMuxedId: t.field({
      type: 'Int64',
      nullable: true,
      description: 'the id of the muxed source account (Horizon reads it from sourceAccountMuxed too)',
      resolve: (op) => shownMuxedId(op.sourceAccountMuxed),
    }),
    type: t.string({ description: 'Horizon’s name of the operation type', resolve: (op) => operationTypeName(op.type) }),
    typeI: t.exposeInt('type', { description: 'the xdr OperationType value' }),
    createdAt: t.expose('closedAt', { type: 'DateTime', description: 'when its ledger closed' }),
    transactionHash: t.exposeString('transactionHash'),
    sponsor: t.string({
      nullable: true,
      description: 'the account sponsoring the reserve of an entry or signer the operation created',
      resolve: (op) => {
        const details = op.details;
        const sponsor = details !== null && typeof details === 'object' && !Array.isArray(details) ? details.sponsor : null;
        return typeof sponsor === 'string' ? sponsor : null;
      },
    }),
  }),
});

// Relations are added apart from the type so that the refs' types do not depend on each other.
builder.prismaInterfaceFields(OperationRef, (t) => ({
  transaction: t.relation('transaction'),
  effects: t.connection({
    type: EffectRef,
    args: listArgs,
    resolve: (op, args, ctx, info) => keysetConnection(effectList(ctx, info, { operation: op.id }), args),
  }),
}));

for (const name of OPERATION_TYPE_NAMES) {
  builder.prismaNode('Operation', {
    variant: operationTypeObjectName(name),
    description: `A ${name} operation.`,
    interfaces: [OperationRef],
    id: { field: 'id' },
    fields: (t) => detailFields(t as never, OPERATION_DETAILS[name]),
  });
}

builder.queryField('operation', (t) =>
  t.field({
    type: OperationRef,
    nullable: true,
    description: 'The operation with this id (its TOID).',
    args: { id: t.arg({ type: 'Int64', required: true }) },
    resolve: async (_root, args, ctx) => {
      const id = idArg('id', args.id);
      return (await ctx.prisma.operation.findUnique({ where: { id } })) ?? notKeptOr(ctx, Number(id >> 32n), null);
    },
  }),
);

builder.queryField('operations', (t) =>
  t.connection({
    type: OperationRef,
    description:
      'Every operation in the history, or those of one account, claimable balance or liquidity pool; those of failed transactions only with includeFailed.',
    args: { ...listArgs, ...includeFailedArg, ...forAccountArgs, ...forClaimableBalanceArgs, ...forLiquidityPoolArgs },
    resolve: async (_root, args, ctx, info) => {
      const scope = historyScope(args);
      const connection = await historyConnection(
        ctx,
        scope,
        operationList(ctx, info, scope, { includeFailed: args.includeFailed ?? false }),
        args,
      );
      // the operations of an account the history does not know are a 404 (the spec's), a merged one's are listed
      if (connection.edges.length === 0 && scope !== null && 'account' in scope && !(await accountInHistory(ctx, scope.account))) {
        throw new ProblemError(problems.notFound());
      }
      return connection;
    },
  }),
);

builder.queryField('payments', (t) =>
  t.connection({
    type: OperationRef,
    description: 'Every payment-like operation (create_account, payments, path payments, account_merge), or those of one account.',
    args: { ...listArgs, ...includeFailedArg, ...forAccountArgs },
    resolve: (_root, args, ctx, info) =>
      keysetConnection(
        operationList(ctx, info, historyScope({ forAccount: args.forAccount }), {
          includeFailed: args.includeFailed ?? false,
          paymentsOnly: true,
        }),
        args,
      ),
  }),
);

builder.subscriptionField('operations', (t) =>
  t.field({
    type: OperationRef,
    description:
      'Each operation as its ledger is ingested (of one account, claimable balance or pool with forAccount, forClaimableBalance, forLiquidityPool), after replaying those after the cursor.',
    args: {
      cursor: t.arg.string({ description: 'replay after this paging token (now: only what is new), then follow new ledgers' }),
      ...forAccountArgs,
      ...forClaimableBalanceArgs,
      ...forLiquidityPoolArgs,
      ...includeFailedArg,
    },
    subscribe: (_root, args, ctx, info) =>
      follow(ctx, info, operationList(ctx, info, historyScope(args), { includeFailed: args.includeFailed ?? false }), args.cursor),
    resolve: (op, _args, ctx) => freshLoaders(op, ctx),
  }),
);

builder.subscriptionField('payments', (t) =>
  t.field({
    type: OperationRef,
    description: 'Each payment-like operation of an account as its ledger is ingested, after replaying those after the cursor.',
    args: {
      forAccount: t.arg.string({ required: true, description: 'the account whose payments are followed' }),
      cursor: t.arg.string({ description: 'replay after this paging token (now: only what is new), then follow new ledgers' }),
      ...includeFailedArg,
    },
    subscribe: (_root, args, ctx, info) => {
      const options = { includeFailed: args.includeFailed ?? false, paymentsOnly: true };
      return follow(ctx, info, operationList(ctx, info, { account: accountIdArg('forAccount', args.forAccount) }, options), args.cursor);
    },
    resolve: (op, _args, ctx) => freshLoaders(op, ctx),
  }),
);
