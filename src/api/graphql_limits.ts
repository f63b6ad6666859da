// Limits on what one GraphQL query may ask: its depth, and its cost, where a field costs 1 and a
// connection multiplies what lies beneath it by its page size (first/last, default 10). Both are
// validation rules, so a query over the limit is refused before anything runs.
import {
  Kind,
  type ASTVisitor,
  type FieldNode,
  type FragmentDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValueNode,
} from 'graphql';
import { badRequestError } from './problems.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './schema/paging.js';

export const MAX_QUERY_DEPTH = 12;
export const MAX_QUERY_COST = 50_000;

function pageSize(field: FieldNode, variables: Record<string, unknown> | undefined): number {
  for (const arg of field.arguments ?? []) {
    if (arg.name.value !== 'first' && arg.name.value !== 'last') continue;
    const value = literal(arg.value, variables);
    if (typeof value === 'number') return Math.min(Math.max(value, 1), MAX_PAGE_SIZE);
    // a page size given by a variable not yet known counts as the largest allowed
    return MAX_PAGE_SIZE;
  }
  return DEFAULT_PAGE_SIZE;
}

function literal(node: ValueNode, variables: Record<string, unknown> | undefined): unknown {
  if (node.kind === Kind.INT) return Number(node.value);
  if (node.kind === Kind.VARIABLE) return variables?.[node.name.value];
  return undefined;
}

interface Measure {
  depth: number;
  cost: number;
}

function measure(set: SelectionSetNode | undefined, fragments: Record<string, FragmentDefinitionNode>, visiting: Set<string>): Measure {
  if (!set) return { depth: 0, cost: 0 };
  let depth = 0;
  let cost = 0;
  for (const selection of set.selections) {
    let inner: Measure;
    if (selection.kind === Kind.FIELD) {
      const below = measure(selection.selectionSet, fragments, visiting);
      const isConnection =
        selection.arguments?.some((a) => ['first', 'last', 'after', 'before'].includes(a.name.value)) ||
        selection.selectionSet?.selections.some((s) => s.kind === Kind.FIELD && s.name.value === 'edges');
      const multiplier = isConnection ? pageSize(selection, undefined) : 1;
      inner = { depth: below.depth + 1, cost: 1 + multiplier * below.cost };
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      inner = measure(selection.selectionSet, fragments, visiting);
    } else {
      const name = selection.name.value;
      const fragment = fragments[name];
      if (!fragment || visiting.has(name)) continue;
      inner = measure(fragment.selectionSet, fragments, new Set([...visiting, name]));
    }
    depth = Math.max(depth, inner.depth);
    cost += inner.cost;
  }
  return { depth, cost };
}

export function queryLimitsRule(context: ValidationContext): ASTVisitor {
  return {
    OperationDefinition(node) {
      const fragments: Record<string, FragmentDefinitionNode> = {};
      for (const definition of context.getDocument().definitions) {
        if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
      }
      const { depth, cost } = measure(node.selectionSet, fragments, new Set());
      if (depth > MAX_QUERY_DEPTH) {
        context.reportError(badRequestError(`query depth ${depth} exceeds the limit of ${MAX_QUERY_DEPTH}`, node));
      }
      if (cost > MAX_QUERY_COST) {
        context.reportError(badRequestError(`query cost ${cost} exceeds the limit of ${MAX_QUERY_COST}`, node));
      }
    },
  };
}
