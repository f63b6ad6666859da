// Transaction: one transaction of the history (successful or failed), with its ledger and source
// account; its lists of operations, payments and effects (the transaction's TOID range) are
// history_lists.ts. submitTransaction submits one (../submission.ts), submitTransactionAsync hands
// one to the core without waiting for its ledger.
import { queryFromInfo } from '@pothos/plugin-prisma';
import type { Prisma } from '../../generated/prisma/client.js';
import { shownMuxedId } from '../../stellar/index.js';
import { submissionSystem, submitTransaction, submitTransactionAsync, type AsyncSubmissionAnswer } from '../submission.js';
import { AccountRef } from './account.js';
import { builder } from './builder.js';
import { hashArg } from './inputs.js';
import {
  forAccountArgs,
  forClaimableBalanceArgs,
  forLiquidityPoolArgs,
  historyConnection,
  historyScope,
  transactionList,
} from './lists.js';
import { includeFailedArg, listArgs } from './paging.js';
import { follow, freshLoaders } from './follow.js';

interface InnerTransaction {
  hash: string;
  signatures: string[];
  maxFee: bigint;
}

const InnerTransactionRef = builder.objectRef<InnerTransaction>('InnerTransaction').implement({
  description: 'The transaction a fee-bump transaction wraps.',
  fields: (t) => ({
    hash: t.exposeString('hash'),
    signatures: t.exposeStringList('signatures'),
    maxFee: t.expose('maxFee', { type: 'Int64' }),
  }),
});

interface FeeBumpTransaction {
  hash: string;
  signatures: string[];
}

const FeeBumpTransactionRef = builder.objectRef<FeeBumpTransaction>('FeeBumpTransaction').implement({
  description: 'The fee-bump envelope of a transaction.',
  fields: (t) => ({
    hash: t.exposeString('hash'),
    signatures: t.exposeStringList('signatures'),
  }),
});

const seconds = (value: bigint | null) => (value === null ? null : new Date(Number(value) * 1000));

interface Timebounds {
  minTime: bigint;
  maxTime: bigint | null;
}

const TimeboundsRef = builder.objectRef<Timebounds>('TransactionTimebounds').implement({
  description: 'The times a transaction was valid between, Unix seconds.',
  fields: (t) => ({
    minTime: t.string({ resolve: (bounds) => bounds.minTime.toString() }),
    maxTime: t.string({ nullable: true, description: 'absent when unbounded', resolve: (bounds) => bounds.maxTime?.toString() ?? null }),
  }),
});

interface Ledgerbounds {
  minLedger: number;
  maxLedger: number | null;
}

const LedgerboundsRef = builder.objectRef<Ledgerbounds>('TransactionLedgerbounds').implement({
  description: 'The ledgers a transaction was valid between.',
  fields: (t) => ({
    minLedger: t.exposeInt('minLedger'),
    maxLedger: t.exposeInt('maxLedger', { nullable: true, description: 'absent when unbounded' }),
  }),
});

type TransactionRecord = Prisma.TransactionGetPayload<object>;

const PreconditionsRef = builder.objectRef<TransactionRecord>('TransactionPreconditions').implement({
  description: "The conditions a transaction's validity had (Horizon's preconditions): each only when set.",
  fields: (t) => ({
    timebounds: t.field({
      type: TimeboundsRef,
      nullable: true,
      resolve: (tx) => (tx.validAfter === null ? null : { minTime: tx.validAfter, maxTime: tx.validBefore }),
    }),
    ledgerbounds: t.field({
      type: LedgerboundsRef,
      nullable: true,
      resolve: (tx) => (tx.minLedger === null ? null : { minLedger: tx.minLedger, maxLedger: tx.maxLedger }),
    }),
    minAccountSequence: t.expose('minAccountSequence', { type: 'Int64', nullable: true }),
    minAccountSequenceAge: t.string({
      nullable: true,
      description: 'seconds',
      resolve: (tx) => (tx.minAccountSequenceAge ? tx.minAccountSequenceAge.toString() : null),
    }),
    minAccountSequenceLedgerGap: t.int({ nullable: true, resolve: (tx) => tx.minAccountSequenceLedgerGap || null }),
    extraSigners: t.stringList({ nullable: true, resolve: (tx) => (tx.extraSigners.length > 0 ? tx.extraSigners : null) }),
  }),
});

/** Horizon's HasPreconditions: any bound or condition, a zero minimum sequence age aside. */
function hasPreconditions(tx: TransactionRecord): boolean {
  return (
    tx.validAfter !== null ||
    tx.minLedger !== null ||
    tx.minAccountSequence !== null ||
    (tx.minAccountSequenceAge !== null && tx.minAccountSequenceAge !== 0n) ||
    tx.minAccountSequenceLedgerGap !== null ||
    tx.extraSigners.length > 0
  );
}

