// One request's run of a planned document (executor.ts makes the plan): resolvers called with
// the arguments and the info they read, values completed, errors located and stopped at the
// nearest nullable field, with graphql-js's rules and words. graphql-js's own helpers for this are
// private modules, which an upgrade may move; what little of them is needed is written here.
import {
  GraphQLError,
  getArgumentValues,
  isNonNullType,
  isObjectType,
  locatedError,
  responsePathAsArray,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLAbstractType,
  type GraphQLField,
  type GraphQLFieldResolver,
  type GraphQLLeafType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type ResponsePath,
} from 'graphql';

/** one request */
export interface Run {
  readonly schema: GraphQLSchema;
  readonly fragments: Record<string, FragmentDefinitionNode>;
  readonly operation: OperationDefinitionNode;
  readonly context: unknown;
  readonly variables: Record<string, unknown>;
  readonly errors: GraphQLError[];
}

/** completes a field's resolved value: serializes leaves, resolves types, walks lists and objects */
export type Complete = (run: Run, value: unknown, plan: FieldPlan, path: ResponsePath) => unknown;

/** one field of one object type, as the document selects it */
export interface FieldPlan {
  /** the response key (alias or name) */
  readonly key: string;
  /** the key the result is written under: the response key, or REST's name of it */
  readonly out: string;
  /** REST's shape leaves a null field out (a pending one keeps an undefined placeholder, which JSON leaves out too) */
  readonly omitsNull: boolean;
  readonly parentType: GraphQLObjectType;
  readonly field: GraphQLField<unknown, unknown>;
  readonly nodes: readonly FieldNode[];
  readonly resolve: GraphQLFieldResolver<unknown, unknown> | undefined;
  readonly takesArguments: boolean;
  /** a resolver declared with fewer than four parameters never reads `info`: none is made for it */
  readonly readsInfo: boolean;
  /** a leaf (a list of leaves is none): its completion reads no path, so one is made only for an error */
  readonly leaf: boolean;
  readonly complete: Complete;
}

export const NO_ARGUMENTS: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

export const isPromise = (value: unknown): value is Promise<unknown> => typeof (value as { then?: unknown } | null)?.then === 'function';

const addPath = (prev: ResponsePath | undefined, key: string | number, typename: string | undefined): ResponsePath => ({
  prev,
  key,
  typename,
});

export function resolveInfo(run: Run, plan: FieldPlan, path: ResponsePath): GraphQLResolveInfo {
  return {
    fieldName: plan.field.name,
    fieldNodes: plan.nodes,
    returnType: plan.field.type,
    parentType: plan.parentType,
    path,
    schema: run.schema,
    fragments: run.fragments,
    rootValue: undefined,
    operation: run.operation,
    variableValues: run.variables,
  };
}

/** graphql-js's rule for a list item: an error stops at the item when it may be null */
function itemError(run: Run, error: unknown, itemType: GraphQLOutputType, nodes: readonly FieldNode[], path: ResponsePath): null {
  const located = locatedError(error, nodes, responsePathAsArray(path));
  if (isNonNullType(itemType)) throw located;
  run.errors.push(located);
  return null;
}

/** graphql-js's rule: an error stops at the nearest nullable field, which becomes null */
function fieldError(run: Run, error: unknown, plan: FieldPlan, path: ResponsePath): null {
  const located = locatedError(error, plan.nodes, responsePathAsArray(path));
  if (isNonNullType(plan.field.type)) throw located;
  run.errors.push(located);
  return null;
}

const fieldPath = (plan: FieldPlan, parentPath: ResponsePath | undefined): ResponsePath =>
  addPath(parentPath, plan.key, plan.parentType.name);

export function resolveField(run: Run, plan: FieldPlan, source: unknown, parentPath: ResponsePath | undefined): unknown {
  let path = plan.leaf && !plan.readsInfo ? undefined : fieldPath(plan, parentPath);
  let value: unknown;
  try {
    const args = plan.takesArguments ? getArgumentValues(plan.field, plan.nodes[0]!, run.variables) : NO_ARGUMENTS;
    if (plan.resolve) {
      value = plan.resolve(
        source,
        args,
        run.context,
        plan.readsInfo ? resolveInfo(run, plan, (path ??= fieldPath(plan, parentPath))) : (undefined as never),
      );
    } else {
      // graphql-js's default resolver: the property, called when it is a method
      const property = (source as Record<string, unknown> | null | undefined)?.[plan.field.name];
      value =
        typeof property === 'function'
          ? (property as (...a: unknown[]) => unknown).call(
              source,
              args,
              run.context,
              resolveInfo(run, plan, (path ??= fieldPath(plan, parentPath))),
            )
          : property;
    }
  } catch (error) {
    return fieldError(run, error, plan, (path ??= fieldPath(plan, parentPath)));
  }
  return completeField(run, plan, value, path, parentPath);
}

