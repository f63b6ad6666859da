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
  parseStrictReceiveParams,
  parseTradeAggregationParams,
  TRADE_AGGREGATIONS_MAX_LIMIT,
  tradeAggregationsNextQuery,
  type OrderBookInput,
  type StrictReceiveInput,
  type TradeAggregationInput,
} from '../../market/index.js';
import { parseLiquidityPoolId, type AssetQuery } from '../../stellar/index.js';
import { parsed, ProblemError, problems } from '../problems.js';
import { link, type Links } from './hal.js';
import { accountIdParam, dataKeyParam, hashParam, int64Param, uint32Param } from './params.js';

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
}

export interface ResourceRoute extends RouteBase {
  kind: 'resource';
  field: string;
  /** `_links` of a resource that is not one of resources.ts (the root document, market data) */
  links?: (record: Record<string, unknown>, ctx: RouteContext, rootLinks: Links) => Links;
  /** a templated link for the root document, named after the route */
  rootLink?: { name: string; template: string };
  /** streams the resource again whenever it changed after a ledger (Horizon's /order_book) */
  stream?: boolean;
  /** the whole answer from the rendered result, for a root field that is not one resource (a list) */
  body?: (rendered: unknown, ctx: RouteContext) => Record<string, unknown>;
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
const ledger = ({ params }: RouteContext) => ({ sequence: uint32Param('ledger_id', params.ledger_id) });
const operation = ({ params }: RouteContext) => ({ id: int64Param('id', params.op_id) });

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
    links: (_record, ctx, rootLinks) => ({ ...rootLinks, self: link(`${ctx.origin}/`) }),
  },
  {
    kind: 'resource',
    path: '/accounts/:account_id',
    field: 'account',
    type: 'Account',
    args: account,
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
  { kind: 'page', path: '/accounts/:account_id/offers', fields: ['account', 'offers'], type: 'Offer', args: account, stream: true },
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
    args: ({ params }) => ({ accountId: accountIdParam('account_id', params.account_id), name: dataKeyParam(params.key) }),
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
    rootLink: { name: 'operations', template: '/operations{?cursor,limit,order}' },
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
    rootLink: { name: 'payments', template: '/payments{?cursor,limit,order}' },
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
    kind: 'resource',
    path: '/offers/:offer_id',
    field: 'offer',
    type: 'Offer',
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
    args: ({ params }) => ({ liquidityPoolId: parsed(() => parseLiquidityPoolId(params.liquidity_pool_id ?? ''), 'liquidity_pool_id') }),
    stream: true,
    filters: tradesFilter('liquidity_pool_id'),
  },
  {
    kind: 'page',
    path: '/trades',
    fields: ['trades'],
    type: 'Trade',
    stream: true,
    filters: tradesFilter(),
  },
  // the same resource under Horizon's current and older name; `_links` only self
  ...['/fee_stats', '/operation_fee_stats'].map(
    (path): ResourceRoute => ({
      kind: 'resource',
      path,
      field: 'feeStats',
      type: 'FeeStats',
      links: (_record, ctx) => ({ self: link(ctx.origin + path) }),
    }),
  ),
  {
    kind: 'resource',
    path: '/order_book',
    field: 'orderBook',
    type: 'OrderBook',
    stream: true,
    args: ({ query }) => orderBookArgs(query),
    links: (_record, ctx) => ({ self: link(`${ctx.origin}/order_book`) }),
  },
  {
    kind: 'resource',
    path: '/trade_aggregations',
    field: 'tradeAggregations',
    type: 'TradeAggregation',
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
  // paths: the legacy route requires source_account; destination_account is taken and plays no part
  {
    kind: 'resource',
    path: '/paths',
    field: 'strictReceivePaths',
    type: 'PaymentPath',
    args: strictReceiveArgs(true),
    body: pathsPage('/paths'),
  },
  {
    kind: 'resource',
    path: '/paths/strict-receive',
    field: 'strictReceivePaths',
    type: 'PaymentPath',
    args: strictReceiveArgs(false),
    body: pathsPage('/paths/strict-receive'),
  },
  {
    kind: 'resource',
    path: '/paths/strict-send',
    field: 'strictSendPaths',
    type: 'PaymentPath',
    args: ({ query }) => ({
      sourceAsset: queryAsset(query, 'source'),
      sourceAmount: query.source_amount ?? '',
      destinationAccount: query.destination_account ?? null,
      destinationAssets: query.destination_assets ?? null,
    }),
    body: pathsPage('/paths/strict-send'),
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

function strictReceiveArgs(legacy: boolean) {
  return ({ query }: RouteContext): StrictReceiveInput => {
    parsed(() => parseAccountArg(query.destination_account, 'destination_account'));
    const input: StrictReceiveInput = {
      destinationAsset: queryAsset(query, 'destination'),
      destinationAmount: query.destination_amount ?? '',
      sourceAccount: query.source_account ?? null,
      // the legacy route searches from the source account's assets only
      sourceAssets: legacy ? null : (query.source_assets ?? null),
    };
    // without source_account, the legacy route's problem: it, or a parameter checked before it
    if (legacy && !query.source_account) parsed(() => parseStrictReceiveParams(input, { legacy }));
    return input;
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
