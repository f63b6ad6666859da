// Runs a route's document from a plan made once: for each object type the document reaches, the
// fields to resolve, with their resolver, whether they take arguments or read `info`, and how to
// complete their values. A request then only calls resolvers and serializers. graphql-js (and
// graphql-jit) make per field and per record what never changes between requests, an info
// object, a path, closures; a page of 200 payments resolves ~3,000 fields.
//
// The semantics are graphql-js's for what route documents hold (queries without directives):
// resolvers, resolveType and isTypeOf, scalar serialization, null bubbling, located errors.
// `interpretDocument` is graphql-js itself; test/api/rest/executor.db.test.ts compares the two.
import {
  GraphQLError,
  Kind,
  TypeNameMetaFieldDef,
  defaultTypeResolver,
  execute,
  getArgumentValues,
  getNamedType,
  getVariableValues,
  isAbstractType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  locatedError,
  visit,
  BREAK,
  type DocumentNode,
  type ExecutionResult,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLAbstractType,
  type GraphQLField,
  type GraphQLFieldResolver,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { collectFields, collectSubfields } from 'graphql/execution/collectFields.js';
import { inspect } from 'graphql/jsutils/inspect.js';
import { isIterableObject } from 'graphql/jsutils/isIterableObject.js';
import { pathToArray, type Path } from 'graphql/jsutils/Path.js';

/** runs one prepared document with a request's context and variables */
export type DocumentExecutor = (contextValue: unknown, variables: Record<string, unknown>) => Promise<ExecutionResult>;

export type CompileDocument = (schema: GraphQLSchema, document: DocumentNode) => DocumentExecutor;

/** graphql-js's own execution of the same document: the reference the planned one is held to */
export const interpretDocument: CompileDocument = (schema, document) => (contextValue, variables) =>
  Promise.resolve(execute({ schema, document, contextValue, variableValues: variables }));

/** one request */
interface Run {
  readonly schema: GraphQLSchema;
  readonly fragments: Record<string, FragmentDefinitionNode>;
  readonly operation: OperationDefinitionNode;
  readonly context: unknown;
  readonly variables: Record<string, unknown>;
  readonly errors: GraphQLError[];
}

/** completes a field's resolved value: serializes leaves, resolves types, walks lists and objects */
type Complete = (run: Run, value: unknown, plan: FieldPlan, path: Path) => unknown;

interface FieldPlan {
  /** the response key (alias or name) */
  readonly key: string;
  readonly parentType: GraphQLObjectType;
  readonly field: GraphQLField<unknown, unknown>;
  readonly nodes: readonly FieldNode[];
  readonly resolve: GraphQLFieldResolver<unknown, unknown> | undefined;
  readonly takesArguments: boolean;
  /** a resolver declared with fewer than four parameters never reads `info`: none is made for it */
  readonly readsInfo: boolean;
  /** a leaf: its completion reads no path, so one is made only for an error */
  readonly leaf: boolean;
  readonly complete: Complete;
}

const NO_ARGUMENTS: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

const isPromise = (value: unknown): value is Promise<unknown> => typeof (value as { then?: unknown } | null)?.then === 'function';

const addPath = (prev: Path | undefined, key: string | number, typename: string | undefined): Path => ({ prev, key, typename });

function resolveInfo(run: Run, plan: FieldPlan, path: Path): GraphQLResolveInfo {
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
function itemError(run: Run, error: unknown, itemType: GraphQLOutputType, nodes: readonly FieldNode[], path: Path): null {
  const located = locatedError(error, nodes, pathToArray(path));
  if (isNonNullType(itemType)) throw located;
  run.errors.push(located);
  return null;
}

/** graphql-js's rule: an error stops at the nearest nullable field, which becomes null */
function fieldError(run: Run, error: unknown, plan: FieldPlan, path: Path): null {
  const located = locatedError(error, plan.nodes, pathToArray(path));
  if (isNonNullType(plan.field.type)) throw located;
  run.errors.push(located);
  return null;
}

const fieldPath = (plan: FieldPlan, parentPath: Path | undefined): Path => addPath(parentPath, plan.key, plan.parentType.name);

function resolveField(run: Run, plan: FieldPlan, source: unknown, parentPath: Path | undefined): unknown {
  let path = plan.leaf && !plan.readsInfo ? undefined : fieldPath(plan, parentPath);
  try {
    const args = plan.takesArguments ? getArgumentValues(plan.field, plan.nodes[0]!, run.variables) : NO_ARGUMENTS;
    let value: unknown;
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
    // (a leaf's completion is given no path: it never reads one)
    const completed = isPromise(value)
      ? value.then((resolved) => plan.complete(run, resolved, plan, path as Path))
      : plan.complete(run, value, plan, path as Path);
    return isPromise(completed)
      ? completed.then(undefined, (error: unknown) => fieldError(run, error, plan, (path ??= fieldPath(plan, parentPath))))
      : completed;
  } catch (error) {
    return fieldError(run, error, plan, (path ??= fieldPath(plan, parentPath)));
  }
}

/** the fields of one object, in the document's order; a promise when any of them is one */
function executeFields(run: Run, plans: readonly FieldPlan[], source: unknown, path: Path | undefined): unknown {
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
      result[plan.key] = undefined; // keeps the key's place
      (pending ??= []).push(
        value.then((resolved) => {
          result[plan.key] = resolved;
        }),
      );
    } else {
      result[plan.key] = value;
    }
  }
  return pending ? Promise.all(pending).then(() => result) : result;
}

