// The query parameters of /paths (the old form: strict receive from a source account),
// /paths/strict-receive (source_account or source_assets) and /paths/strict-send
// (destination_account or destination_assets), validated as Horizon's actions/path.go does, with
// errors naming the field; and the assets an account can hold, for the account forms.
import type { Database } from '../db/database.js';
import {
  InvalidValueError,
  formatCanonicalAsset,
  isAccountId,
  parseCanonicalAsset,
  parsePositiveAmount,
  parsePrefixedAsset,
  type AssetValue,
} from '../stellar/index.js';
import type { OrderBookGraph } from './order_book_graph.js';
import { findStrictReceivePaths, findStrictSendPaths, pathRecords, type PathRecord, type PathSearchOptions } from './paths.js';

/** Horizon's default MaxAssetsPerPathRequest: most assets in source_assets / destination_assets. */
export const MAX_PATH_ASSETS = 15;

type Query = Readonly<Record<string, string | undefined>>;

export interface StrictReceiveParams {
  readonly destination: AssetValue;
  readonly destinationAmount: bigint;
  /** the paying account: its assets are the sources, its offers are not crossed */
  readonly sourceAccount: string | null;
  readonly sourceAssets: readonly AssetValue[] | null;
}

export interface StrictSendParams {
  readonly source: AssetValue;
  readonly sourceAmount: bigint;
  /** the receiving account: its assets are the destinations */
  readonly destinationAccount: string | null;
  readonly destinationAssets: readonly AssetValue[] | null;
}

const given = (value: string | undefined): value is string => value !== undefined && value !== '';

function account(query: Query, field: string): string | null {
  const text = query[field];
  if (!given(text)) return null;
  if (!isAccountId(text)) throw new InvalidValueError(`${field} must be an account id (G...)`, { field });
  return text;
}

function amount(query: Query, field: string): bigint {
  const text = query[field];
  if (!given(text)) throw new InvalidValueError('missing required field', { field });
  try {
    return parsePositiveAmount(text);
  } catch (error) {
    throw new InvalidValueError(error instanceof Error ? error.message : String(error), { field, cause: error });
  }
}

function assetList(query: Query, field: string): AssetValue[] | null {
  const text = query[field];
  if (!given(text)) return null;
  const parts = text.split(',');
  if (parts.length > MAX_PATH_ASSETS) {
    throw new InvalidValueError(`list of assets exceeds maximum length of ${MAX_PATH_ASSETS}`, { field });
  }
  return parts.map((part) => {
    try {
      return parseCanonicalAsset(part.trim());
    } catch (error) {
      throw new InvalidValueError(error instanceof Error ? error.message : String(error), { field, cause: error });
    }
  });
}

function requiredAsset(query: Query, prefix: string): AssetValue {
  const asset = parsePrefixedAsset(query, prefix, true);
  if (asset === null) throw new InvalidValueError('missing required field', { field: `${prefix}_asset_type` });
  return asset;
}

/**
 * /paths/strict-receive; with `legacy` the old /paths, where source_account is required and
 * source_assets is not taken. destination_account is accepted and plays no part in the search.
 */
export function parseStrictReceiveParams(query: Query, options: { legacy?: boolean } = {}): StrictReceiveParams {
  account(query, 'destination_account');
  const destination = requiredAsset(query, 'destination');
  const destinationAmount = amount(query, 'destination_amount');
  const sourceAccount = account(query, 'source_account');
  if (options.legacy) {
    if (sourceAccount === null) throw new InvalidValueError('missing required field', { field: 'source_account' });
    return { destination, destinationAmount, sourceAccount, sourceAssets: null };
  }
  const sourceAssets = assetList(query, 'source_assets');
  if ((sourceAccount === null) === (sourceAssets === null)) {
    throw new InvalidValueError('provide either source_account or source_assets, not both', {
      field: sourceAccount === null ? 'source_account' : 'source_assets',
    });
  }
  return { destination, destinationAmount, sourceAccount, sourceAssets };
}

export function parseStrictSendParams(query: Query): StrictSendParams {
  const source = requiredAsset(query, 'source');
  const sourceAmount = amount(query, 'source_amount');
  const destinationAccount = account(query, 'destination_account');
  const destinationAssets = assetList(query, 'destination_assets');
  if ((destinationAccount === null) === (destinationAssets === null)) {
    throw new InvalidValueError('provide either destination_account or destination_assets, not both', {
      field: destinationAccount === null ? 'destination_account' : 'destination_assets',
    });
  }
  return { source, sourceAmount, destinationAccount, destinationAssets };
}

/** The assets an account holds (native and its trust lines) with their balances, by canonical string; empty if it does not exist. */
export async function accountBalances(db: Database, accountId: string): Promise<Map<string, bigint>> {
  const rows = await db.session((sql) =>
    sql.query<{ asset: string; balance: string | bigint }>(
      `SELECT 'native' AS asset, balance FROM accounts WHERE id = $1
       UNION ALL
       SELECT asset_code || ':' || asset_issuer, balance FROM trust_lines WHERE account_id = $1`,
      [accountId],
    ),
  );
  return new Map(rows.map((row) => [row.asset, BigInt(row.balance)]));
}

/**
 * Strict receive paths for parsed parameters: from source_assets, or from the source account's
 * assets, then no path may cost more than the account's balance of its source asset and the
 * account's own offers are not crossed (as Horizon). An empty list is Horizon's not_found.
 */
export async function strictReceivePaths(
  db: Database,
  graph: OrderBookGraph,
  params: StrictReceiveParams,
  options: PathSearchOptions = {},
): Promise<PathRecord[]> {
  const destination = formatCanonicalAsset(params.destination);
  if (params.sourceAssets) {
    const sources = params.sourceAssets.map(formatCanonicalAsset);
    return pathRecords(findStrictReceivePaths(graph, { destination, destinationAmount: params.destinationAmount, sources }, options));
  }
  const balances = params.sourceAccount === null ? new Map<string, bigint>() : await accountBalances(db, params.sourceAccount);
  return pathRecords(
    findStrictReceivePaths(
      graph,
      { destination, destinationAmount: params.destinationAmount, sources: [...balances.keys()], sourceBalances: balances },
      { ...options, ignoreSeller: params.sourceAccount },
    ),
  );
}

/** Strict send paths for parsed parameters: to destination_assets, or to the destination account's assets. */
export async function strictSendPaths(
  db: Database,
  graph: OrderBookGraph,
  params: StrictSendParams,
  options: PathSearchOptions = {},
): Promise<PathRecord[]> {
  const destinations = params.destinationAssets
    ? params.destinationAssets.map(formatCanonicalAsset)
    : [...(await accountBalances(db, params.destinationAccount ?? '')).keys()];
  return pathRecords(
    findStrictSendPaths(graph, { source: formatCanonicalAsset(params.source), sourceAmount: params.sourceAmount, destinations }, options),
  );
}
