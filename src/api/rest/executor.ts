// Runs a route's document from a plan made once: for each object type the document reaches, the
// fields to resolve, with their resolver, whether they take arguments or read `info`, and how to
// complete their values. A request then only calls resolvers and serializers. graphql-js (and
// graphql-jit) make per field and per record what never changes between requests, an info
// object, a path, closures; a page of 200 payments resolves ~3,000 fields.
//
// The semantics are graphql-js's for what route documents hold (queries without directives):
// resolvers, resolveType and isTypeOf, scalar serialization, null bubbling, located errors.
// `interpretDocument` is graphql-js itself; test/api/rest/executor_semantics.test.ts and
// test/api/rest/executor.db.test.ts compare the two. This file makes the plan, executor_run.ts
// runs it, executor_fields.ts generates each object type's runner of its fields; all use
// graphql-js's public API only (test/architecture.test.ts).
//
// REST's routes run the plan in REST's shape (compileRestDocument): each field is written under its
// snake_case name and a null field is left out, in the one pass that builds the result — what
// render.ts's toRestJson would make of graphql-js's result, without rebuilding each record (a page
// of 200 records holds ~3,000 fields).
import {
  BREAK,
  Kind,
  TypeNameMetaFieldDef,
  defaultTypeResolver,
  execute,
  getNullableType,
  getVariableValues,
  isAbstractType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  typeFromAST,
  visit,
  type DocumentNode,
  type ExecutionResult,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLAbstractType,
  type GraphQLError,
  type GraphQLField,
  type GraphQLFieldResolver,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type NamedTypeNode,
  type OperationDefinitionNode,
  type ResponsePath,
  type SelectionSetNode,
} from 'graphql';
import {
  completeLeaf,
  completeList,
  completeNonNull,
  executeFields,
  invalidReturnType,
  isPromise,
  resolveInfo,
  runtimeType,
  type Complete,
  type FieldPlan,
  type Run,
} from './executor_run.js';
import { compileFields, type ObjectFields } from './executor_fields.js';
import { snakeCase, toRestJson } from './render.js';

/** runs one prepared document with a request's context and variables */
export type DocumentExecutor = ((contextValue: unknown, variables: Record<string, unknown>) => Promise<ExecutionResult>) & {
  /** its data is already as toRestJson renders it (snake_case keys, no null fields, no __typename) */
  readonly restShaped?: true;
};

export type CompileDocument = (schema: GraphQLSchema, document: DocumentNode) => DocumentExecutor;

/** graphql-js's own execution of the same document: the reference the planned one is held to */
export const interpretDocument: CompileDocument = (schema, document) => (contextValue, variables) =>
  Promise.resolve(execute({ schema, document, contextValue, variableValues: variables }));

/** the planned execution; a document no plan can hold (not a query, or with directives) runs on graphql-js */
export const compileDocument: CompileDocument = (schema, document) => plannedDocument(schema, document, false);

/** the planned execution writing REST's shape (toRestJson's) directly; graphql-js's result when no plan can hold the document */
export const compileRestDocument: CompileDocument = (schema, document) => plannedDocument(schema, document, true);

function plannedDocument(schema: GraphQLSchema, document: DocumentNode, rest: boolean): DocumentExecutor {
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const queryType = schema.getQueryType();
  if (operation?.operation !== 'query' || !queryType || hasDirectives(document)) return interpretDocument(schema, document);
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
  }
  const plan = new DocumentPlan(schema, fragments, rest);
  let rootFields: FieldPlan[] | null = null;
  const execute: DocumentExecutor = async (contextValue, variables) => {
    const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables, { maxErrors: 50 });
    if (coerced.errors) return { errors: coerced.errors };
    rootFields ??= plan.fields(queryType, [operation.selectionSet]);
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
  return rest ? Object.assign(execute, { restShaped: true as const }) : execute;
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

/** Plans and completions of one document, built as the requests reach each type. */
class DocumentPlan {
  constructor(
    private readonly schema: GraphQLSchema,
    private readonly fragments: Record<string, FragmentDefinitionNode>,
    /** REST's shape: snake_case keys, no null fields, no __typename (render.ts) */
    private readonly rest: boolean,
  ) {}

  /** the plans of the fields the selection sets select on `type` */
  fields(type: GraphQLObjectType, selectionSets: readonly SelectionSetNode[]): FieldPlan[] {
    const collected = [...collectFields(this.schema, this.fragments, type, selectionSets)];
    // REST shows no __typename: it is not even resolved
    const selected = this.rest ? collected.filter(([, nodes]) => nodes[0]!.name.value !== TypeNameMetaFieldDef.name) : collected;
    return selected.map(([key, nodes]) => {
      const name = nodes[0]!.name.value;
      const typeName = name === TypeNameMetaFieldDef.name;
      const field = typeName ? TypeNameMetaFieldDef : type.getFields()[name];
      if (!field) throw new Error(`${type.name} has no field ${name}`);
      // __typename is known here: no info is made to read it from
      const resolve = (typeName ? () => type.name : field.resolve) as GraphQLFieldResolver<unknown, unknown> | undefined;
      return {
        key,
        out: this.rest ? snakeCase(key) : key,
        omitsNull: this.rest,
        parentType: type,
        field: field as GraphQLField<unknown, unknown>,
        nodes,
        resolve,
        takesArguments: field.args.length > 0,
        readsInfo: resolve !== undefined && resolve.length >= 4,
        leaf: isLeafType(getNullableType(field.type)),
        complete: this.completion(field.type, nodes),
      };
    });
  }

