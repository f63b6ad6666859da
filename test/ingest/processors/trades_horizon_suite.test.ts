// Horizon's own trades processor tests (stellar/stellar-horizon
// internal/ingest/processors/trades_processor_test.go, TradeProcessorTestSuiteLedger): one
// transaction of nine operations whose results claim six offers and two liquidity pools, among
// garbage-collected (zero) claims; Horizon's expected history_trades rows follow, with its asset ids
// (10000 + i or 100 + i for the i-th claim), account addresses for its account ids and the pools'
// hex ids for its pool ids. Then its rounding slippage tests (TestTradeProcessor_RoundingSlippage_*).
import { Account, Asset, MuxedAccount, Operation, xdr } from '@stellar/stellar-sdk/base';
import { describe, expect, it } from 'vitest';
import { operationTrades, syntheticOfferId, tradeRow, type TradeInput } from '../../../src/ingest/processors/trades.js';
import type { TradeRow } from '../../../src/ingest/rows.js';
import { accountIdToXdr, assetToXdr, creditAsset, NATIVE_ASSET, toid } from '../../../src/stellar/index.js';

const SOURCE = 'GAUJETIZVEP2NRYLUESJ3LS66NVCEGMON4UDCBCSBEVPIID773P2W6AY';
const OP_SOURCE = 'GC3C4AKRBQLHOJ45U4XG35ESVWRDECWO5XLDGYADO6DPR3L7KIDVUMML';
// both muxed, as in the suite: trades name the underlying accounts
const muxed = (account: string, id: string) => new MuxedAccount(new Account(account, '0'), id).accountId();
const OP_SOURCE_MUXED = muxed(OP_SOURCE, String(0xcafebabe));

const credit = (code: string) => assetToXdr(creditAsset(code, SOURCE));
const native = assetToXdr(NATIVE_ASSET);
const int64 = (n: bigint | number) => xdr.Int64.fromString(String(n));
const poolId = (...first: number[]) => new xdr.PoolId(Buffer.concat([Buffer.from(first), Buffer.alloc(32 - first.length)]));

interface OfferClaim {
  seller: string;
  offerId: number;
  sold: xdr.Asset;
  amountSold: number;
  bought: xdr.Asset;
  amountBought: number;
}
interface PoolClaim {
  pool: xdr.PoolId;
  sold: xdr.Asset;
  amountSold: number;
  bought: xdr.Asset;
  amountBought: number;
}

function offerAtom(c: OfferClaim): xdr.ClaimAtom {
  return xdr.ClaimAtom.claimAtomTypeOrderBook(
    new xdr.ClaimOfferAtom({
      sellerId: accountIdToXdr(c.seller),
      offerId: int64(c.offerId),
      assetSold: c.sold,
      amountSold: int64(c.amountSold),
      assetBought: c.bought,
      amountBought: int64(c.amountBought),
    }),
  );
}

function poolAtom(c: PoolClaim): xdr.ClaimAtom {
  return xdr.ClaimAtom.claimAtomTypeLiquidityPool(
    new xdr.ClaimLiquidityAtom({
      liquidityPoolId: c.pool,
      assetSold: c.sold,
      amountSold: int64(c.amountSold),
      assetBought: c.bought,
      amountBought: int64(c.amountBought),
    }),
  );
}

