// Two server processes on one PostgreSQL database: `zenith start` ingests its embedded core, and
// `zenith serve --core-url` serves the API alone. A stream on the serve process hears ledgers
// the start process commits (LISTEN/NOTIFY), and a transaction posted to the serve process goes to
// the core's /tx and is answered once the other process has ingested it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Account, Asset, Keypair, Networks, Operation, TransactionBuilder } from '@stellar/stellar-sdk/base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closeLedgersUntil,
  corePort,
  EventStream,
  runZenith,
  servingPort,
  spawnManualStart,
  spawnZenith,
  stopCleanly,
} from '../support/cli.js';
import { createServerDatabase, dropServerDatabase, testDbKind } from '../support/database.js';
import { stopAllProcesses } from '../support/processes.js';

const dataDir = mkdtempSync(join(tmpdir(), 'zenith-serve-'));
let databaseUrl = '';

describe.skipIf(testDbKind !== 'postgres')('zenith serve next to zenith start on one PostgreSQL', () => {
  beforeAll(async () => {
    databaseUrl = await createServerDatabase();
  });
  afterAll(async () => {
    // (the test stops both itself; after a failure, nothing may hold the database while it is dropped)
    await stopAllProcesses();
    if (databaseUrl) await dropServerDatabase(databaseUrl);
    rmSync(dataDir, { recursive: true, force: true });
  });

  // Nothing here waits for time to pass: ledgers close only on /manualclose, and every step waits
  // for the line, the stream event or the answer that says it happened. The timeout bounds a hang
  // (two processes start on a machine that may be busy with the rest of the suite).
  it('streams what the other process ingests and submits through --core-url', { timeout: 240_000 }, async () => {
    const start = spawnManualStart(join(dataDir, 'start'), databaseUrl, '--host', '127.0.0.1');
    const startUrl = `http://127.0.0.1:${await servingPort(start)}`;
    const core = await corePort(start);
    expect(core).toBeGreaterThan(0);
    const serve = spawnZenith([
      'serve',
      '--port',
      '0',
      '--host',
      '127.0.0.1',
      '--data-dir',
      join(dataDir, 'serve'),
      '--database-url',
      databaseUrl,
      '--core-url',
      `http://127.0.0.1:${core}`,
    ]);
    const serveUrl = `http://127.0.0.1:${await servingPort(serve)}`;

    // both streams are open (their `now` fixed) before the funding; the ledgers `serve` streams
    // are also how the test knows that a ledger it closed has reached `serve`
    const ledgers = await EventStream.open(`${serveUrl}/ledgers?cursor=now`);
    const alice = Keypair.random();
    // the account's first transaction is its funding
    const transactions = await EventStream.open(`${serveUrl}/accounts/${alice.publicKey()}/transactions?cursor=now`);

    // a ledger and an account's first transaction, ingested by `start`, streamed by `serve`
    const { value: friendbot } = await closeLedgersUntil(fetch(`${startUrl}/friendbot?addr=${alice.publicKey()}`), core, ledgers);
    const funding = (await friendbot.json()) as { hash: string; ledger: number };
    expect(friendbot.status, JSON.stringify(funding)).toBe(200);
    expect((await ledgers.next((ledger) => ledger.sequence === funding.ledger)).successful_transaction_count).toBe(1);
    expect((await transactions.next()).hash).toBe(funding.hash);
    transactions.close();

    // submission on `serve`: forwarded to the core's /tx, answered from the history `start` writes
    const account = (await (await fetch(`${serveUrl}/accounts/${alice.publicKey()}`)).json()) as { sequence: string };
    const tx = new TransactionBuilder(new Account(alice.publicKey(), account.sequence), {
      fee: '100',
      networkPassphrase: Networks.STANDALONE,
    })
      .addOperation(Operation.payment({ destination: Keypair.random().publicKey(), asset: Asset.native(), amount: '0.5' }))
      .addOperation(Operation.createAccount({ destination: Keypair.random().publicKey(), startingBalance: '2' }))
      .setTimeout(0)
      .build();
    tx.sign(alice);
    // the answer comes once `serve` hears of the ledger that holds the transaction
    const { value: submitted } = await closeLedgersUntil(
      fetch(`${serveUrl}/transactions`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ tx: tx.toEnvelope().toXdr('base64') }).toString(),
      }),
      core,
      ledgers,
    );
    const body = (await submitted.json()) as Record<string, unknown>;
    // the payment to a missing account fails in its ledger: transaction_failed with both codes
    expect(submitted.status).toBe(400);
    expect(body.extras).toMatchObject({ result_codes: { transaction: 'tx_failed', operations: ['op_no_destination', 'op_success'] } });

    const good = new TransactionBuilder(new Account(alice.publicKey(), (BigInt(account.sequence) + 1n).toString()), {
      fee: '100',
      networkPassphrase: Networks.STANDALONE,
    })
      .addOperation(Operation.createAccount({ destination: Keypair.random().publicKey(), startingBalance: '2' }))
      .setTimeout(0)
      .build();
    good.sign(alice);
    const { value: ok } = await closeLedgersUntil(
      fetch(`${serveUrl}/transactions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ tx: good.toEnvelope().toXdr('base64') }),
      }),
      core,
      ledgers,
    );
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ hash: Buffer.from(good.hash()).toString('hex'), successful: true });
    ledgers.close();

    await stopCleanly(serve, start);
  });

  it('rejects a bad setting with exit code 2', async () => {
    const result = await runZenith(['serve', '--port', 'nope']);
    expect(result.code).toBe(2);
  });
});
