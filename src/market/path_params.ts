// The arguments of strict receive paths (source_account or source_assets; REST's old /paths:
// source_account only) and strict send paths (destination_account or destination_assets),
// validated as Horizon's actions/path.go does, with errors naming Horizon's query parameters; and
// the assets an account can hold, for the account forms.
import type { Database } from '../db/database.js';
import {
  InvalidValueError,
  formatCanonicalAsset,
  isAccountId,
  parseCanonicalAsset,
  parsePositiveAmount,
  parseAssetArg,
  type AssetQuery,
  type AssetValue,
} from '../stellar/index.js';
import type { OrderBookGraph } from './order_book_graph.js';
import { findStrictReceivePaths, findStrictSendPaths, pathRecords, type PathRecord, type PathSearchOptions } from './paths.js';

/** Horizon's default MaxAssetsPerPathRequest: most assets in source_assets / destination_assets. */
export const MAX_PATH_ASSETS = 15;

/** The arguments as given (GraphQL's strictReceivePaths, REST's query); null or empty is not given. */
export interface StrictReceiveInput {
  readonly destinationAsset: AssetQuery;
  readonly destinationAmount: string;
  readonly sourceAccount?: string | null;
  readonly sourceAssets?: string | null;
}

export interface StrictSendInput {
  readonly sourceAsset: AssetQuery;
  readonly sourceAmount: string;
  readonly destinationAccount?: string | null;
  readonly destinationAssets?: string | null;
}

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

const given = (value: string | null | undefined): value is string => value !== undefined && value !== null && value !== '';

/** An account id, or null when not given. */
export function parseAccountArg(text: string | null | undefined, field: string): string | null {
  if (!given(text)) return null;
  if (!isAccountId(text)) throw new InvalidValueError(`${field} must be an account id (G...)`, { field });
  return text;
}

function amount(text: string, field: string): bigint {
  if (!given(text)) throw new InvalidValueError('missing required field', { field });
  try {
    return parsePositiveAmount(text);
  } catch (error) {
    throw new InvalidValueError(error instanceof Error ? error.message : String(error), { field, cause: error });
  }
}

function assetList(text: string | null | undefined, field: string): AssetValue[] | null {
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

/** Exactly one of source_account (searched from its assets, within its balances) and source_assets. */
export function parseStrictReceiveParams(input: StrictReceiveInput): StrictReceiveParams {
  const destination = parseAssetArg(input.destinationAsset, 'destination');
  const destinationAmount = amount(input.destinationAmount, 'destination_amount');
  const sourceAccount = parseAccountArg(input.sourceAccount, 'source_account');
  const sourceAssets = assetList(input.sourceAssets, 'source_assets');
  if ((sourceAccount === null) === (sourceAssets === null)) {
    throw new InvalidValueError('provide either source_account or source_assets, not both', {
      field: sourceAccount === null ? 'source_account' : 'source_assets',
    });
  }
  return { destination, destinationAmount, sourceAccount, sourceAssets };
}

export function parseStrictSendParams(input: StrictSendInput): StrictSendParams {
  const source = parseAssetArg(input.sourceAsset, 'source');
  const sourceAmount = amount(input.sourceAmount, 'source_amount');
  const destinationAccount = parseAccountArg(input.destinationAccount, 'destination_account');
  const destinationAssets = assetList(input.destinationAssets, 'destination_assets');
  if ((destinationAccount === null) === (destinationAssets === null)) {
    throw new InvalidValueError('provide either destination_account or destination_assets, not both', {
      field: destinationAccount === null ? 'destination_account' : 'destination_assets',
    });
  }
  return { source, sourceAmount, destinationAccount, destinationAssets };
}

/** The assets an account holds (native and its trust lines, not pool shares) with their balances, by canonical string; empty if it does not exist. */
export async function accountBalances(db: Database, accountId: string): Promise<Map<string, bigint>> {
  const rows = await db.session((sql) =>
    sql.query<{ asset: string; balance: string | bigint }>(
      `SELECT 'native' AS asset, balance FROM accounts WHERE id = $1
       UNION ALL
       SELECT asset_code || ':' || asset_issuer, balance FROM trust_lines WHERE account_id = $1 AND liquidity_pool_id = ''`,
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
