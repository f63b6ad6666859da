// Keyset pagination for every connection: a page is `WHERE key > cursor ORDER BY key LIMIT n+1`
// (never OFFSET), and a Relay cursor is the record's paging token verbatim, so REST `cursor=` and
// GraphQL `after:` take the same values. The key kinds: TOIDs (ledgers, transactions, operations;
// offers by id), `<operation_id>-<order>` pairs (effects, trades), `<last_modified_ledger>-<id>`
// (claimable balances) and hex ids (liquidity pools). The rules of a
// page (its size, its cursor) are here once, for GraphQL's arguments and REST's parameters alike.
import type { Order } from '../../market/index.js';
import { parseBalancePagingToken, type BalancePagingToken } from '../../stellar/entry_ids.js';
import { isAccountId } from '../../stellar/account_id.js';
import { InvalidValueError } from '../../stellar/invalid_value_error.js';
import {
  afterLedger,
  formatPairPagingToken,
  formatPagingToken,
  parsePagingToken,
  parsePairPagingToken,
  toid,
  type PairPagingToken,
} from '../../stellar/toid.js';
import { ProblemError, problems } from '../problems.js';
import { builder } from './builder.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './page_size.js';

export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE };

export const OrderEnum = builder.enumType('Order', {
  description: 'The direction of a list: asc (oldest first) or desc (newest first).',
  values: { asc: { value: 'asc' }, desc: { value: 'desc' } } as const,
});

/** A list's own argument, besides Relay's first/after/last/before: its direction. */
export const listArgs = builder.args((t) => ({ order: t.field({ type: OrderEnum, defaultValue: 'asc' }) }));

/** The argument of a list that holds failed transactions (or their operations) only when asked. */
export const includeFailedArg = builder.args((t) => ({ includeFailed: t.boolean({ defaultValue: false }) }));
/** a transaction's own lists show its operations whatever its outcome (Horizon's): the argument stays for old queries, and does nothing */
export const ignoredIncludeFailedArg = builder.args((t) => ({
  includeFailed: t.boolean({
    deprecationReason: "a transaction's operations are listed whatever its outcome, as Horizon lists them",
  }),
}));

/** Bounds of a page in key order: strictly greater than `gt`, strictly less than `lt`. */
export interface KeyRange<Key> {
  gt?: Key;
  lt?: Key;
}

export interface KeyKind<Key> {
  parse(cursor: string): Key;
  /** the TOID a key of the history stands at (its ledger's place), for Horizon's before_history */
  toid?(key: Key): bigint;
}

export const toidKey: KeyKind<bigint> = { parse: parsePagingToken, toid: (key) => key };
export const pairKey: KeyKind<PairPagingToken> = { parse: parsePairPagingToken, toid: (key) => key.operationId };
export const balanceKey: KeyKind<BalancePagingToken> = { parse: parseBalancePagingToken };
// Horizon compares a pool cursor with the ids as text; any hex prefix of an id is a place among them
export const poolKey: KeyKind<string> = {
  parse: (text) => {
    if (!/^[0-9a-f]{1,64}$/.test(text)) throw new InvalidValueError('a liquidity pool cursor is a pool id (hex)');
    return text;
  },
};
/**
 * account ids: Horizon pages /accounts by the id's text and takes any cursor (DisableCursorValidation);
 * a NUL byte is no text the database compares
 */
export const textKey: KeyKind<string> = {
  parse: (cursor) => {
    if (cursor.includes('\0')) throw new InvalidValueError('a cursor must not hold a NUL byte');
    return cursor;
  },
};
/** an account id, the cursor of the accounts of a relation (an asset's holders, a sponsor's accounts) */
export const accountIdKey: KeyKind<string> = {
  parse: (cursor) => {
    if (!isAccountId(cursor)) throw new InvalidValueError(`${cursor} is not an account id`);
    return cursor;
  },
};

export interface PageArgs {
  first?: number | null | undefined;
  after?: string | null | undefined;
  last?: number | null | undefined;
  before?: string | null | undefined;
  order?: Order | null | undefined;
}

export interface KeysetSource<Row, Key> {
  key: KeyKind<Key>;
  /** rows within `range`, sorted by key in `direction`, at most `take` */
  fetch(range: KeyRange<Key>, direction: Order, take: number): Promise<Row[]>;
  cursor(row: Row): string;
  /**
   * The history's newest ledger, for a cursor `now` (after it, as REST's `cursor=now`: Horizon's
   * toid.AfterLedger); a list without it refuses `now` as any other bad cursor.
   */
  newestLedger?: () => Promise<number>;
  /**
   * The history's oldest ledger (after a reaping, the first one kept): a page that could only hold
   * what lies before it is Horizon's before_history (410), not an empty page.
   */
  oldestLedger?: () => Promise<number>;
}

export interface Connection<Row> {
  edges: { cursor: string; node: Row }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

/** A page size (GraphQL's first/last, REST's limit): 1..MAX_PAGE_SIZE, else a bad_request naming `name`. */
export function pageSize(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1 || value > MAX_PAGE_SIZE) {
    throw new ProblemError(problems.badRequest(name, `${name} must be between 1 and ${MAX_PAGE_SIZE}`));
  }
  return value;
}

