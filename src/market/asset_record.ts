// Assets as the market records show them ({asset_type, asset_code, asset_issuer}, code and issuer
// absent for the native asset), and the prefixed query triple every market endpoint takes.
import { InvalidValueError, parseAssetQuery, type AssetValue } from '../stellar/index.js';

export interface AssetRecord {
  readonly assetType: AssetValue['type'];
  readonly assetCode?: string;
  readonly assetIssuer?: string;
}

export function assetRecord(asset: AssetValue): AssetRecord {
  return asset.type === 'native' ? { assetType: 'native' } : { assetType: asset.type, assetCode: asset.code, assetIssuer: asset.issuer };
}

/**
 * Reads `<prefix>_asset_type`, `_asset_code`, `_asset_issuer` (code and issuer omitted for
 * native, required otherwise). Errors name the full field (`selling_asset_code`); a missing type
 * is reported on `<prefix>_asset_type` when the asset is required, otherwise null is returned.
 */
export function parsePrefixedAsset(
  query: Readonly<Record<string, string | undefined>>,
  prefix: string,
  required: boolean,
): AssetValue | null {
  try {
    const asset = parseAssetQuery({
      assetType: query[`${prefix}_asset_type`],
      assetCode: query[`${prefix}_asset_code`],
      assetIssuer: query[`${prefix}_asset_issuer`],
    });
    if (asset === null && required) throw new InvalidValueError('missing required field', { field: 'asset_type' });
    return asset;
  } catch (error) {
    if (error instanceof InvalidValueError) {
      throw new InvalidValueError(error.message, { field: `${prefix}_${error.field ?? 'asset_type'}`, cause: error });
    }
    throw error;
  }
}