const strictReceiveTrade: OfferClaim = {
  seller: 'GA2YS6YBWIBUMUJCNYROC5TXYTTUA4TCZF7A4MJ2O4TTGT3LFNWIOMY4',
  offerId: 11,
  sold: native,
  amountSold: 111,
  bought: credit('HUF'),
  amountBought: 211,
};
const strictReceiveTradeLP: PoolClaim = {
  pool: poolId(1, 2, 3),
  sold: credit('MAD'),
  amountSold: 602,
  bought: credit('GRE'),
  amountBought: 300,
};
const strictSendTrade: OfferClaim = {
  seller: 'GALOBQKDZUSAEUDE7F4OYUIQTUZBL62G6TRCXU2ED6SA7TL72MBUQSYJ',
  offerId: 12,
  sold: credit('USD'),
  amountSold: 112,
  bought: credit('RUB'),
  amountBought: 212,
};
const strictSendTradeLP: PoolClaim = {
  pool: poolId(4, 5, 6),
  sold: credit('WER'),
  amountSold: 67,
  bought: credit('NIJ'),
  amountBought: 98,
};
const buyOfferTrade: OfferClaim = {
  seller: 'GCWRLPH5X5A3GABFDLDILZ4RLY6O76AYOIIR5H2PAI6TNZZZNLZWBXSH',
  offerId: 13,
  sold: credit('EUR'),
  amountSold: 113,
  bought: credit('NOK'),
  amountBought: 213,
};
const sellOfferTrade: OfferClaim = {
  seller: 'GAVOLNFXVVUJOELN4T3YVSH2FFA3VSP2XN4NJRYF2ZWVCHS77C5KXLHZ',
  offerId: 14,
  sold: credit('PLN'),
  amountSold: 114,
  bought: credit('UAH'),
  amountBought: 214,
};
const passiveSellOfferTrade: OfferClaim = {
  seller: 'GDQWI6FKB72DPOJE4CGYCFQZKRPQQIOYXRMZ5KEVGXMG6UUTGJMBCASH',
  offerId: 15,
  sold: credit('SEK'),
  amountSold: 115,
  bought: credit('GBP'),
  amountBought: 215,
};
const otherPassiveSellOfferTrade: OfferClaim = {
  seller: 'GCPZFOJON3PSSYUBNT7MCGEDSGP47UTSJSB4XGCVEWEJO4XQ6U4XN3N2',
  offerId: 16,
  sold: credit('CHF'),
  amountSold: 116,
  bought: credit('JPY'),
  amountBought: 216,
};
// a garbage-collected offer: zero amounts, no trade
const emptyTrade = offerAtom({ seller: SOURCE, offerId: 123, sold: native, amountSold: 0, bought: credit('EUR'), amountBought: 0 });

const allTrades: (OfferClaim | PoolClaim)[] = [
  strictReceiveTrade,
  strictSendTrade,
  buyOfferTrade,
  sellOfferTrade,
  passiveSellOfferTrade,
  otherPassiveSellOfferTrade,
  strictReceiveTradeLP,
  strictSendTradeLP,
];
const isPool = (c: OfferClaim | PoolClaim): c is PoolClaim => 'pool' in c;

/** the suite's asset ids: the i-th claim's sold asset 10000 + i and bought 100 + i for even i, the other way round for odd */
function assetIds(i: number): { sold: number; bought: number } {
  return i % 2 === 0 ? { sold: 10000 + i, bought: 100 + i } : { sold: 100 + i, bought: 10000 + i };
}

function offerEntry(c: OfferClaim, price: xdr.Price): xdr.LedgerEntry {
  return new xdr.LedgerEntry({
    lastModifiedLedgerSeq: 0,
    data: xdr.LedgerEntryData.offer(
      new xdr.OfferEntry({
        sellerId: accountIdToXdr(c.seller),
        offerId: int64(c.offerId),
        selling: c.sold,
        buying: c.bought,
        amount: int64(0),
        price,
        flags: 0,
        ext: xdr.OfferEntryExt.v0(),
      }),
    ),
    ext: xdr.LedgerEntryExt.v0(),
  });
}

function poolEntry(pool: xdr.PoolId, assetA: xdr.Asset, assetB: xdr.Asset, reserveA: bigint, reserveB: bigint): xdr.LedgerEntry {
  return new xdr.LedgerEntry({
    lastModifiedLedgerSeq: 0,
    data: xdr.LedgerEntryData.liquidityPool(
      new xdr.LiquidityPoolEntry({
        liquidityPoolId: pool,
        body: xdr.LiquidityPoolEntryBody.liquidityPoolConstantProduct(
          new xdr.LiquidityPoolEntryConstantProduct({
            params: new xdr.LiquidityPoolConstantProductParameters({ assetA, assetB, fee: 30 }),
            reserveA: int64(reserveA),
            reserveB: int64(reserveB),
            totalPoolShares: int64(40),
            poolSharesTrustLineCount: int64(50),
          }),
        ),
      }),
    ),
    ext: xdr.LedgerEntryExt.v0(),
  });
}

