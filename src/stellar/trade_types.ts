// Horizon's trade types (internal/db2/history: OrderbookTradeType, LiquidityPoolTradeType, stored
// in history_trades.trade_type; AllTrades, OrderbookTrades, LiquidityPoolTrades, the names the
// API shows and the `trade_type` filter takes).
import { InvalidValueError } from './invalid_value_error.js';

/** history_trades.trade_type of a trade that crossed an offer */
export const TRADE_TYPE_ORDERBOOK = 1;
/** history_trades.trade_type of a trade with a liquidity pool */
export const TRADE_TYPE_LIQUIDITY_POOL = 2;

export type TradeTypeName = 'orderbook' | 'liquidity_pool';

/** the API's name of a stored trade type */
export function tradeTypeName(type: number): TradeTypeName {
  return type === TRADE_TYPE_LIQUIDITY_POOL ? 'liquidity_pool' : 'orderbook';
}

/**
 * The trade types a `trade_type` filter keeps: all, orderbook or liquidity_pool (Horizon's
 * isTradeType; its message for another name).
 */
export function parseTradeTypeFilter(name: string): number[] {
  switch (name) {
    case 'all':
      return [TRADE_TYPE_ORDERBOOK, TRADE_TYPE_LIQUIDITY_POOL];
    case 'orderbook':
      return [TRADE_TYPE_ORDERBOOK];
    case 'liquidity_pool':
      return [TRADE_TYPE_LIQUIDITY_POOL];
    default:
      throw new InvalidValueError('Trade type must be all, orderbook, or liquidity_pool');
  }
}
