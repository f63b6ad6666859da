// Horizon's forms of the ids of claimable balances and liquidity pools, and a pool's id from its
// parameters.
import { createHash } from 'node:crypto';
import type { xdr } from '@stellar/stellar-sdk/base';
import { InvalidValueError } from './invalid_value_error.js';

/** A claimable balance id as Horizon writes it (xdr.MarshalHex): the hex of its XDR, type first. */
export function balanceIdHex(id: xdr.ClaimableBalanceId): string {
  return id.toXdr('hex');
}

/** A liquidity pool id (PoolId, a 32-byte hash) as hex. */
export function poolIdHex(id: xdr.PoolId | Uint8Array): string {
  // a PoolId holds its bytes in `value` (a Uint8Array, not a Buffer)
  return Buffer.from(id instanceof Uint8Array ? id : id.value).toString('hex');
}

/** The id of the pool with these parameters, as hex: sha256 of their XDR (stellar-go's NewPoolId). */
export function poolIdOf(params: xdr.LiquidityPoolParameters): string {
  return createHash('sha256').update(params.toXdr()).digest('hex');
}

/**
 * A liquidity pool id as a request gives it: 64 hex digits (Horizon's sha256 check, with its
 * message), answered in lowercase as pools are stored.
 */
export function parseLiquidityPoolId(text: string): string {
  if (!/^[0-9a-fA-F]{64}$/.test(text)) throw new InvalidValueError(`${text} does not validate as sha256`);
  return text.toLowerCase();
}