async function parseCursor<Key>(source: KeysetSource<unknown, Key>, name: 'after' | 'before', text: string): Promise<Key> {
  const cursor = text === 'now' && source.newestLedger ? formatPagingToken(afterLedger(await source.newestLedger())) : text;
  try {
    return source.key.parse(cursor);
  } catch (error) {
    if (error instanceof InvalidValueError) {
      throw new ProblemError(problems.badRequest('cursor', `${name}: ${error.message}`));
    }
    throw error;
  }
}

/**
 * One page of a connection. `order` is the direction of the whole list; `first`/`after` read it
 * forwards, `last`/`before` read the end of it (fetched in the opposite direction, then reversed).
 */
export async function keysetConnection<Row, Key>(source: KeysetSource<Row, Key>, args: PageArgs): Promise<Connection<Row>> {
  const order: Order = args.order ?? 'asc';
  if (args.first != null && args.last != null) {
    throw new ProblemError(problems.badRequest('last', 'first and last cannot be used together'));
  }
  const after = args.after != null && args.after !== '' ? await parseCursor(source, 'after', args.after) : undefined;
  const before = args.before != null && args.before !== '' ? await parseCursor(source, 'before', args.before) : undefined;
  const range: KeyRange<Key> = {};
  const [low, high] = order === 'asc' ? [after, before] : [before, after];
  if (low !== undefined) range.gt = low;
  if (high !== undefined) range.lt = high;
  if (high !== undefined && source.oldestLedger && source.key.toid) {
    const oldest = await source.oldestLedger();
    if (oldest > 0 && source.key.toid(high) <= toid(oldest, 0, 0)) throw new ProblemError(problems.beforeHistory());
  }

  const backwards = args.last != null;
  const size = backwards ? pageSize('last', args.last ?? 0) : pageSize('first', args.first ?? DEFAULT_PAGE_SIZE);
  const direction: Order = backwards === (order === 'asc') ? 'desc' : 'asc';
  const rows = await source.fetch(range, direction, size + 1);
  const more = rows.length > size;
  const page = rows.slice(0, size);
  if (backwards) page.reverse();
  const edges = page.map((node) => ({ cursor: source.cursor(node), node }));
  return {
    edges,
    pageInfo: {
      hasNextPage: backwards ? before !== undefined : more,
      hasPreviousPage: backwards ? more : after !== undefined,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges[edges.length - 1]?.cursor ?? null,
    },
  };
}

/** Prisma `where` for a TOID-keyed column within a range (and an optional fixed [start, end)). */
export function toidWhere(range: KeyRange<bigint>, within?: { start: bigint; end: bigint }): { gt?: bigint; lt?: bigint; gte?: bigint } {
  const where: { gt?: bigint; lt?: bigint; gte?: bigint } = {};
  if (within) {
    where.gte = within.start;
    where.lt = within.end;
  }
  if (range.gt !== undefined) where.gt = range.gt;
  if (range.lt !== undefined && (where.lt === undefined || range.lt < where.lt)) where.lt = range.lt;
  return where;
}

interface PairWhere {
  OR:
    | ({ operationId: { gt: bigint } } | { operationId: bigint; order: { gt: number } })[]
    | ({ operationId: { lt: bigint } } | { operationId: bigint; order: { lt: number } })[];
}

/** Prisma `where` conditions for a `(operationId, order)` key within a range. */
export function pairWhere(range: KeyRange<PairPagingToken>): PairWhere[] {
  const conditions: PairWhere[] = [];
  if (range.gt) {
    conditions.push({
      OR: [{ operationId: { gt: range.gt.operationId } }, { operationId: range.gt.operationId, order: { gt: range.gt.order } }],
    });
  }
  if (range.lt) {
    conditions.push({
      OR: [{ operationId: { lt: range.lt.operationId } }, { operationId: range.lt.operationId, order: { lt: range.lt.order } }],
    });
  }
  return conditions;
}

export function pairOrderBy(direction: Order): [{ operationId: Order }, { order: Order }] {
  return [{ operationId: direction }, { order: direction }];
}

export function pairCursor(row: { operationId: bigint; order: number }): string {
  return formatPairPagingToken(row.operationId, row.order);
}

/**
 * Prisma `where` conditions for a claimable balance's `(last_modified_ledger, id)` key within a
 * range; a bound at ledger 0 bounds nothing (Horizon pages only from a cursor ledger above 0).
 */
export function balanceWhere(range: KeyRange<BalancePagingToken>, columns: { ledger: string; id: string }): Record<string, unknown>[] {
  const bound = (key: BalancePagingToken | undefined, op: 'gt' | 'lt') =>
    key && key.ledger > 0
      ? [{ OR: [{ [columns.ledger]: { [op]: key.ledger } }, { [columns.ledger]: key.ledger, [columns.id]: { [op]: key.id } }] }]
      : [];
  return [...bound(range.gt, 'gt'), ...bound(range.lt, 'lt')];
}
