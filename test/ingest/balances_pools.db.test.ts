// Claimable balances and liquidity pools ingested from stellar-core's own golden meta
// (test/fixtures/stellar-core-lcm): the cases of test-lcm-current whose meta creates a claimable
// balance or creates a pool and deposits into it, each ingested by the live ingester (state
// included) into an empty database. The state tables must hold each entry's last state in the
// meta, and the history links every transaction and operation whose changes name one. Expected
// rows are read from the meta with the SDK's XDR, never from our processors.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Asset, StrKey, xdr } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { datastoreSource, startIngester } from '../../src/ingest/index.js';
import { reingestRange } from '../../src/ingest/reingest.js';
import { emptyStateRows } from '../../src/ingest/processors/state.js';
import type { LedgerRows, StateRows } from '../../src/ingest/rows.js';
import { deleteHistory, writeState } from '../../src/ingest/writer.js';
import { toid } from '../../src/stellar/index.js';
import { coreLcmCase, coreLcmManifest, ledgerBody, writeCaseDatastore } from '../support/stellar_core_lcm.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { INGEST_TABLES } from './support/fixtures.js';

// every case of the fixture whose meta changes a claimable balance or a liquidity pool
const CASES = [
  'frozen_ledger_keys_apply_time_validation-claim_claimable_balance_trustline_frozen',
  'frozen_ledger_keys_apply_time_validation-liquidity_pool_deposit_assetA_trustline_frozen',
  'frozen_ledger_keys_apply_time_validation-liquidity_pool_deposit_assetB_trustline_frozen',
  'frozen_ledger_keys_apply_time_validation-liquidity_pool_withdraw_assetA_trustline_frozen',
  'frozen_ledger_keys_apply_time_validation-liquidity_pool_withdraw_assetB_trustline_frozen',
];

/** the changes of a transaction's meta (before, per operation, after), for meta v1 to v4 */
function metaChanges(meta: xdr.TransactionMeta): {
  before: xdr.LedgerEntryChange[];
  operations: xdr.LedgerEntryChange[][];
  after: xdr.LedgerEntryChange[];
} {
  switch (meta.type) {
    case 'operations':
      return { before: [], operations: meta.operations.map((o) => o.changes), after: [] };
    case 'v1':
      return { before: meta.v1.txChanges, operations: meta.v1.operations.map((o) => o.changes), after: [] };
    case 'v2':
      return { before: meta.v2.txChangesBefore, operations: meta.v2.operations.map((o) => o.changes), after: meta.v2.txChangesAfter };
    case 'v3':
      return { before: meta.v3.txChangesBefore, operations: meta.v3.operations.map((o) => o.changes), after: meta.v3.txChangesAfter };
    default:
      return { before: meta.v4.txChangesBefore, operations: meta.v4.operations.map((o) => o.changes), after: meta.v4.txChangesAfter };
  }
}

/** ("C" | "L", hex id) of a claimable balance or pool a change names, else null */
function idOf(change: xdr.LedgerEntryChange): ['C' | 'L', string] | null {
  if (change.type === 'ledgerEntryRemoved') {
    const key = change.removed;
    if (key.type === 'claimableBalance') return ['C', key.claimableBalance.balanceId.toXdr('hex')];
    if (key.type === 'liquidityPool') return ['L', key.liquidityPool.liquidityPoolId.toXdr('hex')];
    return null;
  }
  const data = change.value.data;
  if (data.type === 'claimableBalance') return ['C', data.claimableBalance.balanceId.toXdr('hex')];
  if (data.type === 'liquidityPool') return ['L', data.liquidityPool.liquidityPoolId.toXdr('hex')];
  return null;
}

const sponsorOf = (entry: xdr.LedgerEntry): string | null => {
  const id = entry.ext.type === 'v1' ? entry.ext.v1.sponsoringId : null;
  return id ? StrKey.encodeEd25519PublicKey(Buffer.from(id.ed25519.value)) : null;
};

const accountOf = (id: xdr.AccountId): string => StrKey.encodeEd25519PublicKey(Buffer.from(id.ed25519.value));

interface Expected {
  balances: Map<string, xdr.LedgerEntry | null>;
  pools: Map<string, xdr.LedgerEntry | null>;
  links: { transaction: Set<string>; operation: Set<string> };
}

function expectedOf(metas: xdr.LedgerCloseMeta[]): Expected {
  const out: Expected = { balances: new Map(), pools: new Map(), links: { transaction: new Set(), operation: new Set() } };
  for (const meta of metas) {
    const body = ledgerBody(meta);
    const sequence = body.ledgerHeader.header.ledgerSeq;
    body.txProcessing.forEach((applied, i) => {
      const { before, operations, after } = metaChanges(applied.txApplyProcessing);
      const record = (change: xdr.LedgerEntryChange, link: string | null): void => {
        const found = idOf(change);
        if (!found) return;
        const [kind, id] = found;
        out.links.transaction.add(`${kind} ${id} ${toid(sequence, i + 1, 0)}`);
        if (link) out.links.operation.add(`${kind} ${id} ${link}`);
        if (change.type === 'ledgerEntryState') return;
        (kind === 'C' ? out.balances : out.pools).set(id, change.type === 'ledgerEntryRemoved' ? null : change.value);
      };
      for (const change of before) record(change, null);
      operations.forEach((changes, j) => {
        for (const change of changes) record(change, String(toid(sequence, i + 1, j + 1)));
      });
      for (const change of after) record(change, null);
    });
  }
  return out;
}

