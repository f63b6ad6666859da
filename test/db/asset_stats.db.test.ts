// Asset stats kept by the triggers of migration 0011 on trust_lines, claimable_balances and
// liquidity_pools, against the expectations of Horizon's asset stats processor
// (stellar-horizon internal/ingest/processors/asset_stats_processor_test.go and
// asset_stats_set_test.go): trust lines counted and summed by authorization, claimable balances
// and pools by asset, native and pool shares left out, a stat removed with its last holder; and
// the ingester's own statements (upserts, keyed deletes) and TRUNCATE keep them exact.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SqlSession } from '../../src/db/database.js';
import { migrate, readMigrations } from '../../src/db/migrate.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

const ISSUER = 'GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H';
const OTHER = 'GA5WBPYA5Y4WAEHXWR2UKO2UO4BUGHUQ74EUPKON2QHV4WRHOIRNKKH2';
const A = 'GCXKG6RN4ONIEPCMNFB732A436Z5PNDSRLGWK7GBLCMQLIFO4S7EYWVU';
const B = 'GBXGQJWVLWOYHFLVTKWV5FGHA3LNYY2JQKM7OAJAUEQFU6LPCSEFVXON';
const C = 'GAXMF43TGZHW3QN3REOUA2U5PW5BTARXGGYJ3JIFHW3YT6QRKRL3CPPU';
const POOL = 'dd7b1ab831c273310ddbec6f97870aa83c2fbd78ce22aded37ecbf4f3380fac7';

const AUTHORIZED = 1;
const MAINTAIN_LIABILITIES = 2;

interface Stat {
  asset: string;
  accounts: [number, number, number];
  balances: [string, string, string];
  claimable: [number, string];
  pools: [number, string];
}

async function stats(sql: SqlSession): Promise<Stat[]> {
  const rows = await sql.query<Record<string, string | number>>(
    `SELECT asset_type, asset_code, asset_issuer, accounts_authorized, accounts_authorized_to_maintain_liabilities, accounts_unauthorized,
       balances_authorized::numeric(65,0)::text AS ba, balances_authorized_to_maintain_liabilities::numeric(65,0)::text AS bm,
       balances_unauthorized::numeric(65,0)::text AS bu, num_claimable_balances, claimable_balances_amount::numeric(65,0)::text AS ca,
       num_liquidity_pools, liquidity_pools_amount::numeric(65,0)::text AS pa
     FROM asset_stats ORDER BY asset_code, asset_issuer`,
  );
  return rows.map((r) => ({
    asset: `${r.asset_type}:${r.asset_code}:${r.asset_issuer}`,
    accounts: [Number(r.accounts_authorized), Number(r.accounts_authorized_to_maintain_liabilities), Number(r.accounts_unauthorized)],
    balances: [String(r.ba), String(r.bm), String(r.bu)],
    claimable: [Number(r.num_claimable_balances), String(r.ca)],
    pools: [Number(r.num_liquidity_pools), String(r.pa)],
  }));
}

/** The stats recomputed from scratch, for comparison with the incremental ones. */
async function rebuilt(sql: SqlSession): Promise<Stat[]> {
  await sql.query('SELECT asset_stats_rebuild()');
  return stats(sql);
}

function stat(asset: string, partial: Partial<Omit<Stat, 'asset'>>): Stat {
  return {
    asset,
    accounts: [0, 0, 0],
    balances: ['0', '0', '0'],
    claimable: [0, '0'],
    pools: [0, '0'],
    ...partial,
  };
}

const USD = `credit_alphanum4:USD:${ISSUER}`;
const EUR = `credit_alphanum4:EUR:${OTHER}`;
const ETHER = `credit_alphanum12:ETHER:${ISSUER}`;

