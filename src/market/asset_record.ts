// Assets as the market records show them ({asset_type, asset_code, asset_issuer}, code and issuer
// absent for the native asset), and the asset argument every market endpoint takes.
import { InvalidValueError, parseAssetQuery, type AssetQuery, type AssetValue } from '../stellar/index.js';

export interface AssetRecord {
  readonly assetType: AssetValue['type'];
  readonly assetCode?: string;
  readonly assetIssuer?: string;
}

export function assetRecord(asset: AssetValue): AssetRecord {
  return asset.type === 'native' ? { assetType: 'native' } : { assetType: asset.type, assetCode: asset.code, assetIssuer: asset.issuer };
}

/**
 * One asset argument of a market endpoint, required: GraphQL's AssetInput, REST's
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
