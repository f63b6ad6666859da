// Claimable balances and liquidity pools in GraphQL: an account's balances (as a claimant) with
// their sponsors in a number of SQL statements that does not grow with the page size, a pool's
// history lists, coded errors, and the subscriptions to a balance's operations and a pool's effects.
import { Asset } from '@stellar/stellar-sdk';
import { execute, parse, subscribe, validate, type ExecutionResult } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext, type ApiServices } from '../../src/api/context.js';
import { complexityErrors, graphqlLimitsOf, parseWithTokenLimit, queryLimitRules } from '../../src/api/graphql_limits.js';
import { defaultConfig } from '../../src/config.js';
import { schema } from '../../src/api/schema/index.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrate.js';
import { inProcessLedgerEvents } from '../../src/events/ledger_events.js';
import { toid } from '../../src/stellar/toid.js';
import { createServerDatabase, dropServerDatabase, testDbKind } from '../support/database.js';
import { ALICE, BOB, ISSUER, seedAccount, seedLedger } from '../support/seed.js';
import { balanceId, linkHistory, seedClaimableBalance, seedPool } from '../support/seed_balances_pools.js';
import { testServices } from '../support/api_server.js';

let db: Database;
let url: string | undefined;
const statements: string[] = [];
const events = inProcessLedgerEvents();
let pool: string;
const BALANCES = 30;
const USD = `USD:${ISSUER}`;

beforeAll(async () => {
  if (testDbKind === 'postgres') {
    url = await createServerDatabase();
    db = await openDatabase({ kind: 'postgres', url }, { onQuery: (sql) => statements.push(sql) });
  } else {
    db = await openDatabase({ kind: 'pglite', inMemory: true }, { onQuery: (sql) => statements.push(sql) });
  }
  await migrate(db);
  await seedAccount(db, { id: ALICE, balance: 1_000_000_000n });
  await seedAccount(db, { id: BOB, balance: 1_000_000_000n });
  // Bob may claim 30 balances; those of an asset are sponsored by Alice (and the others by none)
  for (let i = 1; i <= BALANCES; i++) {
    await seedClaimableBalance(db, { id: balanceId(i), account: BOB, ledger: 10 + i, ...(i % 2 ? { asset: USD } : {}) });
    if (i % 2) await db.prisma.claimableBalance.update({ where: { id: balanceId(i) }, data: { sponsor: ALICE } });
  }
  pool = await seedPool(db, Asset.native(), 100n, new Asset('USD', ISSUER), 200n);
  await seedLedger(db, 5, [
    { source: BOB, operations: [{ type: 15, source: BOB, details: { balance_id: balanceId(1) }, participants: [] }] },
    {
      source: ALICE,
      operations: [
        {
          type: 22,
          source: ALICE,
          details: { liquidity_pool_id: pool },
          participants: [],
          effects: [{ account: ALICE, type: 90, details: { shares_received: '0.0000010' } }],
        },
      ],
    },
  ]);
  await linkHistory(db, { operationId: toid(5, 1, 1), transactionId: toid(5, 1, 0), claimableBalanceId: balanceId(1) });
  await linkHistory(db, { operationId: toid(5, 2, 1), transactionId: toid(5, 2, 0), liquidityPoolId: pool });
});

afterAll(async () => {
  await db.close();
  if (url) await dropServerDatabase(url);
});

const services = (): ApiServices => testServices(db, events);

const limits = graphqlLimitsOf(defaultConfig());

async function query(text: string, variables: Record<string, unknown> = {}): Promise<ExecutionResult> {
  // the server's checks, in its order: tokens, the rules, the cost
  const document = parseWithTokenLimit(limits.maxTokens)(text);
  const errors = validate(schema, document, queryLimitRules(limits));
  if (errors.length > 0) return { errors };
  const contextValue = createContext(services());
  const refused = complexityErrors({ schema, document, variableValues: variables, contextValue, maxComplexity: limits.maxComplexity });
  if (refused.length > 0) return { errors: refused };
  return execute({ schema, document, contextValue, variableValues: variables });
}

// biome-ignore lint/suspicious/noExplicitAny: the tests read deep paths of answers they just checked
type Json = Record<string, any>;

const data = async (text: string, variables: Record<string, unknown> = {}): Promise<Json> => {
  const result = await query(text, variables);
  expect(result.errors).toBeUndefined();
  return result.data as Json;
};

