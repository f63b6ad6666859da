// Server-sent events as Horizon streams them: `retry: 1000`, an `open` event with data "hello",
// then one event per record with `id: <paging_token>` and `data: <json>`. A stream wakes only
// when a ledger is ingested (one signal for every open stream, no timer per client), reads what
// is new after its cursor, and frees everything the moment the client goes away.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LedgerEvents } from '../../events/ledger_events.js';

export interface StreamRecord {
  pagingToken: string;
  json: unknown;
}

export interface RecordStream {
  /** the next records after `cursor` (null: from the earliest), oldest first */
  next(cursor: string | null): Promise<StreamRecord[]>;
  /** the cursor that `now` means: the newest record's paging token when the stream opens */
  now(): Promise<string | null>;
}

/** A single object (an order book) that is sent again only when it changed. */
export interface ObjectStream {
  read(): Promise<unknown>;
}

const HEARTBEAT_MS = 15_000;

export function wantsEventStream(req: IncomingMessage): boolean {
  return (req.headers.accept ?? '').includes('text/event-stream');
}

/** Where a stream starts: Last-Event-ID wins over the cursor parameter (a reconnecting client). */
export function streamCursor(req: IncomingMessage, cursorParam: string | null): string | null {
  const lastEventId = req.headers['last-event-id'];
  const resumed = Array.isArray(lastEventId) ? lastEventId[0] : lastEventId;
  return resumed && resumed.trim() !== '' ? resumed.trim() : cursorParam;
}

export async function streamRecords(
  req: IncomingMessage,
  res: ServerResponse,
  events: LedgerEvents,
  source: RecordStream,
  cursor: string | null,
): Promise<void> {
  let position = cursor === 'now' ? await source.now() : cursor;
  await run(req, res, events, async (write) => {
    for (;;) {
      const records = await source.next(position);
      if (records.length === 0) return;
      for (const record of records) {
        write(`id: ${record.pagingToken}\ndata: ${serialize(record.json)}\n\n`);
        position = record.pagingToken;
      }
    }
  });
}

// streams that share a read share its records: each record is serialized once, not once per client
const serialized = new WeakMap<object, string>();

function serialize(json: unknown): string {
  if (typeof json !== 'object' || json === null) return JSON.stringify(json);
  let text = serialized.get(json);
  if (text === undefined) serialized.set(json, (text = JSON.stringify(json)));
  return text;
}

export async function streamObject(req: IncomingMessage, res: ServerResponse, events: LedgerEvents, source: ObjectStream): Promise<void> {
  let last: string | null = null;
  await run(req, res, events, async (write) => {
    const text = JSON.stringify(await source.read());
    if (text === last) return;
    last = text;
    write(`data: ${text}\n\n`);
  });
}

/**
 * Opens the stream, sends what is there, then sends again after every ledger until the client
 * leaves. Sends never overlap: a signal during a send schedules one more send, not two.
 */
async function run(
  req: IncomingMessage,
  res: ServerResponse,
  events: LedgerEvents,
  send: (write: (chunk: string) => void) => Promise<void>,
): Promise<void> {
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
  });
  res.write('retry: 1000\nevent: open\ndata: "hello"\n\n');

  const write = (chunk: string) => {
    if (!res.writableEnded) res.write(chunk);
  };
  let sending: Promise<void> | null = null;
  let again = false;
  let failed: unknown = null;
  const pump = () => {
    if (sending) {
      again = true;
      return;
    }
    sending = send(write)
      .catch((error: unknown) => {
        failed = error;
        res.end();
      })
      .finally(() => {
        sending = null;
        if (again && !res.writableEnded) {
          again = false;
          pump();
        }
      });
  };

  const unsubscribe = events.subscribe(pump);
  const heartbeat = setInterval(() => write(': keep-alive\n\n'), HEARTBEAT_MS);
  pump();
  await new Promise<void>((resolve) => {
    const done = () => resolve();
    req.on('close', done);
    res.on('close', done);
  });
  unsubscribe();
  clearInterval(heartbeat);
  if (failed) throw failed;
}
