import {
  StrKey,
  decodeAddressToMuxedAccount,
  encodeMuxedAccount,
  encodeMuxedAccountToAddress,
  extractBaseAddress,
  xdr,
} from '@stellar/stellar-sdk/base';
import { asBuffer } from './bytes.js';
import { UINT64_MAX } from './int64.js';
import { InvalidValueError } from './invalid_value_error.js';

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
  const { accountId, muxedId } = muxedAccountFromXdr(decodeAddressToMuxedAccount(text));
  return { accountId, id: muxedId ?? 0n };
}

/** Builds the M... address for a base account and an id in 0..2^64-1. */
export function formatMuxedAccountId(accountId: string, id: bigint): string {
  parseAccountId(accountId);
  if (id < 0n || id > UINT64_MAX) {
    throw new InvalidValueError(`muxed account id ${id} is out of range 0..${UINT64_MAX}`);
  }
  return encodeMuxedAccountToAddress(encodeMuxedAccount(accountId, id.toString()));
}

/** The G... account behind a G... or M... address (a G address is returned unchanged). */
export function baseAccountId(text: string): string {
  if (isAccountId(text)) return text;
  if (isMuxedAccountId(text)) return extractBaseAddress(text);
  throw new InvalidValueError(`${JSON.stringify(text)} is not a valid account id (G...) or muxed account (M...)`);
}

// StrKey's base32 and CRC are a hot spot of ingestion and of the core's ledger closes: accounts
// repeat, so both directions are remembered (up to a bound, then forgotten at once).
const CACHE_LIMIT = 200_000;
const addresses = new Map<string, string>();
const keys = new Map<string, Buffer>();
const xdrIds = new Map<string, xdr.AccountId>();

/** G... of a raw 32-byte ed25519 key, cached. */
export function encodeAccountId(key: Uint8Array): string {
  const raw = asBuffer(key).toString('latin1');
  let address = addresses.get(raw);
  if (address === undefined) {
    address = StrKey.encodeEd25519PublicKey(key);
    if (addresses.size >= CACHE_LIMIT) addresses.clear();
    addresses.set(raw, address);
  }
  return address;
}

/** G... of the raw ed25519 key at `offset` in `buf`, cached; no slice unless it is new. */
export function encodeAccountIdAt(buf: Buffer, offset: number): string {
  const address = addresses.get(buf.toString('latin1', offset, offset + 32));
  return address ?? encodeAccountId(buf.subarray(offset, offset + 32));
}

/** The raw 32-byte ed25519 key of a G... account id, cached (the bytes must not be modified). */
export function accountIdKey(accountId: string): Buffer {
  let key = keys.get(accountId);
  if (key === undefined) {
    key = Buffer.from(StrKey.decodeEd25519PublicKey(accountId));
    if (keys.size >= CACHE_LIMIT) keys.clear();
    keys.set(accountId, key);
  }
  return key;
}

/** The G... of an XDR AccountId. */
export function accountIdFromXdr(id: xdr.AccountId): string {
  return encodeAccountId(id.ed25519.value);
}

/** An XDR AccountId for a G... account id, cached (the value is shared: never modify it). */
export function accountIdToXdr(accountId: string): xdr.AccountId {
  let id = xdrIds.get(accountId);
  if (id === undefined) {
    id = xdr.PublicKey.publicKeyTypeEd25519(accountIdKey(accountId));
    if (xdrIds.size >= CACHE_LIMIT) xdrIds.clear();
    xdrIds.set(accountId, id);
  }
  return id;
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
  if (account.type === 'keyTypeMuxedEd25519') {
    const med = account.med25519;
    return {
      accountId: encodeAccountId(med.ed25519.value),
      muxedAddress: encodeMuxedAccountToAddress(account),
      muxedId: med.id,
    };
  }
  return { accountId: encodeAccountId(account.ed25519.value), muxedAddress: null, muxedId: null };
}

/** The id of a muxed account's M... address (Horizon's `*_muxed_id`). */
export function muxedIdOfAddress(address: string): bigint {
  // an M... address holds the 32-byte key, then the id as a big-endian uint64
  return Buffer.from(StrKey.decodeMed25519PublicKey(address)).readBigUInt64BE(32);
}

/**
 * The id of a muxed address as Horizon's `*_muxed_id` fields of its resources show it: none for a
 * G... address or no address, and none for id 0 (their `omitempty`).
 */
export function shownMuxedId(address: string | null): bigint | null {
  const id = address?.startsWith('M') ? muxedIdOfAddress(address) : 0n;
  return id === 0n ? null : id;
}

/** The G... account behind an XDR MuxedAccount (its muxed id, if any, dropped). */
export function muxedAccountBase(account: xdr.MuxedAccount): string {
  return encodeAccountId(account.type === 'keyTypeMuxedEd25519' ? account.med25519.ed25519.value : account.ed25519.value);
}