/** the i-th claim's operation changes: the offer's state (its price (i+1)/100) and removal, or the pool's state and update (reserves 400 of the bought asset, 800 of the sold) */
function changesOf(c: OfferClaim | PoolClaim, i: number): xdr.LedgerEntryChange[] {
  if (isPool(c)) {
    const entry = poolEntry(c.pool, c.bought, c.sold, 400n, 800n);
    return [xdr.LedgerEntryChange.ledgerEntryState(entry), xdr.LedgerEntryChange.ledgerEntryUpdated(entry)];
  }
  return [
    xdr.LedgerEntryChange.ledgerEntryState(offerEntry(c, new xdr.Price({ n: i + 1, d: 100 }))),
    xdr.LedgerEntryChange.ledgerEntryRemoved(
      xdr.LedgerKey.offer(new xdr.LedgerKeyOffer({ sellerId: accountIdToXdr(c.seller), offerId: int64(c.offerId) })),
    ),
  ];
}

const last = new xdr.SimplePaymentResult({ destination: accountIdToXdr(SOURCE), asset: native, amount: int64(0) });
const strictReceive = (offers: xdr.ClaimAtom[]) =>
  xdr.OperationResultTr.pathPaymentStrictReceive(
    xdr.PathPaymentStrictReceiveResult.pathPaymentStrictReceiveSuccess(new xdr.PathPaymentStrictReceiveResultSuccess({ offers, last })),
  );
const strictSend = (offers: xdr.ClaimAtom[]) =>
  xdr.OperationResultTr.pathPaymentStrictSend(
    xdr.PathPaymentStrictSendResult.pathPaymentStrictSendSuccess(new xdr.PathPaymentStrictSendResultSuccess({ offers, last })),
  );
const offerSuccess = (offersClaimed: xdr.ClaimAtom[], offer: xdr.ManageOfferSuccessResultOffer) =>
  new xdr.ManageOfferSuccessResult({ offersClaimed, offer });
const deleted = xdr.ManageOfferSuccessResultOffer.manageOfferDeleted();

// the operations' bodies: only their types matter to the trades
const asset = new Asset('USD', SOURCE);
const pathReceive = (source?: string) =>
  Operation.pathPaymentStrictReceive({ sendAsset: asset, sendMax: '1', destination: SOURCE, destAsset: asset, destAmount: '1', source });
const pathSend = (source?: string) =>
  Operation.pathPaymentStrictSend({ sendAsset: asset, sendAmount: '1', destination: SOURCE, destAsset: asset, destMin: '1', source });
const offerOp = { selling: asset, buying: Asset.native(), price: '1' };

const operations: { op: xdr.Operation; result: xdr.OperationResultTr }[] = [
  {
    op: Operation.bumpSequence({ bumpTo: '30000' }),
    result: xdr.OperationResultTr.bumpSequence(xdr.BumpSequenceResult.bumpSequenceSuccess()),
  },
  { op: pathReceive(OP_SOURCE_MUXED), result: strictReceive([emptyTrade, offerAtom(strictReceiveTrade)]) },
  { op: pathSend(OP_SOURCE_MUXED), result: strictSend([offerAtom(strictSendTrade), emptyTrade]) },
  {
    op: Operation.manageBuyOffer({ ...offerOp, buyAmount: '1', source: OP_SOURCE_MUXED }),
    result: xdr.OperationResultTr.manageBuyOffer(
      xdr.ManageBuyOfferResult.manageBuyOfferSuccess(
        offerSuccess(
          [emptyTrade, offerAtom(buyOfferTrade), emptyTrade],
          xdr.ManageOfferSuccessResultOffer.manageOfferCreated(
            new xdr.OfferEntry({
              sellerId: accountIdToXdr(OP_SOURCE),
              offerId: int64(879136),
              selling: native,
              buying: native,
              amount: int64(0),
              price: new xdr.Price({ n: 1, d: 1 }),
              flags: 0,
              ext: xdr.OfferEntryExt.v0(),
            }),
          ),
        ),
      ),
    ),
  },
  {
    op: Operation.manageSellOffer({ ...offerOp, amount: '1', source: OP_SOURCE_MUXED }),
    result: xdr.OperationResultTr.manageSellOffer(
      xdr.ManageSellOfferResult.manageSellOfferSuccess(offerSuccess([emptyTrade, emptyTrade, offerAtom(sellOfferTrade)], deleted)),
    ),
  },
  // stellar-core's known issue: a passive offer's result in the manage sell offer arm (the
  // operation has no source of its own: the transaction's is the buyer)
  {
    op: Operation.createPassiveSellOffer({ ...offerOp, amount: '1' }),
    result: xdr.OperationResultTr.manageSellOffer(
      xdr.ManageSellOfferResult.manageSellOfferSuccess(offerSuccess([offerAtom(passiveSellOfferTrade), emptyTrade, emptyTrade], deleted)),
    ),
  },
  {
    op: Operation.createPassiveSellOffer({ ...offerOp, amount: '1', source: OP_SOURCE_MUXED }),
    result: xdr.OperationResultTr.createPassiveSellOffer(
      xdr.ManageSellOfferResult.manageSellOfferSuccess(offerSuccess([offerAtom(otherPassiveSellOfferTrade)], deleted)),
    ),
  },
  { op: pathReceive(OP_SOURCE_MUXED), result: strictReceive([emptyTrade, poolAtom(strictReceiveTradeLP)]) },
  { op: pathSend(OP_SOURCE_MUXED), result: strictSend([poolAtom(strictSendTradeLP)]) },
];