/**
 * What is left of resolveField for a field without arguments whose value was read elsewhere
 * (executor_fields.ts): its resolver's value, or its property, which graphql-js's default resolver
 * calls when it is a method; then completed. Errors stop at the field by graphql-js's rule: only a
 * non-null field's error is thrown.
 */
export function settleField(run: Run, plan: FieldPlan, source: unknown, value: unknown, parentPath: ResponsePath | undefined): unknown {
  // (a leaf's completion is given no path: it never reads one)
  let path = plan.leaf ? undefined : fieldPath(plan, parentPath);
  if (!plan.resolve && typeof value === 'function') {
    const methodPath = (path ??= fieldPath(plan, parentPath));
    try {
      value = (value as (...a: unknown[]) => unknown).call(source, NO_ARGUMENTS, run.context, resolveInfo(run, plan, methodPath));
    } catch (error) {
      return fieldError(run, error, plan, methodPath);
    }
  }
  return completeField(run, plan, value, path, parentPath);
}

function completeField(
  run: Run,
  plan: FieldPlan,
  value: unknown,
  path: ResponsePath | undefined,
  parentPath: ResponsePath | undefined,
): unknown {
  try {
    const completed = isPromise(value)
      ? value.then((resolved) => plan.complete(run, resolved, plan, path as ResponsePath))
      : plan.complete(run, value, plan, path as ResponsePath);
    return isPromise(completed)
      ? completed.then(undefined, (error: unknown) => fieldError(run, error, plan, (path ??= fieldPath(plan, parentPath))))
      : completed;
  } catch (error) {
    return fieldError(run, error, plan, (path ??= fieldPath(plan, parentPath)));
  }
}

/** a field's error thrown while resolving it, by graphql-js's rule: null, or thrown on (located) when the field is non-null */
export const failField = (run: Run, error: unknown, plan: FieldPlan, parentPath: ResponsePath | undefined): null =>
  fieldError(run, error, plan, fieldPath(plan, parentPath));

/** the fields of one object, in the document's order; a promise when any of them is one */
export function executeFields(run: Run, plans: readonly FieldPlan[], source: unknown, path: ResponsePath | undefined): unknown {
  const result: Record<string, unknown> = {};
  let pending: Promise<void>[] | null = null;
  for (const plan of plans) {
    let value: unknown;
    try {
      value = resolveField(run, plan, source, path);
    } catch (error) {
      // as graphql-js: the fields already running settle before the object gives up
      if (pending) return Promise.allSettled(pending).then(() => Promise.reject(error));
      throw error;
    }
    if (isPromise(value)) {
      result[plan.out] = undefined; // keeps the key's place
      (pending ??= []).push(
        value.then((resolved) => {
          if (resolved !== null || !plan.omitsNull) result[plan.out] = resolved;
        }),
      );
    } else if (!plan.omitsNull || (value !== null && value !== undefined)) {
      result[plan.out] = value;
    }
  }
  return pending ? Promise.all(pending).then(() => result) : result;
}

export function completeNonNull(value: unknown, plan: FieldPlan): unknown {
  if (value === null) throw new Error(`Cannot return null for non-nullable field ${plan.parentType.name}.${plan.field.name}.`);
  return value;
}

export function completeLeaf(type: GraphQLLeafType, value: unknown): unknown {
  const serialized = type.serialize(value);
  if (serialized === undefined || serialized === null) {
    throw new Error(
      `Expected \`${inspect(type)}.serialize(${inspect(value)})\` to return non-nullable value, returned: ${inspect(serialized)}`,
    );
  }
  return serialized;
}

// as graphql-js's isIterableObject: a string is iterable, but not a list
const isIterableObject = (value: unknown): value is Iterable<unknown> =>
  typeof value === 'object' && typeof (value as { [Symbol.iterator]?: unknown } | null)?.[Symbol.iterator] === 'function';

