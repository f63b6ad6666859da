// Horizon's trade action tests (stellar-horizon internal/actions_trade_test.go) over its own
// fixture (internal/db2/history/trade_scenario.go TradeScenario): the trades of the whole history,
// of an account, an offer, a liquidity pool and an asset pair (both orientations), the trade_type
// filter and Horizon's errors for filters that do not go together. Expected values are the
// scenario's rows, as Horizon's assertResponseTradeEqualsDBTrade compares them.
import { Asset, Horizon } from '@stellar/stellar-sdk';
import { parse, subscribe, type ExecutionResult } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../../src/api/context.js';
import { schema } from '../../../src/api/schema/index.js';
import { inProcessLedgerEvents } from '../../../src/events/ledger_events.js';
import { formatAmount } from '../../../src/stellar/amount.js';
import { toid } from '../../../src/stellar/toid.js';
import { getJson, getRecords, postGraphQL, serveTestApi, testServices, type Json, type TestApi } from '../../support/api_server.js';
import { EventStream } from '../../support/cli.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';

let test: TestDatabase;
let api: TestApi;
let base: string;

const ADDRESSES = ['GB2QIYT2IAUFMRXKLSLLPRECC6OCOGJMADSPTRK7TGNT2SFR2YGWDARD', 'GAXMF43TGZHW3QN3REOUA2U5PW5BTARXGGYJ3JIFHW3YT6QRKRL3CPPU'];
const ISSUER = 'GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H';
// TradeScenario's assets, in the order it creates them (ids ascending): EUR, USD, native, JPY, CHF
const ASSETS = [
  { type: 'credit_alphanum4', code: 'EUR', issuer: ISSUER },
  { type: 'credit_alphanum4', code: 'USD', issuer: ISSUER },
  { type: 'native', code: '', issuer: '' },
  { type: 'credit_alphanum4', code: 'JPY', issuer: ADDRESSES[0] as string },
  { type: 'credit_alphanum4', code: 'CHF', issuer: ADDRESSES[1] as string },
];
const pool = (bytes: number[]) => Buffer.concat([Buffer.from(bytes), Buffer.alloc(32 - bytes.length)]).toString('hex');
const POOLS = [pool([1, 2, 3, 4, 5]), pool([6, 7, 8, 9, 10])];
const FEE_V18 = 30;

/** createInsertTrades(accountIDs, assetIDs, poolIDs, 3), as Horizon's rows (indexes into the lists above) */
interface ScenarioTrade {
  op: bigint;
  order: number;
  closed: number;
  baseOffer?: bigint;
  counterOffer?: bigint;
  baseAccount?: number;
  counterAccount?: number;
  baseAsset: number;
  counterAsset: number;
  basePool?: number;
  baseAmount: bigint;
  counterAmount: bigint;
  baseIsSeller: boolean;
  n: bigint;
  d: bigint;
  pool: boolean;
}

const first: ScenarioTrade = {
  op: toid(3, 1, 1),
  order: 1,
  closed: 10000000,
  counterOffer: 32145n,
  baseAccount: 0,
  counterAccount: 1,
  baseAsset: 0,
  counterAsset: 1,
  baseOffer: 214515n,
  baseIsSeller: true,
  baseAmount: 7986n,
  counterAmount: 896n,
  n: 1n,
  d: 3n,
  pool: false,
};
const TRADES: ScenarioTrade[] = [
  first,
  { ...first, counterOffer: undefined, order: 2 },
  {
    op: toid(3, 2, 1),
    order: 1,
    closed: 10000001,
    counterOffer: 2n,
    baseAccount: 0,
    counterAccount: 1,
    baseAsset: 1,
    counterAsset: 2,
    baseOffer: 7n,
    baseIsSeller: false,
    baseAmount: 123n,
    counterAmount: 6n,
    n: 1156n,
    d: 3n,
    pool: false,
  },
  {
    op: toid(3, 2, 2),
    order: 3,
    closed: 10000001,
    counterAsset: 4,
    counterAmount: 675n,
    counterAccount: 0,
    baseAsset: 3,
    baseAmount: 981n,
    basePool: 0,
    baseIsSeller: true,
    n: 675n,
    d: 981n,
    pool: true,
  },
  {
    op: toid(3, 3, 1),
    order: 1,
    closed: 10002000,
    counterAsset: 1,
    counterAmount: 300n,
    counterAccount: 1,
    baseAsset: 0,
    baseAmount: 200n,
    basePool: 1,
    baseIsSeller: true,
    n: 43n,
    d: 56n,
    pool: true,
  },
];

