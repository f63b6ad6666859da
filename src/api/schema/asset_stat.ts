// AssetStat: Horizon's /assets record, a credit asset's holders and amounts (kept by the triggers
// of migration 0011), with its issuer's flags and stellar.toml; and the root `assets` list.
import type { Prisma } from '../../generated/prisma/client.js';
import { formatAssetStatPagingToken, parseAssetCodeFilter, parseAssetIssuerFilter } from '../../stellar/asset.js';
import { parsed } from '../problems.js';
import { AccountRef, FlagsRef } from './account.js';
import { AssetRef } from './asset.js';
import { builder } from './builder.js';
import { assetHolderList, assetStatList } from './state_lists.js';
import { keysetConnection, listArgs } from './paging.js';

/** Stroops summed in a NUMERIC column (they may exceed int64), as the Amount scalar takes them. */
const stroops = (value: Prisma.Decimal): bigint => BigInt(value.toFixed(0));

interface AssetStatAccounts {
  authorized: number;
  authorizedToMaintainLiabilities: number;
  unauthorized: number;
}

interface AssetStatBalances {
  authorized: bigint;
  authorizedToMaintainLiabilities: bigint;
  unauthorized: bigint;
}

const AccountsRef = builder.objectRef<AssetStatAccounts>('AssetStatAccounts').implement({
  description: 'Trust lines in an asset, by authorization.',
  fields: (t) => ({
    authorized: t.exposeInt('authorized'),
    authorizedToMaintainLiabilities: t.exposeInt('authorizedToMaintainLiabilities'),
    unauthorized: t.exposeInt('unauthorized'),
  }),
});

const BalancesRef = builder.objectRef<AssetStatBalances>('AssetStatBalances').implement({
  description: 'The balances of the trust lines in an asset, by authorization.',
  fields: (t) => ({
    authorized: t.field({ type: 'Amount', resolve: (b) => b.authorized }),
    authorizedToMaintainLiabilities: t.field({ type: 'Amount', resolve: (b) => b.authorizedToMaintainLiabilities }),
    unauthorized: t.field({ type: 'Amount', resolve: (b) => b.unauthorized }),
  }),
});

// the issuer's flags and home domain; an issuer merged away shows none (Horizon: a zero account).
// Included by the type (every row carries it) rather than selected by `flags` and `toml`: Pothos
// looks up per record and field whether a row was loaded with a field's select, ~5% of /assets.
const issuerInclude = { issuer: { select: { flags: true, homeDomain: true } } } as const;

type Issuer = { flags: number; homeDomain: string } | null | undefined;

/** the row's issuer as its type included it: a row read without its type's query is refused, not shown issuerless */
function issuerOf(stat: { issuer?: Issuer }): { flags: number; homeDomain: string } | null {
  if (stat.issuer === undefined) throw new Error('an asset stat was loaded without its issuer');
  return stat.issuer;
}

export const AssetStatRef = builder.prismaObject('AssetStat', {
  include: issuerInclude,
  description:
    'A credit asset as Horizon lists it under /assets: its trust lines by authorization, claimable balances and liquidity pools, counted and summed.',
  // fields in Horizon's JSON order
  fields: (t) => ({
    assetType: t.exposeString('assetType', { description: 'credit_alphanum4 or credit_alphanum12' }),
    assetCode: t.exposeString('assetCode'),
    assetIssuer: t.exposeString('assetIssuer'),
    pagingToken: t.string({ resolve: (s) => formatAssetStatPagingToken(s.assetType, s.assetCode, s.assetIssuer) }),
    numClaimableBalances: t.exposeInt('numClaimableBalances'),
    numLiquidityPools: t.exposeInt('numLiquidityPools'),
    numContracts: t.int({
      description: 'contracts holding the asset: always 0, contract balances are not ingested',
      resolve: () => 0,
    }),
    accounts: t.field({
      type: AccountsRef,
      resolve: (s) => ({
        authorized: s.accountsAuthorized,
        authorizedToMaintainLiabilities: s.accountsAuthorizedToMaintainLiabilities,
        unauthorized: s.accountsUnauthorized,
      }),
    }),
    claimableBalancesAmount: t.field({ type: 'Amount', resolve: (s) => stroops(s.claimableBalancesAmount) }),
    liquidityPoolsAmount: t.field({ type: 'Amount', resolve: (s) => stroops(s.liquidityPoolsAmount) }),
    contractsAmount: t.field({ type: 'Amount', description: 'always 0 (see numContracts)', resolve: () => 0n }),
    balances: t.field({
      type: BalancesRef,
      resolve: (s) => ({
        authorized: stroops(s.balancesAuthorized),
        authorizedToMaintainLiabilities: stroops(s.balancesAuthorizedToMaintainLiabilities),
        unauthorized: stroops(s.balancesUnauthorized),
      }),
    }),
    flags: t.field({ type: FlagsRef, resolve: (s) => issuerOf(s)?.flags ?? 0 }),
    toml: t.string({
      nullable: true,
      description: "https://{home domain}/.well-known/stellar.toml of the issuer's home domain, if it has one",
      resolve: (s) => {
        const domain = issuerOf(s)?.homeDomain ?? '';
        return domain.trim() === '' ? null : `https://${domain}/.well-known/stellar.toml`;
      },
    }),
  }),
});

const HOLDERS = 'accounts with a trust line in the asset, by account id (read together for every asset of a page)';

builder.prismaObjectFields(AssetStatRef, (t) => ({
  issuer: t.relation('issuer', { nullable: true, description: 'the issuing account, unless it was merged' }),
  holders: t.connection({
    type: AccountRef,
    description: HOLDERS,
    args: listArgs,
    resolve: (stat, args, ctx, info) =>
      keysetConnection(assetHolderList(ctx, info, { code: stat.assetCode, issuer: stat.assetIssuer }), args),
  }),
}));

// an asset wherever it appears (a balance, an offer's side): the same holders; lumens have none
builder.objectField(AssetRef, 'holders', (t) =>
  t.connection({
    type: AccountRef,
    nullable: true,
    description: `${HOLDERS}; null for lumens, which every account holds`,
    args: listArgs,
    resolve: (asset, args, ctx, info) =>
      asset.assetCode && asset.assetIssuer
        ? keysetConnection(assetHolderList(ctx, info, { code: asset.assetCode, issuer: asset.assetIssuer }), args)
        : null,
  }),
);

builder.queryField('assets', (t) =>
  t.connection({
    type: AssetStatRef,
    description: 'Credit assets with their stats, by code then issuer (Horizon’s /assets).',
    args: {
      ...listArgs,
      assetCode: t.arg.string({ description: 'only assets with this code' }),
      assetIssuer: t.arg.string({ description: 'only assets of this issuer' }),
    },
    resolve: (_root, args, ctx, info) => {
      // errors name Horizon's parameters (asset_code, asset_issuer), as the market's arguments do
      const where: Prisma.AssetStatWhereInput = {};
      if (args.assetCode) where.assetCode = parsed(() => parseAssetCodeFilter(args.assetCode ?? ''));
      if (args.assetIssuer) where.assetIssuer = parsed(() => parseAssetIssuerFilter(args.assetIssuer ?? ''));
      return keysetConnection(assetStatList(ctx, info, where), args);
    },
  }),
);
