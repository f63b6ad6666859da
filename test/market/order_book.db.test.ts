import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderBook, parseLimitText, parseOrderBookParams, type OrderBookInput } from '../../src/market/index.js';
import { InvalidValueError, NATIVE_ASSET, creditAsset } from '../../src/stellar/index.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { insertOffers } from './support/offers.js';

const ISSUER = 'GAXMF43TGZHW3QN3REOUA2U5PW5BTARXGGYJ3JIFHW3YT6QRKRL3CPPU';
const SELLER = 'GBXGQJWVLWOYHFLVTKWV5FGHA3LNYY2JQKM7OAJAUEQFU6LPCSEFVXON';
const USD = `USD:${ISSUER}`;

function fieldOf(parse: () => unknown): string | undefined {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidValueError);
    return (error as InvalidValueError).field;
  }
  return undefined;
}

describe('order book parameters', () => {
  const usd = { assetType: 'credit_alphanum4', assetCode: 'USD', assetIssuer: ISSUER };
  const ok: OrderBookInput = { selling: { assetType: 'native' }, buying: usd };
  const book = (input: OrderBookInput) => () => parseOrderBookParams(input);
  it('parses and defaults the limit to 20', () => {
    expect(parseOrderBookParams(ok)).toEqual({ selling: NATIVE_ASSET, buying: creditAsset('USD', ISSUER), limit: 20 });
  });
  it('names the field at fault', () => {
    expect(fieldOf(book({ ...ok, selling: { assetType: '' } }))).toBe('selling_asset_type');
    expect(fieldOf(book({ ...ok, selling: { assetType: 'native', assetCode: 'XLM' } }))).toBe('selling_asset_code');
    expect(fieldOf(book({ ...ok, selling: { assetType: 'native', assetIssuer: ISSUER } }))).toBe('selling_asset_issuer');
    expect(fieldOf(book({ ...ok, buying: { ...usd, assetCode: '' } }))).toBe('buying_asset_code');
    expect(fieldOf(book({ ...ok, buying: { ...usd, assetIssuer: 'GABC' } }))).toBe('buying_asset_issuer');
    expect(fieldOf(book({ ...ok, buying: { ...usd, assetType: 'credit_alphanum12' } }))).toBe('buying_asset_code');
    expect(fieldOf(book({ ...ok, buying: { ...usd, assetType: 'pool' } }))).toBe('buying_asset_type');
    expect(fieldOf(book({ ...ok, limit: 201 }))).toBe('limit');
    // REST's text of the limit
    expect(fieldOf(() => parseLimitText('201', 200))).toBe('limit');
    expect(fieldOf(() => parseLimitText('ten', 200))).toBe('limit');
  });
});

describe('order book summary', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase();
    await test.db.session(async (sql) => {
      await sql.exec(`INSERT INTO accounts (id, balance, sequence, subentry_count, flags, master_weight, threshold_low, threshold_medium, threshold_high, last_modified_ledger)
        VALUES ('${SELLER}', 1000000000, 1, 0, 0, 1, 0, 0, 0, 1)`);
      let id = 0n;
      const offer = (selling: string, buying: string, amount: bigint, priceN: number, priceD: number) => ({
        id: (id += 1n),
        seller: SELLER,
        selling,
        buying,
        amount,
        priceN,
        priceD,
      });
      await insertOffers(sql, [
        // asks: selling native for USD
        offer('native', USD, 100_0000000n, 2, 1),
        offer('native', USD, 50_0000000n, 4, 2), // same level as 2/1
        offer('native', USD, 10_0000000n, 1, 1),
        offer('native', USD, 7n, 3, 1),
        // bids: selling USD for native (price native per USD)
        offer(USD, 'native', 30_0000000n, 1, 3),
        offer(USD, 'native', 20_0000000n, 1, 2),
        offer(USD, 'native', 5_0000000n, 2, 4),
        // another book
        offer(`EUR:${ISSUER}`, 'native', 1n, 1, 1),
      ]);
    });
  });
  afterAll(() => test.drop());

  it('aggregates levels, best first, with bids inverted', async () => {
    const summary = await orderBook(test.db, NATIVE_ASSET, creditAsset('USD', ISSUER), 20);
    expect(summary.base).toEqual({ assetType: 'native' });
    expect(summary.counter).toEqual({ assetType: 'credit_alphanum4', assetCode: 'USD', assetIssuer: ISSUER });
    expect(summary.asks).toEqual([
      { priceR: { n: 1, d: 1 }, price: '1.0000000', amount: '10.0000000' },
      { priceR: { n: 2, d: 1 }, price: '2.0000000', amount: '150.0000000' },
      { priceR: { n: 3, d: 1 }, price: '3.0000000', amount: '0.0000007' },
    ]);
    expect(summary.bids).toEqual([
      { priceR: { n: 3, d: 1 }, price: '3.0000000', amount: '30.0000000' },
      { priceR: { n: 2, d: 1 }, price: '2.0000000', amount: '25.0000000' },
    ]);
  });

  it('limits the number of levels per side', async () => {
    const summary = await orderBook(test.db, NATIVE_ASSET, creditAsset('USD', ISSUER), 1);
    expect(summary.asks).toHaveLength(1);
    expect(summary.bids).toHaveLength(1);
    expect(summary.bids[0]?.price).toBe('3.0000000');
  });

  it('is empty for a pair without offers', async () => {
    const summary = await orderBook(test.db, creditAsset('USD', ISSUER), creditAsset('EUR', ISSUER));
    expect([summary.bids, summary.asks]).toEqual([[], []]);
  });
});
