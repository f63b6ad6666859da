// Each route's GraphQL document, built and validated once at start: the root field (and for a
// nested list the connection field of its result) called with one variable per argument, and the
// selection derived from the route's type. A request runs the document in-process with the
// variables of its parameters; an error of the document is the request's problem.
import { parse, validate, type DocumentNode, type GraphQLField, type GraphQLSchema } from 'graphql';
import { createContext, type ApiServices } from '../context.js';
import { ProblemError, problemOfGraphQLError, problems } from '../problems.js';
import { compileRestDocument, type CompileDocument, type DocumentExecutor } from './executor.js';
import type { PageParams } from './params.js';
import { takesJoin, type PageRoute, type Route } from './routes.js';
import { selectionFor } from './selection.js';

export interface CompiledRoute {
  route: Route;
  pattern: RegExp;
  paramNames: string[];
  document: DocumentNode;
  execute: DocumentExecutor;
  /** the route with `join=transactions` (an operation route): each record with its transaction */
  joined?: CompiledRoute;
}

/**
 * Horizon's `join` (operations and payments, and one operation): `transactions` embeds each
 * operation's transaction; another value is a 400 naming it. The route's document for the request.
 */
export function joinedRoute(compiled: CompiledRoute, query: Readonly<Record<string, string | undefined>>): CompiledRoute {
  if (!compiled.joined) return compiled;
  const join = query.join ?? '';
  if (join === '') return compiled;
  if (join !== 'transactions') throw new ProblemError(problems.badRequest('join', 'Accepted values: transactions'));
  return compiled.joined;
}

type Json = Record<string, unknown>;

function call(field: GraphQLField<unknown, unknown>, prefix: string): { declarations: string[]; text: string } {
  const declarations = field.args.map((arg) => `$${prefix}_${arg.name}: ${arg.type.toString()}`);
  const argumentList = field.args.map((arg) => `${arg.name}: $${prefix}_${arg.name}`);
  return { declarations, text: `${field.name}${argumentList.length ? `(${argumentList.join(', ')})` : ''}` };
}

/**
 * `compile` turns the document into what runs it: the planned executor in REST's shape unless told
 * otherwise (the bench's comparison, the tests' graphql-js).
 */
export function compileRoute(schema: GraphQLSchema, route: Route, compile: CompileDocument = compileRestDocument): CompiledRoute {
  const compiled = compileWith(schema, route, compile, '');
  // an operation's transaction, rendered as its own resource (resources.ts `embedded`)
  if (takesJoin(route)) compiled.joined = compileWith(schema, route, compile, `transaction ${selectionFor(schema, 'Transaction')}`);
  return compiled;
}

function compileWith(schema: GraphQLSchema, route: Route, compile: CompileDocument, extra: string): CompiledRoute {
  const paramNames: string[] = [];
  const pattern = new RegExp(
    `^${route.path.replace(/:([a-z_]+)/g, (_m, name: string) => {
      paramNames.push(name);
      return '([^/]+)';
    })}/?$`,
  );
  const [rootName, nestedName] = route.kind === 'resource' ? [route.field, undefined] : route.fields;
  const root = schema.getQueryType()?.getFields()[rootName];
  if (!root) throw new Error(`route ${route.path}: no query field ${rootName}`);
  const selection = selectionFor(schema, route.type, extra);
  const rootCall = call(root, 'r');
  let body: string;
  let declarations = rootCall.declarations;
  if (route.kind === 'resource') {
    body = `record: ${rootCall.text} ${selection}`;
  } else if (nestedName === undefined) {
    body = `record: ${rootCall.text} { edges { node ${selection} } }`;
  } else {
    const parentType = schema.getType(root.type.toString().replace(/!$/, ''));
    const nested = parentType && 'getFields' in parentType ? parentType.getFields()[nestedName] : undefined;
    if (!nested || !('args' in nested)) throw new Error(`route ${route.path}: no field ${nestedName} on ${rootName}`);
    const nestedCall = call(nested, 'p');
    declarations = [...declarations, ...nestedCall.declarations];
    body = `record: ${rootCall.text} { page: ${nestedCall.text} { edges { node ${selection} } } }`;
  }
  const document = parse(`query${declarations.length ? `(${declarations.join(', ')})` : ''} { ${body} }`);
  const errors = validate(schema, document);
  if (errors.length > 0) throw new Error(`route ${route.path}: ${errors.map((e) => e.message).join('; ')}`);
  return { route, pattern, paramNames, document, execute: compile(schema, document) };
}

/** Runs a route's document; the result's `record`, or the first error as the request's problem. */
export async function run(_schema: GraphQLSchema, services: ApiServices, compiled: CompiledRoute, variables: Json): Promise<Json | null> {
  const result = await compiled.execute(createContext(services), variables);
  const failure = result.errors?.[0];
  if (failure) throw problemOfGraphQLError(failure);
  return (result.data?.record as Json | null | undefined) ?? null;
}

/** The root field's arguments as the document's variables (`$r_<argument>`). */
export function rootVariables(args: object): Json {
  return prefixed('r', args);
}

/**
 * A page route's variables: the root field's arguments, and the page's with the list's own
 * (its filters) on the connection field.
 */
export function pageVariables(route: PageRoute, args: object, page: PageParams, listArgs: object = {}): Json {
  const variables: Json = { ...listArgs, first: page.limit, order: page.order };
  if (page.cursor !== '') variables.after = page.cursor;
  if (route.includeFailed) variables.includeFailed = page.includeFailed;
  return { ...prefixed('r', args), ...prefixed(route.fields.length === 2 ? 'p' : 'r', variables) };
}

function prefixed(prefix: string, args: object): Json {
  return Object.fromEntries(Object.entries(args).map(([name, value]) => [`${prefix}_${name}`, value]));
}