/** a list's items, each completed by `item`; an item's error stops at the item when it may be null */
export function completeList(
  run: Run,
  value: unknown,
  plan: FieldPlan,
  path: ResponsePath,
  item: Complete,
  itemType: GraphQLOutputType,
): unknown {
  if (!isIterableObject(value)) {
    throw new GraphQLError(`Expected Iterable, but did not find one for field "${plan.parentType.name}.${plan.field.name}".`);
  }
  let pending = false;
  const items: unknown[] = [];
  let index = 0;
  for (const entry of value) {
    const itemPath = addPath(path, index++, undefined);
    try {
      const completed = isPromise(entry) ? entry.then((resolved) => item(run, resolved, plan, itemPath)) : item(run, entry, plan, itemPath);
      if (isPromise(completed)) {
        pending = true;
        items.push(completed.then(undefined, (error: unknown) => itemError(run, error, itemType, plan.nodes, itemPath)));
      } else {
        items.push(completed);
      }
    } catch (error) {
      try {
        items.push(itemError(run, error, itemType, plan.nodes, itemPath));
      } catch (fatal) {
        // as graphql-js: the items already running settle before the list gives up
        if (pending) return Promise.allSettled(items).then(() => Promise.reject(fatal));
        throw fatal;
      }
    }
  }
  return pending ? Promise.all(items) : items;
}

/** the object type resolveType named, checked with graphql-js's rules and words */
export function runtimeType(
  schema: GraphQLSchema,
  type: GraphQLAbstractType,
  name: unknown,
  value: unknown,
  plan: FieldPlan,
): GraphQLObjectType {
  const field = `${plan.parentType.name}.${plan.field.name}`;
  const nodes = plan.nodes;
  if (name === null || name === undefined) {
    throw new GraphQLError(
      `Abstract type "${type.name}" must resolve to an Object type at runtime for field "${field}". Either the "${type.name}" type should provide a "resolveType" function or each possible type should provide an "isTypeOf" function.`,
      { nodes },
    );
  }
  if (isObjectType(name)) {
    throw new GraphQLError(
      'Support for returning GraphQLObjectType from resolveType was removed in graphql-js@16.0.0 please return type name instead.',
    );
  }
  if (typeof name !== 'string') {
    throw new GraphQLError(
      `Abstract type "${type.name}" must resolve to an Object type at runtime for field "${field}" with value ${inspect(value)}, received "${inspect(name)}".`,
    );
  }
  const runtime = schema.getType(name);
  if (!runtime)
    throw new GraphQLError(`Abstract type "${type.name}" was resolved to a type "${name}" that does not exist inside the schema.`, {
      nodes,
    });
  if (!isObjectType(runtime))
    throw new GraphQLError(`Abstract type "${type.name}" was resolved to a non-object type "${name}".`, { nodes });
  if (!schema.isSubType(type, runtime))
    throw new GraphQLError(`Runtime Object type "${runtime.name}" is not a possible type for "${type.name}".`, { nodes });
  return runtime;
}

/** what graphql-js says when isTypeOf refuses a value */
export const invalidReturnType = (type: GraphQLObjectType, value: unknown, nodes: readonly FieldNode[]): GraphQLError =>
  new GraphQLError(`Expected value of type "${type.name}" but got: ${inspect(value)}.`, { nodes });

const MAX_ARRAY_LENGTH = 10;
const MAX_RECURSIVE_DEPTH = 2;

/** a value as graphql-js prints it in the messages above */
export function inspect(value: unknown, seen: readonly unknown[] = []): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'function':
      return value.name ? `[function ${value.name}]` : '[function]';
    case 'object':
      return value === null ? 'null' : inspectObject(value, seen);
    default:
      return String(value);
  }
}

function inspectObject(value: object, previouslySeen: readonly unknown[]): string {
  if (previouslySeen.includes(value)) return '[Circular]';
  const seen = [...previouslySeen, value];
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') {
    const json: unknown = toJSON.call(value);
    // (a toJSON that returns its own object is printed as the object)
    if (json !== value) return typeof json === 'string' ? json : inspect(json, seen);
  } else if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    if (seen.length > MAX_RECURSIVE_DEPTH) return '[Array]';
    // (a hole prints as undefined)
    const items = Array.from({ length: Math.min(MAX_ARRAY_LENGTH, value.length) }, (_, i) => inspect(value[i], seen));
    const remaining = value.length - items.length;
    if (remaining > 0) items.push(`... ${remaining} more item${remaining === 1 ? '' : 's'}`);
    return `[${items.join(', ')}]`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return '{}';
  if (seen.length > MAX_RECURSIVE_DEPTH) return `[${objectTag(value)}]`;
  return `{ ${entries.map(([key, entry]) => `${key}: ${inspect(entry, seen)}`).join(', ')} }`;
}

function objectTag(value: object): string {
  const tag = Object.prototype.toString
    .call(value)
    .replace(/^\[object /, '')
    .replace(/]$/, '');
  const maker = (value as { constructor?: unknown }).constructor;
  if (tag === 'Object' && typeof maker === 'function') {
    const name: unknown = maker.name;
    if (typeof name === 'string' && name !== '') return name;
  }
  return tag;
}
