// Effect: an interface with the fields every effect has, and one object type per effect type
// whose fields are that type's details (effect_details.ts).
import { shownMuxedId } from '../../stellar/account_id.js';
import { EFFECT_TYPES, effectTypeName, type EffectTypeName } from '../../stellar/effect_types.js';
import { formatPairPagingToken } from '../../stellar/toid.js';
import { AccountRef } from './account.js';
import { builder } from './builder.js';
import { detailFields } from './detail_fields.js';
import { EFFECT_DETAILS } from './effect_details.js';
import { effectList, forAccountArgs, forLiquidityPoolArgs, historyConnection, historyScope } from './lists.js';
import { listArgs } from './paging.js';
import { effectTypeObjectName } from './type_names.js';
import { follow, freshLoaders } from './follow.js';

export const EffectRef = builder.prismaInterface('Effect', {
  interfaces: [builder.nodeInterfaceRef()],
  description: 'A change an operation made to an account; its type names the object type with its details.',
  resolveType: (effect) => effectTypeObjectName(effectTypeName(effect.type)),
  fields: (t) => ({
    pagingToken: t.string({
      description: 'the cursor of this effect in lists: <operation id>-<order>',
      resolve: (effect) => formatPairPagingToken(effect.operationId, effect.order),
    }),
    accountId: t.exposeString('account', { description: 'the account the effect changed' }),
    accountMuxed: t.exposeString('accountMuxed', { nullable: true }),
    accountMuxedId: t.field({
      type: 'Int64',
      nullable: true,
      description: 'the id of the muxed account (read from accountMuxed)',
      resolve: (effect) => shownMuxedId(effect.accountMuxed),
    }),
    type: t.string({ description: 'Horizon’s name of the effect type', resolve: (effect) => effectTypeName(effect.type) }),
    typeI: t.exposeInt('type'),
    createdAt: t.expose('closedAt', { type: 'DateTime', description: 'when its ledger closed' }),
  }),
});

// Relations are added apart from the type so that the refs' types do not depend on each other.
builder.prismaInterfaceFields(EffectRef, (t) => ({
  operation: t.relation('operation'),
  account: t.field({
    type: AccountRef,
    nullable: true,
    description: 'the account, while it exists',
    resolve: (effect, _args, ctx) => ctx.loaders.account.load(effect.account),
  }),
}));

for (const name of Object.keys(EFFECT_TYPES) as EffectTypeName[]) {
  builder.prismaNode('Effect', {
    variant: effectTypeObjectName(name),
    description: `A ${name} effect.`,
    interfaces: [EffectRef],
    id: { field: 'operationId_order' },
    fields: (t) => detailFields(t as never, EFFECT_DETAILS[name]),
  });
}

builder.queryField('effects', (t) =>
  t.connection({
    type: EffectRef,
    description: 'Every effect in the history, or those of one account, or of the operations that touched one liquidity pool.',
    args: { ...listArgs, ...forAccountArgs, ...forLiquidityPoolArgs },
    resolve: (_root, args, ctx, info) => {
      const scope = historyScope(args);
      return historyConnection(ctx, scope, effectList(ctx, info, scope), args);
    },
  }),
);

builder.subscriptionField('effects', (t) =>
  t.field({
    type: EffectRef,
    description:
      'Each effect as its ledger is ingested (of one account with forAccount, of one pool with forLiquidityPool), after replaying those after the cursor.',
    args: {
      cursor: t.arg.string({ description: 'replay after this paging token (now: only what is new), then follow new ledgers' }),
      ...forAccountArgs,
      ...forLiquidityPoolArgs,
    },
    subscribe: (_root, args, ctx, info) => follow(ctx, info, effectList(ctx, info, historyScope(args)), args.cursor),
    resolve: (effect, _args, ctx) => freshLoaders(effect, ctx),
  }),
);
