// Horizon's forms of the ids of claimable balances and liquidity pools, a new balance's id and a
// pool's id from their origins; the ids and a balance's paging token as a request gives them.
import { createHash } from 'node:crypto';
import { xdr } from '@stellar/stellar-sdk/base';
import { accountIdToXdr } from './account_id.js';
import { assetToXdr, compareAssets, type AssetValue } from './asset.js';
import { INT64_MAX } from './int64.js';
import { InvalidValueError } from './invalid_value_error.js';

/** A claimable balance id as Horizon writes it (xdr.MarshalHex): the hex of its XDR, type first. */
export function balanceIdHex(id: xdr.ClaimableBalanceId): string {
  return id.toXdr('hex');
}

/**
 * The hash (ClaimableBalanceID v0) of the balance the operation at `opIndex` (0-based) of a
 * transaction creates: sha256 of the ENVELOPE_TYPE_OP_ID preimage of the transaction's source and
 * sequence number, as stellar-core's getBalanceID. Never the operation's own source; for a fee
 * bump, the inner transaction's source and sequence number.
 */
export function claimableBalanceHash(txSourceId: string, seqNum: bigint, opIndex: number): Buffer {
  const preimage = xdr.HashIdPreimage.envelopeTypeOpId(
    new xdr.HashIdPreimageOperationId({ sourceAccount: accountIdToXdr(txSourceId), seqNum, opNum: opIndex }),
  );
  return createHash('sha256').update(preimage.toXdr()).digest();
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
 * stellar-core getPoolID: the constant-product pool of two assets, given in either order (its
 * parameters hold the smaller asset first, in stellar-core's asset order).
 */
export function poolIdOfAssets(x: AssetValue, y: AssetValue, feeBps: number): string {
  const [assetA, assetB] = compareAssets(x, y) <= 0 ? [x, y] : [y, x];
  const params = new xdr.LiquidityPoolConstantProductParameters({ assetA: assetToXdr(assetA), assetB: assetToXdr(assetB), fee: feeBps });
  return poolIdOf(xdr.LiquidityPoolParameters.liquidityPoolConstantProduct(params));
}

/**
 * The claimable balance (its v0 hash as hex) that holds an asset of pool shares redeemed by a
 * revocation: sha256 of HashIDPreimage ENVELOPE_TYPE_POOL_REVOKE_OP_ID (stellar-core getRevokeID),
 * from the revoking transaction's source and sequence number and the operation's index.
 */
export function poolRevokeBalanceId(txSourceId: string, seqNum: bigint, opIndex: number, poolId: string, asset: AssetValue): string {
  const preimage = xdr.HashIdPreimage.envelopeTypePoolRevokeOpId(
    new xdr.HashIdPreimageRevokeId({
      sourceAccount: accountIdToXdr(txSourceId),
      seqNum,
      opNum: opIndex,
      liquidityPoolId: new xdr.PoolId(poolId),
      asset: assetToXdr(asset),
    }),
  );
  return createHash('sha256').update(preimage.toXdr()).digest('hex');
}

const BALANCE_ID = /^00000000[0-9a-fA-F]{64}$/;
const POOL_ID = /^[0-9a-f]{64}$/;

/**
 * A claimable balance id as Horizon takes it (isClaimableBalanceID: the hex of a whole
 * ClaimableBalanceId XDR, whose only type is V0, so "00000000" and a 32-byte hash); the bare hash
 * is refused, as Horizon does. Lowercased, as stored.
 */
export function parseBalanceId(text: string): string {
  if (!BALANCE_ID.test(text)) throw new InvalidValueError(`${text} does not validate as claimableBalanceID`);
  return text.toLowerCase();
}

/** A liquidity pool id as Horizon takes it (govalidator's IsSHA256: 64 lowercase hex digits). */
export function parsePoolId(text: string): string {
  if (!POOL_ID.test(text)) throw new InvalidValueError(`${text} does not validate as sha256`);
  return text;
}

/** A claimable balance's paging token: its last modified ledger and its id (Horizon's `<ledger>-<id>`). */
export interface BalancePagingToken {
  readonly ledger: number;
  readonly id: string;
}

/** Ledger sequences are int32 in the tables: a larger cursor ledger is past every balance. */
const LEDGER_MAX = 2 ** 31 - 1;

export function formatBalancePagingToken(ledger: number, id: string): string {
  return `${ledger}-${id}`;
}

/**
 * Parses Horizon's claimable balance cursor (ClaimableBalancesQuery.Cursor): a non-negative
 * ledger, a dash, a claimable balance id. Ledgers above int32 are clamped (none is that large).
 */
export function parseBalancePagingToken(text: string): BalancePagingToken {
  const dash = text.indexOf('-');
  const ledgerText = dash === -1 ? '' : text.slice(0, dash);
  const idText = dash === -1 ? '' : text.slice(dash + 1);
  if (!/^\d{1,19}$/.test(ledgerText) || BigInt(ledgerText) > INT64_MAX || !BALANCE_ID.test(idText)) {
    throw new InvalidValueError(
      'The first part should be a number higher than 0 and the second part should be a valid claimable balance ID',
    );
  }
  const ledger = BigInt(ledgerText);
  return { ledger: ledger > BigInt(LEDGER_MAX) ? LEDGER_MAX : Number(ledger), id: idText.toLowerCase() };
}
