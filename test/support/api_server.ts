// The API server over a test database, on a free local port, with no core and no submission.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LiveOrderBook } from '../../src/api/live_order_book.js';
import { createApiServer } from '../../src/api/server.js';
import type { Database } from '../../src/db/database.js';
import { inProcessLedgerEvents } from '../../src/events/ledger_events.js';
import { createLogger } from '../../src/logger.js';
import { MetricsRegistry } from '../../src/metrics/registry.js';

export interface TestApi {
  server: Server;
  /** http://127.0.0.1:port */
  base: string;
  close(): Promise<void>;
}

export async function serveApi(db: Database, networkPassphrase = 'test'): Promise<TestApi> {
  const events = inProcessLedgerEvents();
  const server = createApiServer({
    services: {
      db,
      config: { networkPassphrase },
      coreInfo: async () => null,
      events,
      txsub: null,
      metrics: new MetricsRegistry(),
      orderBook: new LiveOrderBook(db, events),
    },
    logger: createLogger('silent', { pretty: false }),
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
