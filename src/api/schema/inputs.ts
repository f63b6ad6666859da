// Checks of root-field arguments shared by GraphQL and REST: a malformed key is a bad_request
// naming the argument, never a database error.
import { isAccountId } from '../../stellar/account_id.js';
import { formatCanonicalAsset, parseAssetFilter } from '../../stellar/asset.js';
import { parseBalanceId, parsePoolId } from '../../stellar/entry_ids.js';
import { parsed, ProblemError, problems } from '../problems.js';

export function accountIdArg(name: string, value: string): string {
  if (!isAccountId(value)) throw new ProblemError(problems.badRequest(name, 'not a valid account id (G...)'));
  return value;
}

export function hashArg(name: string, value: string): string {
  if (!/^[0-9a-fA-F]{64}$/.test(value)) throw new ProblemError(problems.badRequest(name, 'not a transaction hash (64 hex digits)'));
  return value.toLowerCase();
}

export function idArg(name: string, value: bigint): bigint {
  if (value < 0n) throw new ProblemError(problems.badRequest(name, 'must not be negative'));
  return value;
}

/** A claimable balance id (the hex of its XDR, "00000000" first), lowercased. */
export function balanceIdArg(name: string, value: string): string {
  return parsed(() => parseBalanceId(value), name);
}

/** A liquidity pool id (64 lowercase hex digits). */
export function poolIdArg(name: string, value: string): string {
  return parsed(() => parsePoolId(value), name);
}

/** An asset filter ("native" or "CODE:ISSUER") in the form the tables store it. */
export function assetFilterArg(name: string, value: string): string {
  return formatCanonicalAsset(parsed(() => parseAssetFilter(value), name));
}
