// The GraphQL schema over the seeded history: nested relations, keyset connections with paging
// tokens as cursors, errors with Horizon's codes, limits, and the number of SQL statements a
// nested query runs (it must not grow with the page size).
import { execute, parse, subscribe, validate, type ExecutionResult } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext, type ApiServices } from '../../src/api/context.js';
import { complexityErrors, graphqlLimitsOf, parseWithTokenLimit, queryLimitRules } from '../../src/api/graphql_limits.js';
import { defaultConfig } from '../../src/config.js';
import { schema } from '../../src/api/schema/index.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrate.js';
import { toid } from '../../src/stellar/toid.js';
import { createServerDatabase, dropServerDatabase, testDbKind } from '../support/database.js';
import { ALICE, BOB, ISSUER, ROOT, seedLedger, seedScenario, type SeedOperation } from '../support/seed.js';
import { ProblemError } from '../../src/api/problems.js';
import { inProcessLedgerEvents } from '../../src/events/ledger_events.js';
import { testServices } from '../support/api_server.js';

let db: Database;
let url: string | undefined;
const statements: string[] = [];

beforeAll(async () => {
  if (testDbKind === 'postgres') {
    url = await createServerDatabase();
    db = await openDatabase({ kind: 'postgres', url }, { onQuery: (sql) => statements.push(sql) });
  } else {
    db = await openDatabase({ kind: 'pglite', inMemory: true }, { onQuery: (sql) => statements.push(sql) });
  }
  await migrate(db);
  await seedScenario(db);
  // 30 more payments from Alice to Bob, one per transaction, in ledger 4
  const payment = (n: number): SeedOperation => ({
    type: 1,
    source: ALICE,
    details: { from: ALICE, to: BOB, amount: `${n}.0000000`, asset_type: 'native' },
    participants: [BOB],
  });
  await seedLedger(
    db,
    4,
    Array.from({ length: 30 }, (_, i) => ({ source: ALICE, operations: [payment(i + 1)] })),
  );
});

afterAll(async () => {
  await db.close();
  if (url) await dropServerDatabase(url);
});

const services = (): ApiServices => testServices(db);

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

const NESTED = `query($id: String!, $first: Int) {
  account(id: $id) {
    accountId sequence
    payments(first: $first) {
      edges { cursor node {
        pagingToken type
        ... on PaymentOperation { from to amount }
        transaction { hash ledgerSequence ledger { sequence closedAt } }
      } }
    }
  }
}`;