/** every history link row, as "C|L <id> <transaction or operation id>" */
const LINKS = `SELECT 'C ' || claimable_balance_id || ' ' || transaction_id AS link, 'transaction' AS kind FROM history_transaction_claimable_balances
  UNION ALL SELECT 'C ' || claimable_balance_id || ' ' || operation_id, 'operation' FROM history_operation_claimable_balances
  UNION ALL SELECT 'L ' || liquidity_pool_id || ' ' || transaction_id, 'transaction' FROM history_transaction_liquidity_pools
  UNION ALL SELECT 'L ' || liquidity_pool_id || ' ' || operation_id, 'operation' FROM history_operation_liquidity_pools
  ORDER BY 1, 2`;

let t: TestDatabase;
const scratch = mkdtempSync(join(tmpdir(), 'zenith-balances-pools-'));

beforeAll(async () => {
  t = await createTestDatabase();
});

afterAll(async () => {
  await t?.drop();
  rmSync(scratch, { recursive: true, force: true });
});

describe("claimable balances and liquidity pools from stellar-core's golden meta", () => {
  it('lists every case of the fixture that changes one', () => {
    expect(coreLcmManifest.cases.filter((c) => CASES.includes(c.name))).toHaveLength(CASES.length);
  });

  it.each(CASES)('%s', { timeout: 300_000 }, async (name) => {
    const c = coreLcmCase(name);
    const folder = join(scratch, c.file);
    const { metas, first, last } = await writeCaseDatastore(c, folder);
    const expected = expectedOf(metas);
    expect(expected.balances.size + expected.pools.size, 'the case changes a balance or a pool').toBeGreaterThan(0);

    await t.db.transaction(async (sql) => {
      for (const table of Object.keys(INGEST_TABLES)) await sql.query(`DELETE FROM ${table}`);
    });
    const ingester = await startIngester({
      db: t.db,
      source: datastoreSource(folder),
      networkPassphrase: coreLcmManifest.networkPassphrase,
    });
    expect(await ingester.done).toBeNull();

    const { balances, claimants, pools, links } = await t.db.session(async (sql) => ({
      balances: await sql.query(
        'SELECT id, asset, amount::text AS amount, sponsor, flags, claimants, last_modified_ledger FROM claimable_balances ORDER BY id',
      ),
      claimants: await sql.query('SELECT id, destination, last_modified_ledger FROM claimable_balance_claimants ORDER BY id, destination'),
      pools: await sql.query(
        `SELECT id, type, fee, trustline_count::text AS trustline_count, share_count::text AS share_count, asset_a, asset_b,
                reserve_a::text AS reserve_a, reserve_b::text AS reserve_b, last_modified_ledger FROM liquidity_pools ORDER BY id`,
      ),
      links: await sql.query<{ link: string; kind: string }>(LINKS),
    }));

    const live = <T>(map: Map<string, xdr.LedgerEntry | null>, row: (id: string, entry: xdr.LedgerEntry) => T): T[] =>
      [...map]
        .filter((pair): pair is [string, xdr.LedgerEntry] => pair[1] !== null)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([id, entry]) => row(id, entry));

    expect(balances).toEqual(
      live(expected.balances, (id, entry) => {
        const b = xdr.expectUnionVariant(entry.data, 'claimableBalance').claimableBalance;
        return {
          id,
          asset: Asset.fromOperation(b.asset).toString(),
          amount: b.amount.toString(),
          sponsor: sponsorOf(entry),
          flags: b.ext.type === 'v1' ? b.ext.v1.flags : 0,
          // every claimant of these cases may claim unconditionally
          claimants: b.claimants.map((cl) => {
            expect(cl.v0.predicate.type).toBe('claimPredicateUnconditional');
            return { destination: accountOf(cl.v0.destination), predicate: { unconditional: true } };
          }),
          last_modified_ledger: entry.lastModifiedLedgerSeq,
        };
      }),
    );
    expect(claimants).toEqual(
      live(expected.balances, (id, entry) =>
        xdr.expectUnionVariant(entry.data, 'claimableBalance').claimableBalance.claimants.map((cl) => ({
          id,
          destination: accountOf(cl.v0.destination),
          last_modified_ledger: entry.lastModifiedLedgerSeq,
        })),
      )
        .flat()
        .sort((a, b) => (`${a.id} ${a.destination}` < `${b.id} ${b.destination}` ? -1 : 1)),
    );
    expect(pools).toEqual(
      live(expected.pools, (id, entry) => {
        const cp = xdr.expectUnionVariant(entry.data, 'liquidityPool').liquidityPool.body.constantProduct;
        return {
          id,
          type: 0,
          fee: cp.params.fee,
          trustline_count: cp.poolSharesTrustLineCount.toString(),
          share_count: cp.totalPoolShares.toString(),
          asset_a: Asset.fromOperation(cp.params.assetA).toString(),
          asset_b: Asset.fromOperation(cp.params.assetB).toString(),
          reserve_a: cp.reserveA.toString(),
          reserve_b: cp.reserveB.toString(),
          last_modified_ledger: entry.lastModifiedLedgerSeq,
        };
      }),
    );
    expect(balances.length + pools.length, 'rows of the entries the meta leaves').toBeGreaterThan(0);
    expect(new Set(links.filter((l) => l.kind === 'transaction').map((l) => l.link))).toEqual(expected.links.transaction);
    expect(new Set(links.filter((l) => l.kind === 'operation').map((l) => l.link))).toEqual(expected.links.operation);
    expect(links).toHaveLength(expected.links.transaction.size + expected.links.operation.size);

    // a reingest, which builds the rows from the ledgers' bytes, deletes and writes the same links
    await t.db.transaction((sql) => deleteHistory(sql, first, last));
    expect(await t.db.session((sql) => sql.query(LINKS))).toEqual([]);
    await reingestRange({
      db: t.db,
      source: datastoreSource(folder),
      networkPassphrase: coreLcmManifest.networkPassphrase,
      from: first,
      to: last,
      workers: 0,
    });
    expect(await t.db.session((sql) => sql.query(LINKS))).toEqual(links);
  });
});

