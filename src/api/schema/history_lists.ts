// The history lists of a ledger, a transaction, an account, a claimable balance and a liquidity
// pool (transactions, operations, payments, effects): the same connections everywhere, each of its
// parent's scope — a TOID range for a ledger or a transaction, the participant rows for an
// account, the link rows for a balance or a pool (lists.ts).
import { ledgerToidRange, transactionToidRange } from '../../stellar/toid.js';
import { AccountRef } from './account.js';
import { builder, type BuilderTypes } from './builder.js';
import { ClaimableBalanceRef } from './claimable_balance.js';
import { EffectRef } from './effect.js';
import { LedgerRef } from './ledger.js';
import { LiquidityPoolRef } from './liquidity_pool.js';
import { effectList, operationList, poolTrades, tradeList, transactionList, type ListScope } from './lists.js';
import { OperationRef } from './operation.js';
import { ignoredIncludeFailedArg, includeFailedArg, keysetConnection, listArgs } from './paging.js';
import { TradeRef } from './trade.js';
import { TransactionRef } from './transaction.js';

type ParentFields<Parent> = PothosSchemaTypes.RootFieldBuilder<BuilderTypes, Parent, 'PrismaObject'>;

/** The lists of a parent, each made when the parent's fields ask for it (a transaction has no transactions). */
function historyLists<Parent>(
  t: ParentFields<Parent>,
  scopeOf: (parent: Parent) => ListScope,
  options: { paymentsDescription?: string; allFailed?: true } = {},
) {
  const { paymentsDescription, allFailed } = options;
  const failedListArgs = { ...listArgs, ...includeFailedArg };
  const operationListArgs = allFailed ? { ...listArgs, ...ignoredIncludeFailedArg } : failedListArgs;
  // Horizon lists a transaction's operations failed or not: whoever asks for it knows its outcome
  const failed = (args: { includeFailed?: boolean | null }) => allFailed ?? args.includeFailed ?? false;
  return {
    transactions: () =>
      t.connection({
        type: TransactionRef,
        args: failedListArgs,
        resolve: (parent, args, ctx, info) =>
          keysetConnection(transactionList(ctx, info, scopeOf(parent), args.includeFailed ?? false), args),
      }),
    operations: () =>
      t.connection({
        type: OperationRef,
        args: operationListArgs,
        resolve: (parent, args, ctx, info) =>
          keysetConnection(operationList(ctx, info, scopeOf(parent), { includeFailed: failed(args) }), args),
      }),
    payments: () =>
      t.connection({
        type: OperationRef,
        ...(paymentsDescription ? { description: paymentsDescription } : {}),
        args: operationListArgs,
        resolve: (parent, args, ctx, info) =>
          keysetConnection(operationList(ctx, info, scopeOf(parent), { includeFailed: failed(args), paymentsOnly: true }), args),
      }),
    effects: () =>
      t.connection({
        type: EffectRef,
        args: listArgs,
        resolve: (parent, args, ctx, info) => keysetConnection(effectList(ctx, info, scopeOf(parent)), args),
      }),
  };
}

builder.prismaObjectFields(LedgerRef, (t) => {
  const lists = historyLists(t, (ledger) => ({ within: ledgerToidRange(ledger.sequence) }), {
    paymentsDescription: 'payment-like operations (create_account, payments, path payments, account_merge) of successful transactions',
  });
  return { transactions: lists.transactions(), operations: lists.operations(), payments: lists.payments(), effects: lists.effects() };
});

builder.prismaObjectFields(TransactionRef, (t) => {
  // its operations and payments failed or not (includeFailed plays no part), as Horizon's
  const lists = historyLists(t, (tx) => ({ within: transactionToidRange(tx.id) }), { allFailed: true });
  return { operations: lists.operations(), payments: lists.payments(), effects: lists.effects() };
});

// an account's history outlives it (a merge): these lists are its participant rows
builder.prismaObjectFields(AccountRef, (t) => {
  const lists = historyLists(t, (account) => ({ account: account.id }));
  return { transactions: lists.transactions(), operations: lists.operations(), payments: lists.payments(), effects: lists.effects() };
});

// a balance's and a pool's history outlive them (claimed, emptied): these lists are their link rows
builder.prismaObjectFields(ClaimableBalanceRef, (t) => {
  const lists = historyLists(t, (balance) => ({ claimableBalance: balance.id }));
  return { transactions: lists.transactions(), operations: lists.operations() };
});

builder.prismaObjectFields(LiquidityPoolRef, (t) => {
  const lists = historyLists(t, (pool) => ({ liquidityPool: pool.id }));
  return {
    transactions: lists.transactions(),
    operations: lists.operations(),
    effects: lists.effects(),
    // the pool's side of a trade (Horizon's /liquidity_pools/{id}/trades)
    trades: t.connection({
      type: TradeRef,
      args: listArgs,
      resolve: (pool, args, ctx, info) => keysetConnection(tradeList(ctx, info, poolTrades(pool.id)), args),
    }),
  };
});
