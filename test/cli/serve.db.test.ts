// Two server processes on one PostgreSQL database: `zenith start` ingests its embedded core, and
// `zenith serve --core-url` serves the API alone. A stream on the serve process hears ledgers
// the start process commits (LISTEN/NOTIFY), and a transaction posted to the serve process goes to
// the core's /tx and is answered once the other process has ingested it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Account, Asset, Keypair, Networks, Operation, TransactionBuilder } from '@stellar/stellar-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect, runZenith, spawnZenith, waitForLine } from '../support/cli.js';
import { createServerDatabase, dropServerDatabase, testDbKind } from '../support/database.js';

const dataDir = mkdtempSync(join(tmpdir(), 'zenith-serve-'));
let databaseUrl = '';
const children: Array<ReturnType<typeof spawnZenith>> = [];

async function spawnServing(args: string[]) {
  const child = spawnZenith(args);
  children.push(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const done = collect(child);
  const line = await waitForLine(child, /Zenith is serving/, 60_000);
  return { child, done, port: (JSON.parse(line) as { port: number }).port, output: () => output };
}

/**
 * Opens an SSE stream (resolves once its headers arrived: `cursor=now` is fixed by then) and gives
 * the promise of reading its events (as parsed data) until `until` says stop.
 */
async function openStream(
  url: string,
  until: (data: Record<string, unknown>) => boolean,
  signal: AbortSignal,
): Promise<{ read: Promise<void> }> {
  const response = await fetch(url, { headers: { accept: 'text/event-stream' }, signal });
  return { read: readEvents(response, until) };
}

async function readEvents(response: Response, until: (data: Record<string, unknown>) => boolean): Promise<void> {
  const reader = response.body!.getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error('the stream ended');
    buffer += new TextDecoder().decode(value);
    const blocks = buffer.split('\n\n');
    buffer = blocks.pop() ?? '';
    for (const block of blocks) {
      const data = block.split('\n').find((line) => line.startsWith('data: '));
      if (data && !block.includes('event: open') && until(JSON.parse(data.slice(6)) as Record<string, unknown>)) return;
    }
  }
}

describe.skipIf(testDbKind !== 'postgres')('zenith serve next to zenith start on one PostgreSQL', () => {
  beforeAll(async () => {
    databaseUrl = await createServerDatabase();
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    if (databaseUrl) await dropServerDatabase(databaseUrl);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('streams what the other process ingests and submits through --core-url', async () => {
    const start = await spawnServing([
      'start',
      '--port',
      '0',
      '--host',
      '127.0.0.1',
      '--core-port',
      '0',
      '--close-interval',
      '300',
      '--data-dir',
      join(dataDir, 'start'),
      '--database-url',
      databaseUrl,
    ]);
    const corePort = Number(/"corePort":(\d+)/.exec(start.output())?.[1]);
    expect(corePort).toBeGreaterThan(0);
    const serve = await spawnServing([
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
      `http://127.0.0.1:${corePort}`,
    ]);
    const serveUrl = `http://127.0.0.1:${serve.port}`;

    // a ledger and an account's first transaction, ingested by `start`, streamed by `serve`
    const alice = Keypair.random();
    const controller = new AbortController();
    // both streams are open (their `now` fixed) before the funding
    const ledger = await openStream(`${serveUrl}/ledgers?cursor=now`, () => true, controller.signal);
    let streamedHash: unknown = null;
    // the account's first transaction is its funding
    const funded = await openStream(
      `${serveUrl}/accounts/${alice.publicKey()}/transactions?cursor=now`,
      (tx) => {
        streamedHash = tx.hash;
        return true;
      },
      controller.signal,
    );
    const friendbot = await fetch(`http://127.0.0.1:${start.port}/friendbot?addr=${alice.publicKey()}`);
    expect(friendbot.status).toBe(200);
    const fundingHash = ((await friendbot.json()) as { hash: string }).hash;
    await Promise.all([ledger.read, funded.read]);
    expect(streamedHash).toBe(fundingHash);
    controller.abort();

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
    const submitted = await fetch(`${serveUrl}/transactions`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ tx: tx.toEnvelope().toXDR('base64') }).toString(),
    });
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
    const ok = await fetch(`${serveUrl}/transactions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tx: good.toEnvelope().toXDR('base64') }),
    });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ hash: good.hash().toString('hex'), successful: true });

    serve.child.kill('SIGINT');
    start.child.kill('SIGINT');
    expect((await serve.done).code).toBe(0);
    expect((await start.done).code).toBe(0);
  }, 120_000);

  it('rejects a bad setting with exit code 2', async () => {
    const result = await runZenith(['serve', '--port', 'nope']);
    expect(result.code).toBe(2);
  });
});
