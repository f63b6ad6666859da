// Payment paths (src/market/paths.ts) searched on the process's order-book graph: strict receive
// (what must be sent to deliver an amount) and strict send (what an amount can deliver). REST
// renders them as GET /paths/strict-receive (and /paths, the same) and /paths/strict-send; an empty
// result is there a 404.
import type { Database } from '../../db/database.js';
import {
  PathSearchLimitError,
  parseStrictReceiveParams,
  parseStrictSendParams,
  strictReceivePaths,
  strictSendPaths,
  type OrderBookGraph,
  type PathRecord,
  type PathSearchOptions,
} from '../../market/index.js';
import type { ApiContext } from '../context.js';
import { parsed, ProblemError, problems } from '../problems.js';
import { AssetRef } from './asset.js';
import { AssetInput } from './asset_input.js';
import { builder } from './builder.js';

const PathRef = builder.objectRef<PathRecord>('PaymentPath').implement({
  description: 'A way to pay: the source asset and amount, the assets crossed, the destination asset and amount.',
  fields: (t) => ({
    sourceAssetType: t.exposeString('sourceAssetType'),
    sourceAssetCode: t.string({ nullable: true, resolve: (p) => p.sourceAssetCode ?? null }),
    sourceAssetIssuer: t.string({ nullable: true, resolve: (p) => p.sourceAssetIssuer ?? null }),
    sourceAmount: t.exposeString('sourceAmount'),
    destinationAssetType: t.exposeString('destinationAssetType'),
    destinationAssetCode: t.string({ nullable: true, resolve: (p) => p.destinationAssetCode ?? null }),
    destinationAssetIssuer: t.string({ nullable: true, resolve: (p) => p.destinationAssetIssuer ?? null }),
    destinationAmount: t.exposeString('destinationAmount'),
    path: t.field({ type: [AssetRef], resolve: (p) => p.path }),
  }),
});

/**
 * A search on the process's order-book graph, with the arguments parsed first, up to the server's
 * --max-path-length; a search over its work budget answers Horizon's timeout.
 */
async function search<Params>(
  ctx: ApiContext,
  parse: () => Params,
  find: (db: Database, graph: OrderBookGraph, params: Params, options: PathSearchOptions) => Promise<PathRecord[]>,
) {
  const params = parsed(parse);
  const { maxPathLength } = ctx.services.config;
  try {
    return await find(
      ctx.services.db,
      await ctx.services.orderBook.current(),
      params,
      maxPathLength === undefined ? {} : { maxPathLength },
    );
  } catch (error) {
    if (error instanceof PathSearchLimitError) throw new ProblemError(problems.timeout());
    throw error;
  }
}

builder.queryField('strictReceivePaths', (t) =>
  t.field({
    type: [PathRef],
    description:
      'Paths that deliver destinationAmount of destinationAsset, from sourceAssets ("native,USD:G...") or from what sourceAccount holds (one of the two).',
    args: {
      destinationAsset: t.arg({ type: AssetInput, required: true }),
      destinationAmount: t.arg.string({ required: true }),
      sourceAccount: t.arg.string(),
      sourceAssets: t.arg.string(),
    },
    resolve: (_root, args, ctx) => search(ctx, () => parseStrictReceiveParams(args), strictReceivePaths),
  }),
);

builder.queryField('strictSendPaths', (t) =>
  t.field({
    type: [PathRef],
    description:
      'Paths that sourceAmount of sourceAsset can take, to destinationAssets or to what destinationAccount holds (one of the two).',
    args: {
      sourceAsset: t.arg({ type: AssetInput, required: true }),
      sourceAmount: t.arg.string({ required: true }),
      destinationAccount: t.arg.string(),
      destinationAssets: t.arg.string(),
    },
    resolve: (_root, args, ctx) => search(ctx, () => parseStrictSendParams(args), strictSendPaths),
  }),
);
