// Serves the route table: a request's path is matched against the routes (compiled once, at
// start), and the route answers by its kind — a resource, a page of records with self/next/prev
// links, a resource hook's own body (lists that are no connection), or a stream.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GraphQLSchema } from 'graphql';
import type { Logger } from '../../logger.js';
import { requestIdOf } from '../access_log.js';
import type { ApiServices } from '../context.js';
import { ProblemError, problems, sendProblem } from '../problems.js';
import { compileRoute, joinedRoute, rootVariables, run, type CompiledRoute } from './documents.js';
import type { CompileDocument } from './executor.js';
import { link, requestOrigin, sendJson, type Links } from './hal.js';
import { pageBody, readPage } from './pages.js';
import { pageParams, type PageParams } from './params.js';
import { toRestJson } from './render.js';
import { renderResource } from './resources.js';
import { routes, type RouteContext } from './routes.js';
import { wantsEventStream } from './sse.js';
import { SharedReads, streamPage, streamResource } from './streams.js';

/** A handler of the one server: answers true when the request was its own. */
export type RequestHandler = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean>;

export interface RestOptions {
  /** the server has /friendbot: the root document links it, as Horizon's does on a test network */
  friendbot?: boolean;
  /** turns each route's document into what runs it: the planned executor unless told otherwise (the bench's comparison) */
  compile?: CompileDocument;
}

export function createRestHandler(schema: GraphQLSchema, services: ApiServices, logger: Logger, options: RestOptions = {}): RequestHandler {
  const compiled = routes.map((route) => compileRoute(schema, route, options.compile));
  const rootLinks = (origin: string): Links => {
    const links: Links = {};
    for (const route of routes) {
      if (route.rootLink) links[route.rootLink.name] = link(origin + route.rootLink.template);
    }
    // not REST routes: Horizon's friendbot link ({?addr}), and GraphQL (not a Horizon field)
    if (options.friendbot) links.friendbot = link(`${origin}/friendbot{?addr}`);
    links.graphql = link(`${origin}/graphql`);
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
      // the route's document, or its variant with join=transactions
      const runnable = joinedRoute(found.compiled, query);
      if (route.kind === 'resource' && route.stream && wantsEventStream(req)) {
        const render = () => renderResource(schema, services, runnable, route, ctx);
        await streamResource(req, res, services.events, route, ctx, render, rootLinks(ctx.origin));
      } else if (route.kind === 'resource' && route.body) {
        const result = await run(schema, services, found.compiled, rootVariables(route.args?.(ctx) ?? {}));
        sendJson(res, 200, route.body(toRestJson(result), ctx));
      } else if (route.kind === 'resource') {
        const record = await renderResource(schema, services, runnable, route, ctx);
        if (record === null) throw new ProblemError(problems.notFound());
        const body = route.links ? { _links: route.links(record, ctx, rootLinks(ctx.origin)), ...record } : record;
        sendJson(res, 200, body);
      } else if (route.stream && wantsEventStream(req)) {
        const read = (page: PageParams) => readPage(schema, services, runnable, route, ctx, page);
        await streamPage(req, res, url, services.events, route, ctx, read, streamReads);
      } else {
        const page = pageParams(url.searchParams, route.includeFailed ?? false);
        const records = await readPage(schema, services, runnable, route, ctx, page);
        sendJson(res, 200, pageBody(ctx.origin + url.pathname, page, route, records, ctx.query));
      }
    } catch (error) {
      if (res.headersSent) {
        // a stream that failed after it opened: the client reconnects with Last-Event-ID
        logger.error({ err: error, requestId: requestIdOf(res), path: url.pathname }, 'stream failed');
        res.end();
      } else if (error instanceof ProblemError) sendProblem(res, error.problem);
      else {
        logger.error({ err: error, requestId: requestIdOf(res), path: url.pathname }, 'request failed');
        sendProblem(res, problems.serverError());
      }
    }
    return true;
  };
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