describe('the state writer', () => {
  const A = 'GAUJETIZVEP2NRYLUESJ3LS66NVCEGMON4UDCBCSBEVPIID773P2W6AY';
  const B = 'GC3C4AKRBQLHOJ45U4XG35ESVWRDECWO5XLDGYADO6DPR3L7KIDVUMML';
  const ID = `00000000${'ab'.repeat(32)}`;
  const POOL = 'cd'.repeat(32);
  const write = (state: Partial<StateRows>) =>
    t.db.transaction((sql) => writeState(sql, { state: { ...emptyStateRows(), ...state } } as LedgerRows));
  const read = () =>
    t.db.session(async (sql) => ({
      balances: await sql.query('SELECT id, sponsor, claimants, last_modified_ledger FROM claimable_balances'),
      claimants: await sql.query('SELECT id, destination, last_modified_ledger FROM claimable_balance_claimants ORDER BY destination'),
      pools: await sql.query('SELECT id, reserve_a::text AS reserve_a, last_modified_ledger FROM liquidity_pools'),
    }));
  const balance = (ledger: number, destinations: string[], sponsor: string | null) => ({
    claimableBalances: [
      {
        id: ID,
        asset: 'native',
        amount: 1n,
        sponsor,
        flags: 0,
        claimants: destinations.map((destination) => ({ destination, predicate: { unconditional: true as const } })),
        last_modified_ledger: ledger,
      },
    ],
    claimableBalanceClaimants: destinations.map((destination) => ({ id: ID, destination, last_modified_ledger: ledger })),
  });
  const pool = (ledger: number, reserve: bigint) => ({
    liquidityPools: [
      {
        id: POOL,
        type: 0,
        fee: 30,
        trustline_count: 1n,
        share_count: 1n,
        asset_a: 'native',
        asset_b: `USD:${A}`,
        reserve_a: reserve,
        reserve_b: 1n,
        last_modified_ledger: ledger,
      },
    ],
  });

  it('creates, updates (claimants replaced with the balance) and removes balances and pools', async () => {
    await t.db.transaction(async (sql) => {
      for (const table of Object.keys(INGEST_TABLES)) await sql.query(`DELETE FROM ${table}`);
    });
    await write({ ...balance(5, [A, B], null), ...pool(5, 10n) });
    expect(await read()).toEqual({
      balances: [
        {
          id: ID,
          sponsor: null,
          claimants: [
            { destination: A, predicate: { unconditional: true } },
            { destination: B, predicate: { unconditional: true } },
          ],
          last_modified_ledger: 5,
        },
      ],
      claimants: [
        { id: ID, destination: A, last_modified_ledger: 5 },
        { id: ID, destination: B, last_modified_ledger: 5 },
      ],
      pools: [{ id: POOL, reserve_a: '10', last_modified_ledger: 5 }],
    });
    await write({ ...balance(6, [B], A), ...pool(6, 20n) });
    expect(await read()).toEqual({
      balances: [{ id: ID, sponsor: A, claimants: [{ destination: B, predicate: { unconditional: true } }], last_modified_ledger: 6 }],
      claimants: [{ id: ID, destination: B, last_modified_ledger: 6 }],
      pools: [{ id: POOL, reserve_a: '20', last_modified_ledger: 6 }],
    });
    await write({ removedClaimableBalances: [ID], removedLiquidityPools: [POOL] });
    expect(await read()).toEqual({ balances: [], claimants: [], pools: [] });
  });
});
