// SSE framing and flow with an in-memory record source: open event, records with ids, cursors
// (none, a token, now, Last-Event-ID), new records after a ledger signal, objects only on change,
// errors before the stream opens, and no reading ahead of a client that does not read.
import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ProblemError, problems, sendProblem } from '../../../src/api/problems.js';
import { streamCursor, streamObject, streamRecords, type RecordStream } from '../../../src/api/rest/sse.js';
import { inProcessLedgerEvents } from '../../../src/events/ledger_events.js';

const events = inProcessLedgerEvents();
let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

class Records implements RecordStream {
  constructor(public items: number[]) {}
  async next(cursor: string | null) {
    const after = cursor === null ? -Infinity : Number(cursor);
    return this.items
      .filter((n) => n > after)
      .slice(0, 2)
      .map((n) => ({ pagingToken: String(n), json: { n } }));
  }
  async now() {
    const last = this.items[this.items.length - 1];
    return last === undefined ? null : String(last);
  }
}

async function open(handler: Parameters<typeof createServer>[1], headers: Record<string, string> = {}) {
  server = createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const controller = new AbortController();
  const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, {
    headers: { accept: 'text/event-stream', ...headers },
    signal: controller.signal,
  });
  const reader = response.body!.getReader();
  let buffer = '';
  return {
    response,
    close: () => controller.abort(),
    /** the next `count` events, as raw blocks */
    async take(count: number): Promise<string[]> {
      for (;;) {
        const blocks = buffer.split('\n\n');
        if (blocks.length > count) {
          buffer = blocks.slice(count).join('\n\n');
          return blocks.slice(0, count);
        }
        const { value } = await reader.read();
        buffer += new TextDecoder().decode(value);
      }
    },
  };
}

describe('streamRecords', () => {
  it('opens, sends every record from the start, then new ones after a ledger', async () => {
    const records = new Records([1, 2, 3]);
    const client = await open((req, res) => void streamRecords(req, res, events, records, streamCursor(req, null)));
    expect(client.response.headers.get('content-type')).toMatch(/text\/event-stream/);
    expect(await client.take(4)).toEqual([
      'retry: 1000\nevent: open\ndata: "hello"',
      'id: 1\ndata: {"n":1}',
      'id: 2\ndata: {"n":2}',
      'id: 3\ndata: {"n":3}',
    ]);
    records.items.push(4);
    await events.publish(9);
    expect(await client.take(1)).toEqual(['id: 4\ndata: {"n":4}']);
    client.close();
  });

  it('starts after a cursor, after Last-Event-ID, or at now', async () => {
    const records = new Records([1, 2, 3]);
    const fromCursor = await open((req, res) => void streamRecords(req, res, events, records, streamCursor(req, '2')));
    expect((await fromCursor.take(2))[1]).toBe('id: 3\ndata: {"n":3}');
    fromCursor.close();
    await new Promise<void>((resolve) => server!.close(() => resolve()));

    const resumed = await open((req, res) => void streamRecords(req, res, events, records, streamCursor(req, '0')), {
      'last-event-id': '1',
    });
    expect((await resumed.take(2))[1]).toBe('id: 2\ndata: {"n":2}');
    resumed.close();
    await new Promise<void>((resolve) => server!.close(() => resolve()));

    const now = await open((req, res) => void streamRecords(req, res, events, records, 'now'));
    await now.take(1);
    records.items.push(5);
    await events.publish(10);
    expect(await now.take(1)).toEqual(['id: 5\ndata: {"n":5}']);
    now.close();
  });
});

describe('streamRecords before and while streaming', () => {
  it('a cursor the source refuses is an error before the stream opens (the caller answers a 4xx)', async () => {
    const refusing: RecordStream = {
      next: () => Promise.reject(new ProblemError(problems.badRequest('cursor', 'not a paging token'))),
      now: async () => null,
    };
    let opened: boolean | null = null;
    server = createServer((req, res) => {
      streamRecords(req, res, events, refusing, 'banana').catch((error: unknown) => {
        opened = res.headersSent;
        if (error instanceof ProblemError) sendProblem(res, error.problem);
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, {
      headers: { accept: 'text/event-stream' },
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/problem\+json/);
    expect(opened).toBe(false);
  });

  it('reads no further ahead of a client that does not read than the socket holds, and goes on when it reads', async () => {
    const total = 64;
    const blob = 'x'.repeat(1 << 20); // 1 MB a record: 64 MB if the stream read ahead of the client
    let reads = 0;
    const big: RecordStream = {
      async next(cursor) {
        reads++;
        const after = cursor === null ? 0 : Number(cursor);
        return after >= total ? [] : [{ pagingToken: String(after + 1), json: { blob } }];
      },
      now: async () => null,
      pageSize: 1,
    };
    server = createServer((req, res) => void streamRecords(req, res, events, big, null));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
    socket.pause();
    socket.write('GET / HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n');
    let settled = -1;
    while (settled !== reads) {
      settled = reads;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(reads).toBeLessThan(total / 2);

    let received = 0;
    const all = new Promise<void>((resolve) => {
      socket.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > total * blob.length) resolve();
      });
    });
    socket.resume();
    await all;
    expect(reads).toBeGreaterThanOrEqual(total);
    socket.destroy();
  });
});

describe('streamObject', () => {
  it('sends the object, and again only when it changed', async () => {
    let book = { bids: [1] };
    const client = await open((req, res) => void streamObject(req, res, events, { read: async () => book }));
    expect(await client.take(2)).toEqual(['retry: 1000\nevent: open\ndata: "hello"', 'data: {"bids":[1]}']);
    await events.publish(1);
    book = { bids: [2] };
    await events.publish(2);
    expect(await client.take(1)).toEqual(['data: {"bids":[2]}']);
    client.close();
  });
});
