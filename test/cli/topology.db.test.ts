// The deployment of docs/deploy.md, as its Procfile lists it: 1 `zenith core`, 2 `zenith ingest`
// (active and standby), 3 `zenith serve` on one PostgreSQL database, each line run as written but
// for free ports and a temporary folder. An account receives a transaction of 100 payments in each
// of many ledgers; a REST SSE stream on one `serve` and a GraphQL subscription (graphql-sse) on
// another receive every one of them once, in order, while the active ingester is killed with
// SIGKILL in the middle of a ledger's transaction and the standby takes over.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Account, Asset, Keypair, Operation, type xdr } from '@stellar/stellar-sdk/base';
import { createClient } from 'graphql-sse';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { STANDALONE_PASSPHRASE } from '../../src/config.js';
import { rootKeypair } from '../../src/stellar/index.js';
import { corePort, EventStream, servingPort, spawnZenith, stopCleanly, submitToCore, type TestProcess } from '../support/cli.js';
import { createServerDatabase, dropServerDatabase, testDbKind } from '../support/database.js';
import { stopAllProcesses } from '../support/processes.js';

const LEDGERS = 12;
const PAYMENTS_PER_LEDGER = 100;
/** the ledger of payments (counted from 1) after which the active ingester is killed */
const KILL_AFTER = 4;
const dataDir = mkdtempSync(join(tmpdir(), 'zenith-topology-'));
let databaseUrl = '';

afterAll(async () => {
  await stopAllProcesses();
  if (databaseUrl) await dropServerDatabase(databaseUrl);
  rmSync(dataDir, { recursive: true, force: true });
});

interface ProcfileEntry {
  name: string;
  args: string[];
}

/** The ```procfile block of docs/deploy.md: `name: zenith <args>` lines. */
function procfile(): ProcfileEntry[] {
  const doc = readFileSync(new URL('../../docs/deploy.md', import.meta.url), 'utf8');
  const block = /```procfile\n([\s\S]*?)```/.exec(doc)?.[1];
  if (!block) throw new Error('docs/deploy.md has no procfile block');
  return block
    .trim()
    .split('\n')
    .map((line) => {
      const [, name, command] = /^([\w-]+):\s+(.*)$/.exec(line) ?? [];
      const [program, ...args] = (command ?? '').split(/\s+/);
      expect(program, line).toBe('zenith');
      return { name: name!, args };
    });
}

/** The line as run here: the folder, the database, free ports, and the core's port once known. */
function localized(args: string[], core: { docPort: string; port: number } | null): string[] {
  return args.map((arg, i) => {
    const flag = args[i - 1];
    if (flag === '--port' || flag === '--core-port') return '0';
    let value = arg.replace(/\$\{DATABASE_URL\}/, databaseUrl).replace(/^\/var\/lib\/zenith/, dataDir);
    if (core) value = value.replace(`127.0.0.1:${core.docPort}`, `127.0.0.1:${core.port}`);
    return value;
  });
}

