// The three sources give the same database; a ledger that does not chain onto the cursor is
// refused; reingesting a range is idempotent.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { xdr } from '@stellar/stellar-sdk/base';
import {
  datastoreSource,
  IngestLockError,
  LedgerChainError,
  metaStreamSource,
  reingestRange,
  startIngester,
  type LedgerSource,
} from '../../src/ingest/index.js';
import { readBatchLedgers } from '../../src/meta/index.js';
import { createTestDatabase, testDbKind, type TestDatabase } from '../support/database.js';
import { dumpTables, TESTNET_DATASTORE, TESTNET_PASSPHRASE } from './support/fixtures.js';

const HISTORY = [
  'history_ledgers',
  'history_transactions',
  'history_operations',
  'history_effects',
  'history_trades',
  'history_transaction_participants',
  'history_operation_participants',
  'history_transaction_claimable_balances',
  'history_operation_claimable_balances',
  'history_transaction_liquidity_pools',
  'history_operation_liquidity_pools',
];
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'zenith-sources-'));
const streamFile = path.join(work, 'ledgers.xdr');

async function writeFramedStream(): Promise<void> {
  const frames: Buffer[] = [];
  for (const f of fs
    .readdirSync(TESTNET_DATASTORE)
    .filter((n) => n.endsWith('.xdr.zst'))
    .sort()
    .reverse()) {
    for (const raw of await readBatchLedgers(fs.readFileSync(path.join(TESTNET_DATASTORE, f)))) {
      const head = Buffer.alloc(4);
      head.writeUInt32BE((raw.length | 0x80000000) >>> 0, 0);
      frames.push(head, raw);
    }
  }
  fs.writeFileSync(streamFile, Buffer.concat(frames));
}

async function ingestAll(t: TestDatabase, source: LedgerSource): Promise<void> {
  const ingester = await startIngester({ db: t.db, source, networkPassphrase: TESTNET_PASSPHRASE });
  expect(await ingester.done).toBeNull();
}

const pick = (dump: Record<string, unknown[]>, tables: string[]) => Object.fromEntries(tables.map((t) => [t, dump[t]]));

