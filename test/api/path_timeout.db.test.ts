// A path search over its work budget (PathSearchLimitError, 50,000 book crossings) is Horizon's
// timeout problem: a 504 in REST and the code `timeout` in GraphQL, never a server_error. The
// search itself is made to give up here; test/market/paths_exhaustive.test.ts shows when it does.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { getJson, postGraphQL, serveTestApi, type TestApi } from '../support/api_server.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

vi.mock('../../src/market/index.js', async (original) => {
  const market = await original<typeof import('../../src/market/index.js')>();
  const giveUp = async (): Promise<never> => {
    throw new market.PathSearchLimitError(market.MAX_PATH_SEARCH_CROSSINGS + 1);
  };
  return { ...market, strictSendPaths: giveUp, strictReceivePaths: giveUp };
});

const ISSUER = 'GAXMF43TGZHW3QN3REOUA2U5PW5BTARXGGYJ3JIFHW3YT6QRKRL3CPPU';

describe('a path search over its work budget', () => {
  let test: TestDatabase;
  let api: TestApi;
  beforeAll(async () => {
    test = await createTestDatabase();
    api = await serveTestApi(test);
  });
  afterAll(async () => {
    await api.close();
    await test.drop();
  });

  it.each([
    `/paths/strict-send?source_asset_type=native&source_amount=1&destination_assets=USD:${ISSUER}`,
    `/paths/strict-receive?destination_asset_type=native&destination_amount=1&source_assets=USD:${ISSUER}`,
  ])('%s answers 504 timeout', async (path) => {
    const problem = await getJson(api.base, path, 504);
    expect(problem).toMatchObject({ type: 'https://stellar.org/horizon-errors/timeout', title: 'Timeout', status: 504 });
  });

  it('GraphQL answers the code timeout', async () => {
    const answer = await postGraphQL(
      api.base,
      `{ strictSendPaths(sourceAsset: { assetType: "native" }, sourceAmount: "1", destinationAssets: "USD:${ISSUER}") { destinationAmount } }`,
    );
    expect(answer.errors.map((e: { extensions: { code: string } }) => e.extensions.code)).toEqual(['timeout']);
  });
});
