// The REST route table: each route names the GraphQL root field it runs (in-process, with a
// document precompiled at start), how path parameters become its arguments, and the GraphQL type
// of what it returns, from which the selection is derived and `_links`/`id` are made
// (resources.ts: a resource links the routes under its path). A page route lists a connection: the
// root field's own, or for a nested list (`/accounts/{id}/operations`) the connection field of the
// root field's result; a missing parent is a 404. The market routes hand their query to the root
// field's arguments under GraphQL's names; the field's resolver parses them (once) and names
// Horizon's parameters in its problems.
import {
  ORDER_BOOK_MAX_LIMIT,
  parseAccountArg,
  parseLimitText,
  parseOrderBookParams,
  parseTradeAggregationParams,
  TRADE_AGGREGATIONS_MAX_LIMIT,
  tradeAggregationsNextQuery,
  type OrderBookInput,
  type StrictReceiveInput,
  type TradeAggregationInput,
} from '../../market/index.js';
import { formatCanonicalAsset, parseAssetArg, type AssetQuery } from '../../stellar/index.js';
import { parsed, ProblemError, problems } from '../problems.js';
import { accountFilterArg, balanceIdArg, poolIdArg } from '../schema/inputs.js';
import { MAX_POOL_RESERVES } from '../schema/liquidity_pool.js';
import { link, type Links } from './hal.js';
import { accountIdParam, dataKeyParam, hashParam, int64Param, ledgerSequenceParam, optionalAccountIdParam } from './params.js';

export interface RouteContext {
  origin: string;
  params: Record<string, string>;
  /** the query string's parameters (the first of each name), for routes whose arguments are there */
  query: Readonly<Record<string, string | undefined>>;
}

interface RouteBase {
  /** path pattern with :params, e.g. /ledgers/:sequence */
  path: string;
  /** the GraphQL type of the resource (of a page's records) */
  type: string;
  /** reads the root field's arguments from the request; throws a ProblemError for a bad one */
  args?: (ctx: RouteContext) => object;
  /** not among the `_links` of the resource whose path it extends (Horizon does not link it) */
  unlinked?: true;
  /**
   * A route of the current state (Horizon's stateMiddleware: accounts, offers, order book, paths…),
   * whose answers carry the `Latest-Ledger` header, the last ingested ledger (not its streams).
   */
  state?: true;
}

export interface ResourceRoute extends RouteBase {
  kind: 'resource';
  field: string;
  /** `_links` of a resource that is not one of resources.ts (the root document, market data); rootLinks has the root's self */
  links?: (record: Record<string, unknown>, ctx: RouteContext, rootLinks: Links) => Links;
  /** a templated link for the root document, named after the route */
  rootLink?: { name: string; template: string };
  /** streams the resource again whenever it changed after a ledger (Horizon's /order_book) */
  stream?: boolean;
  /** the whole answer from the rendered result, for a root field that is not one resource (a list) */
  body?: (rendered: unknown, ctx: RouteContext) => Record<string, unknown>;
  /** the answer to `Accept: application/octet-stream`: raw bytes from the rendered record (a data entry's value) */
  raw?: (rendered: Record<string, unknown>) => Buffer;
}

export interface PageRoute extends RouteBase {
  kind: 'page';
  /** the root field, then the connection field of its result for a nested list */
  fields: readonly [string] | readonly [string, string];
  /** takes include_failed (the spec's (F) endpoints) */
  includeFailed?: boolean;
  /** has a streaming mode (the spec's (S) endpoints); served by a later issue */
  stream?: boolean;
  rootLink?: { name: string; template: string };
  /**
   * Query parameters that filter the list (Horizon's `trade_type`): the connection field's
   * arguments they give, and their names, which the page's links keep.
   */
  filters?: { params: readonly string[]; args: (ctx: RouteContext) => object };
}

export type Route = ResourceRoute | PageRoute;

/** Horizon's `join=transactions` is taken by every route of operations (and payments): documents.ts, pages.ts. */
export function takesJoin(route: Route): boolean {
  return route.type === 'Operation';
}

const account = ({ params }: RouteContext) => ({ id: accountIdParam('account_id', params.account_id) });
const history = ({ params }: RouteContext) => ({ forAccount: accountIdParam('account_id', params.account_id) });
const transaction = ({ params }: RouteContext) => ({ hash: hashParam('tx_id', params.tx_id) });
const ledger = ({ params }: RouteContext) => ({ sequence: ledgerSequenceParam('ledger_id', params.ledger_id) });
const operation = ({ params }: RouteContext) => ({ id: int64Param('id', params.op_id) });

