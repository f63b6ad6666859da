// Replays a horizon-scenarios core dump on the embedded core (as test/core/fixture_replay does)
// and ingests the resulting ledgers through the embedded-core source.
import type { Core } from '../../../src/core/index.js';
import { createCore } from '../../../src/core/index.js';
import type { Database } from '../../../src/db/database.js';
import { embeddedCoreSource, startIngester } from '../../../src/ingest/index.js';
import { TEST_PASSPHRASE, loadScenario } from '../../core/support/scenario.js';

export interface Replayed {
  core: Core;
  /** transactions the core refused at submission (operations it does not support yet) */
  skipped: Set<string>;
  lastLedger: number;
}

export async function replayScenario(name: string): Promise<Replayed> {
  const scenario = loadScenario(name);
  const core = await createCore({
    dataDir: null,
    networkPassphrase: TEST_PASSPHRASE,
    baseReserve: 100_000_000,
    maxTxSetSize: 100,
    manualClose: true,
  });
  const skipped = new Set<string>();
  let lastLedger = 1;
  for (const ledger of scenario.ledgers) {
    if (ledger.seq === 1) continue;
    for (const tx of ledger.txs) {
      if (core.submit(tx.envelope).status !== 'PENDING') skipped.add(tx.txid);
    }
    lastLedger = (await core.closeLedger(ledger.closeTime)).sequence;
  }
  return { core, skipped, lastLedger };
}

/** Ingests ledgers 1..last of a core into db with the public ingester API. */
export async function ingestCore(db: Database, replayed: Replayed): Promise<void> {
  const ingester = await startIngester({ db, source: embeddedCoreSource(replayed.core), networkPassphrase: TEST_PASSPHRASE });
  await ingester.waitForLedger(replayed.lastLedger);
  await ingester.stop();
}
