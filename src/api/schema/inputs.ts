// Checks of root-field arguments shared by GraphQL and REST: a malformed key is a bad_request
// naming the argument, never a database error.
import { isAccountId } from '../../stellar/account_id.js';
import {
  type AssetValue,
  type CreditAsset,
  creditAsset,
  formatCanonicalAsset,
  parseAssetFilter,
  parseCanonicalAsset,
} from '../../stellar/asset.js';
import { parseBalanceId, parsePoolId } from '../../stellar/entry_ids.js';
import { InvalidValueError } from '../../stellar/invalid_value_error.js';
import { parsed, ProblemError, problems } from '../problems.js';
import type { AccountFilter } from './state_lists.js';

/** Horizon's reason for a malformed account id (its `accountID` validator) */
export const ACCOUNT_ID_REASON = 'Account ID must start with `G` and contain 56 alphanum characters';

export function accountIdArg(name: string, value: string): string {
  if (!isAccountId(value)) throw new ProblemError(problems.badRequest(name, 'not a valid account id (G...)'));
  return value;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it finds
const CONTROL_CHARACTER = /[\x00-\x1f\x7f]/;

/** A data entry's name: 1 to 64 bytes; none holds a control character (stellar-core's isStringValid), and a NUL byte is no text the database compares. */
export function dataNameArg(name: string, value: string): string {
  if (value === '' || Buffer.byteLength(value) > 64 || CONTROL_CHARACTER.test(value)) {
    throw new ProblemError(problems.badRequest(name, `${name} must be a data entry name of 1 to 64 bytes, without control characters`));
  }
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

/** An asset in Horizon's canonical form ("native" or "CODE:ISSUER"); a bad one is a bad_request naming the argument. */
export function canonicalAssetArg(name: string, value: string): AssetValue {
  try {
    return parseCanonicalAsset(value);
  } catch (error) {
    // named as the argument, whichever part of the asset was wrong
    if (error instanceof InvalidValueError) throw new ProblemError(problems.badRequest(name, error.message));
    throw error;
  }
}

export interface AccountFilterArgs {
  signer?: string | null | undefined;
  sponsor?: string | null | undefined;
  asset?: string | null | undefined;
  liquidityPool?: string | null | undefined;
}

/** Horizon's reason for an `asset` filter that is not "native" or "CODE:ISSUER" (its `asset` validator) */
const ASSET_REASON = 'Asset must be the string "native" or a string of the form "Code:IssuerAccountID" for issued assets.';

/**
 * The one filter of an account list, checked in Horizon's order (AccountsQuery: each value, then
 * the native asset, then the count); empty values are absent. `names` are the request's names of
 * the filters (REST's liquidity_pool, GraphQL's liquidityPool).
 */
export function accountFilterArg(args: AccountFilterArgs, names: Record<keyof AccountFilterArgs, string>): AccountFilter {
  const badRequest = (name: keyof AccountFilterArgs, reason: string) => new ProblemError(problems.badRequest(names[name], reason));
  const { signer, sponsor, asset, liquidityPool } = args;
  if (signer && !isAccountId(signer)) throw badRequest('signer', ACCOUNT_ID_REASON);
  if (sponsor && !isAccountId(sponsor)) throw badRequest('sponsor', ACCOUNT_ID_REASON);
  let credit: CreditAsset | undefined;
  if (asset && asset !== 'native') {
    const [code = '', issuer = '', ...more] = asset.split(':');
    if (more.length > 0 || !/^[a-zA-Z0-9]{1,12}$/.test(code) || !isAccountId(issuer)) throw badRequest('asset', ASSET_REASON);
    credit = creditAsset(code, issuer);
  }
  if (liquidityPool && !/^[a-f0-9]{64}$/.test(liquidityPool)) {
    throw badRequest('liquidityPool', `${liquidityPool} does not validate as sha256`);
  }
  if (asset === 'native') throw badRequest('asset', "you can't filter by asset: native");
  const given = (['signer', 'sponsor', 'asset', 'liquidityPool'] as const).filter((name) => args[name]);
  if (given.length !== 1) {
    const named = (given.length > 0 ? given : (['signer', 'sponsor', 'asset', 'liquidityPool'] as const)).map((name) => names[name]);
    throw new ProblemError(problems.invalidAccountsParams(named));
  }
  if (signer) return { signer };
  if (sponsor) return { sponsor };
  if (credit) return { asset: credit };
  return { liquidityPool: liquidityPool ?? '' };
}
