// Serves the route table: documents are built and validated once, at start; each request runs its
// document in-process against the schema and renders the result as Horizon JSON.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { execute, GraphQLError, parse, validate, type DocumentNode, type GraphQLSchema } from 'graphql';
import type { Logger } from '../../logger.js';
import { createContext, type ApiServices } from '../context.js';
import { link, requestOrigin, type Links } from './hal.js';
import { ProblemError, problems, sendProblem } from './problem.js';
import { toRestJson } from './render.js';
import { routes, type ResourceRoute, type RouteContext } from './routes.js';
import { selectionFor } from './selection.js';

interface CompiledRoute {
  route: ResourceRoute;
  pattern: RegExp;
  paramNames: string[];
  document: DocumentNode;
}

export type RequestHandler = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean>;

export function createRestHandler(schema: GraphQLSchema, services: ApiServices, logger: Logger): RequestHandler {
  const compiled = routes.map((route) => compileRoute(schema, route));

  return async (req, res, url) => {
    const found = match(compiled, url.pathname);
    if (!found) return false;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendProblem(res, problems.methodNotAllowed(['GET']));
      return true;
    }
    const ctx: RouteContext = { origin: requestOrigin(req), params: found.params };
    try {
      const record = await run(schema, services, found.compiled, ctx);
      if (record === null) throw new ProblemError(problems.notFound());
      const body = { _links: found.compiled.route.links(record, ctx, rootLinks(ctx.origin)), ...toRestJson(record) as object };
      sendJson(res, 200, body);
    } catch (error) {
      if (error instanceof ProblemError) sendProblem(res, error.problem);
      else {
        logger.error({ err: error, path: url.pathname }, 'request failed');
        sendProblem(res, problems.serverError());
      }
    }
    return true;
  };
}

function compileRoute(schema: GraphQLSchema, route: ResourceRoute): CompiledRoute {
  const paramNames: string[] = [];
  const pattern = new RegExp(
    `^${route.path.replace(/:([a-z_]+)/g, (_m, name: string) => {
      paramNames.push(name);
      return '([^/]+)';
    })}/?$`,
  );
  const field = schema.getQueryType()?.getFields()[route.field];
  if (!field) throw new Error(`route ${route.path}: no query field ${route.field}`);
  const declarations = field.args.map((arg) => `$${arg.name}: ${arg.type.toString()}`);
  const argumentList = field.args.map((arg) => `${arg.name}: $${arg.name}`);
  const text = `query${declarations.length ? `(${declarations.join(', ')})` : ''} {
    record: ${route.field}${argumentList.length ? `(${argumentList.join(', ')})` : ''} ${selectionFor(schema, route.type)}
  }`;
  const document = parse(text);
  const errors = validate(schema, document);
  if (errors.length > 0) throw new Error(`route ${route.path}: ${errors.map((e) => e.message).join('; ')}`);
  return { route, pattern, paramNames, document };
}

function match(compiled: CompiledRoute[], pathname: string) {
  for (const candidate of compiled) {
    const found = candidate.pattern.exec(pathname);
    if (!found) continue;
    const params: Record<string, string> = {};
    candidate.paramNames.forEach((name, i) => {
      params[name] = decodeURIComponent(found[i + 1] ?? '');
    });
    return { compiled: candidate, params };
  }
  return undefined;
}

async function run(
  schema: GraphQLSchema,
  services: ApiServices,
  compiled: CompiledRoute,
  ctx: RouteContext,
): Promise<Record<string, unknown> | null> {
  const result = await execute({
    schema,
    document: compiled.document,
    contextValue: createContext(services),
    variableValues: compiled.route.args?.(ctx) ?? {},
  });
  const failure = result.errors?.[0];
  if (failure) throw unwrap(failure);
  return (result.data?.record as Record<string, unknown> | null | undefined) ?? null;
}

function unwrap(error: GraphQLError): unknown {
  return error.originalError instanceof ProblemError ? error.originalError : (error.originalError ?? error);
}

function rootLinks(origin: string): Links {
  const links: Links = {};
  for (const route of routes) {
    if (route.rootLink) links[route.rootLink.name] = link(origin + route.rootLink.template);
  }
  return links;
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body, null, 2);
  res.writeHead(status, {
    'Content-Type': 'application/hal+json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}
