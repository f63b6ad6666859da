// The REST route table: each route names a GraphQL document (run in-process), the result's path,
// and how to add `_links`. Later routes add pages and streams in the same shape.
import type { Links } from './hal.js';
import { link } from './hal.js';
import { uint32Param } from './params.js';

export interface RouteContext {
  origin: string;
  params: Record<string, string>;
}

export interface ResourceRoute {
  /** path pattern with :params, e.g. /ledgers/:sequence */
  path: string;
  /** the GraphQL root field, its result type and its arguments; the selection is derived from the type */
  field: string;
  type: string;
  /** reads the arguments from the request; throws a ProblemError for a bad one */
  args?: (ctx: RouteContext) => Record<string, unknown>;
  links: (record: Record<string, unknown>, ctx: RouteContext, rootLinks: Links) => Links;
  /** a templated link for the root document, named after the route */
  rootLink?: { name: string; template: string };
}

export const routes: ResourceRoute[] = [
  {
    path: '/',
    field: 'status',
    type: 'Status',
    links: (_record, ctx, rootLinks) => ({ ...rootLinks, self: link(`${ctx.origin}/`) }),
  },
  {
    path: '/ledgers/:sequence',
    field: 'ledger',
    type: 'Ledger',
    args: ({ params }) => ({ sequence: uint32Param('sequence', params.sequence) }),
    links: (record, ctx) => ({ self: link(`${ctx.origin}/ledgers/${String(record.sequence)}`) }),
    rootLink: { name: 'ledger', template: '/ledgers/{sequence}' },
  },
];