const pagingToken = (trade: ScenarioTrade) => `${trade.op}-${trade.order}`;

/** the record Horizon renders for a row (PopulateTrade): absent values left out */
function expected(trade: ScenarioTrade): Json {
  const side = (prefix: string, asset: number, offer?: bigint, account?: number, pooled?: number) => {
    const { type, code, issuer } = ASSETS[asset] ?? { type: '', code: '', issuer: '' };
    return {
      ...(offer === undefined ? {} : { [`${prefix}_offer_id`]: String(offer) }),
      ...(account === undefined ? {} : { [`${prefix}_account`]: ADDRESSES[account] }),
      ...(pooled === undefined ? {} : { [`${prefix}_liquidity_pool_id`]: POOLS[pooled] }),
      [`${prefix}_asset_type`]: type,
      ...(type === 'native' ? {} : { [`${prefix}_asset_code`]: code, [`${prefix}_asset_issuer`]: issuer }),
    };
  };
  return {
    id: pagingToken(trade),
    paging_token: pagingToken(trade),
    ledger_close_time: new Date(trade.closed * 1000).toISOString().replace('.000Z', 'Z'),
    trade_type: trade.pool ? 'liquidity_pool' : 'orderbook',
    ...(trade.pool ? { liquidity_pool_fee_bp: FEE_V18 } : {}),
    ...side('base', trade.baseAsset, trade.baseOffer, trade.baseAccount, trade.basePool),
    base_amount: formatAmount(trade.baseAmount),
    ...side('counter', trade.counterAsset, trade.counterOffer, trade.counterAccount),
    counter_amount: formatAmount(trade.counterAmount),
    base_is_seller: trade.baseIsSeller,
    price: { n: String(trade.n), d: String(trade.d) },
  };
}

/** a record without its links, to compare with `expected` */
function fields(record: Json): Json {
  const { _links, offer_id, ...rest } = record;
  return rest;
}

/** Horizon's reverseTrade: the record seen from the counter side */
function reversed(record: Json): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(record)) {
    if (key.startsWith('base_') && key !== 'base_is_seller') out[`counter_${key.slice(5)}`] = value;
    else if (key.startsWith('counter_')) out[`base_${key.slice(8)}`] = value;
    else out[key] = value;
  }
  out.base_is_seller = !record.base_is_seller;
  out.price = { n: record.price.d, d: record.price.n };
  out._links = { ...record._links, base: record._links.counter, counter: record._links.base };
  return out;
}

beforeAll(async () => {
  test = await createTestDatabase();
  const prisma = test.db.prisma;
  for (const asset of ASSETS) await prisma.asset.create({ data: asset });
  const ids = (await prisma.asset.findMany({ orderBy: { id: 'asc' } })).map((asset) => asset.id);
  await prisma.trade.createMany({
    data: TRADES.map((trade) => ({
      operationId: trade.op,
      order: trade.order,
      closedAt: new Date(trade.closed * 1000),
      baseOfferId: trade.baseOffer ?? null,
      counterOfferId: trade.counterOffer ?? null,
      baseAccount: trade.baseAccount === undefined ? null : (ADDRESSES[trade.baseAccount] ?? null),
      counterAccount: trade.counterAccount === undefined ? null : (ADDRESSES[trade.counterAccount] ?? null),
      baseAssetId: ids[trade.baseAsset] ?? 0,
      counterAssetId: ids[trade.counterAsset] ?? 0,
      baseLiquidityPoolId: trade.basePool === undefined ? null : (POOLS[trade.basePool] ?? null),
      baseAmount: trade.baseAmount,
      counterAmount: trade.counterAmount,
      baseIsSeller: trade.baseIsSeller,
      priceN: trade.n,
      priceD: trade.d,
      tradeType: trade.pool ? 2 : 1,
      liquidityPoolFee: trade.pool ? FEE_V18 : null,
      roundingSlippage: trade.pool ? 0n : null,
    })),
  });
  api = await serveTestApi(test);
  ({ base } = api);
});

