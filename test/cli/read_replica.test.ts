// `zenith serve --database-ro-url` on a real streaming replica (test/support/pg_replica.ts: a
// primary cluster and its pg_basebackup replica, started by the test). `zenith start` ingests its
// embedded core into the primary; `serve` reads the replica. With the replica's replay paused, a
// ledger the primary has is not yet served: not in the root document, not on a stream, and a
// transaction submitted through `serve` is not answered. Once replay resumes, all of them come,
// and what the submission answered is at once readable where `serve` reads.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Account, Keypair, Networks, Operation, TransactionBuilder } from '@stellar/stellar-sdk/base';
import { afterAll, describe, expect, it } from 'vitest';
import {
  closeLedger,
  closeLedgersUntil,
  corePort,
  EventStream,
  runZenith,
  servingPort,
  spawnManualStart,
  spawnZenith,
  stopCleanly,
} from '../support/cli.js';
import { startReplicaPair, type ReplicaPair } from '../support/pg_replica.js';
import { stopAllProcesses } from '../support/processes.js';

const dataDir = mkdtempSync(join(tmpdir(), 'zenith-replica-serve-'));
let pair: ReplicaPair | undefined;

afterAll(async () => {
  await stopAllProcesses();
  await pair?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** whether `promise` is still pending after `ms` */
async function stillPending(promise: Promise<unknown>, ms: number): Promise<boolean> {
  const pending = Symbol('pending');
  return (await Promise.race([promise.then(() => null), new Promise((resolve) => setTimeout(() => resolve(pending), ms))])) === pending;
}

const json = async (url: string): Promise<Record<string, unknown>> => (await (await fetch(url)).json()) as Record<string, unknown>;

describe('zenith serve on a read replica', () => {
  it('serves a ledger, wakes streams and answers submissions only once the replica has it', { timeout: 300_000 }, async () => {
    pair = await startReplicaPair();
    const start = spawnManualStart(join(dataDir, 'start'), pair.primaryUrl);
    const startUrl = `http://127.0.0.1:${await servingPort(start)}`;
    const core = await corePort(start);
    const serve = spawnZenith([
      'serve',
      '--port',
      '0',
      '--database-url',
      pair.primaryUrl,
      '--database-ro-url',
      pair.replicaUrl,
      '--core-url',
      `http://127.0.0.1:${core}`,
    ]);
    const serveUrl = `http://127.0.0.1:${await servingPort(serve)}`;
    const ledgers = await EventStream.open(`${serveUrl}/ledgers?cursor=now`);

    // an account, funded through `start` and heard of through the replica
    const alice = Keypair.random();
    const { value: funded } = await closeLedgersUntil(fetch(`${startUrl}/friendbot?addr=${alice.publicKey()}`), core, ledgers);
    expect(funded.status).toBe(200);
    const account = (await json(`${serveUrl}/accounts/${alice.publicKey()}`)) as { sequence: string };

    // the replica stops replaying: the primary's next ledger is ingested, but not served
    await pair.pauseReplay();
    const paused = await closeLedger(core);
    await expect.poll(async () => (await json(`${startUrl}/`)).history_latest_ledger, { timeout: 30_000 }).toBe(paused);
    const tx = new TransactionBuilder(new Account(alice.publicKey(), account.sequence), {
      fee: '100',
      networkPassphrase: Networks.STANDALONE,
    })
      .addOperation(Operation.createAccount({ destination: Keypair.random().publicKey(), startingBalance: '2' }))
      .setTimeout(0)
      .build();
    tx.sign(alice);
    const hash = Buffer.from(tx.hash()).toString('hex');
    const submitted = fetch(`${serveUrl}/transactions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tx: tx.toEnvelope().toXdr('base64') }),
    });
    // the submission reaches the core; the ledger that holds it is ingested into the primary
    let holding = paused;
    await expect
      .poll(
        async () => {
          holding = await closeLedger(core);
          return (await fetch(`${startUrl}/transactions/${hash}`)).status;
        },
        { timeout: 60_000, interval: 200 },
      )
      .toBe(200);
    expect((await json(`${serveUrl}/`)).history_latest_ledger).toBeLessThan(paused);
    expect(await stillPending(submitted, 1500)).toBe(true);
    expect(ledgers.events.some((ledger) => (ledger.sequence as number) >= paused)).toBe(false);
    expect((await fetch(`${serveUrl}/transactions/${hash}`)).status).toBe(404);

    // replay resumes: the answer, the stream and the reads all come, in agreement
    await pair.resumeReplay();
    const answer = await submitted;
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ hash, successful: true });
    expect((await fetch(`${serveUrl}/transactions/${hash}`)).status).toBe(200);
    await ledgers.next((ledger) => ledger.sequence === holding);
    expect(((await json(`${serveUrl}/`)).history_latest_ledger as number) >= holding).toBe(true);
    ledgers.close();

    await stopCleanly(serve, start);
  });

  it('refuses --database-ro-url without --database-url (exit 2, naming it)', async () => {
    const result = await runZenith(['serve', '--database-ro-url', 'postgres://postgres@127.0.0.1:5432/postgres']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('database-ro-url');
  });
});