/**
 * Fee-bump transactions looked up by their inner hash: Horizon shows them under the hash asked
 * (`hash`, `id` and the links) with the inner signatures (resourceadapter PopulateTransaction).
 */
const foundByInnerHash = new WeakSet<object>();

export const TransactionRef = builder.prismaObject('Transaction', {
  description: 'A transaction in a closed ledger.',
  fields: (t) => ({
    pagingToken: t.expose('id', { type: 'Int64', description: 'the cursor of this transaction in lists (its TOID)' }),
    hash: t.string({
      description: 'hex SHA-256 of the transaction (of the inner one when a fee-bump transaction was looked up by it)',
      resolve: (tx) => (foundByInnerHash.has(tx) && tx.innerTransactionHash ? tx.innerTransactionHash : tx.hash),
    }),
    successful: t.exposeBoolean('successful'),
    ledgerSequence: t.exposeInt('ledgerSequence', { description: 'the sequence of the ledger that holds it' }),
    createdAt: t.expose('closedAt', { type: 'DateTime', description: 'when its ledger closed' }),
    sourceAccount: t.exposeString('account'),
    sourceAccountMuxed: t.exposeString('accountMuxed', { nullable: true }),
    sourceAccountMuxedId: t.string({
      nullable: true,
      description: 'the id of a muxed source account',
      resolve: (tx) => shownMuxedId(tx.accountMuxed)?.toString() ?? null,
    }),
    sourceAccountSequence: t.expose('accountSequence', { type: 'Int64' }),
    feeAccount: t.string({ resolve: (tx) => tx.feeAccount ?? tx.account }),
    feeAccountMuxed: t.string({ nullable: true, resolve: (tx) => (tx.feeAccount ? tx.feeAccountMuxed : tx.accountMuxed) }),
    feeAccountMuxedId: t.string({
      nullable: true,
      description: 'the id of a muxed fee account',
      resolve: (tx) => shownMuxedId(tx.feeAccount ? tx.feeAccountMuxed : tx.accountMuxed)?.toString() ?? null,
    }),
    feeCharged: t.expose('feeCharged', { type: 'Int64', description: 'stroops' }),
    maxFee: t.field({ type: 'Int64', description: 'stroops', resolve: (tx) => tx.newMaxFee ?? tx.maxFee }),
    operationCount: t.exposeInt('operationCount'),
    envelopeXdr: t.exposeString('envelopeXdr'),
    resultXdr: t.exposeString('resultXdr'),
    resultMetaXdr: t.exposeString('resultMetaXdr'),
    feeMetaXdr: t.exposeString('feeMetaXdr'),
    memoType: t.exposeString('memoType'),
    memo: t.exposeString('memo', { nullable: true }),
    memoBytes: t.string({
      nullable: true,
      description: "a text memo's bytes, base64 (memo is their UTF-8 reading); only for a text memo, as Horizon's",
      // rows ingested before memo_bytes existed: the bytes of the memo's text
      resolve: (tx) => (tx.memoType !== 'text' ? null : (tx.memoBytes ?? Buffer.from(tx.memo ?? '', 'utf8').toString('base64'))),
    }),
    signatures: t.stringList({ resolve: (tx) => (foundByInnerHash.has(tx) ? tx.innerSignatures : tx.signatures) }),
    validAfter: t.field({ type: 'DateTime', nullable: true, resolve: (tx) => seconds(tx.validAfter) }),
    validBefore: t.field({ type: 'DateTime', nullable: true, resolve: (tx) => seconds(tx.validBefore) }),
    preconditions: t.field({ type: PreconditionsRef, nullable: true, resolve: (tx) => (hasPreconditions(tx) ? tx : null) }),
    feeBumpTransaction: t.field({
      type: FeeBumpTransactionRef,
      nullable: true,
      resolve: (tx) => (tx.innerTransactionHash ? { hash: tx.hash, signatures: tx.signatures } : null),
    }),
    innerTransaction: t.field({
      type: InnerTransactionRef,
      nullable: true,
      resolve: (tx) =>
        tx.innerTransactionHash ? { hash: tx.innerTransactionHash, signatures: tx.innerSignatures, maxFee: tx.maxFee } : null,
    }),
  }),
});

// A transaction's node id is its hash, which has a hash index and no unique one (migration 0012):
// nodes are found with findFirst, and Pothos loads missing relations by the primary key (the TOID).
builder.nodeRef<typeof TransactionRef.$inferType, string, typeof TransactionRef>(TransactionRef, {
  id: { resolve: (tx) => tx.hash },
  loadWithoutCache: (id, ctx, info) =>
    ctx.prisma.transaction.findFirst({
      ...queryFromInfo({ context: ctx, info, typeName: 'Transaction', awaitSelections: true }),
      where: { hash: hashArg('id', id) },
    }),
});

