// End to end for market data: a fresh private network where a market maker quotes USD against XLM
// and a taker crosses one quote, read back through @stellar/stellar-sdk unchanged: the order book,
// payment paths in both directions and both source forms, trade aggregations and fee stats.
import { Asset, Horizon, Keypair, Operation, type xdr } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNetwork, type TestNetwork } from '../support/network.js';

let network: TestNetwork;
let server: Horizon.Server;
const issuer = Keypair.random();
const maker = Keypair.random();
const taker = Keypair.random();
const USD = new Asset('USD', issuer.publicKey());
const XLM = Asset.native();
let tradeLedger = 0;

const submit = (signer: Keypair, operations: xdr.Operation[]) => network.submitOperations(signer, operations);

beforeAll(async () => {
  network = await startTestNetwork();
  server = new Horizon.Server(network.url, { allowHttp: true });
  await network.fund(issuer, maker, taker);
  await submit(maker, [Operation.changeTrust({ asset: USD })]);
  await submit(taker, [Operation.changeTrust({ asset: USD })]);
  await submit(issuer, [Operation.payment({ destination: maker.publicKey(), asset: USD, amount: '500' })]);
  // the maker bids 100 USD for XLM at 2 XLM per USD and asks 50 XLM for USD at 0.6 USD per XLM
  await submit(maker, [
    Operation.manageSellOffer({ selling: USD, buying: XLM, amount: '100', price: '2' }),
    Operation.manageSellOffer({ selling: XLM, buying: USD, amount: '50', price: '0.6' }),
  ]);
  // the taker sells 10 XLM into the bid: 5 USD at 0.5 USD per XLM
  tradeLedger = await submit(taker, [Operation.manageSellOffer({ selling: XLM, buying: USD, amount: '10', price: '0.5' })]);
}, 120_000);

afterAll(async () => {
  await network?.stop();
});

