// A distinct connection's events are written by Zenith (graphql_sse.ts `writeEvents`), not by
// graphql-sse's stream: its bytes must be graphql-sse's own, as its `print` makes each message.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { print } from 'graphql-sse';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApiServer } from '../../src/api/server.js';
import { createLogger } from '../../src/logger.js';
import { postGraphQL, testServices } from '../support/api_server.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { seedLedger } from '../support/seed.js';

let test: TestDatabase;
let server: Server;
let base: string;

beforeAll(async () => {
  test = await createTestDatabase();
  await seedLedger(test.db, 3, []);
  server = createApiServer({ services: testServices(test.db), logger: createLogger('silent', { pretty: false }) });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await test.drop();
});

const QUERY = '{ ledger(sequence: 3) { sequence hash } notKept: ledger(sequence: 99) { sequence } }';

it("writes a distinct connection's answer as graphql-sse's messages, over POST and GET", async () => {
  const result = await postGraphQL(base, QUERY);
  expect(result.data.ledger.sequence).toBe(3);
  // graphql-sse's first message (an empty one), `next` with the result, then `complete`
  const expected = `:\n\n${print({ event: 'next', data: result })}${print({ event: 'complete', data: null })}`;
  const answers = [
    await fetch(`${base}/graphql/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: QUERY }),
    }),
    await fetch(`${base}/graphql/stream?query=${encodeURIComponent(QUERY)}`, { headers: { accept: 'text/event-stream' } }),
  ];
  for (const response of answers) {
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(await response.text()).toBe(expected);
  }
});
