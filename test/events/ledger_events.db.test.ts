// The ledger signal reaches every listener: in one process, and across processes (two connections)
// on PostgreSQL; a dropped listening connection comes back and catches up.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { openLedgerEvents, type LedgerEvents } from '../../src/events/ledger_events.js';
import { createTestDatabase, testDbKind, type TestDatabase } from '../support/database.js';

let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(() => test.drop());

function next(events: LedgerEvents): Promise<number> {
  return new Promise((resolve) => {
    const off = events.subscribe((sequence) => {
      off();
      resolve(sequence);
    });
  });
}

describe('ledger events', () => {
  it('fan out one published ledger to every subscriber, and stop after unsubscribing', async () => {
    const events = await openLedgerEvents(test.target);
    const heard: number[][] = [[], [], []];
    const offs = heard.map((list) => events.subscribe((s) => list.push(s)));
    const received = next(events);
    await events.publish(5);
    expect(await received).toBe(5);
    offs[0]?.();
    const again = next(events);
    await events.publish(6);
    await again;
    expect(heard).toEqual([[5], [5, 6], [5, 6]]);
    await events.close();
  });

  it.runIf(testDbKind === 'postgres')('reach another process sharing the database', async () => {
    const ingesting = await openLedgerEvents(test.target);
    const serving = await openLedgerEvents(test.target);
    const received = next(serving);
    await ingesting.publish(42);
    expect(await received).toBe(42);
    await Promise.all([ingesting.close(), serving.close()]);
  });

  it.runIf(testDbKind === 'postgres')('reconnect after the listening connection dies, then catch up', async () => {
    const url = test.target.kind === 'postgres' ? test.target.url : '';
    const events = await openLedgerEvents(test.target);
    await test.db.prisma.ledger.create({
      data: {
        sequence: 77,
        hash: 'c'.repeat(64),
        closedAt: new Date(),
        successfulTransactionCount: 0,
        failedTransactionCount: 0,
        operationCount: 0,
        txSetOperationCount: 0,
        totalCoins: 0n,
        feePool: 0n,
        baseFee: 100,
        baseReserve: 1,
        maxTxSetSize: 1,
        protocolVersion: 22,
        headerXdr: '',
      },
    });
    const caughtUp = next(events);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE 'LISTEN%'`,
    );
    await admin.end();
    expect(await caughtUp).toBe(77);
    const live = next(events);
    await events.publish(78);
    expect(await live).toBe(78);
    await events.close();
  });
});
