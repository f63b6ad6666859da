// A resource as REST shows it: the GraphQL result of its route's document, rendered (render.ts),
// with what REST adds — Horizon's `id` (GraphQL's `id` is the Relay global id and is not
// selected), the `_links`, and the spec's older names of a few fields (copied, so clients of
// either name work). Keyed by the GraphQL type a route returns; the functions read the rendered
// snake_case JSON.
//
// `_links` derive from the route table: `self` is the type's own route, then the links the type
// adds (to other resources: their routes, filled from the record), then one per route under its
// path (an account's transactions ... its data; lists templated with `{?cursor,limit,order}`),
// then the few that are no route (precedes/succeeds).
import type { GraphQLSchema } from 'graphql';
import type { ApiServices } from '../context.js';
import { compileRoute, rootVariables, run, type CompiledRoute } from './documents.js';
import { link, type Links } from './hal.js';
import { copyRenderedFields, renderFields, toRestJson } from './render.js';
import { routes, type ResourceRoute, type RouteContext } from './routes.js';

type Rendered = Record<string, unknown>;

/**
 * A link's href from the rendered record and the origin; `self` is the record's own href ('' for a
 * type without a route); `only` holds the resource's `linkOnly` fields.
 */
type Href = (record: Rendered, origin: string, self: string, only: Rendered) => string;

interface RestResource {
  /** Horizon's `id`; a record without one (an asset stat) has none */
  id?(record: Rendered): string;
  /** links that are no route under the type's path: `before` them (after `self`), and `after` them */
  before?: Readonly<Record<string, Href>>;
  after?: Readonly<Record<string, Href>>;
  /** spec name → name of the rendered field it copies */
  aliases?: Readonly<Record<string, string>>;
  /** aliases rendered as JSON numbers (the spec's numeric fields) */
  numericAliases?: readonly string[];
  /** fields that only make a link of `before` (Horizon shows them in `_links` alone): rendered aside, given to the hrefs as `only` */
  linkOnly?: readonly string[];
  /** fields holding another resource when joined (an operation's `transaction`): its GraphQL type */
  embedded?: Readonly<Record<string, string>>;
}

/** The rendered field of a resource that fills each path parameter of its route (ids need no escaping; a data entry's name does). */
const PARAM_FIELDS: Readonly<Record<string, string>> = {
  account_id: 'account_id',
  key: 'name',
  ledger_id: 'sequence',
  tx_id: 'hash',
  op_id: 'paging_token',
  offer_id: 'paging_token',
  claimable_balance_id: 'id',
  liquidity_pool_id: 'id',
};

const PAGE = '{?cursor,limit,order}';
const text = (value: unknown): string => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');

/** The resource route of a GraphQL type (`/accounts/:account_id` for Account), if it has one. */
function routeOf(type: string): ResourceRoute | undefined {
  return routes.find((route): route is ResourceRoute => route.kind === 'resource' && route.type === type && !route.links && !route.body);
}

/** A route's path split at its parameters: literals around the parameter names. */
function pathParts(path: string): { literals: string[]; params: string[] } {
  const pieces = path.split(/:([a-z_]+)/);
  return { literals: pieces.filter((_, i) => i % 2 === 0), params: pieces.filter((_, i) => i % 2 === 1) };
}

/** A link to the route of `type` (it has one parameter, an id), filled with the record's `field` or `value`. */
function to(type: string, value: string | ((record: Rendered) => string)): Href {
  const route = routeOf(type);
  const { literals, params } = pathParts(route?.path ?? '');
  if (params.length !== 1) throw new Error(`no route with one parameter for ${type}`);
  const [before = '', after = ''] = literals;
  if (typeof value === 'string') return (record, origin) => origin + before + text(record[value]) + after;
  return (record, origin) => origin + before + value(record) + after;
}

const field =
  (name: string) =>
  (record: Rendered): string =>
    text(record[name]);

/** the operation of an effect or a trade: the first half of its paging token */
const operationOf = (record: Rendered): string => text(record.paging_token).split('-')[0] ?? '';

/** the list of `path` in `order` from the record (Horizon's precedes/succeeds) */
const listFrom =
  (path: string, order: 'asc' | 'desc'): Href =>
  (record, origin) =>
    `${origin}${path}?order=${order}&cursor=${text(record.paging_token)}`;

/**
 * A side of a trade as Horizon links it (populateTradeLinks): the account of a side with an offer
 * (crossed, resting or the operation's own), else a liquidity pool (`/liquidity_pools/{id}`), else
 * an empty href.
 */
