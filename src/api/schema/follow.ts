// A subscription's event stream over a keyset list: replay the records after the cursor (`now`:
// after the newest one at subscribe time), then read again whenever a ledger is ingested. The
// following is the engine's (src/api/follow/), as for REST streams: one ledger signal wakes every
// subscription, and one that ends (the client left) unsubscribes at once, even while it waits.
import type { GraphQLResolveInfo } from 'graphql';
import type { PrismaClient } from '../../generated/prisma/client.js';
import type { ApiContext } from '../context.js';
import { followKeyset, type SharedReads } from '../follow/index.js';
import { createLoaders } from '../loaders.js';
import { DEFAULT_PAGE_SIZE, keysetConnection, type KeysetSource } from './paging.js';

/**
 * Rows a subscription reads at once (catching up, or after a ledger): what it holds while its
 * client is slow, so a default page, as a REST stream without `limit` reads.
 */
const FOLLOW_PAGE_SIZE = DEFAULT_PAGE_SIZE;

/**
 * The cursor's reads happen before this resolves, so a bad cursor is the subscription's error
 * rather than a broken stream. `info`: the subscription's, whose operation and variables say which
 * subscriptions read the same pages (see `pageReads`).
 */
export function follow<Row, Key>(
  ctx: ApiContext,
  info: GraphQLResolveInfo,
  source: KeysetSource<Row, Key>,
  cursor: string | null | undefined,
): Promise<AsyncIterable<Row>> {
  // the source reads through ctx.prisma when it is asked, and so do the events' DataLoaders
  if (ctx.followReads) ctx.prisma = sharedClient(ctx.prisma, ctx.followReads);
  const read = pageReads(ctx.followReads, info);
  return followKeyset(
    ctx.services.events,
    {
      next: (after) =>
        read(`next ${after}`, async () => {
          const page = await keysetConnection(source, { first: FOLLOW_PAGE_SIZE, ...(after === null ? {} : { after }) });
          return page.edges.map((edge) => edge.node);
        }),
      now: () => read('now', async () => (await keysetConnection(source, { last: 1 })).pageInfo.endCursor),
      cursor: (row) => source.cursor(row),
      pageSize: FOLLOW_PAGE_SIZE,
    },
    cursor ?? null,
  );
}

// an operation's number, for keys: the parser's cache gives one operation object per query text
const operationIds = new WeakMap<object, number>();
let operationCount = 0;

/**
 * A subscription's page reads, shared (as REST's streams share theirs) with the subscriptions of
 * the same operation and variables at the same position: their pages are the same rows, read and
 * built once (the list's query, Prisma's, the edges), and each event then the same object, which
 * lets their executions be shared too (shared_subscriptions.ts). The key is made once here.
 */
function pageReads(reads: SharedReads | undefined, info: GraphQLResolveInfo) {
  if (!reads) return <T>(_what: string, read: () => Promise<T>) => read();
  let id = operationIds.get(info.operation);
  if (id === undefined) operationIds.set(info.operation, (id = ++operationCount));
  const same = `graphql ${id} ${info.fieldName} ${JSON.stringify(info.variableValues, bigints)}`;
  return <T>(what: string, read: () => Promise<T>) => reads.read(`${same} ${what}`, read);
}

/** Every event is resolved with DataLoaders of its own, as a request is. */
export function freshLoaders<Row>(row: Row, ctx: ApiContext): Row {
  ctx.loaders = createLoaders(ctx.prisma);
  return row;
}

const READS = new Set(['findMany', 'findFirst', 'findUnique', 'findFirstOrThrow', 'findUniqueOrThrow', 'count', 'aggregate', 'groupBy']);
const sharedClients = new WeakMap<SharedReads, { base: PrismaClient; client: PrismaClient }>();

/**
 * `prisma` with its reads shared through `reads`: after a ledger every subscription of the same
 * field, arguments and selection at the same cursor sends the same Prisma query, and one database
 * read answers them all. Shared by the query itself, so only what is the same read is.
 */
function sharedClient(prisma: PrismaClient, reads: SharedReads): PrismaClient {
  const made = sharedClients.get(reads);
  if (made && (made.base === prisma || made.client === prisma)) return made.client;
  // the extension only answers a read with another's answer: the client's types stay what they were
  const client = prisma.$extends({
    query: {
      $allOperations({ model, operation, args, query }) {
        if (!READS.has(operation)) return query(args);
        return reads.read(`prisma ${model} ${operation} ${JSON.stringify(args, bigints)}`, () => query(args));
      },
    },
  }) as unknown as PrismaClient;
  sharedClients.set(reads, { base: prisma, client });
  return client;
}

function bigints(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? `${value}n` : value;
}