describe('GraphQL', () => {
  it('answers an account with its payments, their transactions and ledgers in one query', async () => {
    const result = await query(NESTED, { id: ALICE, first: 3 });
    expect(result.errors).toBeUndefined();
    const account = (result.data as { account: { payments: { edges: { cursor: string; node: Record<string, unknown> }[] } } }).account;
    expect(account).toMatchObject({ accountId: ALICE, sequence: '8589934594' });
    const edges = account.payments.edges;
    expect(edges.map((e) => e.node.type)).toEqual(['create_account', 'payment', 'payment']);
    expect(edges[1]?.cursor).toBe(String(toid(3, 1, 1)));
    expect(edges[1]?.node).toMatchObject({
      pagingToken: String(toid(3, 1, 1)),
      from: ALICE,
      to: BOB,
      amount: '5.0000000',
      transaction: { ledgerSequence: 3, ledger: { sequence: 3, closedAt: '2026-01-01T00:00:15Z' } },
    });
  });

  it('runs a number of SQL statements that does not grow with the page size', async () => {
    const counts: number[] = [];
    for (const first of [2, 20]) {
      statements.length = 0;
      const result = await query(NESTED, { id: ALICE, first });
      expect(result.errors).toBeUndefined();
      const edges = (result.data as { account: { payments: { edges: unknown[] } } }).account.payments.edges;
      expect(edges).toHaveLength(first);
      counts.push(statements.filter((sql) => /\bselect\b/i.test(sql)).length);
    }
    console.info(
      `SQL statements per nested query (account → payments → transaction → ledger): first=2: ${counts[0]}, first=20: ${counts[1]}`,
    );
    expect(counts[1]).toBe(counts[0]);
    expect(counts[1]).toBeLessThanOrEqual(5);
  });

  it('pool → trades → operation → transaction → ledger: statements flat in the page size', async () => {
    const pool = 'ab'.repeat(32);
    const [usd, native] = await Promise.all([
      db.prisma.asset.upsert({
        where: { type_code_issuer: { type: 'credit_alphanum4', code: 'USD', issuer: ISSUER } },
        update: {},
        create: { type: 'credit_alphanum4', code: 'USD', issuer: ISSUER },
      }),
      db.prisma.asset.upsert({
        where: { type_code_issuer: { type: 'native', code: '', issuer: '' } },
        update: {},
        create: { type: 'native', code: '', issuer: '' },
      }),
    ]);
    // a pool trade in each of ledger 4's 30 payments
    await db.prisma.trade.createMany({
      data: Array.from({ length: 30 }, (_, i) => ({
        operationId: toid(4, i + 1, 1),
        order: 0,
        closedAt: new Date(),
        baseAssetId: Math.min(usd.id, native.id),
        counterAssetId: Math.max(usd.id, native.id),
        baseLiquidityPoolId: pool,
        counterAccount: ALICE,
        counterOfferId: 1n,
        baseAmount: 10n,
        counterAmount: 20n,
        baseIsSeller: true,
        priceN: 2n,
        priceD: 1n,
        tradeType: 2,
        liquidityPoolFee: 30,
      })),
    });
    const POOL_TRADES = `query($pool: String, $first: Int) {
      trades(liquidityPoolId: $pool, first: $first) { edges { node { pagingToken operation { transaction { ledger { sequence } } } } } }
    }`;
    const counts: number[] = [];
    for (const first of [2, 20]) {
      statements.length = 0;
      const result = await query(POOL_TRADES, { pool, first });
      expect(result.errors).toBeUndefined();
      const edges = (result.data as { trades: { edges: { node: { operation: { transaction: { ledger: { sequence: number } } } } }[] } })
        .trades.edges;
      expect(edges).toHaveLength(first);
      expect(edges[0]?.node.operation.transaction.ledger.sequence).toBe(4);
      counts.push(statements.filter((sql) => /\bselect\b/i.test(sql)).length);
    }
    expect(counts[1]).toBe(counts[0]);
    // the same through the pool's own relation (LiquidityPool.trades)
    await db.prisma.liquidityPool.create({
      data: {
        id: pool,
        type: 0,
        fee: 30,
        trustlineCount: 1n,
        shareCount: 100n,
        assetA: 'native',
        assetB: `USD:${ISSUER}`,
        reserveA: 10n,
        reserveB: 20n,
        lastModifiedLedger: 4,
      },
    });
    const POOL_RELATION = `query($pool: String!, $first: Int) {
      liquidityPool(id: $pool) { trades(first: $first) { edges { node { pagingToken operation { transaction { ledger { sequence } } } } } } }
    }`;
    const relationCounts: number[] = [];
    for (const first of [2, 20]) {
      statements.length = 0;
      const result = await query(POOL_RELATION, { pool, first });
      expect(result.errors).toBeUndefined();
      const edges = (
        result.data as {
          liquidityPool: { trades: { edges: { node: { operation: { transaction: { ledger: { sequence: number } } } } }[] } };
        }
      ).liquidityPool.trades.edges;
      expect(edges).toHaveLength(first);
      expect(edges[0]?.node.operation.transaction.ledger.sequence).toBe(4);
      relationCounts.push(statements.filter((sql) => /\bselect\b/i.test(sql)).length);
    }
    expect(relationCounts[1]).toBe(relationCounts[0]);
    await db.prisma.liquidityPool.delete({ where: { id: pool } });
    await db.prisma.trade.deleteMany({ where: { baseLiquidityPoolId: pool } });
  });

  it('offers → trades: each offer its own trades, statements flat in the number of offers', async () => {
    const [native] = await Promise.all([
      db.prisma.asset.upsert({
        where: { type_code_issuer: { type: 'native', code: '', issuer: '' } },
        update: {},
        create: { type: 'native', code: '', issuer: '' },
      }),
    ]);
    // ten offers of ROOT, each crossed by three of ledger 4's payments (as the counter side)
    const OFFERS = 10;
    await db.prisma.offer.createMany({
      data: Array.from({ length: OFFERS }, (_, k) => ({
        id: BigInt(501 + k),
        sellerId: ROOT,
        sellingAsset: 'native',
        buyingAsset: `USD:${ISSUER}`,
        amount: 1n,
        priceN: 1,
        priceD: 1,
        price: 1,
        flags: 0,
        lastModifiedLedger: 4,
      })),
    });
    await db.prisma.trade.createMany({
      data: Array.from({ length: 3 * OFFERS }, (_, i) => ({
        operationId: toid(4, i + 1, 1),
        order: 0,
        closedAt: new Date(),
        baseAssetId: native.id,
        counterAssetId: native.id,
        baseAccount: ALICE,
        baseOfferId: 9000n + BigInt(i),
        counterAccount: ROOT,
        counterOfferId: BigInt(501 + Math.floor(i / 3)),
        baseAmount: 10n,
        counterAmount: 20n,
        baseIsSeller: true,
        priceN: 2n,
        priceD: 1n,
        tradeType: 1,
      })),
    });
    const OFFER_TRADES = `query($first: Int) {
      offers(seller: "${ROOT}", first: $first) { edges { node { pagingToken trades(first: 2) { edges { node { pagingToken } } } } } }
    }`;
    const counts: number[] = [];
    for (const first of [2, OFFERS]) {
      statements.length = 0;
      const result = await query(OFFER_TRADES, { first });
      expect(result.errors).toBeUndefined();
      const offers = (
        result.data as { offers: { edges: { node: { pagingToken: string; trades: { edges: { node: { pagingToken: string } }[] } } }[] } }
      ).offers.edges;
      expect(offers).toHaveLength(first);
      for (const [k, offer] of offers.entries()) {
        expect(offer.node.pagingToken).toBe(String(501 + k));
        // its first two trades: operations 3k+1 and 3k+2 of ledger 4
        expect(offer.node.trades.edges.map((edge) => edge.node.pagingToken)).toEqual([
          `${toid(4, 3 * k + 1, 1)}-0`,
          `${toid(4, 3 * k + 2, 1)}-0`,
        ]);
      }
      counts.push(statements.filter((sql) => /\bselect\b/i.test(sql)).length);
    }
    expect(counts[1]).toBe(counts[0]);
    await db.prisma.trade.deleteMany({ where: { counterAccount: ROOT } });
    await db.prisma.offer.deleteMany({ where: { sellerId: ROOT } });
  });

  it('pages with paging tokens as cursors, forwards and backwards, in either order', async () => {
    const page = async (args: string) => {
      const result = await query(
        `{ payments(${args}) { edges { cursor } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`,
      );
      expect(result.errors).toBeUndefined();
      return (result.data as { payments: { edges: { cursor: string }[]; pageInfo: Record<string, unknown> } }).payments;
    };
    const all = (await page('first: 200')).edges.map((e) => e.cursor);
    expect(all).toHaveLength(3 + 1 + 30);
    expect([...all].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1))).toEqual(all);
    const second = await page(`first: 5, after: "${all[4]}"`);
    expect(second.edges.map((e) => e.cursor)).toEqual(all.slice(5, 10));
    expect(second.pageInfo).toMatchObject({ hasNextPage: true, startCursor: all[5], endCursor: all[9] });
    const desc = await page(`first: 3, order: desc`);
    expect(desc.edges.map((e) => e.cursor)).toEqual(all.slice(-3).reverse());
    const back = await page(`last: 3, before: "${all[10]}"`);
    expect(back.edges.map((e) => e.cursor)).toEqual(all.slice(7, 10));
    expect(back.pageInfo.hasPreviousPage).toBe(true);
    const withFailed = await page('first: 200, includeFailed: true');
    expect(withFailed.edges).toHaveLength(all.length + 1);
  });

  it('pages effects by <operation id>-<order> tokens', async () => {
    const result = await query(
      `{ effects(first: 2, after: "${toid(2, 1, 1)}-1") { edges { cursor node { type accountId ... on AccountDebitedEffect { amount assetType } } } } }`,
    );
    expect(result.errors).toBeUndefined();
    expect((result.data as { effects: { edges: unknown[] } }).effects.edges).toEqual([
      { cursor: `${toid(2, 1, 1)}-2`, node: { type: 'account_debited', accountId: ROOT, amount: '100.0000000', assetType: 'native' } },
      { cursor: `${toid(2, 1, 1)}-3`, node: { type: 'signer_created', accountId: ALICE } },
    ]);
  });

  it('resolves relations both ways and Relay nodes', async () => {
    const result = await query(`{
      ledger(sequence: 3) { id transactions(first: 1) { edges { node { id hash account { accountId } operations { edges { node { effects { edges { node { account { accountId } operation { pagingToken } } } } } } } } } } }
      offer(id: "7") { id trades { edges { node { baseAccount { accountId } counterAccountId operation { pagingToken } price { n d } } } } }
    }`);
    expect(result.errors).toBeUndefined();
    const data = result.data as {
      ledger: {
        id: string;
        transactions: {
          edges: {
            node: {
              id: string;
              hash: string;
              account: unknown;
              operations: { edges: { node: { effects: { edges: { node: unknown }[] } } }[] };
            };
          }[];
        };
      };
      offer: { trades: { edges: { node: unknown }[] } };
    };
    const tx = data.ledger.transactions.edges[0]?.node;
    expect(tx?.account).toEqual({ accountId: ALICE });
    expect(tx?.operations.edges[0]?.node.effects.edges[0]?.node).toEqual({
      account: { accountId: BOB },
      operation: { pagingToken: String(toid(3, 1, 1)) },
    });
    expect(data.offer.trades.edges[0]?.node).toEqual({
      baseAccount: { accountId: BOB },
      counterAccountId: ALICE,
      operation: { pagingToken: String(toid(3, 1, 1)) },
      price: { n: '1', d: '2' },
    });
    const node = await query(`query($id: ID!) { node(id: $id) { ... on Ledger { sequence } } }`, { id: data.ledger.id });
    expect(node.data).toEqual({ node: { sequence: 3 } });
    // a transaction's node id is its hash, looked up without a unique index (migration 0012)
    expect(Buffer.from(tx?.id ?? '', 'base64').toString()).toBe(`Transaction:${tx?.hash}`);
    const txNode = await query(`query($id: ID!) { node(id: $id) { ... on Transaction { hash ledger { sequence } } } }`, { id: tx?.id });
    expect(txNode.data).toEqual({ node: { hash: tx?.hash, ledger: { sequence: 3 } } });
    const unknown = Buffer.from(`Transaction:${'0'.repeat(64)}`).toString('base64');
    expect((await query(`query($id: ID!) { node(id: $id) { id } }`, { id: unknown })).data).toEqual({ node: null });
    const malformed = await query(`query($id: ID!) { node(id: $id) { id } }`, { id: Buffer.from('Transaction:\u0000').toString('base64') });
    expect((malformed.errors?.[0]?.originalError as { problem?: { type: string } } | undefined)?.problem?.type).toBe('bad_request');
  });

  it('answers bad input with Horizon codes in extensions.code', async () => {
    const cases: [string, string][] = [
      ['{ payments(first: 201) { edges { cursor } } }', 'bad_request'],
      ['{ payments(after: "x") { edges { cursor } } }', 'bad_request'],
      ['{ account(id: "nope") { accountId } }', 'bad_request'],
      ['{ trades(offerId: "999") { edges { cursor } } }', 'not_found'],
    ];
    for (const [text, code] of cases) {
      const result = await query(text);
      const error = result.errors?.[0];
      expect(error, text).toBeDefined();
      const original = error?.originalError as { problem?: { type: string } } | undefined;
      expect(original?.problem?.type ?? error?.extensions.code, text).toBe(code);
    }
  });

  it('refuses queries beyond the depth and cost limits before running them', async () => {
    const deep = `{ ledger(sequence: 3) { transactions { edges { node { operations { edges { node { transaction { ledger { transactions { edges { node { hash } } } } } } } } } } } } }`;
    expect((await query(deep)).errors?.[0]?.extensions.code).toBe('GRAPHQL_DEPTH_LIMIT');
    const costly = `{ ledgers(first: 200) { edges { node { transactions(first: 200) { edges { node { hash operations(first: 200) { edges { node { pagingToken } } } } } } } } } }`;
    const refused = (await query(costly)).errors?.[0];
    expect(refused?.extensions.code).toBe('GRAPHQL_COMPLEXITY_LIMIT');
    expect(refused?.message).toMatch(/costs \d+, more than the limit of 50000/);
  });
});

