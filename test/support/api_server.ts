// An API server over a test database on a free local port, with in-process ledger events and no
// core or submission: what the REST tests over seeded rows need.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ApiServices } from '../../src/api/context.js';
import { LiveOrderBook } from '../../src/api/live_order_book.js';
import { createApiServer } from '../../src/api/server.js';
import { inProcessLedgerEvents } from '../../src/events/ledger_events.js';
import type { Database } from '../../src/db/database.js';
import { createLogger } from '../../src/logger.js';
import { MetricsRegistry } from '../../src/metrics/registry.js';
import { expect } from 'vitest';
import type { TestDatabase } from './database.js';

export interface TestApi {
  server: Server;
  /** http://127.0.0.1:<port> */
  base: string;
  events: ReturnType<typeof inProcessLedgerEvents>;
  close(): Promise<void>;
}

/** The services of a test API: no core, no submission, in-process ledger events. */
export function testServices(db: Database, events = inProcessLedgerEvents(), networkPassphrase = 'test'): ApiServices {
  return {
    db,
    config: { networkPassphrase },
    coreInfo: async () => null,
    events,
    txsub: null,
    metrics: new MetricsRegistry(),
    orderBook: new LiveOrderBook(db, events),
  };
}

export async function serveTestApi(test: TestDatabase, networkPassphrase = 'test'): Promise<TestApi> {
  const events = inProcessLedgerEvents();
  const server = createApiServer({
    services: testServices(test.db, events, networkPassphrase),
    logger: createLogger('silent', { pretty: false }),
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    events,
    close: () => new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))),
  };
}

// biome-ignore lint/suspicious/noExplicitAny: the tests read deep paths of answers they just checked
export type Json = Record<string, any>;

/** GET a path of a test API, expecting `status`: the JSON body. */
export async function getJson(base: string, path: string, status = 200): Promise<Json> {
  const response = await fetch(base + path);
  expect(response.status, path).toBe(status);
  return (await response.json()) as Json;
}

/** the records of a page */
export async function getRecords(base: string, path: string): Promise<Json[]> {
  return (await getJson(base, path))._embedded.records as Json[];
}

/** POST a GraphQL query to a test API: the whole answer (data and errors) */
export async function postGraphQL(base: string, query: string, variables: Json = {}): Promise<Json> {
  const response = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as Json;
}
