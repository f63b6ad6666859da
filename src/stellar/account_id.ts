import {
  StrKey,
  decodeAddressToMuxedAccount,
  encodeMuxedAccount,
  encodeMuxedAccountToAddress,
  extractBaseAddress,
  type xdr,
} from '@stellar/stellar-base';
import { InvalidValueError } from './invalid_value_error.js';

const UINT64_MAX = 18446744073709551615n;

/** True for a valid ed25519 account strkey (G...). */
export function isAccountId(text: string): boolean {
  return StrKey.isValidEd25519PublicKey(text);
}

/** True for a valid muxed account strkey (M...). */
export function isMuxedAccountId(text: string): boolean {
  return StrKey.isValidMed25519PublicKey(text);
}

/**
 * Returns the G... account id unchanged if valid. Muxed ids are rejected: like Horizon's
 * getAccountID, path and query parameters that name an account take G addresses only.
 */
export function parseAccountId(text: string): string {
  if (!isAccountId(text)) {
    throw new InvalidValueError(
      isMuxedAccountId(text)
        ? `${JSON.stringify(text)} is a muxed account (M...); an account id (G...) is required`
        : `${JSON.stringify(text)} is not a valid account id (G...)`,
    );
  }
  return text;
}

/** A muxed account: the underlying G account plus the 64-bit id multiplexed onto it. */
export interface MuxedAccountId {
  readonly accountId: string;
  readonly id: bigint;
}

/** Splits an M... address into its base account and id. */
export function parseMuxedAccountId(text: string): MuxedAccountId {
  if (!isMuxedAccountId(text)) {
    throw new InvalidValueError(`${JSON.stringify(text)} is not a valid muxed account (M...)`);
  }
  const { accountId, muxedId } = muxedAccountFromXdr(decodeAddressToMuxedAccount(text, true));
  return { accountId, id: muxedId ?? 0n };
}

/** Builds the M... address for a base account and an id in 0..2^64-1. */
export function formatMuxedAccountId(accountId: string, id: bigint): string {
  parseAccountId(accountId);
  if (id < 0n || id > UINT64_MAX) {
    throw new InvalidValueError(`muxed account id ${id} is out of range 0..${UINT64_MAX}`);
  }
  return encodeMuxedAccountToAddress(encodeMuxedAccount(accountId, id.toString()), true);
}

/** The G... account behind a G... or M... address (a G address is returned unchanged). */
export function baseAccountId(text: string): string {
  if (isAccountId(text)) return text;
  if (isMuxedAccountId(text)) return extractBaseAddress(text);
  throw new InvalidValueError(`${JSON.stringify(text)} is not a valid account id (G...) or muxed account (M...)`);
}

/**
 * An XDR MuxedAccount as Horizon renders it: `accountId` is always the base G address
 * (`source_account`, `from`, ...); `muxedAddress`/`muxedId` (`*_muxed`, `*_muxed_id`) are set only
 * when the XDR actually carried a muxed id.
 */
export interface DecodedMuxedAccount {
  readonly accountId: string;
  readonly muxedAddress: string | null;
  readonly muxedId: bigint | null;
}

export function muxedAccountFromXdr(account: xdr.MuxedAccount): DecodedMuxedAccount {
  if (account.switch().name === 'keyTypeMuxedEd25519') {
    const med = account.med25519();
    return {
      accountId: StrKey.encodeEd25519PublicKey(med.ed25519()),
      muxedAddress: encodeMuxedAccountToAddress(account, true),
      muxedId: BigInt(med.id().toString()),
    };
  }
  return { accountId: StrKey.encodeEd25519PublicKey(account.ed25519()), muxedAddress: null, muxedId: null };
}
