// The one Pothos builder of the schema, with its plugins. Type files under src/api/schema/ add
// their types and root fields to it; schema.ts imports them all and builds the schema.
import SchemaBuilder from '@pothos/core';
import ComplexityPlugin from '@pothos/plugin-complexity';
import DataloaderPlugin from '@pothos/plugin-dataloader';
import PrismaPlugin from '@pothos/plugin-prisma';
import RelayPlugin from '@pothos/plugin-relay';
import type PrismaTypes from '../../generated/pothos-prisma-types.js';
import { getDatamodel } from '../../generated/pothos-prisma-types.js';
import type { ApiContext } from '../context.js';
import { ProblemError, problems } from '../problems.js';
import { MAX_PAGE_SIZE } from './page_size.js';

export const builder = new SchemaBuilder<{
  Context: ApiContext;
  PrismaTypes: PrismaTypes;
  DefaultFieldNullability: false;
  Scalars: {
    /** int64 values clients must keep exact travel as decimal strings */
    Int64: { Input: bigint; Output: bigint | number | string };
    DateTime: { Input: Date; Output: Date };
    /** stroops, shown as a decimal string with 7 places (output: stroops, or that string as stored) */
    Amount: { Input: bigint; Output: bigint | string };
    /** JSON as Horizon writes it (claimants, predicates, pool reserves); keys are never renamed */
    JSON: { Input: unknown; Output: unknown };
  };
}>({
  // complexity: each field's cost (complexity.ts, given in schema.ts), the budget checked by graphql_limits.ts
  plugins: [RelayPlugin, PrismaPlugin, DataloaderPlugin, ComplexityPlugin],
  defaultFieldNullability: false,
  relay: {
    cursorType: 'String',
    clientMutationId: 'omit',
    // as many ids as a page holds records: 100,000 ids were seconds of loading
    nodesQueryOptions: {
      resolve: (_root, args, _context, _info, resolveNodes) => {
        if (args.ids.length > MAX_PAGE_SIZE) {
          throw new ProblemError(problems.badRequest('ids', `at most ${MAX_PAGE_SIZE} ids, not ${args.ids.length}`));
        }
        return resolveNodes(args.ids);
      },
    },
  },
  prisma: {
    client: (ctx) => ctx.prisma,
    dmmf: getDatamodel(),
    exposeDescriptions: false,
    filterConnectionTotalCount: true,
    onUnusedQuery: null,
  },
});

builder.queryType({});
builder.mutationType({});
builder.subscriptionType({});

/** The builder's resolved type parameters, for helpers that take a field builder. */
export type BuilderTypes = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer Types> ? Types : never;
