// The order book graph against the offers table (reload, refresh after changes and deletes) and
// the account forms of the path endpoints.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  OrderBookGraph,
  parseAccountArg,
  parseStrictReceiveParams,
  parseStrictSendParams,
  strictReceivePaths,
  strictSendPaths,
  type GraphOffer,
} from '../../src/market/index.js';
import { InvalidValueError } from '../../src/stellar/index.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { insertOffers, type OfferRow } from './support/offers.js';
import { SELLERS } from './support/books.js';

const ISSUER = 'GAXMF43TGZHW3QN3REOUA2U5PW5BTARXGGYJ3JIFHW3YT6QRKRL3CPPU';
const PAYER = SELLERS[0] as string;
const MAKER = SELLERS[1] as string;
const USD = `USD:${ISSUER}`;
const EUR = `EUR:${ISSUER}`;

const row = (id: bigint, seller: string, selling: string, buying: string, amount: bigint, n: number, d: number, ledger = 1): OfferRow => ({
  id,
  seller,
  selling,
  buying,
  amount,
  priceN: n,
  priceD: d,
  lastModifiedLedger: ledger,
});

function sorted(graph: OrderBookGraph): GraphOffer[] {
  return graph
    .assets()
    .flatMap((a) => [...graph.booksSelling(a).values()].flat())
    .sort((x, y) => Number(x.id - y.id));
}

function fieldOf(parse: () => unknown): string | undefined {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidValueError);
    return (error as InvalidValueError).field;
  }
  return undefined;
}

