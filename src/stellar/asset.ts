import { Asset, xdr } from '@stellar/stellar-sdk/base';
import { accountIdFromXdr, accountIdToXdr, isAccountId } from './account_id.js';
import { InvalidValueError } from './invalid_value_error.js';

/** Horizon's `asset_type` values for assets (liquidity pool shares are not assets here). */
export type AssetType = 'native' | 'credit_alphanum4' | 'credit_alphanum12';

export interface NativeAsset {
  readonly type: 'native';
}

export interface CreditAsset {
  readonly type: 'credit_alphanum4' | 'credit_alphanum12';
  /** 1–4 characters for credit_alphanum4, 5–12 for credit_alphanum12; [a-zA-Z0-9]. */
  readonly code: string;
  /** G... issuer account. */
  readonly issuer: string;
}

/** An asset as plain data: easy to compare, serialise and put in database rows. */
export type AssetValue = NativeAsset | CreditAsset;

export const NATIVE_ASSET: NativeAsset = Object.freeze({ type: 'native' });

const CODE = /^[a-zA-Z0-9]{1,12}$/;

function codeFits(type: CreditAsset['type'], code: string): boolean {
  if (!CODE.test(code)) return false;
  // stellar-core rejects an alphanum12 code of 4 characters or fewer (it must be an alphanum4).
  return type === 'credit_alphanum4' ? code.length <= 4 : code.length >= 5;
}

function checkIssuer(issuer: string): void {
  if (!isAccountId(issuer)) {
    throw new InvalidValueError(`asset issuer ${JSON.stringify(issuer)} is not a valid account id (G...)`, {
      field: 'asset_issuer',
    });
  }
}

/** A credit asset whose type follows from the code's length (as the SDK's Asset and stellar-core do). */
export function creditAsset(code: string, issuer: string): CreditAsset {
  if (!CODE.test(code)) {
    throw new InvalidValueError(`asset code ${JSON.stringify(code)} must be 1-12 alphanumeric characters`, {
      field: 'asset_code',
    });
  }
  checkIssuer(issuer);
  return { type: code.length <= 4 ? 'credit_alphanum4' : 'credit_alphanum12', code, issuer };
}

/** Parses Horizon's `asset_type` value. */
export function parseAssetType(text: string): AssetType {
  if (text === 'native' || text === 'credit_alphanum4' || text === 'credit_alphanum12') return text;
  throw new InvalidValueError(
    `invalid asset type ${JSON.stringify(text)}: must be one of 'native', 'credit_alphanum4', 'credit_alphanum12'`,
    { field: 'asset_type' },
  );
}

/**
 * Parses the canonical form used in Horizon's list parameters (`source_assets`, `selling`,
 * `buying`, ...): "native", or "CODE:ISSUER". As Horizon's xdr.BuildAssets, "native" is matched
 * case-insensitively and the type follows from the code length.
 */
export function parseCanonicalAsset(text: string): AssetValue {
  if (text.toLowerCase() === 'native') return NATIVE_ASSET;
  const parts = text.split(':');
  if (parts.length !== 2) {
    throw new InvalidValueError(`${JSON.stringify(text)} is not a valid asset: expected "native" or "CODE:ISSUER"`);
  }
  const [code = '', issuer = ''] = parts;
  return creditAsset(code, issuer);
}

/**
 * An asset as the tables store it ("native" or "CODE:ISSUER", written by the ingester from valid
 * XDR): read without checking it again, as a page renders it once per record.
 */
export function storedAsset(text: string): AssetValue {
  if (text === 'native') return NATIVE_ASSET;
  const colon = text.indexOf(':');
  const code = text.slice(0, colon);
  return { type: code.length <= 4 ? 'credit_alphanum4' : 'credit_alphanum12', code, issuer: text.slice(colon + 1) };
}

/**
 * An asset filter of Horizon's claimable balance and pool lists (`asset`, `reserves`): exactly
 * "native" (no other case, unlike parseCanonicalAsset), or "CODE:ISSUER".
 */
