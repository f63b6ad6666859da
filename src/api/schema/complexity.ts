// What a field costs before anything runs (@pothos/plugin-complexity; the budget is checked in
// graphql_limits.ts). Each field costs 1; what lies beneath a list counts once per item it may
// hold: a connection's page (first/last, else the default page), a field's `limit` (else the
// largest page), the ids of `nodes`. A connection's edges are its page already; other lists
// without such an argument (balances, signers, a book's levels, paths) count as 10 items.
import { getNamedType, isListType, isNonNullType, type GraphQLField, type GraphQLOutputType } from 'graphql';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './page_size.js';

const LIST_MULTIPLIER = 10;

export interface FieldCost {
  field: number;
  multiplier: number;
}

function isList(type: GraphQLOutputType): boolean {
  return isListType(isNonNullType(type) ? type.ofType : type);
}

// a page size out of range is refused by the field itself (paging.ts), with its own message
const pageOf = (value: number): number => Math.min(Math.max(Math.trunc(value), 0), MAX_PAGE_SIZE);

export function fieldComplexity<Context>(
  args: Record<string, unknown>,
  _context: Context,
  field: GraphQLField<unknown, Context>,
): FieldCost {
  const argNames = new Set(field.args.map((arg) => arg.name));
  if (Array.isArray(args.ids)) return { field: 1, multiplier: args.ids.length };
  if (argNames.has('first') || argNames.has('last')) {
    const sizes = [args.first, args.last].filter((value): value is number => typeof value === 'number');
    return { field: 1, multiplier: sizes.length > 0 ? pageOf(Math.max(...sizes)) : DEFAULT_PAGE_SIZE };
  }
  if (argNames.has('limit')) {
    return { field: 1, multiplier: typeof args.limit === 'number' ? pageOf(args.limit) : MAX_PAGE_SIZE };
  }
  if (isList(field.type) && !getNamedType(field.type).name.endsWith('ConnectionEdge')) {
    return { field: 1, multiplier: LIST_MULTIPLIER };
  }
  return { field: 1, multiplier: 1 };
}