const txSource = new MuxedAccount(new Account(SOURCE, '0'), String(0xdeadbeef)).toXdrObject();
const CLOSED_AT = '1970-01-01T00:00:00.000Z';
const opId = (index: number) => toid(100, 1, index + 1);

function inputs(): TradeInput[] {
  return operations.map(({ op, result }, index) => ({
    operationId: opId(index),
    closedAt: CLOSED_AT,
    op,
    source: op.sourceAccount ?? txSource,
    result,
    // the suite's meta: no changes for the bump, then the i-th claim's for operation i + 1
    changes: index === 0 ? [] : changesOf(allTrades[index - 1]!, index - 1),
  }));
}

const pool123 = Buffer.from(poolId(1, 2, 3).value).toString('hex');
const pool456 = Buffer.from(poolId(4, 5, 6).value).toString('hex');
const none = { base_liquidity_pool_id: null, counter_liquidity_pool_id: null, liquidity_pool_fee: null, rounding_slippage: null };

/**
 * Horizon's expected InsertTrade rows, in order. offer_id is ours (Horizon's older column: the
 * crossed offer), not the suite's.
 */
const HORIZON_ROWS: TradeRow[] = [
  {
    operation_id: opId(1),
    order: 1,
    closed_at: CLOSED_AT,
    offer_id: 11n,
    base_amount: 211n,
    base_account: OP_SOURCE,
    base_asset_id: 100,
    base_offer_id: syntheticOfferId(opId(1)),
    counter_amount: 111n,
    counter_account: strictReceiveTrade.seller,
    counter_asset_id: 10000,
    counter_offer_id: 11n,
    base_is_seller: false,
    price_n: 100n,
    price_d: 1n,
    trade_type: 1,
    ...none,
  },
  {
    operation_id: opId(2),
    order: 0,
    closed_at: CLOSED_AT,
    offer_id: 12n,
    counter_amount: 212n,
    counter_account: OP_SOURCE,
    counter_asset_id: 10001,
    counter_offer_id: syntheticOfferId(opId(2)),
    base_amount: 112n,
    base_account: strictSendTrade.seller,
    base_asset_id: 101,
    base_is_seller: true,
    base_offer_id: 12n,
    price_n: 2n,
    price_d: 100n,
    trade_type: 1,
    ...none,
  },
  {
    operation_id: opId(3),
    order: 1,
    closed_at: CLOSED_AT,
    offer_id: 13n,
    base_offer_id: 879136n,
    base_amount: 213n,
    base_account: OP_SOURCE,
    base_asset_id: 102,
    counter_amount: 113n,
    counter_account: buyOfferTrade.seller,
    counter_asset_id: 10002,
    base_is_seller: false,
    counter_offer_id: 13n,
    price_n: 100n,
    price_d: 3n,
    trade_type: 1,
    ...none,
  },
  {
    operation_id: opId(4),
    order: 2,
    closed_at: CLOSED_AT,
    offer_id: 14n,
    counter_amount: 214n,
    counter_asset_id: 10003,
    counter_account: OP_SOURCE,
    counter_offer_id: syntheticOfferId(opId(4)),
    base_amount: 114n,
    base_account: sellOfferTrade.seller,
    base_asset_id: 103,
    base_is_seller: true,
    base_offer_id: 14n,
    price_n: 4n,
    price_d: 100n,
    trade_type: 1,
    ...none,
  },
  {
    operation_id: opId(5),
    order: 0,
    closed_at: CLOSED_AT,
    offer_id: 15n,
    base_amount: 215n,
    base_asset_id: 104,
    base_account: SOURCE,
    base_offer_id: syntheticOfferId(opId(5)),
    counter_amount: 115n,
    counter_account: passiveSellOfferTrade.seller,
    counter_asset_id: 10004,
    base_is_seller: false,
    counter_offer_id: 15n,
    price_n: 100n,
    price_d: 5n,
    trade_type: 1,
    ...none,
  },
  {
    operation_id: opId(6),
    order: 0,
    closed_at: CLOSED_AT,
    offer_id: 16n,
    counter_amount: 216n,
    counter_asset_id: 10005,
    counter_account: OP_SOURCE,
    counter_offer_id: syntheticOfferId(opId(6)),
    base_amount: 116n,
    base_account: otherPassiveSellOfferTrade.seller,
    base_asset_id: 105,
    base_is_seller: true,
    base_offer_id: 16n,
    price_n: 6n,
    price_d: 100n,
    trade_type: 1,
    ...none,
  },
  {
    operation_id: opId(7),
    order: 1,
    closed_at: CLOSED_AT,
    offer_id: null,
    base_amount: 300n,
    base_asset_id: 106,
    base_account: OP_SOURCE,
    base_offer_id: syntheticOfferId(opId(7)),
    counter_amount: 602n,
    counter_account: null,
    counter_offer_id: null,
    counter_liquidity_pool_id: pool123,
    base_liquidity_pool_id: null,
    counter_asset_id: 10006,
    base_is_seller: false,
    liquidity_pool_fee: 30,
    price_n: 602n,
    price_d: 300n,
    trade_type: 2,
    rounding_slippage: 0n,
  },
  {
    operation_id: opId(8),
    order: 0,
    closed_at: CLOSED_AT,
    offer_id: null,
    counter_amount: 98n,
    counter_asset_id: 10007,
    counter_account: OP_SOURCE,
    counter_offer_id: syntheticOfferId(opId(8)),
    counter_liquidity_pool_id: null,
    base_amount: 67n,
    base_account: null,
    base_offer_id: null,
    base_liquidity_pool_id: pool456,
    base_asset_id: 107,
    base_is_seller: true,
    liquidity_pool_fee: 30,
    price_n: 98n,
    price_d: 67n,
    trade_type: 2,
    rounding_slippage: 0n,
  },
];