afterAll(async () => {
  await api.close();
  await test.drop();
});

const get = (path: string, status = 200) => getJson(base, path, status);
const records = (path: string) => getRecords(base, path);

/** FilterTradesByType */
function ofType(trades: ScenarioTrade[], type: string): ScenarioTrade[] {
  if (type === 'orderbook') return trades.filter((trade) => trade.baseOffer !== undefined || trade.counterOffer !== undefined);
  if (type === 'liquidity_pool') return trades.filter((trade) => trade.basePool !== undefined);
  return trades;
}

async function expectProblem(path: string, field: string, reason: string): Promise<void> {
  expect(await get(path, 400), path).toMatchObject({ status: 400, extras: { invalid_field: field, reason } });
}

const SINGLE_FILTER = 'Use a single filter for trades, you can only use one of account_id, liquidity_pool_id, offer_id';

describe('TestLiquidityPoolTrades', () => {
  it('lists each pool’s trades, and refuses a second filter or orderbook trades', async () => {
    for (const [index, id] of POOLS.entries()) {
      const trades = await records(`/liquidity_pools/${id}/trades`);
      expect(trades.map(fields)).toEqual(TRADES.filter((trade) => trade.basePool === index).map(expected));
      expect(trades[0]?._links.base).toEqual({ href: `${base}/liquidity_pools/${id}` });
    }
    await expectProblem(
      `/liquidity_pools/${POOLS[0]}/trades?account_id=${ADDRESSES[0]}`,
      'account_id,liquidity_pool_id,offer_id',
      SINGLE_FILTER,
    );
    await expectProblem(`/liquidity_pools/${POOLS[0]}/trades?offer_id=1`, 'account_id,liquidity_pool_id,offer_id', SINGLE_FILTER);
    await expectProblem(
      `/liquidity_pools/${POOLS[0]}/trades?trade_type=orderbook`,
      'trade_type',
      'trade_type orderbook cannot be used with the liquidity_pool_id filter',
    );
  });

  it('streams a pool’s trades (Accept: text/event-stream), an unknown pool being a 404 before it opens', async () => {
    const stream = await EventStream.open(`${base}/liquidity_pools/${POOLS[1]}/trades`);
    try {
      expect(await stream.next()).toMatchObject(expected(TRADES[4] as ScenarioTrade));
    } finally {
      stream.close();
    }
    const response = await fetch(`${base}/liquidity_pools/${'ab'.repeat(32)}/trades`, { headers: { accept: 'text/event-stream' } });
    expect(response.status).toBe(404);
  });

  it('validates the pool id and answers an unknown pool with 404', async () => {
    await expectProblem('/liquidity_pools/0000001112122/trades', 'liquidity_pool_id', '0000001112122 does not validate as sha256');
    await get(`/liquidity_pools/${'ab'.repeat(32)}/trades`, 404);
  });
});

describe('TestOrderbookTrades', () => {
  it('lists each offer’s trades, and refuses a second filter or pool trades', async () => {
    const offers = new Set(TRADES.flatMap((trade) => [trade.baseOffer, trade.counterOffer]).filter((id) => id !== undefined));
    for (const offer of offers) {
      const expectedTrades = TRADES.filter((trade) => trade.baseOffer === offer || trade.counterOffer === offer).map(expected);
      expect((await records(`/offers/${offer}/trades`)).map(fields)).toEqual(expectedTrades);
      // the SDK's forOffer: /trades?offer_id=
      expect((await records(`/trades?offer_id=${offer}`)).map(fields)).toEqual(expectedTrades);
    }
    await expectProblem(`/offers/1/trades?account_id=${ADDRESSES[0]}`, 'account_id,liquidity_pool_id,offer_id', SINGLE_FILTER);
    await expectProblem(`/offers/1/trades?liquidity_pool_id=${POOLS[0]}`, 'account_id,liquidity_pool_id,offer_id', SINGLE_FILTER);
    await expectProblem(
      '/offers/1/trades?trade_type=liquidity_pool',
      'trade_type',
      'trade_type liquidity_pool cannot be used with the offer_id filter',
    );
  });
});

