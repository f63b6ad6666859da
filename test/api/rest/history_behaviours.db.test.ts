// Horizon's smaller history behaviours, from its action tests: join=transactions on operations
// (operation_test.go TestGetOperations_IncludeTransactions, TestOperation_IncludeTransaction), a
// transaction's failed operations (TestGetOperationsIncludeFailed), a fee-bump transaction looked
// up by its inner hash (transaction_test.go TestFeeBumpTransactionResource, resourceadapter's
// TestFeeBumpTransaction, whose row this uses), and a merged account's history.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toid } from '../../../src/stellar/toid.js';
import { getJson, getRecords, postGraphQL, serveTestApi, type Json, type TestApi } from '../../support/api_server.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { ALICE, BOB, ROOT, seedLedger, seedScenario, type Scenario } from '../../support/seed.js';

let test: TestDatabase;
let api: TestApi;
let base: string;
let scenario: Scenario;

// an account merged away at ledger 4: history, no account row
const MERGED = 'GAQAA5L65LSYH7CQ3VTJ7F3HHLGCL3DSLAR2Y47263D56MNNGHSQSTVY';
const UNKNOWN = 'GDRXE2BQUC3AZNPVFSCEZ76NJ3WWL25FYFK6RGZGIEKWE4SOOHSUJUJ6';
// resourceadapter's TestFeeBumpTransaction row
const OUTER = 'cebb875a00ff6e1383aef0fd251a76f22c1f9ab2a2dffcb077855736ade2659a';
const INNER = '2374e99349b9ef7dba9a5db3339b78fda8f34777b1af33ba468ad5c0df946d4d';
const FEE_ACCOUNT = 'GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ';

beforeAll(async () => {
  test = await createTestDatabase();
  scenario = await seedScenario(test.db);
  await seedLedger(test.db, 4, [
    {
      source: MERGED,
      operations: [{ type: 8, source: MERGED, details: { account: MERGED, into: ROOT }, participants: [ROOT] }],
    },
  ]);
  await seedLedger(test.db, 5, [
    { source: ALICE, operations: [{ type: 1, source: ALICE, details: { from: ALICE, to: BOB }, participants: [BOB] }] },
  ]);
  const id = toid(5, 1, 0);
  await test.db.prisma.transaction.update({
    where: { id },
    data: {
      hash: OUTER,
      innerTransactionHash: INNER,
      signatures: ['a', 'b', 'c'],
      innerSignatures: ['d', 'e', 'f'],
      feeAccount: FEE_ACCOUNT,
      maxFee: 123n,
      newMaxFee: 10000n,
      feeCharged: 100n,
    },
  });
  await test.db.prisma.operation.updateMany({ where: { transactionId: id }, data: { transactionHash: OUTER } });
  api = await serveTestApi(test);
  ({ base } = api);
});

afterAll(async () => {
  await api.close();
  await test.drop();
});

const get = (path: string, status = 200) => getJson(base, path, status);
const records = (path: string) => getRecords(base, path);

describe('join=transactions', () => {
  it('refuses another value, naming join (TestGetOperations_IncludeTransactions)', async () => {
    for (const path of ['/operations', '/payments', `/accounts/${ALICE}/operations`, `/operations/${toid(2, 1, 1)}`]) {
      expect(await get(`${path}?join=accounts`, 400), path).toMatchObject({
        extras: { invalid_field: 'join', reason: 'Accepted values: transactions' },
      });
    }
  });

  it('embeds each operation’s transaction as GET /transactions/{hash} renders it, on every operation list', async () => {
    for (const path of [
      '/operations',
      '/payments',
      `/accounts/${ALICE}/operations`,
      `/accounts/${ALICE}/payments`,
      '/ledgers/3/operations',
      `/transactions/${scenario.hashes[3]?.[0]}/payments`,
    ]) {
      const joined = await records(`${path}?join=transactions&limit=1`);
      expect(joined, path).toHaveLength(1);
      const [op] = joined as [Json];
      expect(op.transaction.id, path).toBe(op.transaction_hash);
      expect(op.transaction).toEqual(await get(`/transactions/${op.transaction_hash}`));
      expect((await records(`${path}?limit=1`))[0], path).not.toHaveProperty('transaction');
    }
  });

  it('keeps join in the page links, as Horizon keeps the query', async () => {
    const page = await get('/operations?join=transactions&limit=1');
    expect(page._links.next.href).toBe(
      `${base}/operations?cursor=${page._embedded.records[0].paging_token}&join=transactions&limit=1&order=asc`,
    );
  });

  it('embeds the transaction of one operation (TestOperation_IncludeTransaction)', async () => {
    const id = toid(2, 1, 1);
    expect(await get(`/operations/${id}`)).not.toHaveProperty('transaction');
    const op = await get(`/operations/${id}?join=transactions`);
    expect(op.transaction).toMatchObject({ id: op.transaction_hash, hash: scenario.hashes[2]?.[0], ledger: 2 });
    expect(op.transaction._links.self).toEqual({ href: `${base}/transactions/${op.transaction_hash}` });
  });
});

