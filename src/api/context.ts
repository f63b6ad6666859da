// What a resolver can reach. Services live as long as the server; a context is made per request
// (and per subscription event), so per-request caches such as DataLoaders never leak between users.
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import type { LedgerEvents } from '../events/ledger_events.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import type { MetricsRegistry } from '../metrics/registry.js';
import type { SubmissionSystem } from '../txsub/submission_system.js';
import type { SharedReads } from './follow/index.js';
import type { LiveOrderBook } from './live_order_book.js';
import { createLoaders, type Loaders } from './loaders.js';

/** What the connected core node says about itself, as its /info command answers. */
export interface CoreInfo {
  version: string;
  latestLedger: number;
  protocolVersion: number;
  /** the core follows the network (its state is `Synced!`) */
  synced: boolean;
}

export interface ApiServices {
  db: Database;
  /** healthMaxLedgerAge absent: /health does not check the ledger's age */
  /** maxPathLength absent: the path searches' default (Horizon's) */
  config: Pick<Config, 'networkPassphrase'> & Partial<Pick<Config, 'healthMaxLedgerAge' | 'maxPathLength'>>;
  /** null while no core is connected or it does not answer */
  coreInfo(): Promise<CoreInfo | null>;
  /** "a ledger was ingested": wakes streams and subscriptions */
  events: LedgerEvents;
  /** null where no core takes transactions (POST /transactions and submitTransaction answer 503) */
  txsub: SubmissionSystem | null;
  metrics: MetricsRegistry;
  /** the order-book graph that path finding searches, refreshed after each ledger */
  orderBook: LiveOrderBook;
}

export interface ApiContext {
  services: ApiServices;
  prisma: PrismaClient;
  loaders: Loaders;
  /** the server's reads shared by its streams and subscriptions (none: a subscription reads alone) */
  followReads?: SharedReads;
}

export function createContext(services: ApiServices, followReads?: SharedReads): ApiContext {
  return { services, prisma: services.db.prisma, loaders: createLoaders(services.db.prisma), ...(followReads ? { followReads } : {}) };
}
