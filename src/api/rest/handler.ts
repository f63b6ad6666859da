// Serves the route table: documents are built and validated once, at start; each request runs its
// document in-process against the schema and renders the result as Horizon JSON — one resource, or
// a page of records with self/next/prev links.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type GraphQLError, parse, validate, type DocumentNode, type GraphQLField, type GraphQLSchema } from 'graphql';
import type { Logger } from '../../logger.js';
import { createContext, type ApiServices } from '../context.js';
import { link, requestOrigin, type Links } from './hal.js';
import { pageParams, type PageParams } from './params.js';
import { ProblemError, problems, sendProblem } from './problem.js';
import type { RenderTransaction } from './submit_transaction.js';
import { toRestJson } from './render.js';
import { restResource } from './resources.js';
import { routes, type PageRoute, type ResourceRoute, type Route, type RouteContext } from './routes.js';
import { selectionFor } from './selection.js';
import { compileDocument, type CompileDocument, type DocumentExecutor } from './executor.js';
import { wantsEventStream } from './sse.js';
import { SharedReads, streamPage, streamResource } from './streams.js';

interface CompiledRoute {
  route: Route;
  pattern: RegExp;
  paramNames: string[];
  document: DocumentNode;
  execute: DocumentExecutor;
}

export type RequestHandler = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean>;

type Json = Record<string, unknown>;

/** `compile` turns each route's document into what runs it: the planned executor unless told otherwise (the bench's comparison). */
export function createRestHandler(
  schema: GraphQLSchema,
  services: ApiServices,
  logger: Logger,
  compile: CompileDocument = compileDocument,
): RequestHandler {
  const compiled = routes.map((route) => compileRoute(schema, route, compile));
  const rootLinks = (origin: string): Links => {
    const links: Links = {};
    for (const route of routes) {
      if (route.rootLink) links[route.rootLink.name] = link(origin + route.rootLink.template);
    }
    return links;
  };

  const streamReads = new SharedReads();

  return async (req, res, url) => {
    const found = match(compiled, url.pathname);
    if (!found) return false;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendProblem(res, problems.methodNotAllowed(['GET']));
      return true;
    }
    const query: Record<string, string> = {};
    for (const [name, value] of url.searchParams) query[name] ??= value;
    const ctx: RouteContext = { origin: requestOrigin(req), params: found.params, query };
    try {
      const { route } = found.compiled;
      if (route.kind === 'resource' && route.stream && wantsEventStream(req)) {
        const render = () => renderResource(schema, services, found.compiled, route, ctx);
        await streamResource(req, res, services.events, route, ctx, render, rootLinks(ctx.origin));
      } else if (route.kind === 'resource' && route.body) {
        const result = await run(schema, services, found.compiled, prefixed('r', route.args?.(ctx) ?? {}));
        sendJson(res, 200, route.body(toRestJson(result), ctx));
      } else if (route.kind === 'resource') {
        const record = await renderResource(schema, services, found.compiled, route, ctx);
        if (record === null) throw new ProblemError(problems.notFound());
        const body = route.links ? { _links: route.links(record, ctx, rootLinks(ctx.origin)), ...record } : record;
        sendJson(res, 200, body);
      } else if (route.stream && wantsEventStream(req)) {
        const read = (page: PageParams) => readPage(schema, services, found.compiled, route, ctx, page);
        await streamPage(req, res, url, services.events, route, ctx, read, streamReads);
      } else {
        const page = pageParams(url.searchParams, route.includeFailed ?? false);
        const records = await readPage(schema, services, found.compiled, route, ctx, page);
        sendJson(res, 200, pageBody(ctx.origin + url.pathname, page, route, records));
      }
    } catch (error) {
      if (res.headersSent) {
        // a stream that failed after it opened: the client reconnects with Last-Event-ID
        logger.error({ err: error, path: url.pathname }, 'stream failed');
        res.end();
      } else if (error instanceof ProblemError) sendProblem(res, error.problem);
      else {
        logger.error({ err: error, path: url.pathname }, 'request failed');
        sendProblem(res, problems.serverError());
      }
    }
    return true;
  };
}

/** GET /transactions/{hash} exactly as its route renders it, for POST /transactions and its 200 answer. */
export function createTransactionRenderer(schema: GraphQLSchema, services: ApiServices): RenderTransaction {
  const route = routes.find((candidate) => candidate.path === '/transactions/:tx_id');
  if (route?.kind !== 'resource') throw new Error('the route table has no /transactions/:tx_id');
  const compiled = compileRoute(schema, route, compileDocument);
  return (hash, origin) => renderResource(schema, services, compiled, route, { origin, params: { tx_id: hash }, query: {} });
}