export function parseAssetFilter(text: string): AssetValue {
  if (text === 'native') return NATIVE_ASSET;
  try {
    if (text.toLowerCase() === 'native') throw new InvalidValueError('native is written in lowercase');
    return parseCanonicalAsset(text);
  } catch (error) {
    if (!(error instanceof InvalidValueError)) throw error;
    throw new InvalidValueError('Asset must be the string "native" or a string of the form "Code:IssuerAccountID" for issued assets.', {
      cause: error,
    });
  }
}

/** "native" or "CODE:ISSUER" (Horizon's StringCanonical). */
export function formatCanonicalAsset(asset: AssetValue): string {
  return asset.type === 'native' ? 'native' : `${asset.code}:${asset.issuer}`;
}

/** The three query parameters (without their prefix) that Horizon uses to name one asset; null or empty is absent. */
export interface AssetQuery {
  readonly assetType?: string | null | undefined;
  readonly assetCode?: string | null | undefined;
  readonly assetIssuer?: string | null | undefined;
}

/**
 * Parses an `asset_type`/`asset_code`/`asset_issuer` triple as Horizon validates it
 * (actions/helpers.go validateAssetParams + getAsset). Empty strings count as absent.
 * Returns null when all three are absent (the caller decides whether the asset is required).
 * Errors carry `field` = the unprefixed parameter at fault.
 *
 * Differs from Horizon in one respect: a credit_alphanum12 code must have 5–12 characters (Horizon
 * accepts 1–12 and builds an asset stellar-core considers invalid, which then matches nothing).
 */
export function parseAssetQuery(query: AssetQuery): AssetValue | null {
  const type = query.assetType ?? '';
  const code = query.assetCode ?? '';
  const issuer = query.assetIssuer ?? '';
  if (type === '') {
    if (code !== '' || issuer !== '') {
      throw new InvalidValueError('asset type is missing', { field: 'asset_type' });
    }
    return null;
  }
  const assetType = parseAssetType(type);
  if (assetType === 'native') {
    if (code !== '') throw new InvalidValueError('native asset does not have a code', { field: 'asset_code' });
    if (issuer !== '') throw new InvalidValueError('native asset does not have an issuer', { field: 'asset_issuer' });
    return NATIVE_ASSET;
  }
  if (!codeFits(assetType, code)) {
    const lengths = assetType === 'credit_alphanum4' ? '1-4' : '5-12';
    throw new InvalidValueError(
      code === ''
        ? `asset code is missing`
        : `asset code ${JSON.stringify(code)} must be ${lengths} alphanumeric characters for ${assetType}`,
      { field: 'asset_code' },
    );
  }
  if (issuer === '') throw new InvalidValueError('asset issuer is missing', { field: 'asset_issuer' });
  checkIssuer(issuer);
  return { type: assetType, code, issuer };
}

/**
 * One required asset argument of a market endpoint: GraphQL's AssetInput, REST's
 * `<prefix>_asset_type`, `_asset_code`, `_asset_issuer` (code and issuer omitted for native,
 * required otherwise). Errors name the REST field (`selling_asset_code`); a missing asset is
 * reported on `<prefix>_asset_type`.
 */
export function parseAssetArg(input: AssetQuery, prefix: string): AssetValue {
  try {
    const asset = parseAssetQuery(input);
    if (asset === null) throw new InvalidValueError('missing required field', { field: 'asset_type' });
    return asset;
  } catch (error) {
    if (error instanceof InvalidValueError) {
      throw new InvalidValueError(error.message, { field: `${prefix}_${error.field ?? 'asset_type'}`, cause: error });
    }
    throw error;
  }
}

/** An asset as Horizon's records show it: `asset_type`, and code and issuer for credit assets. */
export interface AssetRecord {
  readonly assetType: AssetType;
  readonly assetCode?: string;
  readonly assetIssuer?: string;
}

export function assetRecord(asset: AssetValue): AssetRecord {
  return asset.type === 'native' ? { assetType: 'native' } : { assetType: asset.type, assetCode: asset.code, assetIssuer: asset.issuer };
}

