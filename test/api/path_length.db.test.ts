// The server's --max-path-length reaches the path searches of the API: a two-book path is found
// under the default (3) and not under 1.
import { execute, parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../src/api/context.js';
import { schema } from '../../src/api/schema/index.js';
import { SELLERS } from '../market/support/books.js';
import { insertOffers } from '../market/support/offers.js';
import { testServices } from '../support/api_server.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

const ISSUER = 'GAXMF43TGZHW3QN3REOUA2U5PW5BTARXGGYJ3JIFHW3YT6QRKRL3CPPU';
const MAKER = SELLERS[1] as string;

describe('--max-path-length in the API', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase();
    await test.db.session(async (sql) => {
      await sql.query(
        `INSERT INTO accounts (id, balance, sequence, subentry_count, flags, master_weight, threshold_low, threshold_medium, threshold_high, last_modified_ledger)
         VALUES ($1, 1000000000, 1, 0, 0, 1, 0, 0, 0, 1)`,
        [MAKER],
      );
      // XLM → EUR → USD: no book sells USD for XLM directly
      const offer = (id: bigint, selling: string, buying: string) => ({
        id,
        seller: MAKER,
        selling,
        buying,
        amount: 100_0000000n,
        priceN: 1,
        priceD: 1,
        lastModifiedLedger: 1,
      });
      await insertOffers(sql, [offer(1n, `EUR:${ISSUER}`, 'native'), offer(2n, `USD:${ISSUER}`, `EUR:${ISSUER}`)]);
    });
  });
  afterAll(() => test.drop());

  const paths = async (maxPathLength?: number) => {
    const services = testServices(test.db);
    const result = await execute({
      schema,
      document: parse(
        `{ strictSendPaths(sourceAsset: { assetType: "native" }, sourceAmount: "1", destinationAssets: "USD:${ISSUER}") { destinationAmount path { assetCode } } }`,
      ),
      contextValue: createContext(maxPathLength === undefined ? services : { ...services, config: { ...services.config, maxPathLength } }),
    });
    expect(result.errors).toBeUndefined();
    return result.data;
  };

  it('finds the two-book path by default and not with a length of 1', async () => {
    expect(await paths()).toEqual({ strictSendPaths: [{ destinationAmount: '1.0000000', path: [{ assetCode: 'EUR' }] }] });
    expect(await paths(2)).toEqual(await paths());
    expect(await paths(1)).toEqual({ strictSendPaths: [] });
  });
});