async function eventually(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(testDbKind !== 'postgres')('the topology of docs/deploy.md', () => {
  it('streams every payment once, in order, on two serve processes while the active ingester is killed', { timeout: 300_000 }, async () => {
    databaseUrl = await createServerDatabase();
    const entries = procfile();
    const byCommand = (command: string) => entries.filter((entry) => entry.args[0] === command);
    expect([byCommand('core').length, byCommand('ingest').length, byCommand('serve').length]).toEqual([1, 2, 3]);
    expect(entries).toHaveLength(6);

    const coreEntry = byCommand('core')[0]!;
    const core = spawnZenith(localized(coreEntry.args, null));
    const coreAt = { docPort: coreEntry.args[coreEntry.args.indexOf('--core-port') + 1]!, port: await corePort(core) };
    const [firstEntry, secondEntry] = byCommand('ingest');
    const active = spawnZenith(localized(firstEntry!.args, coreAt));
    await active.waitForLine(/ingesting from/);
    const standby = spawnZenith(localized(secondEntry!.args, coreAt));
    await standby.waitForLine(/standing by/);
    const serves: TestProcess[] = byCommand('serve').map((entry) => spawnZenith(localized(entry.args, coreAt)));
    const urls = await Promise.all(serves.map(async (child) => `http://127.0.0.1:${await servingPort(child)}`));

    // from the start of the account's history (cursor 0): nothing can be missed however late a stream opens
    const destination = Keypair.random().publicKey();
    const rest = await EventStream.open(`${urls[0]}/accounts/${destination}/payments?cursor=0`);
    const client = createClient({ url: `${urls[1]}/graphql/stream`, retryAttempts: 0 });
    const subscribed: string[] = [];
    let failure: unknown = null;
    const unsubscribe = client.subscribe<{ payments: { pagingToken: string } }>(
      { query: `subscription($a: String!) { payments(forAccount: $a, cursor: "0") { pagingToken } }`, variables: { a: destination } },
      {
        next: (result) => {
          if (result.data) subscribed.push(result.data.payments.pagingToken);
          if (result.errors) failure = result.errors;
        },
        error: (error) => void (failure = error),
        complete: () => {},
      },
    );

    // one transaction a ledger: the account's creation, then LEDGERS of PAYMENTS_PER_LEDGER payments
    const root = rootKeypair(STANDALONE_PASSPHRASE);
    const rootAccount = new Account(root.publicKey(), '0');
    const coreUrl = `http://127.0.0.1:${coreAt.port}`;
    const ledgerNow = async () =>
      ((await (await fetch(`${coreUrl}/info`)).json()) as { info: { ledger: { num: number } } }).info.ledger.num;
    const submitAndClose = async (operations: xdr.Operation[]): Promise<void> => {
      const before = await ledgerNow();
      await submitToCore(coreAt.port, STANDALONE_PASSPHRASE, rootAccount, root, operations);
      // the core closes a ledger every second: the transaction is in the next one
      while ((await ledgerNow()) <= before) await new Promise((resolve) => setTimeout(resolve, 100));
    };

    // SIGKILL once the active ingester is inside a ledger's transaction (its writes seen in pg_stat_activity)
    const watcher = new pg.Client({ connectionString: databaseUrl });
    await watcher.connect();
    let killedMidLedger = false;
    const killInsideLedger = async (): Promise<void> => {
      for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
        const { rows } = await watcher.query(
          `SELECT pid FROM pg_stat_activity
            WHERE datname = current_database() AND pid <> pg_backend_pid() AND xact_start IS NOT NULL
              AND (query ILIKE 'COPY%' OR query ILIKE '%ingest_cursor%FOR UPDATE%' OR query ILIKE 'INSERT%')`,
        );
        if (rows.length > 0) {
          active.kill('SIGKILL');
          killedMidLedger = true;
          return;
        }
      }
    };

    let killing: Promise<void> | null = null;
    try {
      await submitAndClose([Operation.createAccount({ destination, startingBalance: '10000' })]);
      for (let ledger = 1; ledger <= LEDGERS; ledger++) {
        const payments = Array.from({ length: PAYMENTS_PER_LEDGER }, () =>
          Operation.payment({ destination, asset: Asset.native(), amount: '1' }),
        );
        if (ledger === KILL_AFTER + 1) killing = killInsideLedger();
        await submitAndClose(payments);
      }
      await killing;
    } finally {
      await watcher.end();
    }
    expect(killedMidLedger).toBe(true);
    expect((await active.done).signal).toBe('SIGKILL');
    await standby.waitForLine(/took the ingest lock/);

    const expected = 1 + LEDGERS * PAYMENTS_PER_LEDGER;
    await eventually(() => rest.events.length >= expected && subscribed.length >= expected, 'every payment on both streams');
    expect(failure).toBeNull();
    const streamed = rest.events.map((event) => String(event.paging_token));
    // in order and once each, the same on both
    expect(streamed).toHaveLength(expected);
    expect(new Set(streamed).size).toBe(expected);
    expect([...streamed].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1))).toEqual(streamed);
    expect(subscribed).toEqual(streamed);

    // the third process reads the same payments, and every process is healthy
    const listed: string[] = [];
    for (let next = `${urls[2]}/accounts/${destination}/payments?order=asc&limit=200`; ; ) {
      const page = (await (await fetch(next)).json()) as {
        _embedded: { records: { paging_token: string }[] };
        _links: { next: { href: string } };
      };
      if (page._embedded.records.length === 0) break;
      listed.push(...page._embedded.records.map((record) => record.paging_token));
      next = page._links.next.href;
    }
    expect(listed).toEqual(streamed);
    for (const url of urls) expect((await fetch(`${url}/health`)).status).toBe(200);

    rest.close();
    unsubscribe();
    client.dispose();
    await stopCleanly(...serves, standby, core);
  });
});