/** a resource rendered as Horizon JSON with its `_links` from resources.ts (bare when the route has its own links) */
async function renderResource(
  schema: GraphQLSchema,
  services: ApiServices,
  compiled: CompiledRoute,
  route: ResourceRoute,
  ctx: RouteContext,
): Promise<Json | null> {
  const record = await run(schema, services, compiled, prefixed('r', route.args?.(ctx) ?? {}));
  if (record === null) return null;
  return route.links ? (toRestJson(record) as Json) : restResource(route.type, record, ctx.origin);
}

/** one page of records as Horizon JSON; a missing parent is a 404 */
async function readPage(
  schema: GraphQLSchema,
  services: ApiServices,
  compiled: CompiledRoute,
  route: PageRoute,
  ctx: RouteContext,
  page: PageParams,
): Promise<Json[]> {
  const variables: Json = { ...prefixed('r', route.args?.(ctx) ?? {}), ...pageVariables(route, page) };
  const result = await run(schema, services, compiled, variables);
  const connection = route.fields.length === 2 ? (result?.page as Json | null | undefined) : result;
  if (!connection) throw new ProblemError(problems.notFound());
  const edges = (connection.edges as { node: Json }[] | undefined) ?? [];
  return edges.map((edge) => restResource(route.type, edge.node, ctx.origin));
}

function prefixed(prefix: string, args: Json): Json {
  return Object.fromEntries(Object.entries(args).map(([name, value]) => [`${prefix}_${name}`, value]));
}

function pageVariables(route: PageRoute, page: PageParams): Json {
  const prefix = route.fields.length === 2 ? 'p' : 'r';
  const variables: Json = { first: page.limit, order: page.order };
  if (page.cursor !== '') variables.after = page.cursor;
  if (route.includeFailed) variables.includeFailed = page.includeFailed;
  return prefixed(prefix, variables);
}

/** Horizon's page: records under _embedded, and self/next/prev by the spec's rules. */
function pageBody(base: string, page: PageParams, route: PageRoute, records: Json[]): Json {
  const href = (cursor: string, order: string) => {
    const query = new URLSearchParams({ cursor, limit: String(page.limit), order });
    if (route.includeFailed && page.includeFailed) query.set('include_failed', 'true');
    return link(`${base}?${query.toString()}`);
  };
  const first = records[0]?.paging_token;
  const last = records[records.length - 1]?.paging_token;
  const opposite = page.order === 'asc' ? 'desc' : 'asc';
  return {
    _links: {
      self: href(page.cursor, page.order),
      next: href(typeof last === 'string' ? last : page.cursor, page.order),
      prev: href(typeof first === 'string' ? first : page.cursor, opposite),
    },
    _embedded: { records },
  };
}

function call(field: GraphQLField<unknown, unknown>, prefix: string): { declarations: string[]; text: string } {
  const declarations = field.args.map((arg) => `$${prefix}_${arg.name}: ${arg.type.toString()}`);
  const argumentList = field.args.map((arg) => `${arg.name}: $${prefix}_${arg.name}`);
  return { declarations, text: `${field.name}${argumentList.length ? `(${argumentList.join(', ')})` : ''}` };
}

function compileRoute(schema: GraphQLSchema, route: Route, compile: CompileDocument): CompiledRoute {
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
  const selection = selectionFor(schema, route.type);
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

function match(compiled: CompiledRoute[], pathname: string) {
  for (const candidate of compiled) {
    const found = candidate.pattern.exec(pathname);
    if (!found) continue;
    const params: Record<string, string> = {};
    candidate.paramNames.forEach((name, i) => {
      const raw = found[i + 1] ?? '';
      try {
        params[name] = decodeURIComponent(raw);
      } catch {
        params[name] = raw; // a malformed escape is then rejected by the parameter's own check
      }
    });
    return { compiled: candidate, params };
  }
  return undefined;
}

async function run(_schema: GraphQLSchema, services: ApiServices, compiled: CompiledRoute, variables: Json): Promise<Json | null> {
  const result = await compiled.execute(createContext(services), variables);
  const failure = result.errors?.[0];
  if (failure) throw unwrap(failure);
  return (result.data?.record as Json | null | undefined) ?? null;
}

function unwrap(error: GraphQLError): unknown {
  if (error.originalError instanceof ProblemError) return error.originalError;
  // a variable refused by its scalar: graphql-js's error, coded by the scalar
  if (error.extensions?.code === 'bad_request') return new ProblemError(problems.badRequest('query', error.message));
  return error.originalError ?? error;
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body, null, 2);
  res.writeHead(status, {
    'Content-Type': 'application/hal+json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}
