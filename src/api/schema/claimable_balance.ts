// ClaimableBalance: a claimable balance (CAP-23) from its creation until it is claimed or clawed
// back, with its claimants and their predicates, its sponsor, and the balances an account may
// claim; its operations and transactions (which outlive it) are history_lists.ts.
import { formatBalancePagingToken } from '../../stellar/entry_ids.js';
import { AccountRef } from './account.js';
import { builder } from './builder.js';
import { accountIdArg, assetFilterArg, balanceIdArg } from './inputs.js';
import { claimableBalanceList, type BalanceFilter } from './state_lists.js';
import { keysetConnection, listArgs } from './paging.js';
import { lastModifiedInclude, lastModifiedTimeField } from './state_entry.js';

// xdr ClaimableBalanceFlags
const CLAWBACK_ENABLED = 1;

interface Claimant {
  destination: string;
  predicate: unknown;
}

const ClaimantRef = builder.objectRef<Claimant>('Claimant').implement({
  description: 'An account that may claim a claimable balance, and the predicate under which it may.',
  fields: (t) => ({
    destination: t.exposeString('destination'),
    predicate: t.expose('predicate', {
      type: 'JSON',
      description: "Horizon's JSON of the claim predicate: and, or, not, unconditional, abs_before (with abs_before_epoch), rel_before",
    }),
  }),
});

const FlagsRef = builder.objectRef<number>('ClaimableBalanceFlags').implement({
  fields: (t) => ({
    clawbackEnabled: t.boolean({ resolve: (flags) => (flags & CLAWBACK_ENABLED) !== 0 }),
  }),
});

export const ClaimableBalanceRef = builder.prismaNode('ClaimableBalance', {
  description: 'A claimable balance: an amount of an asset that its claimants may claim, each under its predicate.',
  id: { field: 'id' },
  include: lastModifiedInclude,
  fields: (t) => ({
    balanceId: t.exposeString('id', { description: 'the hex of its ClaimableBalanceID XDR ("00000000" and a hash)' }),
    asset: t.exposeString('asset', { description: 'native or CODE:ISSUER' }),
    amount: t.expose('amount', { type: 'Amount' }),
    sponsorId: t.exposeString('sponsor', { nullable: true, description: 'the account sponsoring its reserve' }),
    lastModifiedLedger: t.exposeInt('lastModifiedLedger'),
    lastModifiedTime: t.field(lastModifiedTimeField()),
    claimants: t.field({
      type: [ClaimantRef],
      // stored as Horizon's JSON: [{ destination, predicate }]
      resolve: (balance) => balance.claimants as unknown as Claimant[],
    }),
    flags: t.field({ type: FlagsRef, resolve: (balance) => balance.flags }),
    pagingToken: t.string({
      description: '<last modified ledger>-<id>, the order of lists',
      resolve: (balance) => formatBalancePagingToken(balance.lastModifiedLedger, balance.id),
    }),
  }),
});

// Relations are added apart from the type so that the refs' types do not depend on each other.
builder.prismaObjectFields(ClaimableBalanceRef, (t) => ({
  // a relation, so the account and whatever is asked of it join the balances' own statement
  sponsor: t.relation('sponsorAccount', { nullable: true, description: 'the sponsoring account, while it exists' }),
}));

builder.prismaObjectFields(AccountRef, (t) => ({
  claimableBalances: t.connection({
    type: ClaimableBalanceRef,
    description: 'the claimable balances this account is a claimant of',
    args: listArgs,
    resolve: (account, args, ctx, info) => keysetConnection(claimableBalanceList(ctx, info, { claimant: account.id }), args),
  }),
}));

builder.queryField('claimableBalance', (t) =>
  t.prismaField({
    type: 'ClaimableBalance',
    nullable: true,
    description: 'The claimable balance with this id (the hex of its XDR), while it is unclaimed.',
    args: { id: t.arg.string({ required: true }) },
    resolve: (query, _root, args, ctx) => ctx.prisma.claimableBalance.findUnique({ ...query, where: { id: balanceIdArg('id', args.id) } }),
  }),
);

builder.queryField('claimableBalances', (t) =>
  t.connection({
    type: ClaimableBalanceRef,
    description: 'Unclaimed claimable balances, by last modified ledger and id; of an asset, a sponsor, a claimant.',
    args: {
      ...listArgs,
      asset: t.arg.string({ description: 'native or CODE:ISSUER' }),
      sponsor: t.arg.string({ description: 'the account sponsoring their reserve' }),
      claimant: t.arg.string({ description: 'an account that may claim them' }),
    },
    resolve: (_root, args, ctx, info) => {
      const filter: BalanceFilter = {};
      if (args.asset != null) filter.asset = assetFilterArg('asset', args.asset);
      if (args.sponsor != null) filter.sponsor = accountIdArg('sponsor', args.sponsor);
      if (args.claimant != null) filter.claimant = accountIdArg('claimant', args.claimant);
      return keysetConnection(claimableBalanceList(ctx, info, filter), args);
    },
  }),
);