const balanceHistory = ({ params }: RouteContext) => ({
  forClaimableBalance: balanceIdArg('claimable_balance_id', params.claimable_balance_id ?? ''),
});
const poolHistory = ({ params }: RouteContext) => ({ forLiquidityPool: poolIdArg('liquidity_pool_id', params.liquidity_pool_id ?? '') });

/** Horizon's root links of /trades and /trade_aggregations: the asset pair as a query template */
const ASSET_PAIR_TEMPLATE =
  'base_asset_type={base_asset_type}&base_asset_code={base_asset_code}&base_asset_issuer={base_asset_issuer}&counter_asset_type={counter_asset_type}&counter_asset_code={counter_asset_code}&counter_asset_issuer={counter_asset_issuer}';

/** Horizon's TradesQuery parameters (tradesFilter), in Go's sorted order as the page links keep them */
const TRADES_PARAMS = [
  'account_id',
  'base_asset_code',
  'base_asset_issuer',
  'base_asset_type',
  'counter_asset_code',
  'counter_asset_issuer',
  'counter_asset_type',
  'liquidity_pool_id',
  'offer_id',
  'trade_type',
] as const;

const HISTORY_TYPES = { transactions: 'Transaction', operations: 'Operation', payments: 'Operation', effects: 'Effect' } as const;

/** A ledger's or a transaction's history lists: connections of the root field's result; `unlinked` is not among its `_links`. */
function historyOf(
  path: string,
  field: string,
  args: (ctx: RouteContext) => object,
  lists: readonly (keyof typeof HISTORY_TYPES)[],
  unlinked?: keyof typeof HISTORY_TYPES,
): PageRoute[] {
  return lists.map((list) => ({
    kind: 'page',
    path: `${path}/${list}`,
    fields: [field, list],
    type: HISTORY_TYPES[list],
    args,
    ...(list === 'effects' ? {} : { includeFailed: true }),
    stream: true,
    ...(list === unlinked ? { unlinked: true } : {}),
  }));
}

