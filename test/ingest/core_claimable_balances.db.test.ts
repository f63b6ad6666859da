// Ledgers the embedded core closes with claimable balances (created with every predicate kind,
// claimed, clawed back) written to a datastore folder and ingested by the live ingester: every
// ledger goes in, the state holds the one balance left, and the history has the operations and
// effects Horizon gives them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Asset, type Keypair, Operation, xdr } from '@stellar/stellar-sdk/base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { datastoreSource, startIngester } from '../../src/ingest/index.js';
import { claimableBalanceHash } from '../../src/stellar/index.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { claimant, claimBalanceOp, clawbackBalanceOp, createBalanceOp, horizonBalanceId } from '../core/support/claimable.js';
import { Harness, PASSPHRASE } from '../core/support/harness.js';

const P = xdr.ClaimPredicate;
let t: TestDatabase;
const folder = mkdtempSync(join(tmpdir(), 'zenith-core-balances-'));

beforeAll(async () => {
  t = await createTestDatabase();
});

afterAll(async () => {
  await t?.drop();
  rmSync(folder, { recursive: true, force: true });
});

describe('claimable balances the core made, ingested', () => {
  it('every ledger is ingested; the live balance, the operations and the effects are there', { timeout: 120_000 }, async () => {
    const h = await Harness.create({ metaOutDir: folder });
    /** the source's sequence number once its transaction succeeded */
    const run = async (source: Keypair, ops: xdr.Operation[]) => {
      await h.succeed(source, ops);
      return h.seq(source);
    };
    const [alice, bob, gateway] = (await h.fund(100, 3)) as [Keypair, Keypair, Keypair];
    const idr = new Asset('IDR', gateway.publicKey());
    await run(gateway, [Operation.setOptions({ setFlags: (0x8 | 0x2) as never })]);
    await run(alice, [Operation.changeTrust({ asset: idr })]);
    await run(gateway, [Operation.payment({ destination: alice.publicKey(), asset: idr, amount: '100' })]);

    // every predicate kind; the relative one stored as the creating ledger's close time + 3600
    const createdAt = BigInt(h.core.latestLedger().closeTime) + 5n;
    const predicate = P.claimPredicateOr([
      P.claimPredicateAnd([P.claimPredicateBeforeRelativeTime(3600n), P.claimPredicateNot(P.claimPredicateBeforeAbsoluteTime(1n))]),
      P.claimPredicateUnconditional(),
    ]);
    const liveSeq = await run(alice, [createBalanceOp(Asset.native(), 50_000_000n, [claimant(bob, predicate), claimant(gateway)])]);
    const live = claimableBalanceHash(alice.publicKey(), liveSeq, 0);
    const claimedSeq = await run(alice, [createBalanceOp(idr, 10_000_000n, [claimant(bob)])]);
    const claimed = claimableBalanceHash(alice.publicKey(), claimedSeq, 0);
    const clawedSeq = await run(alice, [createBalanceOp(idr, 20_000_000n, [claimant(bob)])]);
    const clawed = claimableBalanceHash(alice.publicKey(), clawedSeq, 0);
    await run(bob, [Operation.changeTrust({ asset: idr })]);
    await run(bob, [claimBalanceOp(claimed)]);
    await run(gateway, [clawbackBalanceOp(clawed)]);
    const last = h.core.latestLedger().sequence;
    await h.core.stop();

    const ingester = await startIngester({ db: t.db, source: datastoreSource(folder), networkPassphrase: PASSPHRASE });
    expect(await ingester.done).toBeNull();
    expect(ingester.lastLedger).toBe(last);

    const { balances, claimants, operations, effects } = await t.db.session(async (sql) => ({
      balances: await sql.query<{ id: string; asset: string; amount: string; sponsor: string; flags: number; claimants: unknown }>(
        'SELECT id, asset, amount::text AS amount, sponsor, flags, claimants FROM claimable_balances ORDER BY id',
      ),
      claimants: await sql.query<{ id: string; destination: string }>(
        'SELECT id, destination FROM claimable_balance_claimants ORDER BY destination',
      ),
      operations: await sql.query<{ type: number; balance_id: string | null }>(
        "SELECT type, details->>'balance_id' AS balance_id FROM history_operations WHERE type IN (14, 15, 20) ORDER BY id",
      ),
      effects: await sql.query<{ type: number; n: number }>(
        'SELECT type, count(*)::int AS n FROM history_effects WHERE type IN (50, 51, 52, 69, 71, 80) GROUP BY type ORDER BY type',
      ),
    }));
    expect(balances).toEqual([
      {
        id: horizonBalanceId(live),
        asset: 'native',
        amount: '50000000',
        sponsor: alice.publicKey(),
        flags: 0,
        claimants: [
          {
            destination: bob.publicKey(),
            predicate: {
              or: [
                {
                  and: [
                    { abs_before: expect.any(String), abs_before_epoch: String(createdAt + 3600n) },
                    { not: { abs_before: '1970-01-01T00:00:01Z', abs_before_epoch: '1' } },
                  ],
                },
                { unconditional: true },
              ],
            },
          },
          { destination: gateway.publicKey(), predicate: { unconditional: true } },
        ],
      },
    ]);
    expect(claimants).toEqual(
      [bob, gateway]
        .map((kp) => ({ id: horizonBalanceId(live), destination: kp.publicKey() }))
        .sort((a, b) => (a.destination < b.destination ? -1 : 1)),
    );
    // create ×3 (the balance id is in the claim and clawback details), claim, clawback
    expect(operations).toEqual([
      { type: 14, balance_id: null },
      { type: 14, balance_id: null },
      { type: 14, balance_id: null },
      { type: 15, balance_id: horizonBalanceId(claimed) },
      { type: 20, balance_id: horizonBalanceId(clawed) },
    ]);
    // created ×3, a claimant created per claimant (4), claimed, sponsorship created ×3 and removed ×2, clawed back
    expect(effects).toEqual([
      { type: 50, n: 3 },
      { type: 51, n: 4 },
      { type: 52, n: 1 },
      { type: 69, n: 3 },
      { type: 71, n: 2 },
      { type: 80, n: 1 },
    ]);
  });
});