describe('sources, chain checks and reingestion', () => {
  let fromDatastore: TestDatabase;
  let fromStream: TestDatabase;

  beforeAll(async () => {
    await writeFramedStream();
    fromDatastore = await createTestDatabase();
    fromStream = await createTestDatabase();
    await ingestAll(fromDatastore, datastoreSource(TESTNET_DATASTORE));
    await ingestAll(fromStream, metaStreamSource(streamFile));
  }, 120_000);
  afterAll(async () => {
    await fromDatastore?.drop();
    await fromStream?.drop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('a framed stream and a datastore folder give the same database', async () => {
    const a = await dumpTables(fromDatastore.db);
    expect((a.history_ledgers ?? []).length).toBe(3);
    expect(await dumpTables(fromStream.db)).toEqual(a);
  });

  it('refuses a ledger whose previous hash is not the last ingested one', async () => {
    const t = await createTestDatabase();
    try {
      await ingestAll(t, datastoreSource(TESTNET_DATASTORE, { toSequence: 997 }));
      await t.db.session((sql) => sql.query("UPDATE ingest_cursor SET ledger_hash = repeat('ab', 32)"));
      const ingester = await startIngester({ db: t.db, source: datastoreSource(TESTNET_DATASTORE), networkPassphrase: TESTNET_PASSPHRASE });
      const error = await ingester.done;
      expect(error).toBeInstanceOf(LedgerChainError);
      expect(error?.message).toMatch(/ledger 998 has previous hash [0-9a-f]{64}, but the last ingested ledger 997 has hash (ab){32}/);
      expect(await t.db.prisma.ledger.count({ where: { sequence: { gt: 997 } } })).toBe(0);
      await expect(ingester.waitForLedger(998)).rejects.toThrow(LedgerChainError);
    } finally {
      await t.drop();
    }
  });

  it('refuses a gap in the sequence', async () => {
    const t = await createTestDatabase();
    try {
      await ingestAll(t, datastoreSource(TESTNET_DATASTORE, { toSequence: 997 }));
      const inner = datastoreSource(TESTNET_DATASTORE);
      const skipping: LedgerSource = {
        async *ledgers(from: number): AsyncGenerator<xdr.LedgerCloseMeta> {
          for await (const meta of inner.ledgers(from))
            if (xdr.expectUnionVariant(meta, 'v1').v1.ledgerHeader.header.ledgerSeq !== 998) yield meta;
        },
      };
      const ingester = await startIngester({ db: t.db, source: skipping, networkPassphrase: TESTNET_PASSPHRASE });
      expect((await ingester.done)?.message).toMatch(
        /ledger 999 does not follow the last ingested ledger 997: ledgers 998\.\.998 are missing/,
      );
    } finally {
      await t.drop();
    }
  });

  it.runIf(testDbKind === 'postgres')('lets one ingester at a time work on a PostgreSQL database', async () => {
    const follower = datastoreSource(TESTNET_DATASTORE, { followIntervalMs: 50 });
    const first = await startIngester({ db: fromDatastore.db, source: follower, networkPassphrase: TESTNET_PASSPHRASE });
    await expect(
      startIngester({ db: fromDatastore.db, source: datastoreSource(TESTNET_DATASTORE), networkPassphrase: TESTNET_PASSPHRASE }),
    ).rejects.toThrow(IngestLockError);
    await first.stop();
    const second = await startIngester({
      db: fromDatastore.db,
      source: datastoreSource(TESTNET_DATASTORE),
      networkPassphrase: TESTNET_PASSPHRASE,
    });
    expect(await second.done).toBeNull();
    expect(second.lastLedger).toBe(999);
  });

  it('reingesting a range rewrites the same history rows, however often', async () => {
    const before = pick(await dumpTables(fromDatastore.db), HISTORY);
    // in this thread, then on one and on two worker threads (parallel_encode.ts)
    for (const workers of [0, 1, 2]) {
      const result = await reingestRange({
        db: fromDatastore.db,
        source: datastoreSource(TESTNET_DATASTORE),
        networkPassphrase: TESTNET_PASSPHRASE,
        from: 997,
        to: 999,
        batchSize: 2,
        workers,
      });
      expect(result.ledgers).toBe(3);
      expect(pick(await dumpTables(fromDatastore.db), HISTORY)).toEqual(before);
    }
    // a range that ends before the source does stops reading there; the workers are stopped
    const part = await reingestRange({
      db: fromDatastore.db,
      source: datastoreSource(TESTNET_DATASTORE),
      networkPassphrase: TESTNET_PASSPHRASE,
      from: 997,
      to: 998,
      workers: 2,
    });
    expect(part).toMatchObject({ ledgers: 2, lastLedger: 998 });
    expect(pick(await dumpTables(fromDatastore.db), HISTORY)).toEqual(before);
    // an error on a worker thread reaches the caller as the same error, and nothing is written
    await expect(
      reingestRange({
        db: fromDatastore.db,
        source: datastoreSource(TESTNET_DATASTORE),
        networkPassphrase: 'Another Network',
        from: 997,
        to: 999,
        workers: 1,
      }),
    ).rejects.toThrow(
      expect.objectContaining({
        name: 'MetaError',
        message: expect.stringMatching(/has no envelope in the tx set \(wrong network passphrase\?\)/),
      }),
    );
    expect(pick(await dumpTables(fromDatastore.db), HISTORY)).toEqual(before);
    await expect(
      reingestRange({
        db: fromDatastore.db,
        source: datastoreSource(TESTNET_DATASTORE),
        networkPassphrase: TESTNET_PASSPHRASE,
        from: 996,
        to: 999,
      }),
    ).rejects.toThrow(/the source has no ledger 996/);
  });
});
