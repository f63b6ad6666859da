// The REST routes in streaming mode (Accept: text/event-stream; sse.ts writes the events): a page
// route streams its records after the cursor, a resource route (the order book) its record again
// whenever it changed after a ledger. Moved whole from handler.ts.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GraphQLSchema } from 'graphql';
import type { ApiServices } from '../context.js';
import { ProblemError, problems } from '../problems.js';
import type { CompiledRoute } from './documents.js';
import type { Links } from './hal.js';
import { readPage } from './pages.js';
import { pageParams } from './params.js';
import { renderResource } from './resources.js';
import type { PageRoute, ResourceRoute, RouteContext } from './routes.js';
import { streamCursor, streamObject, streamRecords, type RecordStream, type StreamRecord } from './sse.js';

/**
 * A resource route in streaming mode (the order book): sent at open and again after a ledger only
 * when it changed. The arguments are checked before the stream opens, so a bad one is still a 400.
 */
export async function streamResource(
  req: IncomingMessage,
  res: ServerResponse,
  schema: GraphQLSchema,
  services: ApiServices,
  compiled: CompiledRoute,
  route: ResourceRoute,
  ctx: RouteContext,
  rootLinks: Links,
): Promise<void> {
  route.args?.(ctx);
  const read = async () => {
    const record = await renderResource(schema, services, compiled, route, ctx);
    if (record === null) throw new ProblemError(problems.notFound());
    return route.links ? { _links: route.links(record, ctx, rootLinks), ...record } : record;
  };
  await streamObject(req, res, services.events, { read });
}

const STREAM_BATCH = 200;

/**
 * The page route in streaming mode: its records after the cursor, oldest first, as the page renders
 * them. The first read happens before the stream opens, so a bad cursor or a missing parent is
 * still a 4xx problem rather than a broken stream.
 */
export async function streamPage(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  schema: GraphQLSchema,
  services: ApiServices,
  compiled: CompiledRoute,
  route: PageRoute,
  ctx: RouteContext,
  shared: SharedReads,
): Promise<void> {
  const page = pageParams(url.searchParams, route.includeFailed ?? false);
  const read = (cursor: string | null, order: 'asc' | 'desc', limit: number): Promise<StreamRecord[]> => {
    const params = { ...page, cursor: cursor ?? '', order, limit };
    const key = JSON.stringify([route.path, ctx, params]);
    return shared.read(key, async () => {
      const records = await readPage(schema, services, compiled, route, ctx, params);
      return records.map((json) => ({ pagingToken: String(json.paging_token), json }));
    });
  };
  const start = streamCursor(req, page.cursor === '' ? null : page.cursor);
  const position = start === 'now' ? ((await read(null, 'desc', 1))[0]?.pagingToken ?? null) : start;
  let first: StreamRecord[] | null = await read(position, 'asc', STREAM_BATCH);
  const source: RecordStream = {
    next(cursor) {
      const primed = first;
      first = null;
      return primed && cursor === position ? Promise.resolve(primed) : read(cursor, 'asc', STREAM_BATCH);
    },
    now: () => Promise.resolve(position),
  };
  await streamRecords(req, res, services.events, source, position);
}

/**
 * After a ledger, every stream of a route at the same cursor asks the same question at once: one
 * database read answers them all (only reads in flight are shared, so nothing goes stale).
 */
export class SharedReads {
  private readonly inFlight = new Map<string, Promise<StreamRecord[]>>();

  read(key: string, load: () => Promise<StreamRecord[]>): Promise<StreamRecord[]> {
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = load().finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }
}