describe('TestAccountTrades', () => {
  it('lists each account’s trades of each type', async () => {
    for (const type of ['', 'all', 'orderbook', 'liquidity_pool']) {
      for (const [index, address] of ADDRESSES.entries()) {
        const mine = TRADES.filter((trade) => trade.baseAccount === index || trade.counterAccount === index);
        const query = type === '' ? '' : `?trade_type=${type}`;
        expect((await records(`/accounts/${address}/trades${query}`)).map(fields), `${address} ${type}`).toEqual(
          ofType(mine, type).map(expected),
        );
      }
    }
  });

  it('refuses a second filter and an unknown trade type', async () => {
    await expectProblem(`/accounts/${ADDRESSES[0]}/trades?offer_id=1`, 'account_id,liquidity_pool_id,offer_id', SINGLE_FILTER);
    await expectProblem(
      `/accounts/${ADDRESSES[0]}/trades?liquidity_pool_id=${POOLS[0]}`,
      'account_id,liquidity_pool_id,offer_id',
      SINGLE_FILTER,
    );
    await expectProblem(
      `/accounts/${ADDRESSES[0]}/trades?trade_type=invalid`,
      'trade_type',
      'Trade type must be all, orderbook, or liquidity_pool',
    );
  });

  it('lists the trades of an account that no longer exists, and 404s one the history never saw', async () => {
    // neither scenario account has an account row: their trades are listed all the same
    expect(await records(`/accounts/${ADDRESSES[1]}/trades?limit=1`)).toHaveLength(1);
    await get('/accounts/GDRXE2BQUC3AZNPVFSCEZ76NJ3WWL25FYFK6RGZGIEKWE4SOOHSUJUJ6/trades', 404);
  });
});

describe('TestTrades', () => {
  it('lists every trade of each type, and the same reversed with order=desc', async () => {
    for (const type of ['', 'all', 'orderbook', 'liquidity_pool']) {
      const query = type === '' ? '' : `trade_type=${type}`;
      const ascending = await records(`/trades?${query}`);
      expect(ascending.map(fields)).toEqual(ofType(TRADES, type).map(expected));
      expect(await records(`/trades?order=desc&${query}`)).toEqual([...ascending].reverse());
    }
    await expectProblem('/trades?trade_type=invalid', 'trade_type', 'Trade type must be all, orderbook, or liquidity_pool');
  });
});

describe('TestTradesForAssetPair', () => {
  const pair = (prefix: string, asset: number) => {
    const { type, code, issuer } = ASSETS[asset] ?? { type: '', code: '', issuer: '' };
    return `${prefix}_asset_type=${type}&${prefix}_asset_code=${code}&${prefix}_asset_issuer=${issuer}`;
  };

  it('lists a pair’s trades as stored, and from the other side when asked the other way round', async () => {
    // fixtures.Trades[0]'s pair: EUR (base) and USD (counter)
    const forward = `${pair('base', 0)}&${pair('counter', 1)}`;
    const backward = `${pair('base', 1)}&${pair('counter', 0)}`;
    const rows = TRADES.filter((trade) => [trade.baseAsset, trade.counterAsset].sort().join() === '0,1');
    for (const type of ['', 'all', 'orderbook', 'liquidity_pool']) {
      const typeQuery = type === '' ? '' : `&trade_type=${type}`;
      const trades = await records(`/trades?${forward}${typeQuery}`);
      expect(trades.map(fields)).toEqual(ofType(rows, type).map(expected));
      expect(await records(`/trades?${backward}${typeQuery}`)).toEqual(trades.map(reversed));
    }
    // with an account, as Horizon's GetTradesForAssets
    expect((await records(`/accounts/${ADDRESSES[1]}/trades?${backward}`)).map((trade) => trade.base_asset_code)).toEqual([
      'USD',
      'USD',
      'USD',
    ]);
  });

  it('answers 404 for an asset that never traded (TestTradeActions_IndexRegressions)', async () => {
    await get(
      '/trades?base_asset_type=credit_alphanum4&base_asset_code=EUR&base_asset_issuer=GCQPYGH4K57XBDENKKX55KDTWOTK5WDWRQOH2LHEDX3EKVIQRLMESGBG&counter_asset_type=native',
      404,
    );
  });

  it('refuses half a pair, a pair with an offer or a pool, and a malformed asset (TestTradeActions_AssetValidation)', async () => {
    await expectProblem(
      '/trades?base_asset_type=native',
      'base_asset_type,counter_asset_type',
      'this endpoint supports asset pairs but only one asset supplied',
    );
    await expectProblem(
      `/trades?${pair('base', 0)}&counter_asset_type=native&offer_id=7`,
      'base_asset_type,counter_asset_type,offer_id',
      'this endpoint does not support filtering by both asset pair and offer id ',
    );
    await expectProblem(
      `/trades?${pair('base', 0)}&counter_asset_type=native&liquidity_pool_id=${POOLS[0]}`,
      'base_asset_type,counter_asset_type,liquidity_pool_id',
      'this endpoint does not support filtering by both asset pair and liquidity pool id ',
    );
    expect(await get('/trades?base_asset_type=credit_alphanum4&base_asset_code=EUR&counter_asset_type=native', 400)).toMatchObject({
      extras: { invalid_field: 'base_asset_issuer' },
    });
    expect(await get('/trades?base_asset_type=coin&counter_asset_type=native', 400)).toMatchObject({
      extras: { invalid_field: 'base_asset_type' },
    });
    expect(await get('/trades?offer_id=x', 400)).toMatchObject({ extras: { invalid_field: 'offer_id' } });
  });
});

