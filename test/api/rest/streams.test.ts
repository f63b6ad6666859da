// A page route in streaming mode over an in-memory page reader: many streams at the same cursor
// share one read after a ledger, and a caught-up stream reads once per ledger (a short page is the
// end, no empty read after it); a missing parent is a 404 before the stream opens.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { PageParams } from '../../../src/api/rest/params.js';
import { ProblemError, problems, sendProblem } from '../../../src/api/problems.js';
import type { PageRoute } from '../../../src/api/rest/routes.js';
import { SharedReads } from '../../../src/api/follow/index.js';
import { streamPage } from '../../../src/api/rest/streams.js';
import { countedEvents } from '../../support/counted_events.js';

const route: PageRoute = { kind: 'page', path: '/numbers', type: 'Number', fields: ['numbers'], stream: true };
let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function serve(readPage: (page: PageParams) => Promise<Record<string, unknown>[]>, events = countedEvents()) {
  // hears the ledgers too: one listener of its own besides the streams'
  const shared = new SharedReads(events);
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const ctx = { origin: 'http://localhost', params: {}, query: {} };
    streamPage(req, res, url, events, route, ctx, readPage, shared).catch((error: unknown) => {
      if (error instanceof ProblemError && !res.headersSent) sendProblem(res, error.problem);
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { events, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/numbers` };
}

/** a client that collects the ids of the events it receives */
async function client(url: string, controller: AbortController) {
  const response = await fetch(url, { headers: { accept: 'text/event-stream' }, signal: controller.signal });
  const reader = response.body!.getReader();
  const ids: string[] = [];
  let buffer = '';
  let opened = false;
  const reading = (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      buffer += new TextDecoder().decode(value);
      const blocks = buffer.split('\n\n');
      buffer = blocks.pop() ?? '';
      for (const block of blocks) {
        if (block.includes('event: open')) opened = true;
        const id = /^id: (\S+)/m.exec(block)?.[1];
        if (id) ids.push(id);
      }
    }
  })();
  return { ids, opened: () => opened, reading };
}

async function eventually(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('streamPage', () => {
  it('streams at the same cursor share one read after a ledger, and read once per ledger', async () => {
    const numbers = [1, 2, 3];
    let reads = 0;
    const { events, url } = await serve(async (page) => {
      reads++;
      const after = page.cursor === '' ? 0 : Number(page.cursor);
      const within = page.order === 'asc' ? numbers.filter((n) => n > after) : [...numbers].reverse();
      return within.slice(0, page.limit).map((n) => ({ paging_token: String(n), n }));
    });
    const controller = new AbortController();
    const clients = await Promise.all(Array.from({ length: 20 }, () => client(`${url}?cursor=now`, controller)));
    await eventually(() => clients.every((c) => c.opened()) && events.listeners() === 21);

    for (const next of [4, 5]) {
      reads = 0;
      numbers.push(next);
      await events.publish(next);
      await eventually(() => clients.every((c) => c.ids.length === next - 3));
      expect(reads).toBe(1);
    }
    expect(clients[0]!.ids).toEqual(['4', '5']);
    controller.abort();
    await Promise.all(clients.map((c) => c.reading));
    await eventually(() => events.listeners() === 1);
  });

  it('a missing parent is a 404 before the stream opens', async () => {
    const { events, url } = await serve(() => Promise.reject(new ProblemError(problems.notFound())));
    const response = await fetch(url, { headers: { accept: 'text/event-stream' } });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/problem\+json/);
    expect(events.listeners()).toBe(1);
  });
});