function tradeSide(side: 'base' | 'counter'): Href {
  const account = to('Account', `${side}_account`);
  return (record, origin, self, only) => {
    if (record[`${side}_offer_id`] !== undefined) return account(record, origin, self, only);
    const pool = record[`${side}_liquidity_pool_id`];
    return pool === undefined ? '' : `${origin}/liquidity_pools/${text(pool)}`;
  };
}

/** Horizon's effect id: the operation id and the order, zero-padded (`%019d-%010d`). */
function effectId(pagingToken: string): string {
  const [operationId = '', order = ''] = pagingToken.split('-');
  return `${operationId.padStart(19, '0')}-${order.padStart(10, '0')}`;
}

const RESOURCES: Readonly<Record<string, RestResource>> = {
  // its `data` link (a route under its path) is how js-stellar-sdk knows to read `data` as `data_attr`
  Account: { id: field('account_id') },
  // a data entry is no HAL resource: Horizon answers its value and sponsor only (its route's body)
  Ledger: { id: field('hash') },
  Transaction: {
    id: field('hash'),
    before: { account: to('Account', 'source_account'), ledger: to('Ledger', 'ledger') },
    after: {
      precedes: listFrom('/transactions', 'asc'),
      succeeds: listFrom('/transactions', 'desc'),
      transaction: (_record, _origin, self) => self,
    },
    aliases: { account: 'source_account', account_sequence: 'source_account_sequence', fee_paid: 'fee_charged' },
    numericAliases: ['fee_paid'],
  },
  Operation: {
    id: field('paging_token'),
    before: { transaction: to('Transaction', 'transaction_hash') },
    after: { succeeds: listFrom('/operations', 'desc'), precedes: listFrom('/operations', 'asc') },
    embedded: { transaction: 'Transaction' },
  },
  Effect: {
    id: (record) => effectId(text(record.paging_token)),
    before: { operation: to('Operation', operationOf), succeeds: listFrom('/effects', 'desc'), precedes: listFrom('/effects', 'asc') },
  },
  Trade: {
    id: field('paging_token'),
    // Horizon's trade links itself with an empty href
    before: {
      self: () => '',
      base: tradeSide('base'),
      counter: tradeSide('counter'),
      operation: to('Operation', operationOf),
    },
  },
  Offer: { id: field('paging_token'), before: { offer_maker: to('Account', 'seller') } },
  // their ids are GraphQL fields under REST's name (REST_RENAMES)
  ClaimableBalance: { id: field('id') },
  LiquidityPool: { id: field('id') },
  // the issuer's stellar.toml, `{"href": ""}` without a home domain (Horizon's hal.NewLink(""))
  AssetStat: { before: { toml: (_record, _origin, _self, only) => text(only.toml) }, linkOnly: ['toml'] },
};

type LinksOf = (record: Rendered, origin: string, only: Rendered) => Links;

function columns(links: Readonly<Record<string, Href>> = {}): [string[], Href[]] {
  return [Object.keys(links), Object.values(links)];
}

/** The href of a record's own route, its parameters filled from the record. */
function selfHref(route: ResourceRoute): (record: Rendered, origin: string) => string {
  const { literals, params } = pathParts(route.path);
  const fields = params.map((param) => {
    const name = PARAM_FIELDS[param];
    if (!name) throw new Error(`route ${route.path}: no field fills :${param}`);
    return name;
  });
  const [before = '', after = ''] = literals;
  const [only] = fields;
  // ids need no escaping: one parameter of them is the common case (every resource but a data entry)
  if (only !== undefined && fields.length === 1 && params[0] !== 'key') {
    return (record, origin) => origin + before + text(record[only]) + after;
  }
  return (record, origin) => {
    let href = origin + before;
    for (let i = 0; i < fields.length; i++) href += encodeURIComponent(text(record[fields[i] ?? ''])) + (literals[i + 1] ?? '');
    return href;
  };
}