export const routes: Route[] = [
  {
    kind: 'resource',
    path: '/',
    field: 'status',
    type: 'Status',
    links: (_record, _ctx, rootLinks) => rootLinks,
  },
  {
    kind: 'page',
    path: '/accounts',
    state: true,
    fields: ['accounts'],
    type: 'Account',
    rootLink: { name: 'accounts', template: '/accounts{?signer,sponsor,asset,liquidity_pool,cursor,limit,order}' },
    // checked here under REST's names, then handed to the field's arguments
    filters: {
      params: ['signer', 'sponsor', 'asset', 'liquidity_pool'],
      args: ({ query }) => {
        const args = { signer: query.signer, sponsor: query.sponsor, asset: query.asset, liquidityPool: query.liquidity_pool };
        accountFilterArg(args, { signer: 'signer', sponsor: 'sponsor', asset: 'asset', liquidityPool: 'liquidity_pool' });
        return args;
      },
    },
  },
  {
    kind: 'resource',
    path: '/accounts/:account_id',
    field: 'account',
    type: 'Account',
    args: account,
    state: true,
    // sent again after a ledger that changed it, as Horizon's streamable object
    stream: true,
    rootLink: { name: 'account', template: '/accounts/{account_id}' },
  },
  // an account's history outlives it (merge): listed without it (its operations and trades: a 404 when the history does not know it)
  {
    kind: 'page',
    path: '/accounts/:account_id/transactions',
    fields: ['transactions'],
    type: 'Transaction',
    args: history,
    includeFailed: true,
    stream: true,
    rootLink: { name: 'account_transactions', template: '/accounts/{account_id}/transactions{?cursor,limit,order}' },
  },
  {
    kind: 'page',
    path: '/accounts/:account_id/operations',
    fields: ['operations'],
    type: 'Operation',
    args: history,
    includeFailed: true,
    stream: true,
  },
  {
    kind: 'page',
    path: '/accounts/:account_id/payments',
    fields: ['payments'],
    type: 'Operation',
    args: history,
    includeFailed: true,
    stream: true,
  },
  { kind: 'page', path: '/accounts/:account_id/effects', fields: ['effects'], type: 'Effect', args: history, stream: true },
  // Horizon lists the offers of a seller whether or not the account exists (an unknown one: an empty page)
  {
    kind: 'page',
    path: '/accounts/:account_id/offers',
    fields: ['offers'],
    type: 'Offer',
    args: ({ params }) => ({ seller: accountIdParam('account_id', params.account_id) }),
    stream: true,
    state: true,
  },
  {
    kind: 'page',
    path: '/accounts/:account_id/trades',
    fields: ['trades'],
    type: 'Trade',
    args: history,
    stream: true,
    filters: tradesFilter('account_id'),
  },
  {
    kind: 'resource',
    path: '/accounts/:account_id/data/:key',
    field: 'accountData',
    type: 'DataEntry',
    state: true,
    stream: true,
    args: ({ params }) => ({ accountId: accountIdParam('account_id', params.account_id), name: dataKeyParam(params.key) }),
    // Horizon's answer is the value and its sponsor only (accountDataResponse), or the raw value
    body: (rendered) => {
      const entry = rendered as { value?: string; sponsor?: string } | null;
      if (!entry) throw new ProblemError(problems.notFound());
      return entry.sponsor === undefined ? { value: entry.value } : { value: entry.value, sponsor: entry.sponsor };
    },
    raw: (rendered) => Buffer.from(String(rendered.value), 'base64'),
  },
  {
    kind: 'page',
    path: '/transactions',
    fields: ['transactions'],
    type: 'Transaction',
    includeFailed: true,
    stream: true,
    rootLink: { name: 'transactions', template: '/transactions{?cursor,limit,order}' },
  },
  {
    kind: 'resource',
    path: '/transactions/:tx_id',
    field: 'transaction',
    type: 'Transaction',
    args: transaction,
    rootLink: { name: 'transaction', template: '/transactions/{hash}' },
  },
  // Horizon does not link a transaction's payments
  ...historyOf('/transactions/:tx_id', 'transaction', transaction, ['operations', 'payments', 'effects'], 'payments'),
  {
    kind: 'page',
    path: '/ledgers',
    fields: ['ledgers'],
    type: 'Ledger',
    stream: true,
    rootLink: { name: 'ledgers', template: '/ledgers{?cursor,limit,order}' },
  },
  {
    kind: 'resource',
    path: '/ledgers/:ledger_id',
    field: 'ledger',
    type: 'Ledger',
    args: ledger,
    rootLink: { name: 'ledger', template: '/ledgers/{sequence}' },
  },
  ...historyOf('/ledgers/:ledger_id', 'ledger', ledger, ['transactions', 'operations', 'payments', 'effects']),
  {
    kind: 'page',
    path: '/operations',
    fields: ['operations'],
    type: 'Operation',
    includeFailed: true,
    stream: true,
    rootLink: { name: 'operations', template: '/operations{?cursor,limit,order,include_failed}' },
  },
  {
    kind: 'resource',
    path: '/operations/:op_id',
    field: 'operation',
    type: 'Operation',
    args: operation,
    rootLink: { name: 'operation', template: '/operations/{id}' },
  },
  { kind: 'page', path: '/operations/:op_id/effects', fields: ['operation', 'effects'], type: 'Effect', args: operation, stream: true },
  {
    kind: 'page',
    path: '/payments',
    fields: ['payments'],
    type: 'Operation',
    includeFailed: true,
    stream: true,
    rootLink: { name: 'payments', template: '/payments{?cursor,limit,order,include_failed}' },
  },
  {
    kind: 'page',
    path: '/effects',
    fields: ['effects'],
    type: 'Effect',
    stream: true,
    rootLink: { name: 'effects', template: '/effects{?cursor,limit,order}' },
  },
  {
    kind: 'page',
    path: '/offers',
    state: true,
    fields: ['offers'],
    type: 'Offer',
    stream: true,
    rootLink: { name: 'offers', template: '/offers{?selling,buying,seller,sponsor,cursor,limit,order}' },
    filters: offerFilters(),
  },
  {
    kind: 'resource',
    path: '/offers/:offer_id',
    field: 'offer',
    type: 'Offer',
    state: true,
    args: ({ params }) => ({ id: int64Param('offer_id', params.offer_id) }),
    rootLink: { name: 'offer', template: '/offers/{offer_id}' },
  },
  {
    kind: 'page',
    path: '/offers/:offer_id/trades',
    fields: ['trades'],
    type: 'Trade',
    args: ({ params }) => ({ offerId: int64Param('offer_id', params.offer_id) }),
    stream: true,
    unlinked: true,
    filters: tradesFilter('offer_id'),
  },
  {
    kind: 'page',
    path: '/liquidity_pools/:liquidity_pool_id/trades',
    fields: ['trades'],
    type: 'Trade',
    args: ({ params }) => ({ liquidityPoolId: poolIdArg('liquidity_pool_id', params.liquidity_pool_id ?? '') }),
    stream: true,
    // Horizon's pool links its transactions and operations only (resourceadapter/liquidity_pool.go)
    unlinked: true,
    filters: tradesFilter('liquidity_pool_id'),
  },
  {
    kind: 'page',
    path: '/trades',
    fields: ['trades'],
    type: 'Trade',
    stream: true,
    filters: tradesFilter(),
    rootLink: { name: 'trades', template: `/trades?${ASSET_PAIR_TEMPLATE}` },
  },
  {
    kind: 'page',
    path: '/assets',
    state: true,
    fields: ['assets'],
    type: 'AssetStat',
    rootLink: { name: 'assets', template: '/assets{?asset_code,asset_issuer,cursor,limit,order}' },
    // checked by the root field (naming asset_code and asset_issuer)
    filters: {
      params: ['asset_code', 'asset_issuer'],
      args: ({ query }) => ({ assetCode: query.asset_code || null, assetIssuer: query.asset_issuer || null }),
    },
  },
  {
    kind: 'page',
    path: '/claimable_balances',
    state: true,
    fields: ['claimableBalances'],
    type: 'ClaimableBalance',
    rootLink: { name: 'claimable_balances', template: '/claimable_balances{?asset,sponsor,claimant,cursor,limit,order}' },
    // an empty filter is no filter (Horizon's); the resolver checks each, naming it
    filters: {
      params: ['asset', 'claimant', 'sponsor'],
      args: ({ query }) => ({
        asset: query.asset || undefined,
        claimant: query.claimant || undefined,
        sponsor: query.sponsor || undefined,
      }),
    },
  },
  {
    kind: 'resource',
    path: '/claimable_balances/:claimable_balance_id',
    state: true,
    field: 'claimableBalance',
    type: 'ClaimableBalance',
    args: ({ params }) => ({ id: balanceIdArg('id', params.claimable_balance_id ?? '') }),
  },
  // a balance's history outlives it (claimed): listed without it; Horizon links transactions first
  ...(['transactions', 'operations'] as const).map(
    (list): PageRoute => ({
      kind: 'page',
      path: `/claimable_balances/:claimable_balance_id/${list}`,
      fields: [list],
      type: HISTORY_TYPES[list],
      args: balanceHistory,
      includeFailed: true,
      stream: true,
    }),
  ),
  {
    kind: 'page',
    path: '/liquidity_pools',
    state: true,
    fields: ['liquidityPools'],
    type: 'LiquidityPool',
    rootLink: { name: 'liquidity_pools', template: '/liquidity_pools{?reserves,account,cursor,limit,order}' },
    filters: {
      params: ['account', 'reserves'],
      args: ({ query }) => ({ reserves: reservesParam(query.reserves), account: query.account || undefined }),
    },
  },
  {
    kind: 'resource',
    path: '/liquidity_pools/:liquidity_pool_id',
    state: true,
    field: 'liquidityPool',
    type: 'LiquidityPool',
    args: ({ params }) => ({ id: poolIdArg('liquidity_pool_id', params.liquidity_pool_id ?? '') }),
  },
  // a pool's history outlives it; Horizon links its transactions and operations, not its effects
  ...(['transactions', 'operations', 'effects'] as const).map(
    (list): PageRoute => ({
      kind: 'page',
      path: `/liquidity_pools/:liquidity_pool_id/${list}`,
      fields: [list],
      type: HISTORY_TYPES[list],
      args: poolHistory,
      ...(list === 'effects' ? { unlinked: true } : { includeFailed: true }),
      stream: true,
    }),
  ),
  // the same resource under Horizon's current and older name; `_links` only self
  ...['/fee_stats', '/operation_fee_stats'].map(
    (path): ResourceRoute => ({
      kind: 'resource',
      path,
      field: 'feeStats',
      type: 'FeeStats',
      links: (_record, ctx) => ({ self: link(ctx.origin + path) }),
      ...(path === '/fee_stats' ? { rootLink: { name: 'fee_stats', template: '/fee_stats' } } : {}),
    }),
  ),
  {
    kind: 'resource',
    path: '/order_book',
    field: 'orderBook',
    type: 'OrderBook',
    state: true,
    stream: true,
    args: ({ query }) => orderBookArgs(query),
    links: (_record, ctx) => ({ self: link(`${ctx.origin}/order_book`) }),
    rootLink: {
      name: 'order_book',
      template:
        '/order_book{?selling_asset_type,selling_asset_code,selling_asset_issuer,buying_asset_type,buying_asset_code,buying_asset_issuer,limit}',
    },
  },
  {
    kind: 'resource',
    path: '/trade_aggregations',
    field: 'tradeAggregations',
    type: 'TradeAggregation',
    rootLink: { name: 'trade_aggregations', template: `/trade_aggregations?${ASSET_PAIR_TEMPLATE}` },
    args: ({ query }) => {
      const text = (name: string) => query[name] ?? null;
      const input: TradeAggregationInput = {
        base: queryAsset(query, 'base'),
        counter: queryAsset(query, 'counter'),
        resolution: query.resolution ?? '',
        startTime: text('start_time'),
        endTime: text('end_time'),
        offset: text('offset'),
        order: text('order'),
      };
      return { ...input, limit: limitParam(query, TRADE_AGGREGATIONS_MAX_LIMIT, () => parseTradeAggregationParams(input)) };
    },
    // a page without paging tokens: next continues after the last segment (tradeAggregationsNextQuery)
    body: (rendered, { origin, query }) => {
      const records = Array.isArray(rendered) ? (rendered as Record<string, unknown>[]) : [];
      const last = records[records.length - 1]?.timestamp;
      const href = (q: Readonly<Record<string, string | undefined>>) => link(`${origin}/trade_aggregations?${search(q).toString()}`);
      const next = tradeAggregationsNextQuery(query, typeof last === 'number' ? last : null);
      return { _links: { self: href(query), next: href(next ?? query) }, _embedded: { records } };
    },
  },
  // paths: /paths is strict receive under its older name (Horizon's router gives both one handler);
  // destination_account is taken and plays no part
  ...['/paths', '/paths/strict-receive'].map(
    (path): ResourceRoute => ({
      kind: 'resource',
      path,
      field: 'strictReceivePaths',
      type: 'PaymentPath',
      state: true,
      args: strictReceiveArgs,
      body: pathsPage(path),
      ...(path === '/paths/strict-receive'
        ? {
            rootLink: {
              name: 'strict_receive_paths',
              template:
                '/paths/strict-receive{?source_assets,source_account,destination_account,destination_asset_type,destination_asset_issuer,destination_asset_code,destination_amount}',
            },
          }
        : {}),
    }),
  ),
  {
    kind: 'resource',
    path: '/paths/strict-send',
    field: 'strictSendPaths',
    type: 'PaymentPath',
    state: true,
    args: ({ query }) => ({
      sourceAsset: queryAsset(query, 'source'),
      sourceAmount: query.source_amount ?? '',
      destinationAccount: query.destination_account ?? null,
      destinationAssets: query.destination_assets ?? null,
    }),
    body: pathsPage('/paths/strict-send'),
    rootLink: {
      name: 'strict_send_paths',
      template:
        '/paths/strict-send{?destination_account,destination_assets,source_asset_type,source_asset_issuer,source_asset_code,source_amount}',
    },
  },
];

