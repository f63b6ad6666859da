// A whole private network for end-to-end tests: the embedded core in memory with manual ledger
// closes, the ingester following it into a fresh test database, and the API (with friendbot) on
// a free port. Activity is created by submitting envelopes to the core and closing a ledger;
// everything is then read back through the API.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Account, Operation, TransactionBuilder, type Keypair, type Transaction, type xdr } from '@stellar/stellar-sdk/base';
import { coreInfoFromAnswer } from '../../src/api/core_info.js';
import type { ExplorerBundle } from '../../src/api/explorer.js';
import type { StreamLimits } from '../../src/api/stream_limits.js';
import { createApiServer } from '../../src/api/server.js';
import type { ApiServices } from '../../src/api/context.js';
import { createCore, type Core } from '../../src/core/index.js';
import { Friendbot } from '../../src/friendbot/index.js';
import { rootKeypair } from '../../src/stellar/index.js';
import { embeddedCoreSource, startIngester, type Ingester } from '../../src/ingest/index.js';
import { openLedgerEvents, type LedgerEvents } from '../../src/events/ledger_events.js';
import { createLogger } from '../../src/logger.js';
import { LiveOrderBook } from '../../src/api/live_order_book.js';
import { MetricsRegistry } from '../../src/metrics/registry.js';
import { embeddedCoreClient, MeteredSubmissionSystem, prismaSubmissionStore } from '../../src/txsub/index.js';
import { createTestDatabase, type TestDatabase } from './database.js';

export const NETWORK_PASSPHRASE = 'Zenith E2E Test Network';

export interface TestNetwork {
  core: Core;
  ingester: Ingester;
  database: TestDatabase;
  server: Server;
  /** http://127.0.0.1:<port> */
  url: string;
  root: Keypair;
  events: LedgerEvents;
  txsub: MeteredSubmissionSystem;
  /** what the API server runs on */
  services: ApiServices;
  /** funds accounts at /friendbot through txsub; its transactions land when a ledger is closed */
  friendbot: Friendbot;
  metrics: MetricsRegistry;
  /** closes one ledger with what the core has queued and waits until it is ingested */
  closeLedger(): Promise<number>;
  /** resolves once `count` submissions have been forwarded to the core and await their ledger */
  forwarded(count?: number): Promise<void>;
  /**
   * Closes ledgers while the friendbot or a submission through the API waits for one, as an
   * interval-closing core would, until the function it returns is called (it resolves once the loop has stopped).
   */
  closeWhileWaiting(): () => Promise<void>;
  /** submits signed transactions, closes one ledger and waits until it is ingested; returns its sequence */
  submit(...transactions: Transaction[]): Promise<number>;
  /** one transaction of `signer`'s (at its next sequence number, as the core has it) with these operations, submitted as `submit` does */
  submitOperations(signer: Keypair, operations: xdr.Operation[]): Promise<number>;
  /** creates these accounts with 1000 XLM each from the root account, in one ledger */
  fund(...accounts: Keypair[]): Promise<number>;
  stop(): Promise<void>;
}

/**
 * `streamLimits`: what open streams may cost (the configuration's defaults without it; the stream
 * bench lifts the caps); `explorer`: the built explorer to serve (none without it)
 */
export async function startTestNetwork(options: { streamLimits?: StreamLimits; explorer?: ExplorerBundle } = {}): Promise<TestNetwork> {
  const logger = createLogger('silent', { pretty: false });
  const database = await createTestDatabase();
  const core = await createCore({ dataDir: null, networkPassphrase: NETWORK_PASSPHRASE, manualClose: true, logger });
  core.start();
  // LISTEN/NOTIFY when the test database is PostgreSQL, as in production
  const events = await openLedgerEvents(database.target);
  const metrics = new MetricsRegistry();
  const txsub = new MeteredSubmissionSystem(
    { networkPassphrase: NETWORK_PASSPHRASE, core: embeddedCoreClient(core), store: prismaSubmissionStore(database.db.prisma) },
    metrics,
  );
  events.subscribe(() => void txsub.onLedger());
  const ingester = await startIngester({
    db: database.db,
    source: embeddedCoreSource(core),
    networkPassphrase: NETWORK_PASSPHRASE,
    logger,
    metrics,
    onLedger: (sequence) => void events.publish(sequence),
  });
  const services: ApiServices = {
    db: database.db,
    config: { networkPassphrase: NETWORK_PASSPHRASE },
    coreInfo: async () => coreInfoFromAnswer(core.info()),
    events,
    txsub,
    metrics,
    orderBook: new LiveOrderBook(database.db, events),
  };
  const friendbot = new Friendbot({
    networkPassphrase: NETWORK_PASSPHRASE,
    txsub,
    store: prismaSubmissionStore(database.db.prisma),
    events,
  });
  const server = createApiServer({
    services,
    logger,
    friendbot,
    ...(options.streamLimits ? { streamLimits: options.streamLimits } : {}),
    ...(options.explorer ? { explorer: options.explorer } : {}),
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const root = rootKeypair(NETWORK_PASSPHRASE);
  const network: TestNetwork = {
    core,
    ingester,
    database,
    server,
    url,
    root,
    events,
    txsub,
    services,
    friendbot,
    metrics,
    async closeLedger() {
      const closed = await core.closeLedger();
      await ingester.waitForLedger(closed.sequence);
      return closed.sequence;
    },
    async forwarded(count = 1) {
      const deadline = Date.now() + 10_000;
      while (txsub.open < count) {
        if (Date.now() > deadline) throw new Error(`${txsub.open} of ${count} submissions reached the core`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
    closeWhileWaiting() {
      let running = true;
      const loop = (async () => {
        while (running) {
          if (friendbot.pending > 0 || txsub.open > 0) await network.closeLedger();
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      })();
      return async () => {
        running = false;
        await loop;
      };
    },
    async submit(...transactions) {
      for (const tx of transactions) {
        const status = core.submit(tx.toEnvelope().toXdr('base64'));
        if (status.status !== 'PENDING') throw new Error(`core refused the transaction: ${JSON.stringify(status)}`);
      }
      const closed = await core.closeLedger();
      await ingester.waitForLedger(closed.sequence);
      return closed.sequence;
    },
    async submitOperations(signer, operations) {
      const state = core.account(signer.publicKey());
      if (!state) throw new Error(`no account ${signer.publicKey()}`);
      const builder = new TransactionBuilder(new Account(signer.publicKey(), state.seqNum.toString()), {
        fee: '100',
        networkPassphrase: NETWORK_PASSPHRASE,
      });
      for (const op of operations) builder.addOperation(op);
      const tx = builder.setTimeout(0).build();
      tx.sign(signer);
      return network.submit(tx);
    },
    async fund(...accounts) {
      return network.submitOperations(
        root,
        accounts.map((account) => Operation.createAccount({ destination: account.publicKey(), startingBalance: '1000' })),
      );
    },
    async stop() {
      friendbot.close();
      txsub.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await ingester.stop();
      await core.stop();
      await events.close();
      await database.drop();
    },
  };
  return network;
}