describe('order book graph and account paths', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase();
    await test.db.session(async (sql) => {
      for (const [id, balance] of [
        [PAYER, 1000_0000000n],
        [MAKER, 1000_0000000n],
      ] as const) {
        await sql.query(
          `INSERT INTO accounts (id, balance, sequence, subentry_count, flags, master_weight, threshold_low, threshold_medium, threshold_high, last_modified_ledger)
           VALUES ($1, $2, 1, 0, 0, 1, 0, 0, 0, 1)`,
          [id, balance.toString()],
        );
      }
      await sql.query(
        `INSERT INTO trust_lines (account_id, asset_type, asset_code, asset_issuer, balance, "limit", flags, last_modified_ledger)
         VALUES ($1, 'credit_alphanum4', 'EUR', $2, 50000000, 10000000000, 1, 1)`,
        [PAYER, ISSUER],
      );
      await insertOffers(sql, [
        row(1n, MAKER, USD, 'native', 100_0000000n, 2, 1), // USD for 2 XLM each
        row(2n, MAKER, USD, EUR, 100_0000000n, 1, 1), // USD for 1 EUR each
        row(3n, PAYER, USD, 'native', 100_0000000n, 1, 1), // the payer's own, cheaper: not crossed
      ]);
    });
  });
  afterAll(() => test.drop());

  it('reloads and refreshes from the offers table', async () => {
    const graph = new OrderBookGraph();
    await graph.reload(test.db);
    expect(graph.size).toBe(3);
    await test.db.session(async (sql) => {
      await insertOffers(sql, [row(2n, MAKER, USD, EUR, 50_0000000n, 1, 1, 5), row(4n, MAKER, EUR, 'native', 7n, 3, 1, 5)]);
      await sql.query('DELETE FROM offers WHERE id = 1');
    });
    await graph.refresh(test.db);
    const fresh = new OrderBookGraph();
    await fresh.reload(test.db);
    expect(sorted(graph)).toEqual(sorted(fresh));
    expect(graph.ledger).toBe(5);
    await test.db.session(async (sql) => {
      await sql.query('DELETE FROM offers WHERE id = 4');
      await insertOffers(sql, [row(1n, MAKER, USD, 'native', 100_0000000n, 2, 1, 6), row(2n, MAKER, USD, EUR, 100_0000000n, 1, 1, 6)]);
    });
    await graph.refresh(test.db);
    expect(sorted(graph).map((o) => o.id)).toEqual([1n, 2n, 3n]);
  });

  it('searches from the source account, within its balances, skipping its own offers', async () => {
    const graph = new OrderBookGraph();
    await graph.reload(test.db);
    const params = parseStrictReceiveParams({
      sourceAccount: PAYER,
      destinationAsset: { assetType: 'credit_alphanum4', assetCode: 'USD', assetIssuer: ISSUER },
      destinationAmount: '10',
    });
    const paths = await strictReceivePaths(test.db, graph, params);
    // XLM at 2 (not the payer's own offer at 1); EUR would cost 10 but the payer holds 5
    expect(paths.map((p) => [p.sourceAssetType, p.sourceAmount])).toEqual([['native', '20.0000000']]);
    const explicit = await strictReceivePaths(test.db, graph, {
      ...params,
      sourceAccount: null,
      sourceAssets: [{ type: 'credit_alphanum4', code: 'EUR', issuer: ISSUER }],
    });
    expect(explicit.map((p) => p.sourceAmount)).toEqual(['10.0000000']);
    const none = await strictReceivePaths(test.db, graph, { ...params, destinationAmount: 10_000_0000000n });
    expect(none).toEqual([]);
  });

  it('sends to the destination account assets', async () => {
    const graph = new OrderBookGraph();
    await graph.reload(test.db);
    const params = parseStrictSendParams({ sourceAsset: { assetType: 'native' }, sourceAmount: '4', destinationAccount: MAKER });
    // the maker holds only XLM: the zero-hop path
    expect((await strictSendPaths(test.db, graph, params)).map((p) => p.destinationAmount)).toEqual(['4.0000000']);
    const usd = parseStrictSendParams({ sourceAsset: { assetType: 'native' }, sourceAmount: '4', destinationAssets: `${USD}` });
    expect((await strictSendPaths(test.db, graph, usd)).map((p) => [p.destinationAssetCode, p.destinationAmount])).toEqual([
      ['USD', '4.0000000'],
    ]);
  });

  it('names the field at fault', () => {
    const native = { assetType: 'native' };
    const dest = { destinationAsset: native, destinationAmount: '1' };
    expect(fieldOf(() => parseStrictReceiveParams({ ...dest }))).toBe('source_account');
    expect(fieldOf(() => parseStrictReceiveParams({ ...dest, sourceAccount: PAYER, sourceAssets: 'native' }))).toBe('source_assets');
    expect(fieldOf(() => parseStrictReceiveParams({ ...dest, sourceAssets: 'native,USD' }))).toBe('source_assets');
    expect(fieldOf(() => parseStrictReceiveParams({ ...dest, sourceAccount: 'GABC' }))).toBe('source_account');
    expect(fieldOf(() => parseStrictReceiveParams({ ...dest, destinationAmount: '0', sourceAssets: 'native' }))).toBe('destination_amount');
    expect(fieldOf(() => parseStrictReceiveParams({ destinationAsset: {}, destinationAmount: '1', sourceAssets: 'native' }))).toBe(
      'destination_asset_type',
    );
    expect(
      fieldOf(() => parseStrictReceiveParams({ ...dest, destinationAsset: { ...native, assetCode: 'X' }, sourceAssets: 'native' })),
    ).toBe('destination_asset_code');
    expect(fieldOf(() => parseStrictReceiveParams({ ...dest }))).toBe('source_account');
    expect(fieldOf(() => parseAccountArg('GABC', 'destination_account'))).toBe('destination_account');
    expect(fieldOf(() => parseStrictSendParams({ sourceAsset: native, sourceAmount: '1' }))).toBe('destination_account');
    expect(fieldOf(() => parseStrictSendParams({ sourceAsset: native, sourceAmount: '', destinationAssets: 'native' }))).toBe(
      'source_amount',
    );
    expect(
      fieldOf(() =>
        parseStrictSendParams({ sourceAsset: native, sourceAmount: '1', destinationAssets: Array(16).fill('native').join(',') }),
      ),
    ).toBe('destination_assets');
  });
});