/**
 * The filters of trade lists (Horizon's TradesQuery): handed to the trades field under its
 * arguments' names, which checks them (market/trades_params.ts); the list's own path parameter is
 * no query parameter (Horizon's path wins). A pair's assets are given only when one of their
 * parameters is.
 */
function tradesFilter(pathParam?: (typeof TRADES_PARAMS)[number]): NonNullable<PageRoute['filters']> {
  return {
    params: TRADES_PARAMS.filter((name) => name !== pathParam),
    args: ({ query }) => {
      const value = (name: (typeof TRADES_PARAMS)[number]) => (name === pathParam ? undefined : query[name] || undefined);
      const asset = (prefix: 'base' | 'counter') =>
        (value(`${prefix}_asset_type`) ?? value(`${prefix}_asset_code`) ?? value(`${prefix}_asset_issuer`))
          ? queryAsset(query, prefix)
          : undefined;
      const offerId = value('offer_id');
      const args = {
        forAccount: value('account_id'),
        offerId: offerId === undefined ? undefined : int64Param('offer_id', offerId),
        liquidityPoolId: value('liquidity_pool_id'),
        tradeType: value('trade_type'),
        baseAsset: asset('base'),
        counterAsset: asset('counter'),
      };
      // what is not given is left out, so the route's own argument (its path's) stays
      return Object.fromEntries(Object.entries(args).filter(([, given]) => given !== undefined));
    },
  };
}

