// The trades processor on real offers and path payments: every operation of Horizon's scenarios,
// with stellar-core's claim atoms (ClaimOfferAtom of protocol 11/12, read as the v0 atom) and
// entry changes, gives Horizon's history_trades rows. Horizon stores a trade by base and counter
// asset; it is turned back to the seller's and the buyer's side here, as the processor keeps it.
import { describe, expect, it } from 'vitest';
import { operationTrades } from '../../../src/ingest/processors/trades.js';
import { TRADE_TYPE_ORDERBOOK } from '../../../src/stellar/index.js';
import { SCENARIOS, TEST_PASSPHRASE } from '../../core/support/scenario.js';
import { type HorizonTrade, horizonDump, operationInputs, scenarioViews } from '../support/scenarios.js';

/** Horizon's base/counter trade from the seller's (the crossed offer's owner's) side */
function sellerSide(operationId: bigint, t: HorizonTrade) {
  const base = { account: t.baseAccount, asset: t.baseAsset, amount: t.baseAmount, offerId: t.baseOfferId };
  const counter = { account: t.counterAccount, asset: t.counterAsset, amount: t.counterAmount, offerId: t.counterOfferId };
  const [seller, buyer] = t.baseIsSeller ? [base, counter] : [counter, base];
  return {
    operation_id: operationId,
    order: t.order,
    closed_at: t.closedAt,
    offer_id: BigInt(t.offerId),
    seller: seller.account,
    sold_asset: seller.asset,
    sold_amount: seller.amount,
    buyer: buyer.account,
    bought_asset: buyer.asset,
    bought_amount: buyer.amount,
    // Horizon's price is counter per base: the seller's price when the seller is the base
    price_n: t.baseIsSeller ? t.priceN : t.priceD,
    price_d: t.baseIsSeller ? t.priceD : t.priceN,
    seller_offer_id: BigInt(seller.offerId),
    seller_liquidity_pool_id: null,
    buyer_offer_id: BigInt(buyer.offerId),
    // these scenarios predate pools: every trade crossed an offer
    trade_type: TRADE_TYPE_ORDERBOOK,
    liquidity_pool_fee: null,
    rounding_slippage: null,
  };
}

describe.each(SCENARIOS)('trades of scenario %s', (name) => {
  const expected = horizonDump(name);
  const views = scenarioViews(name);

  it('gives Horizon’s trades for every operation', () => {
    let count = 0;
    for (const view of views) {
      for (const tx of view.txs) {
        for (const input of operationInputs(view, tx, TEST_PASSPHRASE)) {
          const ours = operationTrades(input);
          const theirs = (expected.trades.get(String(input.operationId)) ?? []).map((t) => sellerSide(input.operationId, t));
          expect(ours, `trades of operation ${input.operationId}`).toEqual(theirs);
          count += ours.length;
        }
      }
    }
    expect(count).toBe([...expected.trades.values()].flat().length);
  });
});
