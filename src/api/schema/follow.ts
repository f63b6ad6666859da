// A subscription's event stream over a keyset list: replay the records after the cursor (`now`:
// after the newest one at subscribe time), then read again whenever a ledger is ingested. One
// ledger signal wakes every subscription; a subscription that ends (the client left) unsubscribes
// at once, even while it waits for the next ledger.
import { Repeater } from 'graphql-yoga';
import type { ApiContext } from '../context.js';
import { createLoaders } from '../loaders.js';
import { keysetConnection, MAX_PAGE_SIZE, type KeysetSource } from './paging.js';

export async function follow<Row, Key>(
  ctx: ApiContext,
  source: KeysetSource<Row, Key>,
  cursor: string | null | undefined,
): Promise<AsyncIterable<Row>> {
  const read = (after: string | null) => keysetConnection(source, { first: MAX_PAGE_SIZE, ...(after === null ? {} : { after }) });
  let position: string | null;
  let first: Row[] = [];
  // both reads happen here, so a bad cursor is the subscription's error rather than a broken stream
  if (cursor === 'now') position = (await keysetConnection(source, { last: 1 })).pageInfo.endCursor;
  else {
    position = cursor ?? null;
    first = (await read(position)).edges.map((edge) => edge.node);
  }

  return new Repeater<Row>(async (push, stop) => {
    let stopped = false;
    let running = false;
    let again = false;
    const send = async (rows: Row[]) => {
      for (const row of rows) {
        if (stopped) return;
        await push(row);
        position = source.cursor(row);
      }
    };
    // reads never overlap: a signal during a read asks for one more read, not a second one
    const pump = async () => {
      if (running) {
        again = true;
        return;
      }
      running = true;
      try {
        do {
          again = false;
          for (;;) {
            const page = await read(position);
            await send(page.edges.map((edge) => edge.node));
            if (stopped || !page.pageInfo.hasNextPage) break;
          }
        } while (again && !stopped);
      } catch (error) {
        await stop(error);
      } finally {
        running = false;
      }
    };
    const unsubscribe = ctx.services.events.subscribe(() => void pump());
    void stop.then(() => {
      stopped = true;
      unsubscribe();
    });
    running = true;
    await send(first).finally(() => (running = false));
    await pump();
    await stop;
  });
}

/** Every event is resolved with DataLoaders of its own, as a request is. */
export function freshLoaders<Row>(row: Row, ctx: ApiContext): Row {
  ctx.loaders = createLoaders(ctx.prisma);
  return row;
}