describe('@stellar/stellar-sdk market data against Zenith', () => {
  it('orderbook(...).call() aggregates both sides with price_r', async () => {
    const book = await server.orderbook(XLM, USD).call();
    expect(book.base).toMatchObject({ asset_type: 'native' });
    expect(book.counter).toMatchObject({ asset_type: 'credit_alphanum4', asset_code: 'USD', asset_issuer: issuer.publicKey() });
    // bids: offers selling USD for XLM, in USD per XLM, amount in USD (95 left after the trade)
    expect(book.bids).toEqual([{ price_r: { n: 1, d: 2 }, price: '0.5000000', amount: '95.0000000' }]);
    expect(book.asks).toEqual([{ price_r: { n: 3, d: 5 }, price: '0.6000000', amount: '50.0000000' }]);
  });

  it('strictReceivePaths(...) from a list of assets and from an account', async () => {
    const fromAssets = await server.strictReceivePaths([XLM], USD, '1').call();
    expect(fromAssets.records).toHaveLength(1);
    expect(fromAssets.records[0]).toMatchObject({
      source_asset_type: 'native',
      source_amount: '2.0000000',
      destination_asset_type: 'credit_alphanum4',
      destination_asset_code: 'USD',
      destination_asset_issuer: issuer.publicKey(),
      destination_amount: '1.0000000',
      path: [],
    });
    // the taker holds XLM and USD: USD itself (no hop) costs 1 USD, XLM costs 2 XLM
    const fromAccount = await server.strictReceivePaths(taker.publicKey(), USD, '1').call();
    const sources = fromAccount.records.map((r) => [r.source_asset_type, r.source_amount]);
    expect(sources).toEqual(
      expect.arrayContaining([
        ['credit_alphanum4', '1.0000000'],
        ['native', '2.0000000'],
      ]),
    );
    expect(sources).toHaveLength(2);
  });

  it('strictSendPaths(...) to a list of assets and to an account', async () => {
    const toAssets = await server.strictSendPaths(XLM, '10', [USD]).call();
    expect(toAssets.records).toEqual([
      expect.objectContaining({
        source_asset_type: 'native',
        source_amount: '10.0000000',
        destination_asset_code: 'USD',
        destination_amount: '5.0000000',
        path: [],
      }),
    ]);
    const toAccount = await server.strictSendPaths(XLM, '10', taker.publicKey()).call();
    expect(toAccount.records.map((r) => [r.destination_asset_type, r.destination_amount])).toEqual(
      expect.arrayContaining([
        ['credit_alphanum4', '5.0000000'],
        ['native', '10.0000000'],
      ]),
    );
  });

  it('a path that does not exist is NotFound', async () => {
    const EUR = new Asset('EUR', issuer.publicKey());
    await expect(server.strictReceivePaths([XLM], EUR, '1').call()).rejects.toMatchObject({ response: { status: 404 } });
  });

  it('tradeAggregation(...).call() has the one trade in its minute', async () => {
    // the trade's minute, from its ledger's close time: the core closes test ledgers faster than one
    // a second, each a second after the last, so close times can run ahead of the clock
    // (the SDK types a single ledger as a page)
    const ledger = (await server.ledgers().ledger(tradeLedger).call()) as unknown as { closed_at: string };
    const closedAt = Date.parse(ledger.closed_at);
    const end = closedAt + 60_000;
    const page = await server.tradeAggregation(XLM, USD, 0, end, 60_000, 0).call();
    expect(page.records).toHaveLength(1);
    const [segment] = page.records;
    expect(segment).toMatchObject({
      trade_count: 1,
      base_volume: '10.0000000',
      counter_volume: '5.0000000',
      avg: '0.5000000',
      open: '0.5000000',
      close: '0.5000000',
      high_r: { N: 1, D: 2 },
    });
    // the spec's types: trade_count and the {N, D} fractions are numbers
    expect(Number(segment!.timestamp)).toBe(closedAt - (closedAt % 60_000));
    // the reversed pair inverts prices and swaps volumes
    const reversed = await server.tradeAggregation(USD, XLM, 0, end, 60_000, 0).call();
    expect(reversed.records[0]).toMatchObject({ base_volume: '5.0000000', counter_volume: '10.0000000', avg: '2.0000000' });
  });

  it('trades().forAssetPair(...) shows the trade from the base asked, either way round', async () => {
    const xlmFirst = await server.trades().forAssetPair(XLM, USD).call();
    expect(xlmFirst.records).toHaveLength(1);
    const [trade] = xlmFirst.records;
    expect(trade).toMatchObject({
      trade_type: 'orderbook',
      base_asset_type: 'native',
      base_account: taker.publicKey(),
      base_amount: '10.0000000',
      counter_asset_type: 'credit_alphanum4',
      counter_asset_code: 'USD',
      counter_account: maker.publicKey(),
      counter_amount: '5.0000000',
      base_is_seller: false,
      price: { n: '1', d: '2' },
    });
    const usdFirst = await server.trades().forAssetPair(USD, XLM).call();
    const [flipped] = usdFirst.records as Horizon.ServerApi.TradeRecord.Orderbook[];
    expect(flipped).toMatchObject({
      id: trade!.id,
      base_asset_code: 'USD',
      base_account: maker.publicKey(),
      base_offer_id: (trade as Horizon.ServerApi.TradeRecord.Orderbook).counter_offer_id,
      base_amount: '5.0000000',
      counter_asset_type: 'native',
      counter_amount: '10.0000000',
      base_is_seller: true,
      price: { n: '2', d: '1' },
    });
    // the maker's offer, the taker's account, a type
    const makerOffer = flipped!.base_offer_id;
    expect((await server.trades().forOffer(makerOffer).call()).records.map((r) => r.id)).toEqual([trade!.id]);
    expect(
      (await server.trades().forAccount(taker.publicKey()).forType(Horizon.ServerApi.TradeType.orderbook).call()).records.map((r) => r.id),
    ).toEqual([trade!.id]);
    expect(
      (await server.trades().forAccount(taker.publicKey()).forType(Horizon.ServerApi.TradeType.liquidityPools).call()).records,
    ).toEqual([]);
    await expect(
      server
        .trades()
        .forType('pools' as never)
        .call(),
    ).rejects.toMatchObject({ response: { status: 400 } });
  });

  it("operations().join('transactions') embeds each operation’s transaction", async () => {
    const page = await server.operations().forAccount(taker.publicKey()).join('transactions').order('desc').limit(1).call();
    // the SDK keeps an embedded record whose name is also a link's under `<name>_attr`
    const [op] = page.records as unknown as {
      transaction_hash: string;
      transaction_attr: { id: string; hash: string; ledger_attr: number };
    }[];
    expect(op!.transaction_attr).toMatchObject({ id: op!.transaction_hash, hash: op!.transaction_hash, ledger_attr: tradeLedger });
  });

  it('feeStats() and fetchBaseFee() read the last ledgers', async () => {
    const stats = await server.feeStats();
    expect(Number(stats.last_ledger)).toBeGreaterThanOrEqual(tradeLedger);
    expect(stats.last_ledger_base_fee).toBe('100');
    expect(stats.fee_charged.min).toBe('100');
    expect(stats.max_fee.max).toBe('100');
    for (const value of [...Object.values(stats.fee_charged), ...Object.values(stats.max_fee), stats.ledger_capacity_usage]) {
      expect(typeof value).toBe('string');
    }
    expect(await server.fetchBaseFee()).toBe(100);
  });
});

describe('/metrics of a process that ingests', () => {
  it('times every ingested ledger as ingester.ingest_ledger', async () => {
    const metrics = (await (await fetch(`${network.url}/metrics`)).json()) as Record<string, Record<string, number>>;
    const timer = metrics['ingester.ingest_ledger'];
    // every ledger of this network was ingested here, from the genesis ledger on
    expect(timer?.count).toBe(network.ingester.lastLedger);
    expect(timer?.min).toBeGreaterThan(0);
    expect(metrics['ingester.clear_ledger']?.count).toBe(0);
  });
});
