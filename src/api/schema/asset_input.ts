// An asset as an argument: the same triple the REST market endpoints take as
// <prefix>_asset_type/_code/_issuer, checked by the market library's parsers (market_args.ts).
import { builder } from './builder.js';

export interface AssetInputShape {
  assetType: string;
  assetCode?: string | null;
  assetIssuer?: string | null;
}

export const AssetInput = builder.inputType('AssetInput', {
  description: 'native, or credit_alphanum4/credit_alphanum12 with its code and issuer.',
  fields: (t) => ({
    assetType: t.string({ required: true }),
    assetCode: t.string(),
    assetIssuer: t.string(),
  }),
});

/** the asset as the REST query names it (`selling_asset_type`...), for the market parsers */
export function assetQuery(prefix: string, asset: AssetInputShape): Record<string, string | undefined> {
  return {
    [`${prefix}_asset_type`]: asset.assetType,
    [`${prefix}_asset_code`]: asset.assetCode ?? undefined,
    [`${prefix}_asset_issuer`]: asset.assetIssuer ?? undefined,
  };
}