/** Converts to the SDK's Asset (`@stellar/stellar-sdk/base`). */
export function toStellarAsset(asset: AssetValue): Asset {
  return asset.type === 'native' ? Asset.native() : new Asset(asset.code, asset.issuer);
}

/** Converts from the SDK's Asset (its type is derived from the code length, so it is always consistent). */
export function fromStellarAsset(asset: Asset): AssetValue {
  return asset.isNative() ? NATIVE_ASSET : creditAsset(asset.getCode(), asset.getIssuer() ?? '');
}

/** The code's bytes in XDR: zero-padded to 4 bytes (1–4 characters) or to 12 (5–12). */
export function assetCodeBytes(asset: CreditAsset): Buffer {
  const bytes = Buffer.alloc(asset.code.length <= 4 ? 4 : 12);
  bytes.write(asset.code, 'latin1');
  return bytes;
}

/**
 * Converts to xdr.Asset. As the SDK's Asset, the XDR arm follows from the code's length; the
 * issuer's key comes from a cache, which makes this cheap enough for the core's results.
 */
export function assetToXdr(asset: AssetValue): xdr.Asset {
  if (asset.type === 'native') return xdr.Asset.assetTypeNative();
  const parts = { assetCode: assetCodeBytes(asset), issuer: accountIdToXdr(asset.issuer) };
  return asset.code.length <= 4
    ? xdr.Asset.assetTypeCreditAlphanum4(new xdr.AlphaNum4(parts))
    : xdr.Asset.assetTypeCreditAlphanum12(new xdr.AlphaNum12(parts));
}

const isAsciiAlphaNumeric = (c: number): boolean => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);

/**
 * stellar-core isAssetCodeValid for a code's XDR bytes: ASCII letters and digits, then only zero
 * padding; a 4-byte code has at least one character, a 12-byte code at least five.
 */
export function isAssetCodeValid(code: Uint8Array): boolean {
  let length = 0;
  let ended = false;
  for (const c of code) {
    if (c === 0) {
      ended = true;
      continue;
    }
    if (ended || !isAsciiAlphaNumeric(c)) return false;
    length++;
  }
  return code.length === 4 ? length >= 1 : length >= 5;
}

/** An XDR asset of any of its three unions (liquidity pool shares are not assets here). */
export type XdrAsset = xdr.Asset | xdr.TrustLineAsset | xdr.ChangeTrustAsset;

/** stellar-core isAssetValid: native, or a credit asset with a valid code; never a pool share. */
export function isAssetValid(asset: XdrAsset): boolean {
  switch (asset.type) {
    case 'assetTypeNative':
      return true;
    case 'assetTypeCreditAlphanum4':
      return isAssetCodeValid(asset.alphaNum4.assetCode.value);
    case 'assetTypeCreditAlphanum12':
      return isAssetCodeValid(asset.alphaNum12.assetCode.value);
    default:
      return false;
  }
}

/**
 * Converts from an XDR asset, keeping the XDR's own type. the SDK's Asset.fromOperation would
 * turn an alphanum12 with a short code into an alphanum4; such an asset is invalid for stellar-core,
 * so it is rejected here, as are codes with non-alphanumeric bytes or bytes after the zero padding.
 */
export function assetFromXdr(asset: XdrAsset): AssetValue {
  if (asset.type === 'assetTypeNative') return NATIVE_ASSET;
  let type: CreditAsset['type'];
  let alphaNum: xdr.AlphaNum4 | xdr.AlphaNum12;
  if (asset.type === 'assetTypeCreditAlphanum4') {
    type = 'credit_alphanum4';
    alphaNum = asset.alphaNum4;
  } else if (asset.type === 'assetTypeCreditAlphanum12') {
    type = 'credit_alphanum12';
    alphaNum = asset.alphaNum12;
  } else {
    throw new InvalidValueError(`unsupported asset type ${asset.type}`);
  }
  const raw = alphaNum.assetCode.value;
  if (!isAssetCodeValid(raw)) {
    throw new InvalidValueError(`invalid ${type} asset code ${JSON.stringify(Buffer.from(raw).toString('latin1'))}`);
  }
  return { type, code: codeText(raw), issuer: accountIdFromXdr(alphaNum.issuer) };
}

