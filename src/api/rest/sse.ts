// Server-sent events as Horizon streams them: `retry: 1000`, an `open` event with data "hello",
// then one event per record with `id: <paging_token>` and `data: <json>`. What a stream sends comes
// from the follow engine (src/api/follow/): it wakes only when a ledger is ingested (one signal for
// every open stream, no timer per client), reads what is new after its cursor, and frees everything
// the moment the client goes away. The next event is taken only once the socket has room for it;
// the stream's ticket (stream_limits.ts) disconnects a client that stops reading and charges each
// update to its rate limit, which ends the stream with Horizon's error event once spent.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LedgerEvents } from '../../events/ledger_events.js';
import { type Follower, followChanges, followKeyset, type Keyset } from '../follow/index.js';
import { EventBytes, EventWriter, open } from '../event_writer.js';
import { STREAM_RATE_LIMITED, type StreamTicket } from '../stream_limits.js';

export interface StreamRecord {
  pagingToken: string;
  json: unknown;
}

/** records whose cursor is their paging token */
export type RecordStream = Omit<Keyset<StreamRecord>, 'cursor'>;

/** A single object (an order book) that is sent again only when it changed. */
export interface ObjectStream {
  read(): Promise<unknown>;
}

const HEARTBEAT_MS = 15_000;
/** how long a stream waits for its client with a page in hand before it lets the page go */
const HOLD_MS = 1000;

export function wantsEventStream(req: IncomingMessage): boolean {
  return (req.headers.accept ?? '').includes('text/event-stream');
}

/** Where a stream starts: Last-Event-ID wins over the cursor parameter (a reconnecting client). */
export function streamCursor(req: IncomingMessage, cursorParam: string | null): string | null {
  const lastEventId = req.headers['last-event-id'];
  const resumed = Array.isArray(lastEventId) ? lastEventId[0] : lastEventId;
  return resumed && resumed.trim() !== '' ? resumed.trim() : cursorParam;
}

/** The records after `cursor` (`now`: only new ones), then new ones after every ledger; a bad cursor throws before the stream opens. */
export async function streamRecords(
  req: IncomingMessage,
  res: ServerResponse,
  events: LedgerEvents,
  source: RecordStream,
  cursor: string | null,
  ticket?: StreamTicket,
): Promise<void> {
  const keyset: Keyset<StreamRecord> = {
    next: (after) => source.next(after),
    now: () => source.now(),
    cursor: (record) => record.pagingToken,
    pageSize: source.pageSize,
  };
  const records = await followKeyset(events, keyset, cursor);
  await send(req, res, records, recordEvent, ticket);
}

const recordEvents = new WeakMap<StreamRecord, EventBytes>();

function recordEvent(record: StreamRecord): EventBytes {
  let event = recordEvents.get(record);
  if (event === undefined) {
    event = new EventBytes(Buffer.from(`id: ${record.pagingToken}\ndata: ${JSON.stringify(record.json)}\n\n`));
    recordEvents.set(record, event);
  }
  return event;
}

/** The object now, then again after a ledger that changed it; a failed first read throws before the stream opens. */
export async function streamObject(
  req: IncomingMessage,
  res: ServerResponse,
  events: LedgerEvents,
  source: ObjectStream,
  ticket?: StreamTicket,
): Promise<void> {
  const changes = await followChanges(events, () => source.read());
  await send(req, res, changes, (object) => new EventBytes(Buffer.from(`data: ${JSON.stringify(object)}\n\n`)), ticket);
}

/**
 * Opens the stream and writes each item the follower gives until the client leaves (which stops
 * the follower), or until the item's charge finds the client's rate limit spent: then Horizon's
 * error event ends it.
 */
async function send<T>(
  req: IncomingMessage,
  res: ServerResponse,
  follower: Follower<T>,
  event: (item: T) => EventBytes,
  ticket?: StreamTicket,
): Promise<void> {
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
  });
  res.write('retry: 1000\nevent: open\ndata: "hello"\n\n');
  const writer = new EventWriter(res, req.method !== 'HEAD', ticket);

  const leave = () => void follower.return();
  req.on('close', leave);
  res.on('close', leave);
  // a client that has not taken the last event needs no keep-alive
  const heartbeat = setInterval(() => {
    if (open(res) && !writer.full) res.write(': keep-alive\n\n');
  }, HEARTBEAT_MS);
  try {
    for (let item = await follower.next(); !item.done && open(res); item = await follower.next()) {
      if (ticket && !ticket.charge()) {
        res.end(`event: error\ndata: ${STREAM_RATE_LIMITED}\n\n`);
        break;
      }
      if (!writer.write(event(item.value)) && !(await writer.drained(HOLD_MS))) {
        // a client this slow is not worth a page in memory: it is read again once the client has room
        follower.release();
        await writer.drained();
      }
    }
  } catch (error) {
    res.end();
    throw error;
  } finally {
    clearInterval(heartbeat);
    req.off('close', leave);
    res.off('close', leave);
    leave();
  }
}
