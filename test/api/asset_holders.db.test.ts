// GraphQL holders of an asset (AssetStat.holders, Asset.holders): the accounts with a trust line
// in it, paged by account id, read together for every asset of a page — the statements a query
// runs do not grow with the number of assets or holders.
import { Keypair } from '@stellar/stellar-sdk';
import { execute, parse, validate, type ExecutionResult } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext, type ApiServices } from '../../src/api/context.js';
import { ProblemError } from '../../src/api/problems.js';
import { schema } from '../../src/api/schema/index.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrate.js';
import { createServerDatabase, dropServerDatabase, testDbKind } from '../support/database.js';
import { seedAccount } from '../support/seed.js';
import { testServices } from '../support/api_server.js';

const ISSUER = 'GA5WBPYA5Y4WAEHXWR2UKO2UO4BUGHUQ74EUPKON2QHV4WRHOIRNKKH2';
const SELLER = 'GCXKG6RN4ONIEPCMNFB732A436Z5PNDSRLGWK7GBLCMQLIFO4S7EYWVU';
const CODES = Array.from({ length: 12 }, (_, i) => `A${String(i).padStart(2, '0')}`);
const HOLDERS = 25;

let db: Database;
let url: string | undefined;
const statements: string[] = [];
const holders = Array.from({ length: HOLDERS }, () => Keypair.random().publicKey()).sort();

beforeAll(async () => {
  const onQuery = (sql: string) => statements.push(sql);
  if (testDbKind === 'postgres') {
    url = await createServerDatabase();
    db = await openDatabase({ kind: 'postgres', url }, { onQuery });
  } else {
    db = await openDatabase({ kind: 'pglite', inMemory: true }, { onQuery });
  }
  await migrate(db);
  await seedAccount(db, { id: ISSUER, balance: 1n });
  await seedAccount(db, { id: SELLER, balance: 1n });
  for (const holder of holders) await seedAccount(db, { id: holder, balance: 1n });
  // every holder trusts every asset; a pool share line is no holder of anything
  await db.prisma.trustLine.createMany({
    data: CODES.flatMap((code) =>
      holders.map((accountId, i) => ({
        accountId,
        assetType: 'credit_alphanum4',
        assetCode: code,
        assetIssuer: ISSUER,
        balance: BigInt(i),
        limit: 1000n,
        flags: 1,
        lastModifiedLedger: 2,
      })),
    ),
  });
  await db.prisma.trustLine.create({
    data: {
      accountId: SELLER,
      assetType: 'liquidity_pool_shares',
      assetCode: '',
      assetIssuer: '',
      liquidityPoolId: 'ab'.repeat(32),
      balance: 1n,
      limit: 10n,
      flags: 0,
      lastModifiedLedger: 2,
    },
  });
  // the seller's offers sell each asset for lumens
  await db.prisma.offer.createMany({
    data: CODES.map((code, i) => ({
      id: BigInt(i + 1),
      sellerId: SELLER,
      sellingAsset: `${code}:${ISSUER}`,
      buyingAsset: 'native',
      amount: 1n,
      priceN: 1,
      priceD: 1,
      price: 1,
      flags: 0,
      lastModifiedLedger: 2,
    })),
  });
});

afterAll(async () => {
  await db.close();
  if (url) await dropServerDatabase(url);
});

const services = (): ApiServices => testServices(db);

async function query(text: string, variables: Record<string, unknown> = {}): Promise<ExecutionResult> {
  const document = parse(text);
  expect(validate(schema, document)).toEqual([]);
  return execute({ schema, document, variableValues: variables, contextValue: createContext(services()) });
}

type Page = { edges: { cursor: string; node: { accountId: string } }[]; pageInfo: { hasNextPage: boolean } };

/** The SELECT statements `run` makes. */
async function selects(run: () => Promise<void>): Promise<number> {
  statements.length = 0;
  await run();
  return statements.filter((sql) => /\bselect\b/i.test(sql)).length;
}

describe('holders of an asset', () => {
  it('AssetStat.holders pages the accounts with a trust line, by account id, both ways', async () => {
    const result = await query(
      `query($after: String) { assets(assetCode: "A03") { edges { node { holders(first: 10, after: $after) {
        edges { cursor node { accountId } } pageInfo { hasNextPage } } } } } }`,
    );
    expect(result.errors).toBeUndefined();
    const page = (result.data as { assets: { edges: { node: { holders: Page } }[] } }).assets.edges[0]?.node.holders;
    expect(page?.edges.map((e) => e.node.accountId)).toEqual(holders.slice(0, 10));
    expect(page?.edges.map((e) => e.cursor)).toEqual(holders.slice(0, 10));
    expect(page?.pageInfo.hasNextPage).toBe(true);
    const next = await query(
      `query($after: String) { assets(assetCode: "A03") { edges { node { holders(first: 10, after: $after, order: desc) {
        edges { node { accountId } } } } } } }`,
      { after: holders[5] },
    );
    const back = (next.data as { assets: { edges: { node: { holders: Page } }[] } }).assets.edges[0]?.node.holders;
    expect(back?.edges.map((e) => e.node.accountId)).toEqual(holders.slice(0, 5).reverse());
  });

  it('reads the holders of a page of assets in a flat number of statements', async () => {
    const counts: number[] = [];
    for (const [assets, first] of [
      [2, 2],
      [12, 20],
    ] as const) {
      counts.push(
        await selects(async () => {
          const result = await query(
            `query($assets: Int, $first: Int) { assets(first: $assets) { edges { node { assetCode
              holders(first: $first) { edges { node { accountId balances { balance } } } } } } } }`,
            { assets, first },
          );
          expect(result.errors).toBeUndefined();
          const edges = (result.data as { assets: { edges: { node: { assetCode: string; holders: Page } }[] } }).assets.edges;
          expect(edges.map((e) => e.node.assetCode)).toEqual(CODES.slice(0, assets));
          for (const edge of edges) expect(edge.node.holders.edges.map((e) => e.node.accountId)).toEqual(holders.slice(0, first));
        }),
      );
    }
    expect(counts[1]).toBe(counts[0]);
    expect(counts[1]).toBeLessThanOrEqual(4);
  });

  it('Asset.holders on every offer of an account, batched too; null for lumens', async () => {
    const run = (first: number) =>
      selects(async () => {
        const result = await query(
          `query($first: Int) { account(id: "${SELLER}") { offers(first: $first) { edges { node {
            selling { assetCode holders(first: 3) { edges { node { accountId } } } } buying { holders { edges { cursor } } } } } } } }`,
          { first },
        );
        expect(result.errors).toBeUndefined();
        const offers = (
          result.data as {
            account: { offers: { edges: { node: { selling: { holders: Page }; buying: { holders: Page | null } } }[] } };
          }
        ).account.offers.edges;
        expect(offers).toHaveLength(first);
        for (const { node } of offers) {
          expect(node.selling.holders.edges.map((e) => e.node.accountId)).toEqual(holders.slice(0, 3));
          expect(node.buying.holders).toBeNull();
        }
      });
    expect(await run(12)).toBe(await run(2));
  });

  it('a bad cursor is a bad_request naming it', async () => {
    const result = await query(`{ assets { edges { node { holders(after: "nope") { edges { cursor } } } } } }`);
    const problem = result.errors?.[0]?.originalError;
    expect(problem).toBeInstanceOf(ProblemError);
    expect((problem as ProblemError).problem).toMatchObject({ status: 400, extras: { invalid_field: 'cursor' } });
  });
});
