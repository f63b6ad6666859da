// Ledger: one closed ledger of the network, as its header and counts; its history lists
// (transactions, operations, payments, effects: the TOID range of the ledger) are history_lists.ts.
import { toid } from '../../stellar/toid.js';
import { builder } from './builder.js';
import { ledgerList, notKeptOr } from './lists.js';
import { keysetConnection, listArgs } from './paging.js';
import { follow, freshLoaders } from './follow.js';

export const LedgerRef = builder.prismaNode('Ledger', {
  description: 'A closed ledger.',
  id: { field: 'sequence' },
  fields: (t) => ({
    pagingToken: t.field({
      type: 'Int64',
      description: 'the cursor of this ledger in lists (its TOID)',
      resolve: (ledger) => toid(ledger.sequence, 0, 0),
    }),
    hash: t.exposeString('hash', { description: 'hex SHA-256 of the ledger header' }),
    prevHash: t.exposeString('prevHash', { nullable: true, description: 'the previous ledger’s hash' }),
    sequence: t.exposeInt('sequence'),
    transactionCount: t.exposeInt('successfulTransactionCount', { description: 'successful transactions' }),
    successfulTransactionCount: t.exposeInt('successfulTransactionCount'),
    failedTransactionCount: t.exposeInt('failedTransactionCount'),
    operationCount: t.exposeInt('operationCount', { description: 'operations in successful transactions' }),
    txSetOperationCount: t.exposeInt('txSetOperationCount', { description: 'operations in the whole transaction set' }),
    closedAt: t.expose('closedAt', { type: 'DateTime' }),
    totalCoins: t.expose('totalCoins', { type: 'Amount' }),
    feePool: t.expose('feePool', { type: 'Amount' }),
    baseFeeInStroops: t.exposeInt('baseFee'),
    baseReserveInStroops: t.exposeInt('baseReserve'),
    maxTxSetSize: t.exposeInt('maxTxSetSize'),
    protocolVersion: t.exposeInt('protocolVersion'),
    headerXdr: t.exposeString('headerXdr', { description: 'base64 XDR of the LedgerHeader' }),
  }),
});

builder.queryField('ledger', (t) =>
  t.prismaField({
    type: 'Ledger',
    nullable: true,
    description: 'The ledger with this sequence number, if the history has it.',
    args: { sequence: t.arg.int({ required: true }) },
    resolve: async (query, _root, args, ctx) =>
      (await ctx.prisma.ledger.findUnique({ ...query, where: { sequence: args.sequence } })) ?? notKeptOr(ctx, args.sequence, null),
  }),
);

builder.queryField('ledgers', (t) =>
  t.connection({
    type: LedgerRef,
    description: 'Every ledger in the history.',
    args: listArgs,
    resolve: (_root, args, ctx, info) => keysetConnection(ledgerList(ctx, info), args),
  }),
);

builder.subscriptionField('ledgers', (t) =>
  t.field({
    type: LedgerRef,
    description: 'Each ledger as it is ingested, after replaying those after the cursor.',
    args: { cursor: t.arg.string({ description: 'replay after this paging token (now: only what is new), then follow new ledgers' }) },
    subscribe: (_root, args, ctx, info) => follow(ctx, info, ledgerList(ctx, info), args.cursor),
    resolve: (ledger, _args, ctx) => freshLoaders(ledger, ctx),
  }),
);