describe('@stellar/stellar-sdk trades() over the scenario (no pool can be made on the embedded network yet)', () => {
  it('forLiquidityPool, forAssetPair, forOffer, forAccount and forType', async () => {
    const server = new Horizon.Server(base, { allowHttp: true });
    const ids = (page: { records: { id: string }[] }) => page.records.map((record) => record.id);
    expect(
      ids(
        await server
          .trades()
          .forLiquidityPool(POOLS[0] as string)
          .call(),
      ),
    ).toEqual([`${toid(3, 2, 2)}-3`]);
    const eur = new Asset('EUR', ISSUER);
    const usd = new Asset('USD', ISSUER);
    const pair = await server.trades().forAssetPair(usd, eur).forType(Horizon.ServerApi.TradeType.liquidityPools).call();
    expect(pair.records.map((record) => [record.base_asset_code, record.counter_asset_code, record.base_amount])).toEqual([
      ['USD', 'EUR', '0.0000300'],
    ]);
    expect(ids(await server.trades().forOffer('7').call())).toEqual([`${toid(3, 2, 1)}-1`]);
    expect(
      ids(
        await server
          .trades()
          .forAccount(ADDRESSES[0] as string)
          .limit(2)
          .order('desc')
          .call(),
      ),
    ).toEqual([`${toid(3, 2, 2)}-3`, `${toid(3, 2, 1)}-1`]);
    await expect(server.trades().forLiquidityPool('nope').call()).rejects.toMatchObject({ response: { status: 400 } });
  });
});

