// Reading path and query parameters; a bad one is a 400 problem naming it.
import { isAccountId } from '../../stellar/account_id.js';
import type { Order } from '../../market/index.js';
import { INT64_MAX } from '../../stellar/int64.js';
import { ProblemError, problems } from '../problems.js';
import { ACCOUNT_ID_REASON } from '../schema/inputs.js';
import { DEFAULT_PAGE_SIZE, pageSize } from '../schema/paging.js';
import { dataNameArg } from '../schema/inputs.js';

export function uint32Param(name: string, text: string | undefined): number {
  if (text === undefined || !/^\d{1,10}$/.test(text) || Number(text) > 0xffffffff) {
    throw new ProblemError(problems.badRequest(name, `${name} must be a whole number between 0 and 4294967295`));
  }
  return Number(text);
}

/** the largest ledger sequence the tables (and GraphQL's Int) hold */
const INT32_MAX = 2 ** 31 - 1;

/**
 * A ledger sequence: Horizon's uint32. One above int32 names no ledger the history can have (the
 * tables' and GraphQL's Int): a 404, as for any ledger the history does not have.
 */
export function ledgerSequenceParam(name: string, text: string | undefined): number {
  const sequence = uint32Param(name, text);
  if (sequence > INT32_MAX) throw new ProblemError(problems.notFound());
  return sequence;
}

/** A non-negative int64, passed on as its decimal text (GraphQL's Int64 input). */
export function int64Param(name: string, text: string | undefined): string {
  if (text === undefined || !/^\d{1,19}$/.test(text) || BigInt(text) > INT64_MAX) {
    throw new ProblemError(problems.badRequest(name, `${name} must be a whole number between 0 and ${INT64_MAX}`));
  }
  return text;
}

export function accountIdParam(name: string, text: string | undefined): string {
  if (text === undefined || !isAccountId(text)) throw new ProblemError(problems.badRequest(name, ACCOUNT_ID_REASON));
  return text;
}

/** An optional account id of the query (a filter): absent or empty is none, as Horizon reads it. */
export function optionalAccountIdParam(name: string, text: string | undefined): string | undefined {
  return text === undefined || text === '' ? undefined : accountIdParam(name, text);
}

export function hashParam(name: string, text: string | undefined): string {
  if (text === undefined || !/^[0-9a-fA-F]{64}$/.test(text)) {
    throw new ProblemError(problems.badRequest(name, `${name} must be a transaction hash (64 hex digits)`));
  }
  return text.toLowerCase();
}

export interface PageParams {
  cursor: string;
  limit: number;
  order: Order;
  includeFailed: boolean;
}

const TRUE = ['1', 't', 'T', 'TRUE', 'true', 'True'];
const FALSE = ['0', 'f', 'F', 'FALSE', 'false', 'False'];

/** cursor, limit (1..200, default 10), order (asc|desc) and, where the route takes it, include_failed. */
export function pageParams(query: URLSearchParams, takesIncludeFailed: boolean): PageParams {
  const limitText = query.get('limit') ?? '';
  const limit = limitText === '' ? DEFAULT_PAGE_SIZE : pageSize('limit', /^\d{1,4}$/.test(limitText) ? Number(limitText) : NaN);
  const orderText = query.get('order') ?? '';
  if (orderText !== '' && orderText !== 'asc' && orderText !== 'desc') {
    throw new ProblemError(problems.badRequest('order', 'order must be asc or desc'));
  }
  let includeFailed = false;
  const failedText = query.get('include_failed') ?? '';
  if (takesIncludeFailed && failedText !== '') {
    // Horizon decodes it with Go's strconv.ParseBool, and says so when it cannot
    if (TRUE.includes(failedText)) includeFailed = true;
    else if (!FALSE.includes(failedText)) {
      throw new ProblemError(problems.badRequest('include_failed', 'Filter should be true or false'));
    }
  }
  return { cursor: query.get('cursor') ?? '', limit, order: orderText === 'desc' ? 'desc' : 'asc', includeFailed };
}

/** a data entry's name: 1 to 64 bytes (manage_data's limit) */
/** the `key` of /accounts/{id}/data/{key} */
export function dataKeyParam(text: string | undefined): string {
  return dataNameArg('key', text ?? '');
}
