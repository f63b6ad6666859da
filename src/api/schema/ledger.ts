// Ledger: one closed ledger of the network, as its header and counts, and its history lists
// (transactions, operations, payments, effects are the TOID range of the ledger).
import { ledgerToidRange, toid } from '../../stellar/toid.js';
import { builder } from './builder.js';
import { EffectRef } from './effect.js';
import { OperationRef } from './operation.js';
import { TransactionRef } from './transaction.js';
import { effectList, ledgerList, operationList, transactionList } from './lists.js';
import { keysetConnection, OrderEnum } from './paging.js';
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

// Relations are added apart from the type so that the refs' types do not depend on each other.
builder.prismaObjectFields(LedgerRef, (t) => ({
  transactions: t.connection({
    type: TransactionRef,
    args: { order: t.arg({ type: OrderEnum, defaultValue: 'asc' }), includeFailed: t.arg.boolean({ defaultValue: false }) },
    resolve: (ledger, args, ctx, info) =>
      keysetConnection(transactionList(ctx, info, {}, args.includeFailed ?? false, ledgerToidRange(ledger.sequence)), args),
  }),
  operations: t.connection({
    type: OperationRef,
    args: { order: t.arg({ type: OrderEnum, defaultValue: 'asc' }), includeFailed: t.arg.boolean({ defaultValue: false }) },
    resolve: (ledger, args, ctx, info) =>
      keysetConnection(
        operationList(ctx, info, {}, { includeFailed: args.includeFailed ?? false, within: ledgerToidRange(ledger.sequence) }),
        args,
      ),
  }),
  payments: t.connection({
    type: OperationRef,
    description: 'payment-like operations (create_account, payments, path payments, account_merge) of successful transactions',
    args: { order: t.arg({ type: OrderEnum, defaultValue: 'asc' }), includeFailed: t.arg.boolean({ defaultValue: false }) },
    resolve: (ledger, args, ctx, info) =>
      keysetConnection(
        operationList(
          ctx,
          info,
          {},
          {
            includeFailed: args.includeFailed ?? false,
            paymentsOnly: true,
            within: ledgerToidRange(ledger.sequence),
          },
        ),
        args,
      ),
  }),
  effects: t.connection({
    type: EffectRef,
    args: { order: t.arg({ type: OrderEnum, defaultValue: 'asc' }) },
    resolve: (ledger, args, ctx, info) => {
      const range = ledgerToidRange(ledger.sequence);
      return keysetConnection(effectList(ctx, info, { operationId: { gte: range.start, lt: range.end } }), args);
    },
  }),
}));

builder.queryField('ledger', (t) =>
  t.prismaField({
    type: 'Ledger',
    nullable: true,
    description: 'The ledger with this sequence number, if the history has it.',
    args: { sequence: t.arg.int({ required: true }) },
    resolve: (query, _root, args, ctx) => ctx.prisma.ledger.findUnique({ ...query, where: { sequence: args.sequence } }),
  }),
);

builder.queryField('ledgers', (t) =>
  t.connection({
    type: LedgerRef,
    description: 'Every ledger in the history.',
    args: { order: t.arg({ type: OrderEnum, defaultValue: 'asc' }) },
    resolve: (_root, args, ctx, info) => keysetConnection(ledgerList(ctx, info), args),
  }),
);

builder.subscriptionField('ledgers', (t) =>
  t.field({
    type: LedgerRef,
    description: 'Each ledger as it is ingested, after replaying those after the cursor.',
    args: { cursor: t.arg.string({ description: 'replay after this paging token (now: only what is new), then follow new ledgers' }) },
    subscribe: (_root, args, ctx, info) => follow(ctx, ledgerList(ctx, info), args.cursor),
    resolve: (ledger, _args, ctx) => freshLoaders(ledger, ctx),
  }),
);