/** A code's XDR bytes as text: up to the zero padding. */
function codeText(raw: Uint8Array): string {
  const end = raw.indexOf(0);
  return Buffer.from(raw.buffer, raw.byteOffset, end === -1 ? raw.byteLength : end).toString('latin1');
}

/** The asset an AllowTrust operation names: its code, issued by the operation's source. */
export function allowTrustAsset(op: xdr.AllowTrustOp, issuer: string): CreditAsset {
  const a = op.asset;
  return creditAsset(codeText(a.type === 'assetTypeCreditAlphanum4' ? a.assetCode4.value : a.assetCode12.value), issuer);
}

/** True when both name the same asset. */
export function assetsEqual(a: AssetValue, b: AssetValue): boolean {
  if (a.type === 'native' || b.type === 'native') return a.type === b.type;
  return a.type === b.type && a.code === b.code && a.issuer === b.issuer;
}

/**
 * Orders assets as stellar-core orders xdr.Asset values (xdrpp's generated operator<): by type
 * (native < alphanum4 < alphanum12), then by the zero-padded code bytes, then by the issuer's raw
 * ed25519 key bytes. This is the order stellar-core requires for a liquidity pool's asset pair
 * (assetA < assetB) and a deterministic order for picking one side of an asset pair.
 *
 * It is deliberately not the SDK's Asset.compare, which compares issuers as strkey text: base32
 * text order differs from key byte order ('2'..'7' sort before 'A' in ASCII but encode larger values).
 * Horizon itself picks a trade's base asset by history_assets row id, which is an insertion order,
 * not this.
 */
export function compareAssets(a: AssetValue, b: AssetValue): -1 | 0 | 1 {
  // XDR encodings of assets of one type have identical layouts (type, code, issuer key type, key),
  // and types differ in their first 4 bytes, so byte order of the encodings is core's order.
  const result = Buffer.compare(assetToXdr(a).toXdr(), assetToXdr(b).toXdr());
  return result < 0 ? -1 : result > 0 ? 1 : 0;
}

/** `asset_code` of Horizon's /assets: 1-12 ASCII letters and digits (xdr.ValidAssetCode), whatever the type. */
export function parseAssetCodeFilter(code: string): string {
  if (!CODE.test(code)) throw new InvalidValueError(`${code} is not a valid asset code`, { field: 'asset_code' });
  return code;
}

/** `asset_issuer` of Horizon's /assets: an account id. */
export function parseAssetIssuerFilter(issuer: string): string {
  if (!isAccountId(issuer)) throw new InvalidValueError(`${issuer} is not a valid asset issuer`, { field: 'asset_issuer' });
  return issuer;
}

/** The key an asset stat is listed by: (code, issuer). */
export interface AssetStatKey {
  readonly code: string;
  readonly issuer: string;
}

/** An asset stat's paging token, `<code>_<issuer>_<type>` (Horizon's ExpAssetStat.PagingToken). */
export function formatAssetStatPagingToken(type: string, code: string, issuer: string): string {
  return `${code}_${issuer}_${type}`;
}

/**
 * Parses an asset stat's paging token as Horizon's /assets validates its cursor: three parts, a
 * valid code and issuer, and one of xdr's asset type names. Only code and issuer bound the page.
 */
export function parseAssetStatPagingToken(token: string): AssetStatKey {
  const first = token.indexOf('_');
  const second = first < 0 ? -1 : token.indexOf('_', first + 1);
  if (second < 0) throw new InvalidValueError('the cursor is not a valid paging_token');
  const code = parseAssetCodeFilter(token.slice(0, first));
  const issuer = parseAssetIssuerFilter(token.slice(first + 1, second));
  const type = token.slice(second + 1);
  if (type !== 'native' && type !== 'credit_alphanum4' && type !== 'credit_alphanum12') {
    throw new InvalidValueError(`${type} is not a valid asset type`);
  }
  return { code, issuer };
}