const errorCode = async (text: string) => {
  const result = await query(text);
  const error = result.errors?.[0];
  const problem = (error?.originalError as { problem?: { type: string; extras?: { invalid_field?: string } } } | undefined)?.problem;
  return { code: problem?.type, field: problem?.extras?.invalid_field };
};

const NESTED = `query($id: String!, $first: Int) {
  account(id: $id) {
    claimableBalances(first: $first) {
      edges { cursor node { balanceId asset amount pagingToken lastModifiedTime claimants { destination predicate } flags { clawbackEnabled }
        sponsorId sponsor { accountId sequence lastModifiedTime balances { balance assetType } } } }
    }
  }
}`;

describe('GraphQL claimable balances and pools', () => {
  it('answers an account’s claimable balances with their sponsors', async () => {
    const result = await data(NESTED, { id: BOB, first: 3 });
    const edges = result.account.claimableBalances.edges as Json[];
    expect(edges.map((edge) => edge.node.balanceId)).toEqual([balanceId(1), balanceId(2), balanceId(3)]);
    expect(edges[0]!.cursor).toBe(`11-${balanceId(1)}`);
    expect(edges[0]!.node).toMatchObject({
      asset: USD,
      amount: '0.0000010',
      pagingToken: `11-${balanceId(1)}`,
      lastModifiedTime: null,
      claimants: [{ destination: BOB, predicate: { unconditional: true } }],
      flags: { clawbackEnabled: false },
      sponsorId: ALICE,
      sponsor: { accountId: ALICE, sequence: '8589934592', lastModifiedTime: null },
    });
    expect(edges[1]!.node).toMatchObject({ asset: 'native', sponsorId: null, sponsor: null });
  });

  it('runs a number of SQL statements that does not grow with the page size (account → claimable balances → sponsor)', async () => {
    const counts: number[] = [];
    for (const first of [2, BALANCES]) {
      statements.length = 0;
      const result = await data(NESTED, { id: BOB, first });
      expect(result.account.claimableBalances.edges).toHaveLength(first);
      counts.push(statements.filter((sql) => /\bselect\b/i.test(sql)).length);
    }
    console.info(`SQL statements (account → claimable balances → sponsor): first=2: ${counts[0]}, first=${BALANCES}: ${counts[1]}`);
    expect(counts[1]).toBe(counts[0]);
    expect(counts[1]).toBeLessThanOrEqual(5);
  });

  it('lists balances by filter and pages them', async () => {
    const page = await data(
      `{ claimableBalances(sponsor: "${ALICE}", first: 2, order: desc) { edges { cursor } pageInfo { hasNextPage } } }`,
    );
    expect(page.claimableBalances.edges.map((edge: Json) => edge.cursor)).toEqual([`39-${balanceId(29)}`, `37-${balanceId(27)}`]);
    expect(page.claimableBalances.pageInfo.hasNextPage).toBe(true);
    const usd = await data(`{ claimableBalances(asset: "${USD}", claimant: "${BOB}", first: 200) { edges { node { asset } } } }`);
    expect(usd.claimableBalances.edges).toHaveLength(BALANCES / 2);
    const one = await data(
      `{ claimableBalance(id: "${balanceId(1)}") { balanceId operations { edges { node { id pagingToken type } } } transactions { edges { node { hash } } } } }`,
    );
    expect(one.claimableBalance.operations.edges.map((edge: Json) => edge.node.pagingToken)).toEqual([String(toid(5, 1, 1))]);
    expect(one.claimableBalance.transactions.edges).toHaveLength(1);
    expect((await data(`{ claimableBalance(id: "${balanceId(99)}") { balanceId } }`)).claimableBalance).toBeNull();
  });

  it('answers a pool, the pools of an asset, and its operations, transactions and effects', async () => {
    const result = await data(`{
      liquidityPools(reserves: ["native", "${USD}"]) { edges { node { liquidityPoolId } } }
      liquidityPool(id: "${pool}") {
        liquidityPoolId pagingToken feeBp type totalTrustlines totalShares reserves { asset amount } lastModifiedLedger
        operations { edges { node { pagingToken type } } }
        transactions { edges { node { pagingToken } } }
        effects { edges { node { type pagingToken } } }
      }
    }`);
    expect(result.liquidityPools.edges.map((edge: Json) => edge.node.liquidityPoolId)).toEqual([pool]);
    expect(result.liquidityPool).toEqual({
      liquidityPoolId: pool,
      pagingToken: pool,
      feeBp: 30,
      type: 'constant_product',
      totalTrustlines: '12345',
      totalShares: '0.0067890',
      reserves: [
        { asset: 'native', amount: '0.0000100' },
        { asset: USD, amount: '0.0000200' },
      ],
      lastModifiedLedger: 123,
      operations: { edges: [{ node: { pagingToken: String(toid(5, 2, 1)), type: 'liquidity_pool_deposit' } }] },
      transactions: { edges: [{ node: { pagingToken: String(toid(5, 2, 0)) } }] },
      effects: { edges: [{ node: { type: 'liquidity_pool_deposited', pagingToken: `${toid(5, 2, 1)}-1` } }] },
    });
    const rooted = await data(`{ effects(forLiquidityPool: "${pool}") { edges { node { type } } } }`);
    expect(rooted.effects.edges).toHaveLength(1);
  });

  it('codes its errors', async () => {
    expect(await errorCode('{ claimableBalance(id: "0000001112122") { balanceId } }')).toEqual({ code: 'bad_request', field: 'id' });
    expect(await errorCode('{ liquidityPool(id: "XYZ") { liquidityPoolId } }')).toEqual({ code: 'bad_request', field: 'id' });
    expect(await errorCode('{ claimableBalances(asset: "Native") { edges { cursor } } }')).toEqual({ code: 'bad_request', field: 'asset' });
    expect(await errorCode('{ claimableBalances(sponsor: "G") { edges { cursor } } }')).toEqual({ code: 'bad_request', field: 'sponsor' });
    expect(await errorCode('{ claimableBalances(claimant: "G") { edges { cursor } } }')).toEqual({
      code: 'bad_request',
      field: 'claimant',
    });
    expect(await errorCode('{ claimableBalances(after: "1-2") { edges { cursor } } }')).toEqual({ code: 'bad_request', field: 'cursor' });
    expect(await errorCode('{ liquidityPools(reserves: ["native", "native", "native"]) { edges { cursor } } }')).toEqual({
      code: 'bad_request',
      field: 'reserves',
    });
    expect(await errorCode('{ liquidityPools(reserves: ["USD"]) { edges { cursor } } }')).toEqual({
      code: 'bad_request',
      field: 'reserves',
    });
    expect(await errorCode(`{ liquidityPools(account: "${BOB}", reserves: ["native"]) { edges { cursor } } }`)).toEqual({
      code: 'bad_request',
      field: 'account',
    });
    expect(await errorCode(`{ operations(forAccount: "${BOB}", forLiquidityPool: "${pool}") { edges { cursor } } }`)).toEqual({
      code: 'bad_request',
      field: 'filters',
    });
    expect(await errorCode(`{ operations(forClaimableBalance: "${balanceId(99)}") { edges { cursor } } }`)).toEqual({
      code: 'not_found',
      field: undefined,
    });
  });

  it("follows a claimable balance's operations and a pool's effects", async () => {
    const follow = async (text: string) => {
      const contextValue = createContext(services());
      return (await subscribe({ schema, document: parse(text), contextValue })) as AsyncGenerator<ExecutionResult>;
    };
    const operations = await follow(`subscription { operations(forClaimableBalance: "${balanceId(1)}") { pagingToken type } }`);
    expect((await operations.next()).value.data).toEqual({
      operations: { pagingToken: String(toid(5, 1, 1)), type: 'claim_claimable_balance' },
    });
    const effects = await follow(`subscription { effects(forLiquidityPool: "${pool}") { pagingToken type } }`);
    expect((await effects.next()).value.data).toEqual({ effects: { pagingToken: `${toid(5, 2, 1)}-1`, type: 'liquidity_pool_deposited' } });
    // a new ledger with another withdrawal from the pool: followed
    const following = effects.next();
    await seedLedger(db, 6, [
      {
        source: ALICE,
        operations: [
          {
            type: 23,
            source: ALICE,
            details: { liquidity_pool_id: pool },
            participants: [],
            effects: [{ account: ALICE, type: 91, details: { shares_redeemed: '0.0000010' } }],
          },
        ],
      },
    ]);
    await linkHistory(db, { operationId: toid(6, 1, 1), transactionId: toid(6, 1, 0), liquidityPoolId: pool });
    await events.publish(6);
    expect((await following).value.data).toEqual({ effects: { pagingToken: `${toid(6, 1, 1)}-1`, type: 'liquidity_pool_withdrew' } });
    await operations.return(undefined);
    await effects.return(undefined);
  });
});
