// A page route's answer as Horizon writes it: the records of one page of the connection, rendered
// as resources, under `_embedded.records`, with `_links` self/next/prev by the spec's rules (next
// keeps order and limit with the last record's paging token, prev flips the order with the first
// record's; an empty page keeps the request's cursor).
import type { GraphQLSchema } from 'graphql';
import type { ApiServices } from '../context.js';
import { ProblemError, problems } from '../problems.js';
import { pageVariables, run, type CompiledRoute } from './documents.js';
import { link } from './hal.js';
import type { PageParams } from './params.js';
import { restResource } from './resources.js';
import { takesJoin, type PageRoute, type RouteContext } from './routes.js';

type Json = Record<string, unknown>;

/** one page of records as Horizon JSON; a missing parent is a 404 */
export async function readPage(
  schema: GraphQLSchema,
  services: ApiServices,
  compiled: CompiledRoute,
  route: PageRoute,
  ctx: RouteContext,
  page: PageParams,
): Promise<Json[]> {
  const result = await run(schema, services, compiled, pageVariables(route, route.args?.(ctx) ?? {}, page, route.filters?.args(ctx)));
  const connection = route.fields.length === 2 ? (result?.page as Json | null | undefined) : result;
  if (!connection) throw new ProblemError(problems.notFound());
  const edges = (connection.edges as { node: Json }[] | undefined) ?? [];
  const rendered = compiled.execute.restShaped;
  return edges.map((edge) => restResource(route.type, edge.node, ctx.origin, rendered));
}

/**
 * Horizon's page: records under _embedded, and self/next/prev by the spec's rules. The links keep
 * the route's filters as given, with the parameters in Horizon's (Go's url.Values) sorted order.
 */
export function pageBody(base: string, page: PageParams, route: PageRoute, records: Json[], query: RouteContext['query'] = {}): Json {
  const href = (cursor: string, order: string) => {
    const params = new URLSearchParams({ cursor, limit: String(page.limit), order });
    if (route.includeFailed && page.includeFailed) params.set('include_failed', 'true');
    // what the list was asked with stays in its links (Horizon keeps the whole query): its filters, `join`
    const kept = [...(route.filters?.params ?? []), ...(takesJoin(route) ? ['join'] : [])];
    const filters = kept.filter((name) => query[name] !== undefined);
    for (const name of filters) params.set(name, query[name] ?? '');
    if (filters.length > 0) params.sort();
    return link(`${base}?${params.toString()}`);
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
