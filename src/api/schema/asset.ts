// Asset and Price: small value objects (no identity), rendered inline in their parents.
import type { AssetValue } from '../../stellar/asset.js';
import { builder } from './builder.js';

/** An asset as Horizon names it: asset_type, and asset_code/asset_issuer unless native. */
export interface AssetShape {
  assetType: string;
  assetCode?: string | null;
  assetIssuer?: string | null;
}

export function assetShape(asset: AssetValue): AssetShape {
  return asset.type === 'native' ? { assetType: 'native' } : { assetType: asset.type, assetCode: asset.code, assetIssuer: asset.issuer };
}

export const AssetRef = builder.objectRef<AssetShape>('Asset').implement({
  description: 'An asset: the native one (lumens) or a credit asset named by code and issuer.',
  fields: (t) => ({
    assetType: t.exposeString('assetType', { description: 'native, credit_alphanum4 or credit_alphanum12' }),
    assetCode: t.exposeString('assetCode', { nullable: true }),
    assetIssuer: t.exposeString('assetIssuer', { nullable: true }),
  }),
});

export interface PriceShape {
  n: number;
  d: number;
}

export const PriceRef = builder.objectRef<PriceShape>('Price').implement({
  description: 'A price as a fraction n/d.',
  fields: (t) => ({
    n: t.exposeInt('n', { description: 'numerator' }),
    d: t.exposeInt('d', { description: 'denominator' }),
  }),
});