describe('the trades of Horizon’s TradeProcessorTestSuiteLedger', () => {
  it('are Horizon’s rows, offers and liquidity pools alike', () => {
    const rows: TradeRow[] = [];
    for (const input of inputs()) {
      for (const trade of operationTrades(input)) {
        const i = allTrades.findIndex((c) => BigInt(c.amountSold) === trade.sold_amount && BigInt(c.amountBought) === trade.bought_amount);
        const ids = assetIds(i);
        rows.push(tradeRow(trade, ids.sold, ids.bought));
      }
    }
    expect(rows).toEqual(HORIZON_ROWS);
  });
});

describe('the rounding slippage of a pool trade (TestTradeProcessor_RoundingSlippage_*)', () => {
  // createTransactionForTrade: a strict receive whose pool held reserves of MAD (deposited) and GRE
  // (disbursed); makePool puts GRE first (the smaller asset), with its reserve
  const slippageOf = (amountBought: number, amountSold: number, madReserve: bigint, greReserve: bigint) => {
    const claim: PoolClaim = { pool: poolId(9), sold: credit('GRE'), amountSold, bought: credit('MAD'), amountBought };
    const entry = poolEntry(claim.pool, credit('GRE'), credit('MAD'), greReserve, madReserve);
    const [trade] = operationTrades({
      operationId: opId(0),
      closedAt: CLOSED_AT,
      op: pathReceive(),
      source: txSource,
      result: strictReceive([poolAtom(claim)]),
      changes: [xdr.LedgerEntryChange.ledgerEntryState(entry), xdr.LedgerEntryChange.ledgerEntryUpdated(entry)],
    });
    return trade?.rounding_slippage;
  };

  it('is 4229 bps for 1 stroop against large reserves', () => {
    expect(slippageOf(1, 1, 3740000000n, 162020000000n)).toBe(4229n);
  });

  it('is 4 bps for 20 of 400', () => {
    expect(slippageOf(11, 20, 200n, 400n)).toBe(4n);
  });
});