describe('GraphQL trades(...)', () => {
  const graphql = (query: string, variables: Json = {}) => postGraphQL(base, query, variables);
  const TRADES_QUERY = `query($base: AssetInput, $counter: AssetInput, $pool: String, $type: String, $offer: Int64, $account: String) {
    trades(first: 10, baseAsset: $base, counterAsset: $counter, liquidityPoolId: $pool, tradeType: $type, offerId: $offer, forAccount: $account) {
      edges { node { pagingToken baseAssetCode counterAssetCode baseAmount baseIsSeller price { n d } baseLiquidityPoolId counterLiquidityPoolId } }
    }
  }`;
  const nodes = (result: Json) => (result.data.trades.edges as Json[]).map((edge) => edge.node);

  it('takes the filters as typed arguments, a pair in either orientation', async () => {
    const usd = { assetType: 'credit_alphanum4', assetCode: 'USD', assetIssuer: ISSUER };
    const eur = { assetType: 'credit_alphanum4', assetCode: 'EUR', assetIssuer: ISSUER };
    const flipped = nodes(await graphql(TRADES_QUERY, { base: usd, counter: eur, type: 'liquidity_pool' }));
    expect(flipped).toEqual([
      {
        pagingToken: `${toid(3, 3, 1)}-1`,
        baseAssetCode: 'USD',
        counterAssetCode: 'EUR',
        baseAmount: '0.0000300',
        baseIsSeller: false,
        price: { n: '56', d: '43' },
        baseLiquidityPoolId: null,
        counterLiquidityPoolId: POOLS[1],
      },
    ]);
    // one side selected alone is still the side asked for
    const alone = await graphql(
      'query($base: AssetInput, $counter: AssetInput) { trades(baseAsset: $base, counterAsset: $counter) { edges { node { baseAssetCode } } } }',
      {
        base: usd,
        counter: eur,
      },
    );
    expect(nodes(alone).map((node) => node.baseAssetCode)).toEqual(['USD', 'USD', 'USD']);
    expect(nodes(await graphql(TRADES_QUERY, { pool: POOLS[0] })).map((node) => node.pagingToken)).toEqual([`${toid(3, 2, 2)}-3`]);
    expect(nodes(await graphql(TRADES_QUERY, { offer: '7' })).map((node) => node.pagingToken)).toEqual([`${toid(3, 2, 1)}-1`]);
  });

  it('answers bad filters with coded errors naming Horizon’s parameters', async () => {
    const result = await graphql(TRADES_QUERY, { pool: POOLS[0], account: ADDRESSES[0] });
    expect(result.errors[0].extensions).toMatchObject({
      code: 'bad_request',
      extras: { invalid_field: 'account_id,liquidity_pool_id,offer_id' },
    });
    const half = await graphql(TRADES_QUERY, { base: { assetType: 'native' } });
    expect(half.errors[0].extensions).toMatchObject({
      code: 'bad_request',
      extras: { invalid_field: 'base_asset_type,counter_asset_type' },
    });
    const badPool = await graphql(TRADES_QUERY, { pool: 'nope' });
    expect(badPool.errors[0].extensions).toMatchObject({ code: 'bad_request', extras: { invalid_field: 'liquidity_pool_id' } });
    const unknownPool = await graphql(TRADES_QUERY, { pool: 'cd'.repeat(32) });
    expect(unknownPool.errors[0].extensions).toMatchObject({ code: 'not_found' });
  });

  it('follows a pool’s trades in a subscription, after replaying those after the cursor', async () => {
    const events = inProcessLedgerEvents();
    const contextValue = createContext(testServices(test.db, events));
    const document = parse(`subscription { trades(liquidityPoolId: "${POOLS[1]}") { pagingToken baseAmount } }`);
    const stream = (await subscribe({ schema, document, contextValue })) as AsyncGenerator<ExecutionResult>;
    expect((await stream.next()).value.data).toEqual({ trades: { pagingToken: `${toid(3, 3, 1)}-1`, baseAmount: '0.0000200' } });
    const following = stream.next();
    const later = TRADES[4] as ScenarioTrade;
    await test.db.prisma.trade.create({
      data: {
        operationId: toid(4, 1, 1),
        order: 1,
        closedAt: new Date(),
        counterAccount: ADDRESSES[1] ?? null,
        baseAssetId: (await test.db.prisma.asset.findFirstOrThrow({ where: { code: 'EUR' } })).id,
        counterAssetId: (await test.db.prisma.asset.findFirstOrThrow({ where: { code: 'USD' } })).id,
        baseLiquidityPoolId: POOLS[1] ?? null,
        baseAmount: 500n,
        counterAmount: later.counterAmount,
        baseIsSeller: true,
        priceN: later.n,
        priceD: later.d,
        tradeType: 2,
        liquidityPoolFee: FEE_V18,
      },
    });
    await events.publish(4);
    expect((await following).value.data).toEqual({ trades: { pagingToken: `${toid(4, 1, 1)}-1`, baseAmount: '0.0000500' } });
    await stream.return(undefined);
    await test.db.prisma.trade.delete({ where: { operationId_order: { operationId: toid(4, 1, 1), order: 1 } } });
  });

  it('refuses to follow an unknown pool', async () => {
    const contextValue = createContext(testServices(test.db));
    const document = parse(`subscription { trades(liquidityPoolId: "${'ef'.repeat(32)}") { pagingToken } }`);
    const result = (await subscribe({ schema, document, contextValue })) as ExecutionResult;
    expect(result.errors?.[0]?.originalError).toMatchObject({ problem: { type: 'not_found' } });
  });
});
