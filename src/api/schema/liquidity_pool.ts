// LiquidityPool: a liquidity pool (CAP-38) while it exists, with its reserves and shares; its
// operations, transactions and effects (which outlive it) are history_lists.ts.
import type { Prisma } from '../../generated/prisma/client.js';
import { ProblemError, problems } from '../problems.js';
import { builder } from './builder.js';
import { accountIdArg, assetFilterArg, poolIdArg } from './inputs.js';
import { liquidityPoolList } from './state_lists.js';
import { keysetConnection, listArgs } from './paging.js';
import { lastModifiedInclude, lastModifiedTimeField } from './state_entry.js';

/** A pool has two reserves: a longer filter could match nothing (Horizon's maxLiquidityPoolReserves). */
export const MAX_POOL_RESERVES = 2;

/** xdr LiquidityPoolType names, as Horizon writes them. */
const POOL_TYPES: Readonly<Record<number, string>> = { 0: 'constant_product' };

interface Reserve {
  asset: string;
  amount: bigint;
}

const ReserveRef = builder.objectRef<Reserve>('LiquidityPoolReserve').implement({
  description: 'What a pool holds of one of its two assets.',
  fields: (t) => ({
    asset: t.exposeString('asset', { description: 'native or CODE:ISSUER' }),
    amount: t.expose('amount', { type: 'Amount' }),
  }),
});

export const LiquidityPoolRef = builder.prismaNode('LiquidityPool', {
  description: 'A liquidity pool: the reserves of two assets and the shares of its depositors.',
  id: { field: 'id' },
  include: lastModifiedInclude,
  fields: (t) => ({
    liquidityPoolId: t.exposeString('id', { description: 'the hex id of the pool' }),
    pagingToken: t.exposeString('id'),
    feeBp: t.exposeInt('fee', { description: 'basis points' }),
    type: t.string({
      resolve: (pool) => {
        const name = POOL_TYPES[pool.type];
        // stellar-core has one pool type; another in the table is a fault of the server, as in Horizon
        if (name === undefined) throw new Error(`unknown liquidity pool type ${pool.type}`);
        return name;
      },
    }),
    totalTrustlines: t.expose('trustlineCount', { type: 'Int64' }),
    totalShares: t.expose('shareCount', { type: 'Amount' }),
    reserves: t.field({
      type: [ReserveRef],
      description: 'its two assets in the protocol’s order',
      resolve: (pool) => [
        { asset: pool.assetA, amount: pool.reserveA },
        { asset: pool.assetB, amount: pool.reserveB },
      ],
    }),
    lastModifiedLedger: t.exposeInt('lastModifiedLedger'),
    lastModifiedTime: t.field(lastModifiedTimeField()),
  }),
});

/** Horizon's `reserves`: at most two assets, each "native" or "CODE:ISSUER"; as the tables store them. */
export function reservesArg(name: string, reserves: readonly string[]): string[] {
  if (reserves.length > MAX_POOL_RESERVES) {
    throw new ProblemError(problems.badRequest(name, `reserves exceeds maximum length of ${MAX_POOL_RESERVES}`));
  }
  return reserves.map((asset) => {
    try {
      return assetFilterArg(name, asset);
    } catch (error) {
      if (!(error instanceof ProblemError)) throw error;
      throw new ProblemError(problems.badRequest(name, 'Invalid reserves, should be comma-separated list of assets in canonical form'));
    }
  });
}

builder.queryField('liquidityPool', (t) =>
  t.prismaField({
    type: 'LiquidityPool',
    nullable: true,
    description: 'The liquidity pool with this id (hex), while it exists.',
    args: { id: t.arg.string({ required: true }) },
    resolve: (query, _root, args, ctx) => ctx.prisma.liquidityPool.findUnique({ ...query, where: { id: poolIdArg('id', args.id) } }),
  }),
);

builder.queryField('liquidityPools', (t) =>
  t.connection({
    type: LiquidityPoolRef,
    description: 'Liquidity pools by id: those holding every asset of reserves, or those an account has shares (a trust line) in.',
    args: {
      ...listArgs,
      reserves: t.arg.stringList({ description: 'at most two assets, native or CODE:ISSUER' }),
      account: t.arg.string({ description: 'an account with a trust line to the pools’ shares' }),
    },
    resolve: async (_root, args, ctx, info) => {
      const reserves = args.reserves == null ? [] : reservesArg('reserves', args.reserves);
      if (args.account != null && reserves.length > 0) {
        throw new ProblemError(problems.badRequest('account', 'filtering by both account and reserves is not supported'));
      }
      const where: Prisma.LiquidityPoolWhereInput = {
        AND: reserves.map((asset) => ({ OR: [{ assetA: asset }, { assetB: asset }] })),
      };
      if (args.account != null) {
        const lines = await ctx.prisma.trustLine.findMany({
          where: { accountId: accountIdArg('account', args.account), liquidityPoolId: { not: '' } },
          select: { liquidityPoolId: true },
        });
        // a trust line to an asset has an empty pool id
        where.id = { in: lines.map((line) => line.liquidityPoolId) };
      }
      return keysetConnection(liquidityPoolList(ctx, info, where), args);
    },
  }),
);
