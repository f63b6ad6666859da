// How values read on the page: amounts without their trailing zeros, assets by code, times in the
// reader's locale.

export interface AssetFields {
  assetType?: string | null;
  assetCode?: string | null;
  assetIssuer?: string | null;
  liquidityPoolId?: string | null;
}

/** "10.5000000" → "10.5" */
export function amount(value: string | null | undefined): string {
  if (value == null) return '';
  return value.includes('.') ? value.replace(/0+$/, '').replace(/\.$/, '') : value;
}

/** XLM, a code, or the shares of a pool */
export function assetName(asset: AssetFields): string {
  if (asset.assetType === 'native') return 'XLM';
  if (asset.assetType === 'liquidity_pool_shares') return `pool shares ${short(asset.liquidityPoolId ?? '')}`;
  return asset.assetCode ?? asset.assetType ?? '';
}

/** Horizon's canonical form: native or CODE:ISSUER */
export function canonicalAsset(asset: AssetFields): string {
  return asset.assetType === 'native' ? 'native' : `${asset.assetCode}:${asset.assetIssuer}`;
}

/** a long key shown by its ends: GABC…WXYZ */
export function short(key: string): string {
  return key.length > 16 ? `${key.slice(0, 6)}…${key.slice(-6)}` : key;
}

/** one formatter for every time shown (toLocaleString would make one per call, which is slow) */
let dates: Intl.DateTimeFormat | null = null;

export function time(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  dates ??= new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
  return Number.isNaN(date.getTime()) ? iso : dates.format(date);
}