// the ingester's statements (src/ingest/writer.ts): upserts on the key, keyed deletes
async function upsertTrustLine(
  sql: SqlSession,
  account: string,
  code: string,
  issuer: string,
  balance: bigint,
  flags: number,
): Promise<void> {
  await sql.query(
    `INSERT INTO trust_lines (account_id, asset_type, asset_code, asset_issuer, liquidity_pool_id, balance, "limit", flags, last_modified_ledger)
     VALUES ($1, $2, $3, $4, '', $5, 9223372036854775807, $6, 1)
     ON CONFLICT (account_id, asset_code, asset_issuer, liquidity_pool_id) DO UPDATE SET balance = EXCLUDED.balance, flags = EXCLUDED.flags`,
    [account, code.length <= 4 ? 'credit_alphanum4' : 'credit_alphanum12', code, issuer, balance.toString(), flags],
  );
}

async function removeTrustLine(sql: SqlSession, account: string, code: string, issuer: string): Promise<void> {
  await sql.query(`DELETE FROM trust_lines WHERE account_id = $1 AND asset_code = $2 AND asset_issuer = $3 AND liquidity_pool_id = ''`, [
    account,
    code,
    issuer,
  ]);
}

async function upsertBalance(sql: SqlSession, id: string, asset: string, amount: bigint): Promise<void> {
  await sql.query(
    `INSERT INTO claimable_balances (id, asset, amount, flags, claimants, last_modified_ledger) VALUES ($1, $2, $3, 0, '[]', 1)
     ON CONFLICT (id) DO UPDATE SET amount = EXCLUDED.amount`,
    [id, asset, amount.toString()],
  );
}

async function upsertPool(sql: SqlSession, id: string, assetA: string, assetB: string, reserveA: bigint, reserveB: bigint): Promise<void> {
  await sql.query(
    `INSERT INTO liquidity_pools (id, type, fee, trustline_count, share_count, asset_a, asset_b, reserve_a, reserve_b, last_modified_ledger)
     VALUES ($1, 0, 30, 1, 100, $2, $3, $4, $5, 1)
     ON CONFLICT (id) DO UPDATE SET reserve_a = EXCLUDED.reserve_a, reserve_b = EXCLUDED.reserve_b`,
    [id, assetA, assetB, reserveA.toString(), reserveB.toString()],
  );
}