describe('a transaction’s operations', () => {
  it('are listed failed or not, include_failed aside (TestGetOperationsIncludeFailed)', async () => {
    const failed = scenario.hashes[3]?.[1] as string;
    for (const query of ['', '?include_failed=false', '?include_failed=true']) {
      for (const list of ['operations', 'payments']) {
        const ops = await records(`/transactions/${failed}/${list}${query}`);
        expect(
          ops.map((op) => op.transaction_successful),
          `${list}${query}`,
        ).toEqual([false]);
      }
    }
    expect((await records(`/transactions/${scenario.hashes[3]?.[0]}/operations`)).map((op) => op.transaction_successful)).toEqual([true]);
    // the other lists keep Horizon's rule: failed ones only with include_failed=true
    expect((await records('/operations?limit=200')).some((op) => !op.transaction_successful)).toBe(false);
    expect((await records('/operations?limit=200&include_failed=true')).filter((op) => !op.transaction_successful)).toHaveLength(1);
    // Go's ParseBool, and Horizon's message otherwise
    expect((await records('/operations?limit=200&include_failed=T')).filter((op) => !op.transaction_successful)).toHaveLength(1);
    expect(await get('/operations?include_failed=foo', 400)).toMatchObject({
      extras: { invalid_field: 'include_failed', reason: 'Filter should be true or false' },
    });
  });
});

describe('a fee-bump transaction by its inner hash (TestFeeBumpTransactionResource)', () => {
  it('is shown under the hash asked, with the inner signatures, and otherwise as by its own hash', async () => {
    const byOuter = await get(`/transactions/${OUTER}`);
    expect(byOuter).toMatchObject({
      id: OUTER,
      hash: OUTER,
      signatures: ['a', 'b', 'c'],
      fee_account: FEE_ACCOUNT,
      max_fee: '10000',
      fee_charged: '100',
      fee_bump_transaction: { hash: OUTER, signatures: ['a', 'b', 'c'] },
      inner_transaction: { hash: INNER, max_fee: '123', signatures: ['d', 'e', 'f'] },
      _links: { self: { href: `${base}/transactions/${OUTER}` }, transaction: { href: `${base}/transactions/${OUTER}` } },
    });
    const byInner = await get(`/transactions/${INNER}`);
    expect(byInner).toMatchObject({
      id: INNER,
      hash: INNER,
      signatures: ['d', 'e', 'f'],
      _links: { self: { href: `${base}/transactions/${INNER}` }, transaction: { href: `${base}/transactions/${INNER}` } },
    });
    const { hash, id, signatures, _links, ...rest } = byInner;
    const { hash: _h, id: _i, signatures: _s, _links: _l, ...outerRest } = byOuter;
    expect(rest).toEqual(outerRest);
    expect((await records(`/transactions/${INNER}/operations`)).map((op) => op.transaction_hash)).toEqual([OUTER]);
  });

  it('is shown the same way in GraphQL', async () => {
    const answer = await postGraphQL(
      base,
      `{ transaction(hash: "${INNER}") { hash signatures feeBumpTransaction { hash } innerTransaction { hash } } }`,
    );
    expect(answer.data.transaction).toEqual({
      hash: INNER,
      signatures: ['d', 'e', 'f'],
      feeBumpTransaction: { hash: OUTER },
      innerTransaction: { hash: INNER },
    });
  });
});

describe('a merged account’s history', () => {
  it('lists its operations and trades without the account; an account the history never saw is a 404', async () => {
    await get(`/accounts/${MERGED}`, 404);
    expect((await records(`/accounts/${MERGED}/operations`)).map((op) => op.type)).toEqual(['account_merge']);
    expect(await records(`/accounts/${MERGED}/trades`)).toEqual([]);
    await get(`/accounts/${UNKNOWN}/operations`, 404);
    await get(`/accounts/${UNKNOWN}/trades`, 404);
  });
});
