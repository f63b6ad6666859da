// Checks of root-field arguments shared by GraphQL and REST: a malformed key is a bad_request
// naming the argument, never a database error.
import { isAccountId } from '../../stellar/account_id.js';
import { parseCanonicalAsset, type AssetValue } from '../../stellar/asset.js';
import { InvalidValueError } from '../../stellar/invalid_value_error.js';
import { ProblemError, problems } from '../problems.js';

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

/** An asset in Horizon's canonical form ("native" or "CODE:ISSUER"); a bad one is a bad_request naming the argument. */
export function canonicalAssetArg(name: string, value: string): AssetValue {
  try {
    return parseCanonicalAsset(value);
  } catch (error) {
    if (error instanceof InvalidValueError) throw new ProblemError(problems.badRequest(name, error.message));
    throw error;
  }
}
