// The filters of trade lists (GraphQL's trades, REST's /trades and the trades of an account, an
// offer, a liquidity pool), checked as Horizon's TradesQuery is (actions/trade.go: the fields, then
// Validate), with its messages and the parameter names it reports.
import {
  InvalidValueError,
  isAccountId,
  parseAssetQuery,
  parsePoolId,
  parseTradeTypeFilter,
  TRADE_TYPE_LIQUIDITY_POOL,
  TRADE_TYPE_ORDERBOOK,
  type AssetQuery,
  type AssetValue,
} from '../stellar/index.js';

/** The filters as given (GraphQL's arguments; REST hands its query over under these names); null or empty is not given. */
export interface TradesInput {
  readonly forAccount?: string | null | undefined;
  readonly offerId?: bigint | string | null | undefined;
  readonly liquidityPoolId?: string | null | undefined;
  readonly tradeType?: string | null | undefined;
  readonly baseAsset?: AssetQuery | null | undefined;
  readonly counterAsset?: AssetQuery | null | undefined;
}

export interface TradesFilter {
  /** at most one of account, offer and pool (Horizon's "single filter") */
  readonly account: string | null;
  readonly offerId: bigint | null;
  readonly liquidityPoolId: string | null;
  /** the stored trade types kept; null keeps all (an offer's and a pool's lists ignore trade_type) */
  readonly tradeType: number | null;
  /** trades of the pair, shown with `base` as their base (with an account, or alone) */
  readonly pair: { readonly base: AssetValue; readonly counter: AssetValue } | null;
}

const given = (value: string | null | undefined): value is string => value != null && value !== '';

/** a parser's InvalidValueError naming `field` (an asset's: prefixed to the part it names) */
function named<T>(field: string, parse: () => T, prefixed = false): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof InvalidValueError) {
      throw new InvalidValueError(error.message, { field: prefixed ? `${field}_${error.field ?? 'asset_type'}` : field, cause: error });
    }
    throw error;
  }
}

function sideAsset(query: AssetQuery | null | undefined, prefix: 'base' | 'counter'): AssetValue | null {
  return query ? named(prefix, () => parseAssetQuery(query), true) : null;
}

export function parseTradesFilter(input: TradesInput): TradesFilter {
  const account = given(input.forAccount) ? input.forAccount : null;
  if (account !== null && !isAccountId(account)) {
    throw new InvalidValueError('Account ID must start with `G` and contain 56 alphanum characters', { field: 'account_id' });
  }
  const poolText = input.liquidityPoolId;
  const liquidityPoolId = given(poolText) ? named('liquidity_pool_id', () => parsePoolId(poolText)) : null;
  const typeText = input.tradeType;
  let tradeType: number | null = null;
  if (given(typeText)) {
    const types = named('trade_type', () => parseTradeTypeFilter(typeText));
    tradeType = types.length === 1 ? (types[0] ?? null) : null;
  }
  const offerText = input.offerId == null || input.offerId === '' ? null : BigInt(input.offerId);
  if (offerText !== null && offerText < 0n) throw new InvalidValueError('Offer ID must be an integer higher than 0', { field: 'offer_id' });
  // Horizon's OfferID is a uint64 whose 0 means "not given"
  const offerId = offerText === 0n ? null : offerText;
  const base = sideAsset(input.baseAsset, 'base');
  const counter = sideAsset(input.counterAsset, 'counter');
  if ((base === null) !== (counter === null)) {
    throw new InvalidValueError('this endpoint supports asset pairs but only one asset supplied', {
      field: 'base_asset_type,counter_asset_type',
    });
  }
  if (base !== null && offerId !== null) {
    throw new InvalidValueError('this endpoint does not support filtering by both asset pair and offer id ', {
      field: 'base_asset_type,counter_asset_type,offer_id',
    });
  }
  if (base !== null && liquidityPoolId !== null) {
    throw new InvalidValueError('this endpoint does not support filtering by both asset pair and liquidity pool id ', {
      field: 'base_asset_type,counter_asset_type,liquidity_pool_id',
    });
  }
  if ([account, offerId, liquidityPoolId].filter((filter) => filter !== null).length > 1) {
    throw new InvalidValueError('Use a single filter for trades, you can only use one of account_id, liquidity_pool_id, offer_id', {
      field: 'account_id,liquidity_pool_id,offer_id',
    });
  }
  if (offerId !== null && tradeType === TRADE_TYPE_LIQUIDITY_POOL) {
    throw new InvalidValueError('trade_type liquidity_pool cannot be used with the offer_id filter', { field: 'trade_type' });
  }
  if (liquidityPoolId !== null && tradeType === TRADE_TYPE_ORDERBOOK) {
    throw new InvalidValueError('trade_type orderbook cannot be used with the liquidity_pool_id filter', { field: 'trade_type' });
  }
  return {
    account,
    offerId,
    liquidityPoolId,
    // Horizon's GetTradesForOffer and GetTradesForLiquidityPool list all types
    tradeType: offerId !== null || liquidityPoolId !== null ? null : tradeType,
    pair: base !== null && counter !== null ? { base, counter } : null,
  };
}