describe('asset stats kept by triggers', () => {
  let test: TestDatabase;
  const run = <T>(work: (sql: SqlSession) => Promise<T>): Promise<T> => test.db.transaction(work);

  beforeAll(async () => {
    test = await createTestDatabase();
  });
  afterAll(() => test.drop());
  beforeEach(() => run((sql) => sql.exec('TRUNCATE trust_lines, claimable_balances, liquidity_pools')));

  it('counts a new trust line by its authorization, with its balance (TestInsertTrustLine)', async () => {
    await run(async (sql) => {
      await upsertTrustLine(sql, A, 'USD', ISSUER, 0n, AUTHORIZED);
      await upsertTrustLine(sql, B, 'USD', ISSUER, 9n, MAINTAIN_LIABILITIES);
      await upsertTrustLine(sql, C, 'USD', ISSUER, 11n, 0);
      // the clawback flag (4) alone is not an authorization
      await upsertTrustLine(sql, A, 'ETHER', ISSUER, 23n, 4);
      expect(await stats(sql)).toEqual([
        stat(ETHER, { accounts: [0, 0, 1], balances: ['0', '0', '23'] }),
        stat(USD, { accounts: [1, 1, 1], balances: ['0', '9', '11'] }),
      ]);
    });
  });

  it('moves a trust line between authorizations and follows its balance (TestUpdateTrustLine*)', async () => {
    await run(async (sql) => {
      await upsertTrustLine(sql, A, 'USD', ISSUER, 10n, AUTHORIZED);
      await upsertTrustLine(sql, B, 'USD', ISSUER, 5n, AUTHORIZED);
      await upsertTrustLine(sql, A, 'USD', ISSUER, 100n, AUTHORIZED);
      expect(await stats(sql)).toEqual([stat(USD, { accounts: [2, 0, 0], balances: ['105', '0', '0'] })]);
      // authorized and maintain-liabilities both set: authorized wins (Horizon's addByFlags)
      await upsertTrustLine(sql, A, 'USD', ISSUER, 100n, AUTHORIZED | MAINTAIN_LIABILITIES);
      await upsertTrustLine(sql, B, 'USD', ISSUER, 5n, MAINTAIN_LIABILITIES);
      expect(await stats(sql)).toEqual([stat(USD, { accounts: [1, 1, 0], balances: ['100', '5', '0'] })]);
      await upsertTrustLine(sql, B, 'USD', ISSUER, 0n, 0);
      expect(await stats(sql)).toEqual([stat(USD, { accounts: [1, 0, 1], balances: ['100', '0', '0'] })]);
    });
  });

  it('removes the stat with its last trust line (TestRemoveTrustLine)', async () => {
    await run(async (sql) => {
      await upsertTrustLine(sql, A, 'USD', ISSUER, 0n, AUTHORIZED);
      await upsertTrustLine(sql, B, 'USD', ISSUER, 0n, 0);
      await removeTrustLine(sql, A, 'USD', ISSUER);
      expect(await stats(sql)).toEqual([stat(USD, { accounts: [0, 0, 1] })]);
      await removeTrustLine(sql, B, 'USD', ISSUER);
      expect(await stats(sql)).toEqual([]);
    });
  });

  it('leaves out pool shares and native claimable balances and reserves', async () => {
    await run(async (sql) => {
      await sql.query(
        `INSERT INTO trust_lines (account_id, asset_type, asset_code, asset_issuer, liquidity_pool_id, balance, "limit", flags, last_modified_ledger)
         VALUES ($1, 'liquidity_pool_shares', '', '', $2, 50, 100, 1, 1)`,
        [A, POOL],
      );
      await upsertBalance(sql, '00000000aa', 'native', 10n);
      await upsertPool(sql, POOL, 'native', `USD:${ISSUER}`, 7n, 8n);
      expect(await stats(sql)).toEqual([stat(USD, { pools: [1, '8'] })]);
    });
  });

  it('counts claimable balances and their amounts (TestInsertClaimableBalance, TestRemoveClaimableBalance)', async () => {
    await run(async (sql) => {
      await upsertBalance(sql, '00000000aa', `USD:${ISSUER}`, 10n);
      await upsertBalance(sql, '00000000bb', `USD:${ISSUER}`, 20n);
      await upsertBalance(sql, '00000000cc', `ETHER:${ISSUER}`, 5n);
      expect(await stats(sql)).toEqual([stat(ETHER, { claimable: [1, '5'] }), stat(USD, { claimable: [2, '30'] })]);
      await sql.query(`DELETE FROM claimable_balances WHERE id = ANY($1)`, [['00000000aa', '00000000cc']]);
      expect(await stats(sql)).toEqual([stat(USD, { claimable: [1, '20'] })]);
    });
  });

  it('counts a pool for each of its assets with its reserve, and follows the reserves (TestInsertLiquidityPool, TestUpdateLiquidityPool)', async () => {
    await run(async (sql) => {
      await upsertPool(sql, POOL, `EUR:${OTHER}`, `USD:${ISSUER}`, 100n, 200n);
      expect(await stats(sql)).toEqual([stat(EUR, { pools: [1, '100'] }), stat(USD, { pools: [1, '200'] })]);
      await upsertPool(sql, POOL, `EUR:${OTHER}`, `USD:${ISSUER}`, 150n, 120n);
      expect(await stats(sql)).toEqual([stat(EUR, { pools: [1, '150'] }), stat(USD, { pools: [1, '120'] })]);
      await sql.query('DELETE FROM liquidity_pools WHERE id = $1', [POOL]);
      expect(await stats(sql)).toEqual([]);
    });
  });

  it('keeps a stat while any holder remains, whatever its kind', async () => {
    await run(async (sql) => {
      await upsertTrustLine(sql, A, 'USD', ISSUER, 10n, AUTHORIZED);
      await upsertBalance(sql, '00000000aa', `USD:${ISSUER}`, 3n);
      await removeTrustLine(sql, A, 'USD', ISSUER);
      expect(await stats(sql)).toEqual([stat(USD, { claimable: [1, '3'] })]);
    });
  });

  it('sums beyond int64 (Horizon keeps big integers)', async () => {
    await run(async (sql) => {
      await upsertTrustLine(sql, A, 'USD', ISSUER, 9_223_372_036_854_775_807n, AUTHORIZED);
      await upsertTrustLine(sql, B, 'USD', ISSUER, 9_223_372_036_854_775_807n, AUTHORIZED);
      expect(await stats(sql)).toEqual([stat(USD, { accounts: [2, 0, 0], balances: ['18446744073709551614', '0', '0'] })]);
    });
  });

  it('agrees with a rebuild after many statements of several rows, and after TRUNCATE', async () => {
    await run(async (sql) => {
      const accounts = [A, B, C, ISSUER, OTHER];
      let seed = 7;
      const next = (n: number) => {
        seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
        return seed % n;
      };
      for (let step = 0; step < 60; step++) {
        const code = ['USD', 'EUR', 'ETHER'][next(3)] as string;
        const issuer = [ISSUER, OTHER][next(2)] as string;
        const account = accounts[next(accounts.length)] as string;
        const kind = next(5);
        if (kind === 0) await removeTrustLine(sql, account, code, issuer);
        else if (kind === 1) await upsertBalance(sql, `0000000${next(4)}`, `${code}:${issuer}`, BigInt(next(1000)));
        else if (kind === 2) await upsertPool(sql, `${next(3)}`.repeat(64), `${code}:${issuer}`, 'native', BigInt(next(1000)), 1n);
        else await upsertTrustLine(sql, account, code, issuer, BigInt(next(1000)), next(4));
      }
      // one statement over many rows of several assets
      await sql.query(`UPDATE trust_lines SET flags = (flags + 1) % 4, balance = balance + 1`);
      await sql.query(`DELETE FROM claimable_balances WHERE amount % 2 = 0`);
      const incremental = await stats(sql);
      expect(incremental.length).toBeGreaterThan(0);
      expect(await rebuilt(sql)).toEqual(incremental);
      await sql.exec('TRUNCATE trust_lines');
      const afterTruncate = await stats(sql);
      expect(afterTruncate.every((s) => s.accounts.every((n) => n === 0))).toBe(true);
      expect(await rebuilt(sql)).toEqual(afterTruncate);
    });
  });

  it('rolls back with the ledger transaction', async () => {
    await expect(
      run(async (sql) => {
        await upsertTrustLine(sql, A, 'USD', ISSUER, 10n, AUTHORIZED);
        throw new Error('ledger failed');
      }),
    ).rejects.toThrow('ledger failed');
    expect(await run(stats)).toEqual([]);
  });
});

describe('migration 0011 on a database with state', () => {
  let test: TestDatabase;

  beforeAll(async () => {
    test = await createTestDatabase({ migrated: false });
  });
  afterAll(() => test.drop());

  it('computes the stats of the rows already there', async () => {
    await migrate(
      test.db,
      readMigrations().filter((m) => m.name < '0011'),
    );
    await test.db.transaction(async (sql) => {
      await upsertTrustLine(sql, A, 'USD', ISSUER, 10n, AUTHORIZED);
      await upsertTrustLine(sql, B, 'USD', ISSUER, 0n, 0);
      await upsertBalance(sql, '00000000aa', `USD:${ISSUER}`, 4n);
      await upsertPool(sql, POOL, `EUR:${OTHER}`, `USD:${ISSUER}`, 1n, 2n);
    });
    await migrate(test.db);
    expect(await test.db.session(stats)).toEqual([
      stat(EUR, { pools: [1, '1'] }),
      stat(USD, { accounts: [1, 0, 1], balances: ['10', '0', '0'], claimable: [1, '4'], pools: [1, '2'] }),
    ]);
  });
});