/** the object type resolveType named, checked with graphql-js's rules and words */
function runtimeType(schema: GraphQLSchema, type: GraphQLAbstractType, name: unknown, value: unknown, plan: FieldPlan): GraphQLObjectType {
  const field = `${plan.parentType.name}.${plan.field.name}`;
  const nodes = plan.nodes;
  if (name === null || name === undefined) {
    throw new GraphQLError(
      `Abstract type "${type.name}" must resolve to an Object type at runtime for field "${field}". Either the "${type.name}" type should provide a "resolveType" function or each possible type should provide an "isTypeOf" function.`,
      { nodes },
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

/** Plans and completions of one document, built as the requests reach each type. */
class DocumentPlan {
  constructor(
    private readonly schema: GraphQLSchema,
    private readonly fragments: Record<string, FragmentDefinitionNode>,
  ) {}

  fields(type: GraphQLObjectType, fields: Map<string, readonly FieldNode[]>): FieldPlan[] {
    return [...fields].map(([key, nodes]) => {
      const name = nodes[0]!.name.value;
      const typeName = name === TypeNameMetaFieldDef.name;
      const field = typeName ? TypeNameMetaFieldDef : type.getFields()[name];
      if (!field) throw new Error(`${type.name} has no field ${name}`);
      // __typename is known here: no info is made to read it from
      const resolve = (typeName ? () => type.name : field.resolve) as GraphQLFieldResolver<unknown, unknown> | undefined;
      return {
        key,
        parentType: type,
        field: field as GraphQLField<unknown, unknown>,
        nodes,
        resolve,
        takesArguments: field.args.length > 0,
        readsInfo: resolve !== undefined && resolve.length >= 4,
        leaf: isLeafType(getNamedType(field.type)),
        complete: this.completion(field.type, nodes),
      };
    });
  }

  private completion(type: GraphQLOutputType, nodes: readonly FieldNode[]): Complete {
    if (isNonNullType(type)) {
      const inner = this.completion(type.ofType, nodes);
      const checked = (value: unknown, plan: FieldPlan): unknown => {
        if (value === null) throw new Error(`Cannot return null for non-nullable field ${plan.parentType.name}.${plan.field.name}.`);
        return value;
      };
      return (run, value, plan, path) => {
        const completed = inner(run, value, plan, path);
        return isPromise(completed) ? completed.then((done) => checked(done, plan)) : checked(completed, plan);
      };
    }
    const nullable = this.nullableCompletion(type, nodes);
    return (run, value, plan, path) => {
      if (value instanceof Error) throw value;
      return value === null || value === undefined ? null : nullable(run, value, plan, path);
    };
  }

  private nullableCompletion(type: GraphQLOutputType, nodes: readonly FieldNode[]): Complete {
    if (isLeafType(type)) {
      return (_run, value) => {
        const serialized = type.serialize(value);
        if (serialized === undefined || serialized === null) {
          throw new Error(
            `Expected \`${inspect(type)}.serialize(${inspect(value)})\` to return non-nullable value, returned: ${inspect(serialized)}`,
          );
        }
        return serialized;
      };
    }
    if (isListType(type)) {
      const itemType = type.ofType as GraphQLOutputType;
      const item = this.completion(itemType, nodes);
      return (run, value, plan, path) => {
        if (!isIterableObject(value)) {
          throw new GraphQLError(`Expected Iterable, but did not find one for field "${plan.parentType.name}.${plan.field.name}".`);
        }
        let pending = false;
        const items: unknown[] = [];
        let index = 0;
        for (const entry of value as Iterable<unknown>) {
          const itemPath = addPath(path, index++, undefined);
          try {
            const completed = isPromise(entry)
              ? entry.then((resolved) => item(run, resolved, plan, itemPath))
              : item(run, entry, plan, itemPath);
            if (isPromise(completed)) {
              pending = true;
              items.push(completed.then(undefined, (error: unknown) => itemError(run, error, itemType, nodes, itemPath)));
            } else {
              items.push(completed);
            }
          } catch (error) {
            try {
              items.push(itemError(run, error, itemType, nodes, itemPath));
            } catch (fatal) {
              // as graphql-js: the items already running settle before the list gives up
              if (pending) return Promise.allSettled(items).then(() => Promise.reject(fatal));
              throw fatal;
            }
          }
        }
        return pending ? Promise.all(items) : items;
      };
    }
    if (isAbstractType(type)) return this.abstractCompletion(type, nodes);
    if (isObjectType(type)) return this.objectCompletion(type, nodes);
    throw new Error(`cannot complete ${inspect(type)}`);
  }

  private abstractCompletion(type: GraphQLAbstractType, nodes: readonly FieldNode[]): Complete {
    const byType = new Map<GraphQLObjectType, Complete>();
    const resolveType = type.resolveType ?? defaultTypeResolver;
    const completeAs = (run: Run, name: unknown, value: unknown, plan: FieldPlan, path: Path): unknown => {
      const runtime = runtimeType(run.schema, type, name, value, plan);
      let complete = byType.get(runtime);
      if (!complete) byType.set(runtime, (complete = this.objectCompletion(runtime, nodes)));
      return complete(run, value, plan, path);
    };
    return (run, value, plan, path) => {
      const name = resolveType(value, run.context, resolveInfo(run, plan, path), type);
      return isPromise(name)
        ? name.then((resolved) => completeAs(run, resolved, value, plan, path))
        : completeAs(run, name, value, plan, path);
    };
  }

  private objectCompletion(type: GraphQLObjectType, nodes: readonly FieldNode[]): Complete {
    let plans: FieldPlan[] | null = null;
    const fieldsOf = () => (plans ??= this.fields(type, collectSubfields(this.schema, this.fragments, {}, type, nodes)));
    const isTypeOf = type.isTypeOf;
    const wrongType = (value: unknown) => new GraphQLError(`Expected value of type "${type.name}" but got: ${inspect(value)}.`, { nodes });
    return (run, value, plan, path) => {
      if (isTypeOf) {
        const matches = isTypeOf(value, run.context, resolveInfo(run, plan, path));
        if (isPromise(matches)) {
          return matches.then((ok) => {
            if (!ok) throw wrongType(value);
            return executeFields(run, fieldsOf(), value, path);
          });
        }
        if (!matches) throw wrongType(value);
      }
      return executeFields(run, fieldsOf(), value, path);
    };
  }
}

// @skip and @include depend on variables: a plan made once cannot hold them
const hasDirectives = (document: DocumentNode): boolean => {
  let found = false;
  visit(document, {
    Directive() {
      found = true;
      return BREAK;
    },
  });
  return found;
};

export const compileDocument: CompileDocument = (schema, document) => {
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const queryType = schema.getQueryType();
  if (operation?.operation !== 'query' || !queryType || hasDirectives(document)) return interpretDocument(schema, document);
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
  }
  const plan = new DocumentPlan(schema, fragments);
  let rootFields: FieldPlan[] | null = null;
  return async (contextValue, variables) => {
    const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables, { maxErrors: 50 });
    if (coerced.errors) return { errors: coerced.errors };
    rootFields ??= plan.fields(queryType, collectFields(schema, fragments, {}, queryType, operation.selectionSet));
    const run: Run = { schema, fragments, operation, context: contextValue, variables: coerced.coerced, errors: [] };
    let data: Record<string, unknown> | null;
    try {
      data = (await executeFields(run, rootFields, undefined, undefined)) as Record<string, unknown>;
    } catch (error) {
      run.errors.push(error as GraphQLError);
      data = null;
    }
    return run.errors.length === 0 ? { data } : { errors: run.errors, data };
  };
};