/**
 * `reserves`, a comma-separated list of assets (empty items skipped), checked by the resolver. A
 * third item is refused before the text is split (Horizon's maxLiquidityPoolReserves).
 */
function reservesParam(text: string | undefined): string[] | undefined {
  if (!text) return undefined;
  const first = text.indexOf(',');
  if (first !== -1 && text.indexOf(',', first + 1) !== -1) {
    throw new ProblemError(problems.badRequest('reserves', `reserves exceeds maximum length of ${MAX_POOL_RESERVES}`));
  }
  return text.split(',').filter((asset) => asset !== '');
}

/**
 * Horizon's /offers query (OffersQuery): seller and sponsor, and each side as `selling` ("native"
 * or "CODE:ISSUER") or, in Horizon's older form, `selling_asset_type`/`_code`/`_issuer` (not both).
 * The older form is checked here and handed on in the canonical form; the resolver checks the rest.
 */
function offerFilters(): NonNullable<PageRoute['filters']> {
  const SIDES = ['selling', 'buying'] as const;
  const triple = SIDES.flatMap((side) => ['type', 'code', 'issuer'].map((part) => `${side}_asset_${part}`));
  return {
    params: ['seller', 'sponsor', ...SIDES, ...triple],
    args: ({ query }) => {
      const args: Record<string, string | undefined> = {
        seller: optionalAccountIdParam('seller', query.seller),
        sponsor: optionalAccountIdParam('sponsor', query.sponsor),
      };
      for (const side of SIDES) {
        const old = queryAsset(query, side);
        if (old.assetType !== '' && query[side]) {
          const reason = `Ambiguous parameter, you can't include both \`${side}\` and \`${side}_asset_type\`. Remove all parameters of the form \`${side}_\``;
          throw new ProblemError(problems.badRequest(`${side}_asset_type`, reason));
        }
        const given = old.assetType !== '' || old.assetCode || old.assetIssuer;
        args[side] = given ? formatCanonicalAsset(parsed(() => parseAssetArg(old, side))) : query[side];
      }
      return args;
    },
  };
}