describe('market fields', () => {
  it('feeStats has nested distributions of strings', async () => {
    const result = await query('{ feeStats { lastLedger p99AcceptedFee feeCharged { max p50 } maxFee { mode } } }');
    expect(result.errors).toBeUndefined();
    const stats = (result.data as { feeStats: { lastLedger: string; feeCharged: { max: string } } }).feeStats;
    expect(stats.lastLedger).toBe('4');
    expect(typeof stats.feeCharged.max).toBe('string');
  });

  it('orderBook reads the levels, and a bad asset is a bad_request naming the field', async () => {
    const usd = { assetType: 'credit_alphanum4', assetCode: 'USD', assetIssuer: ISSUER };
    const text =
      'query($s: AssetInput!, $b: AssetInput!) { orderBook(selling: $s, buying: $b, limit: 5) { asks { price amount priceR { n d } } bids { price } } }';
    const result = await query(text, { s: usd, b: { assetType: 'native' } });
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({ orderBook: { asks: [{ price: '0.5000000', amount: '1.0000000', priceR: { n: 1, d: 2 } }], bids: [] } });
    const bad = await query(text, { s: { assetType: 'credit_alphanum4', assetCode: 'USD' }, b: { assetType: 'native' } });
    const problem = bad.errors?.[0]?.originalError;
    expect(problem).toBeInstanceOf(ProblemError);
    expect((problem as ProblemError).problem.extras).toMatchObject({ invalid_field: 'selling_asset_issuer' });
  });

  it('tradeAggregations folds the seeded trade, {N, D} as JSON', async () => {
    const usd = { assetType: 'credit_alphanum4', assetCode: 'USD', assetIssuer: ISSUER };
    const text =
      'query($b: AssetInput!, $c: AssetInput!, $r: String!) { tradeAggregations(base: $b, counter: $c, resolution: $r) { tradeCount baseVolume highR } }';
    const result = await query(text, { b: usd, c: { assetType: 'native' }, r: '86400000' });
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({ tradeAggregations: [{ tradeCount: 1, baseVolume: '1.0000000', highR: { N: 1, D: 2 } }] });
    const bad = await query(text, { b: usd, c: { assetType: 'native' }, r: '7' });
    expect((bad.errors?.[0]?.originalError as ProblemError | undefined)?.problem.extras).toMatchObject({ invalid_field: 'resolution' });
  });

  it('strictSendPaths and strictReceivePaths search the order-book graph', async () => {
    const send = await query(
      `{ strictSendPaths(sourceAsset: { assetType: "native" }, sourceAmount: "0.1", destinationAssets: "USD:${ISSUER}") { sourceAmount destinationAmount destinationAssetCode path { assetType } } }`,
    );
    expect(send.errors).toBeUndefined();
    expect(send.data).toEqual({
      strictSendPaths: [{ sourceAmount: '0.1000000', destinationAmount: '0.2000000', destinationAssetCode: 'USD', path: [] }],
    });
    const none = await query(
      `{ strictReceivePaths(destinationAsset: { assetType: "credit_alphanum4", assetCode: "USD", assetIssuer: "${ISSUER}" }, destinationAmount: "50", sourceAssets: "native") { sourceAmount } }`,
    );
    expect(none.data).toEqual({ strictReceivePaths: [] });
    const bad = await query(
      '{ strictReceivePaths(destinationAsset: { assetType: "native" }, destinationAmount: "-1", sourceAssets: "native") { sourceAmount } }',
    );
    expect((bad.errors?.[0]?.originalError as ProblemError | undefined)?.problem.extras).toMatchObject({
      invalid_field: 'destination_amount',
    });
  });

  it('the orderBook subscription sends the book, then again only after a ledger that changed it', async () => {
    const events = inProcessLedgerEvents();
    const contextValue = createContext({ ...services(), events });
    const document = parse(
      `subscription { orderBook(selling: { assetType: "credit_alphanum4", assetCode: "USD", assetIssuer: "${ISSUER}" }, buying: { assetType: "native" }) { asks { amount } } }`,
    );
    const stream = (await subscribe({ schema, document, contextValue })) as AsyncGenerator<ExecutionResult>;
    expect((await stream.next()).value.data).toEqual({ orderBook: { asks: [{ amount: '1.0000000' }] } });
    const following = stream.next();
    await events.publish(5); // nothing changed: no event
    await db.prisma.offer.update({ where: { id: 7n }, data: { amount: 20_000_000n } });
    await events.publish(6);
    expect((await following).value.data).toEqual({ orderBook: { asks: [{ amount: '2.0000000' }] } });
    await db.prisma.offer.update({ where: { id: 7n }, data: { amount: 10_000_000n } });
    await stream.return(undefined);
  });
});
