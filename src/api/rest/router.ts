// Serves the route table: a request's path is matched against the routes (compiled once, at
// start), and the route answers by its kind — a resource, a page of records with self/next/prev
// links, a resource hook's own body (lists that are no connection), or a stream.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GraphQLSchema } from 'graphql';
import type { Logger } from '../../logger.js';
import { requestIdOf } from '../access_log.js';
import { labelRoute } from '../request_metrics.js';
import type { ApiServices } from '../context.js';
import { LatestLedger } from '../latest_ledger.js';
import { afterLedger, formatPagingToken } from '../../stellar/toid.js';
import { ProblemError, problems, sendProblem } from '../problems.js';
import { compileRoute, joinedRoute, rootVariables, run, type CompiledRoute } from './documents.js';
import type { CompileDocument } from './executor.js';
import { requestOrigin } from '../client_address.js';
import { link, sendJson, type Links } from './hal.js';
import { pageBody, readPage } from './pages.js';
import { pageParams, type PageParams } from './params.js';
import { toRestJson } from './render.js';
import { renderResource } from './resources.js';
import { routes, type RouteContext } from './routes.js';
import { wantsEventStream } from './sse.js';
import { SharedReads } from '../follow/index.js';
import { streamPage, streamResource } from './streams.js';
import type { OpenStreams } from '../stream_limits.js';

/** A handler of the one server: answers true when the request was its own. */
export type RequestHandler = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean>;

export interface RestOptions {
  /** the server has /friendbot: the root document links it, as Horizon's does on a test network */
  friendbot?: boolean;
  /** turns each route's document into what runs it: the planned executor unless told otherwise (the bench's comparison) */
  compile?: CompileDocument;
  /** the caps and bounds of streams (stream_limits.ts); none without it */
  streams?: OpenStreams;
  /** the reads streams share, with the server's GraphQL subscriptions (its own without it) */
  followReads?: SharedReads;
}

export function createRestHandler(schema: GraphQLSchema, services: ApiServices, logger: Logger, options: RestOptions = {}): RequestHandler {
  const compiled = routes.map((route) => compileRoute(schema, route, options.compile));
  const rootLinks = (origin: string): Links => {
    const found: Links = { self: link(`${origin}/`) };
    for (const route of routes) {
      if (route.rootLink) found[route.rootLink.name] = link(origin + route.rootLink.template);
    }
    // not a REST route: Horizon's friendbot link ({?addr})
    if (options.friendbot) found.friendbot = link(`${origin}/friendbot{?addr}`);
    // in the order of Horizon's Root, then GraphQL's (not a Horizon field)
    const links: Links = {};
    for (const name of ROOT_LINK_ORDER) if (found[name]) links[name] = found[name];
    for (const [name, value] of Object.entries(found)) links[name] ??= value;
    links.graphql = link(`${origin}/graphql`);
    return links;
  };

  const streamReads = options.followReads ?? new SharedReads(services.events);
  const latest = new LatestLedger(services.db, services.events);

  return async (req, res, url) => {
    const found = match(compiled, url.pathname);
    if (!found) return false;
    labelRoute(res, found.compiled.route.path);
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
      const streaming = route.stream === true && wantsEventStream(req);
      // admitted before its first read, so a refused stream costs no query
      const ticket = streaming ? options.streams?.admit(req, res) : undefined;
      // Horizon's state middleware: before the handler, so its 4xx answers carry it too; not on a stream
      if (route.state && !streaming) res.setHeader('Latest-Ledger', String((await latest.current()).ingested));
      if (route.kind === 'resource' && route.raw && wantsRaw(req)) {
        const record = await run(schema, services, runnable, rootVariables(route.args?.(ctx) ?? {}));
        if (record === null) throw new ProblemError(problems.notFound());
        const bytes = route.raw(toRestJson(record) as Record<string, unknown>);
        res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': bytes.length });
        res.end(bytes);
      } else if (route.kind === 'resource' && streaming) {
        const render = () => renderResource(schema, services, runnable, route, ctx);
        const closed = services.metrics.prometheus.opened('stream');
        try {
          await streamResource(req, res, services.events, route, ctx, render, rootLinks(ctx.origin), ticket);
        } finally {
          closed();
        }
      } else if (route.kind === 'resource' && route.body) {
        const result = await run(schema, services, found.compiled, rootVariables(route.args?.(ctx) ?? {}));
        sendJson(res, 200, route.body(toRestJson(result), ctx));
      } else if (route.kind === 'resource') {
        const record = await renderResource(schema, services, runnable, route, ctx);
        if (record === null) throw new ProblemError(problems.notFound());
        const body = route.links ? { _links: route.links(record, ctx, rootLinks(ctx.origin)), ...record } : record;
        sendJson(res, 200, body);
      } else if (streaming) {
        const read = (page: PageParams) => readPage(schema, services, runnable, route, ctx, page);
        const closed = services.metrics.prometheus.opened('stream');
        try {
          await streamPage(req, res, url, services.events, route, ctx, read, streamReads, ticket);
        } finally {
          closed();
        }
      } else {
        const page = await nowResolved(pageParams(url.searchParams, route.includeFailed ?? false), latest);
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

/** Horizon's negotiation picks the raw answer when the client accepts application/octet-stream */
function wantsRaw(req: IncomingMessage): boolean {
  return (req.headers.accept ?? '').includes('application/octet-stream');
}

/** The `_links` of Horizon's root document in its order (stellar-go's horizon.Root). */
const ROOT_LINK_ORDER = [
  'account',
  'accounts',
  'account_transactions',
  'claimable_balances',
  'assets',
  'effects',
  'fee_stats',
  'friendbot',
  'ledger',
  'ledgers',
  'liquidity_pools',
  'offer',
  'offers',
  'operation',
  'operations',
  'order_book',
  'payments',
  'self',
  'strict_receive_paths',
  'strict_send_paths',
  'trade_aggregations',
  'trades',
  'transaction',
  'transactions',
] as const;

/**
 * `cursor=now` of a page: after the newest ledger of the history (Horizon's getCursor:
 * toid.AfterLedger), so an ascending page is empty and a descending one starts at the newest
 * record; the page's links carry that cursor. A stream's `now` is the follow engine's.
 */
async function nowResolved(page: PageParams, latest: LatestLedger): Promise<PageParams> {
  if (page.cursor !== 'now') return page;
  return { ...page, cursor: formatPagingToken(afterLedger((await latest.current()).historyLatest)) };
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