  private completion(type: GraphQLOutputType, nodes: readonly FieldNode[]): Complete {
    // a leaf, most fields, is completed by one function rather than a chain of three (non-null, nullable, leaf)
    const leaf = getNullableType(type);
    if (isLeafType(leaf)) {
      const nonNull = isNonNullType(type);
      // (a JSON scalar's object, unless verbatim, is rendered as toRestJson renders it)
      const complete = this.rest
        ? (value: unknown) => {
            const serialized = completeLeaf(leaf, value);
            return typeof serialized === 'object' ? toRestJson(serialized) : serialized;
          }
        : (value: unknown) => completeLeaf(leaf, value);
      return (_run, value, plan) => {
        if (value instanceof Error) throw value;
        if (value !== null && value !== undefined) return complete(value);
        return nonNull ? completeNonNull(null, plan) : null;
      };
    }
    if (isNonNullType(type)) {
      const inner = this.completion(type.ofType, nodes);
      return (run, value, plan, path) => {
        const completed = inner(run, value, plan, path);
        return isPromise(completed) ? completed.then((done) => completeNonNull(done, plan)) : completeNonNull(completed, plan);
      };
    }
    const nullable = this.nullableCompletion(type, nodes);
    return (run, value, plan, path) => {
      if (value instanceof Error) throw value;
      return value === null || value === undefined ? null : nullable(run, value, plan, path);
    };
  }

  private nullableCompletion(type: GraphQLOutputType, nodes: readonly FieldNode[]): Complete {
    if (isListType(type)) {
      const itemType = type.ofType as GraphQLOutputType;
      const item = this.completion(itemType, nodes);
      return (run, value, plan, path) => completeList(run, value, plan, path, item, itemType);
    }
    if (isAbstractType(type)) return this.abstractCompletion(type, nodes);
    if (isObjectType(type)) return this.objectCompletion(type, nodes);
    throw new Error(`cannot complete ${String(type)}`);
  }

  private abstractCompletion(type: GraphQLAbstractType, nodes: readonly FieldNode[]): Complete {
    const byType = new Map<GraphQLObjectType, Complete>();
    const resolveType = type.resolveType ?? defaultTypeResolver;
    const completeAs = (run: Run, name: unknown, value: unknown, plan: FieldPlan, path: ResponsePath): unknown => {
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
    // its fields' runner, generated once the first value reaches it
    let runner: ObjectFields | null = null;
    const fieldsOf = (): ObjectFields => {
      if (runner) return runner;
      const plans = this.fields(type, subselections(nodes));
      return (runner = compileFields(plans, this.rest) ?? ((run, value, path) => executeFields(run, plans, value, path)));
    };
    const isTypeOf = type.isTypeOf;
    return (run, value, plan, path) => {
      if (isTypeOf) {
        const matches = isTypeOf(value, run.context, resolveInfo(run, plan, path));
        if (isPromise(matches)) {
          return matches.then((ok) => {
            if (!ok) throw invalidReturnType(type, value, nodes);
            return fieldsOf()(run, value, path);
          });
        }
        if (!matches) throw invalidReturnType(type, value, nodes);
      }
      return fieldsOf()(run, value, path);
    };
  }
}

const subselections = (nodes: readonly FieldNode[]): SelectionSetNode[] =>
  nodes.flatMap((node) => (node.selectionSet ? [node.selectionSet] : []));

/**
 * graphql-js's field collection for a document without directives: the fields the selection sets
 * select on an object type, by response key, through the fragments whose type condition holds
 * (a named fragment once).
 */
function collectFields(
  schema: GraphQLSchema,
  fragments: Record<string, FragmentDefinitionNode>,
  type: GraphQLObjectType,
  selectionSets: readonly SelectionSetNode[],
): Map<string, FieldNode[]> {
  const fields = new Map<string, FieldNode[]>();
  const spread = new Set<string>();
  const collect = (selectionSet: SelectionSetNode): void => {
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        const key = selection.alias?.value ?? selection.name.value;
        const nodes = fields.get(key);
        if (nodes) nodes.push(selection);
        else fields.set(key, [selection]);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        if (appliesTo(schema, selection.typeCondition, type)) collect(selection.selectionSet);
      } else if (!spread.has(selection.name.value)) {
        spread.add(selection.name.value);
        const fragment = fragments[selection.name.value];
        if (fragment && appliesTo(schema, fragment.typeCondition, type)) collect(fragment.selectionSet);
      }
    }
  };
  for (const selectionSet of selectionSets) collect(selectionSet);
  return fields;
}

/** whether a fragment with this type condition applies to an object of `type` */
function appliesTo(schema: GraphQLSchema, condition: NamedTypeNode | undefined, type: GraphQLObjectType): boolean {
  if (!condition) return true;
  const conditional = typeFromAST(schema, condition);
  if (conditional === type) return true;
  return isAbstractType(conditional) && schema.isSubType(conditional, type);
}
