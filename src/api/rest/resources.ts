// What REST adds to a resource rendered from its GraphQL type: Horizon's `id` (GraphQL's `id` is
// the Relay global id and is not selected), the `_links`, and the spec's older names of a few
// fields (copied, so clients of either name work). Keyed by the GraphQL type a route returns; the
// functions read the rendered snake_case JSON.
import { link, type Links } from './hal.js';
import { renderFields } from './render.js';

type Rendered = Record<string, unknown>;

export interface RestResource {
  id(record: Rendered): string;
  links(record: Rendered, origin: string): Links;
  /** spec name → name of the rendered field it copies */
  aliases?: Readonly<Record<string, string>>;
  /** aliases rendered as JSON numbers (the spec's numeric fields) */
  numericAliases?: readonly string[];
}

const PAGE = '{?cursor,limit,order}';
const text = (value: unknown): string => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');

/** Horizon's effect id: the operation id and the order, zero-padded (`%019d-%010d`). */
function effectId(pagingToken: string): string {
  const [operationId = '', order = ''] = pagingToken.split('-');
  return `${operationId.padStart(19, '0')}-${order.padStart(10, '0')}`;
}

export const RESOURCES: Readonly<Record<string, RestResource>> = {
  Account: {
    id: (r) => text(r.account_id),
    links: (r, origin) => {
      const base = `${origin}/accounts/${text(r.account_id)}`;
      return {
        self: link(base),
        transactions: link(`${base}/transactions${PAGE}`),
        operations: link(`${base}/operations${PAGE}`),
        payments: link(`${base}/payments${PAGE}`),
        effects: link(`${base}/effects${PAGE}`),
        offers: link(`${base}/offers${PAGE}`),
        trades: link(`${base}/trades${PAGE}`),
        // as Horizon links it; js-stellar-sdk reads `data` as `data_attr` only when this link exists
        data: link(`${base}/data/{key}`),
      };
    },
  },
  DataEntry: {
    id: (r) => text(r.name),
    links: (r, origin) => ({
      self: link(`${origin}/accounts/${text(r.account_id)}/data/${encodeURIComponent(text(r.name))}`),
    }),
  },
  Ledger: {
    id: (r) => text(r.hash),
    links: (r, origin) => {
      const base = `${origin}/ledgers/${text(r.sequence)}`;
      return {
        self: link(base),
        transactions: link(`${base}/transactions${PAGE}`),
        operations: link(`${base}/operations${PAGE}`),
        payments: link(`${base}/payments${PAGE}`),
        effects: link(`${base}/effects${PAGE}`),
      };
    },
  },
  Transaction: {
    id: (r) => text(r.hash),
    links: (r, origin) => {
      const base = `${origin}/transactions/${text(r.hash)}`;
      return {
        self: link(base),
        account: link(`${origin}/accounts/${text(r.source_account)}`),
        ledger: link(`${origin}/ledgers/${text(r.ledger)}`),
        operations: link(`${base}/operations${PAGE}`),
        effects: link(`${base}/effects${PAGE}`),
        precedes: link(`${origin}/transactions?order=asc&cursor=${text(r.paging_token)}`),
        succeeds: link(`${origin}/transactions?order=desc&cursor=${text(r.paging_token)}`),
        transaction: link(base),
      };
    },
    aliases: { account: 'source_account', account_sequence: 'source_account_sequence', fee_paid: 'fee_charged' },
    numericAliases: ['fee_paid'],
  },
  Operation: {
    id: (r) => text(r.paging_token),
    links: (r, origin) => {
      const base = `${origin}/operations/${text(r.paging_token)}`;
      return {
        self: link(base),
        transaction: link(`${origin}/transactions/${text(r.transaction_hash)}`),
        effects: link(`${base}/effects${PAGE}`),
        succeeds: link(`${origin}/operations?order=desc&cursor=${text(r.paging_token)}`),
        precedes: link(`${origin}/operations?order=asc&cursor=${text(r.paging_token)}`),
      };
    },
  },
  Effect: {
    id: (r) => effectId(text(r.paging_token)),
    links: (r, origin) => ({
      operation: link(`${origin}/operations/${text(r.paging_token).split('-')[0] ?? ''}`),
      succeeds: link(`${origin}/effects?order=desc&cursor=${text(r.paging_token)}`),
      precedes: link(`${origin}/effects?order=asc&cursor=${text(r.paging_token)}`),
    }),
  },
  Trade: {
    id: (r) => text(r.paging_token),
    links: (r, origin) => ({
      self: link(''),
      base: link(`${origin}/accounts/${text(r.base_account)}`),
      counter: link(`${origin}/accounts/${text(r.counter_account)}`),
      operation: link(`${origin}/operations/${text(r.paging_token).split('-')[0] ?? ''}`),
    }),
  },
  Offer: {
    id: (r) => text(r.paging_token),
    links: (r, origin) => ({
      self: link(`${origin}/offers/${text(r.paging_token)}`),
      offer_maker: link(`${origin}/accounts/${text(r.seller)}`),
    }),
  },
};

/**
 * A GraphQL result as Horizon shows it: `_links`, `id`, the rendered fields (a field of the record
 * under either name keeps its value), the spec's aliases.
 */
export function restResource(typeName: string, result: object, origin: string): Rendered {
  const resource = RESOURCES[typeName];
  if (!resource) throw new Error(`no REST resource entry for ${typeName}`);
  // `_links` and `id` lead but are made from the rendered fields: placeholders hold their places
  const out: Rendered = { _links: undefined, id: undefined };
  renderFields(result, out);
  out._links ??= resource.links(out, origin);
  out.id ??= resource.id(out);
  const aliases = resource.aliases;
  for (const alias in aliases) {
    const source = aliases[alias] ?? '';
    if (out[source] === undefined) continue;
    out[alias] = resource.numericAliases?.includes(alias) ? Number(out[source]) : out[source];
  }
  return out;
}
