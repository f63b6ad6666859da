// The REST routes in streaming mode (Accept: text/event-stream): a page route's records after the
// cursor, oldest first, as its page renders them, or a resource (the order book) sent again when it
// changed. The route's own reads are passed in; the following is the engine's (src/api/follow/).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LedgerEvents } from '../../events/ledger_events.js';
import type { SharedReads } from '../follow/index.js';
import { ProblemError, problems } from '../problems.js';
import type { Links } from './hal.js';
import { DEFAULT_PAGE_SIZE as STREAM_PAGE_SIZE } from '../schema/paging.js';
import { pageParams, type PageParams } from './params.js';
import type { PageRoute, ResourceRoute, RouteContext } from './routes.js';
import type { StreamTicket } from '../stream_limits.js';
import { streamCursor, streamObject, streamRecords, type StreamRecord } from './sse.js';

type Json = Record<string, unknown>;

/** records of a page after a cursor as the page renders them; a missing parent is a 404 */
export type ReadPage = (page: PageParams) => Promise<Json[]>;

/**
 * A resource route in streaming mode (the order book): sent at open and again after a ledger only
 * when it changed. The first read (the arguments' checks with it) happens before the stream opens,
 * so a bad argument is still a 4xx problem.
 */
export async function streamResource(
  req: IncomingMessage,
  res: ServerResponse,
  events: LedgerEvents,
  route: ResourceRoute,
  ctx: RouteContext,
  render: () => Promise<Json | null>,
  rootLinks: Links,
  ticket?: StreamTicket,
): Promise<void> {
  const read = async () => {
    const record = await render();
    if (record === null) throw new ProblemError(problems.notFound());
    return route.links ? { _links: route.links(record, ctx, rootLinks), ...record } : record;
  };
  await streamObject(req, res, events, { read }, ticket);
}

/**
 * The page route in streaming mode. The first read happens before the stream opens, so a bad
 * cursor or a missing parent is still a 4xx problem rather than a broken stream. Whatever its
 * `limit`, a stream sends every record after its cursor, read a default page (10) at a time: what
 * a stream holds while its client is slow is at most that page, and not even that once the
 * client has kept it waiting (sse.ts).
 */
export async function streamPage(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  events: LedgerEvents,
  route: PageRoute,
  ctx: RouteContext,
  readPage: ReadPage,
  shared: SharedReads,
  ticket?: StreamTicket,
): Promise<void> {
  const page = pageParams(url.searchParams, route.includeFailed ?? false);
  // what the stream's reads share with those of other streams, written once: the cursor varies
  const same = JSON.stringify([route.path, ctx, { ...page, cursor: '' }]);
  const read = (cursor: string | null, order: 'asc' | 'desc', limit: number): Promise<StreamRecord[]> => {
    const params = { ...page, cursor: cursor ?? '', order, limit };
    const key = `rest ${same} ${order} ${limit} ${params.cursor}`;
    // after a ledger every stream of the route at this cursor asks this: one read answers them all
    return shared.read(key, async () => {
      const records = await readPage(params);
      return records.map((json) => ({ pagingToken: String(json.paging_token), json }));
    });
  };
  const source = {
    next: (cursor: string | null) => read(cursor, 'asc', STREAM_PAGE_SIZE),
    now: async () => (await read(null, 'desc', 1))[0]?.pagingToken ?? null,
    pageSize: STREAM_PAGE_SIZE,
  };
  await streamRecords(req, res, events, source, streamCursor(req, page.cursor === '' ? null : page.cursor), ticket);
}