/** `<prefix>_asset_type`, `_code`, `_issuer` as an AssetInput (a missing type is the resolver's to report) */
function queryAsset(query: RouteContext['query'], prefix: string): AssetQuery & { assetType: string } {
  return {
    assetType: query[`${prefix}_asset_type`] ?? '',
    assetCode: query[`${prefix}_asset_code`] ?? null,
    assetIssuer: query[`${prefix}_asset_issuer`] ?? null,
  };
}

function orderBookArgs(query: RouteContext['query']): OrderBookInput {
  const book: OrderBookInput = { selling: queryAsset(query, 'selling'), buying: queryAsset(query, 'buying') };
  return { ...book, limit: limitParam(query, ORDER_BOOK_MAX_LIMIT, () => parseOrderBookParams(book)) };
}

/**
 * `limit`, the one market parameter whose text REST reads itself (GraphQL's argument is an Int).
 * The market checks it last: when it is bad, a bad parameter the market checks before it is the
 * one reported, as when the market parsed the whole query.
 */
function limitParam(query: RouteContext['query'], max: number, checkedBefore: () => unknown): number | null {
  return parsed(() => {
    try {
      return parseLimitText(query.limit, max);
    } catch (error) {
      checkedBefore();
      throw error;
    }
  });
}

function strictReceiveArgs({ query }: RouteContext): StrictReceiveInput {
  parsed(() => parseAccountArg(query.destination_account, 'destination_account'));
  return {
    destinationAsset: queryAsset(query, 'destination'),
    destinationAmount: query.destination_amount ?? '',
    sourceAccount: query.source_account ?? null,
    sourceAssets: query.source_assets ?? null,
  };
}

function search(query: RouteContext['query']): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, value);
  return params;
}

/** a page of paths with `_links.self` only; no path is the spec's not_found */
function pathsPage(path: string) {
  return (rendered: unknown, { origin, query }: RouteContext): Record<string, unknown> => {
    const records = Array.isArray(rendered) ? (rendered as Record<string, unknown>[]) : [];
    if (records.length === 0) throw new ProblemError(problems.notFound());
    const params = search(query);
    const self = params.size > 0 ? `${origin}${path}?${params.toString()}` : `${origin}${path}`;
    return { _links: { self: link(self) }, _embedded: { records } };
  };
}