/** A type's `_links`, made once from the route table (module load), run per record. */
function linksOf(type: string, resource: RestResource): LinksOf {
  const own = routeOf(type);
  const self = own ? selfHref(own) : () => '';
  // one link per route under the type's path and linked from it, named by its first segment
  const nested = own
    ? routes
        .filter((route) => route.path.startsWith(`${own.path}/`) && !route.unlinked)
        .map((route) => {
          const rest = route.path.slice(own.path.length).replace(/:([a-z_]+)/g, '{$1}');
          return { name: rest.split('/')[1] ?? '', rest: route.kind === 'page' ? rest + PAGE : rest };
        })
    : [];
  // their hrefs end in a template: templated, without link()'s test per record
  if (nested.some(({ rest }) => !link(rest).templated)) throw new Error(`${type}: a route under its path has no template`);
  const [beforeNames, beforeHrefs] = columns(resource.before);
  const [afterNames, afterHrefs] = columns(resource.after);
  const nestedNames = nested.map(({ name }) => name);
  const nestedRests = nested.map(({ rest }) => rest);
  // indexed loops over arrays made once: a page renders this for each of up to 200 records
  return (record, origin, only) => {
    const href = self(record, origin);
    const links: Links = {};
    if (own) links.self = link(href);
    for (let i = 0; i < beforeNames.length; i++)
      links[beforeNames[i] as string] = link((beforeHrefs[i] as Href)(record, origin, href, only));
    for (let i = 0; i < nestedNames.length; i++) links[nestedNames[i] as string] = { href: href + nestedRests[i], templated: true };
    for (let i = 0; i < afterNames.length; i++) links[afterNames[i] as string] = link((afterHrefs[i] as Href)(record, origin, href, only));
    return links;
  };
}

const COMPILED: Readonly<Record<string, { resource: RestResource; links: LinksOf; linkOnly?: ReadonlySet<string> }>> = Object.fromEntries(
  Object.entries(RESOURCES).map(([type, resource]) => [
    type,
    { resource, links: linksOf(type, resource), ...(resource.linkOnly ? { linkOnly: new Set(resource.linkOnly) } : {}) },
  ]),
);

const NOTHING_ASIDE: Rendered = Object.freeze({});

/**
 * A GraphQL result as Horizon shows it: `_links`, `id`, the rendered fields (a field of the record
 * under either name keeps its value), the spec's aliases. `rendered`: the result is already in
 * REST's shape (its executor's `restShaped`), so its fields are copied, not rendered again.
 */
export function restResource(typeName: string, result: object, origin: string, rendered = false): Rendered {
  const compiled = COMPILED[typeName];
  if (!compiled) throw new Error(`no REST resource entry for ${typeName}`);
  const { resource, links, linkOnly } = compiled;
  // `_links` and `id` lead but are made from the rendered fields: placeholders hold their places
  // (no key is deleted after: see renderFields)
  const out: Rendered = resource.id ? { _links: undefined, id: undefined } : { _links: undefined };
  const only = linkOnly ? {} : NOTHING_ASIDE;
  (rendered ? copyRenderedFields : renderFields)(result, out, linkOnly && { names: linkOnly, into: only });
  out._links ??= links(out, origin, only);
  if (resource.id) out.id ??= resource.id(out);
  const embedded = resource.embedded;
  for (const name in embedded) {
    const value = (result as Record<string, unknown>)[name];
    if (value !== null && typeof value === 'object') out[name] = restResource(embedded[name] ?? '', value, origin, rendered);
  }
  const aliases = resource.aliases;
  for (const alias in aliases) {
    const source = aliases[alias] ?? '';
    if (out[source] === undefined) continue;
    out[alias] = resource.numericAliases?.includes(alias) ? Number(out[source]) : out[source];
  }
  return out;
}

/** A resource route's record as Horizon JSON with its `_links` from the table above (bare when the route has its own links). */
export async function renderResource(
  schema: GraphQLSchema,
  services: ApiServices,
  compiled: CompiledRoute,
  route: ResourceRoute,
  ctx: RouteContext,
): Promise<Rendered | null> {
  const record = await run(schema, services, compiled, rootVariables(route.args?.(ctx) ?? {}));
  if (record === null) return null;
  if (route.body) return route.body(toRestJson(record), ctx);
  return route.links ? (toRestJson(record) as Rendered) : restResource(route.type, record, ctx.origin, compiled.execute.restShaped);
}

/** the transaction as GET /transactions/{hash} renders it, or null when it is not in the history */
export type RenderTransaction = (hash: string, origin: string) => Promise<Rendered | null>;

/** GET /transactions/{hash} exactly as its route renders it: POST /transactions's 200 answer. */
export function createTransactionRenderer(schema: GraphQLSchema, services: ApiServices): RenderTransaction {
  const route = routes.find((candidate) => candidate.path === '/transactions/:tx_id');
  if (route?.kind !== 'resource') throw new Error('the route table has no /transactions/:tx_id');
  const compiled = compileRoute(schema, route);
  return (hash, origin) => renderResource(schema, services, compiled, route, { origin, params: { tx_id: hash }, query: {} });
}