// Relations are added apart from the type so that the refs' types do not depend on each other.
builder.prismaObjectFields(TransactionRef, (t) => ({
  ledger: t.relation('ledger'),
  account: t.field({
    type: AccountRef,
    nullable: true,
    description: 'the source account, while it exists',
    resolve: (tx, _args, ctx) => ctx.loaders.account.load(tx.account),
  }),
}));

builder.queryField('transaction', (t) =>
  t.prismaField({
    type: 'Transaction',
    nullable: true,
    description: 'The transaction with this hash (a fee-bump transaction also answers to its inner hash).',
    args: { hash: t.arg.string({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const hash = hashArg('hash', args.hash);
      const outer = await ctx.prisma.transaction.findFirst({ ...query, where: { hash } });
      if (outer) return outer;
      const bump = await ctx.prisma.transaction.findFirst({ ...query, where: { innerTransactionHash: hash } });
      if (bump) foundByInnerHash.add(bump);
      return bump;
    },
  }),
);

builder.queryField('transactions', (t) =>
  t.connection({
    type: TransactionRef,
    description:
      'Every transaction in the history, or those of one account, claimable balance or liquidity pool; failed ones only with includeFailed.',
    args: { ...listArgs, ...includeFailedArg, ...forAccountArgs, ...forClaimableBalanceArgs, ...forLiquidityPoolArgs },
    resolve: (_root, args, ctx, info) => {
      const scope = historyScope(args);
      return historyConnection(ctx, scope, transactionList(ctx, info, scope, args.includeFailed ?? false), args);
    },
  }),
);

builder.subscriptionField('transactions', (t) =>
  t.field({
    type: TransactionRef,
    description:
      'Each transaction as its ledger is ingested (of one account, claimable balance or pool with forAccount, forClaimableBalance, forLiquidityPool), after replaying those after the cursor.',
    args: {
      cursor: t.arg.string({ description: 'replay after this paging token (now: only what is new), then follow new ledgers' }),
      ...forAccountArgs,
      ...forClaimableBalanceArgs,
      ...forLiquidityPoolArgs,
      ...includeFailedArg,
    },
    subscribe: (_root, args, ctx, info) =>
      follow(ctx, info, transactionList(ctx, info, historyScope(args), args.includeFailed ?? false), args.cursor),
    resolve: (tx, _args, ctx) => freshLoaders(tx, ctx),
  }),
);

builder.mutationField('submitTransaction', (t) =>
  t.prismaField({
    type: 'Transaction',
    description:
      'Submits a signed transaction (base64 TransactionEnvelope) and answers it once its ledger is ingested, as POST /transactions does. ' +
      'Failures are errors with extensions.code transaction_failed (extensions.extras.result_codes), transaction_malformed, timeout or service_unavailable.',
    args: { tx: t.arg.string({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const { transaction } = await submitTransaction(submissionSystem(ctx.services.txsub), args.tx);
      return ctx.prisma.transaction.findUniqueOrThrow({ ...query, where: { id: transaction.id } });
    },
  }),
);

const AsyncTransactionStatusEnum = builder.enumType('AsyncTransactionStatus', {
  description: "The core's status of a transaction submitted without waiting for its ledger.",
  values: {
    PENDING: { value: 'PENDING', description: 'the core took it: look it up by hash once a ledger includes it' },
    DUPLICATE: { value: 'DUPLICATE', description: 'the core already holds it' },
    TRY_AGAIN_LATER: { value: 'TRY_AGAIN_LATER', description: 'the core did not take it now' },
    ERROR: { value: 'ERROR', description: 'the core refused it: errorResultXdr says why' },
  } as const,
});

const AsyncTransactionSubmissionRef = builder.objectRef<AsyncSubmissionAnswer>('AsyncTransactionSubmission').implement({
  description: "What POST /transactions_async answers: the core's status and the transaction's hash.",
  fields: (t) => ({
    txStatus: t.field({ type: AsyncTransactionStatusEnum, resolve: (answer) => answer.tx_status }),
    hash: t.exposeString('hash'),
    errorResultXdr: t.string({
      nullable: true,
      description: 'the base64 TransactionResult, with ERROR only',
      resolve: (answer) => answer.error_result_xdr ?? null,
    }),
  }),
});

builder.mutationField('submitTransactionAsync', (t) =>
  t.field({
    type: AsyncTransactionSubmissionRef,
    description:
      "Hands a signed transaction (base64 TransactionEnvelope) to the core and answers the core's status without waiting for a ledger, as POST /transactions_async does. " +
      'Failures are errors with extensions.code transaction_malformed, stale_history, transaction_submission_failed, transaction_submission_exception or service_unavailable.',
    args: { tx: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => submitTransactionAsync(submissionSystem(ctx.services.txsub), ctx.services.coreInfo, args.tx),
  }),
);
