import { Asset, StrKey, xdr } from '@stellar/stellar-sdk/base';
import { describe, expect, it } from 'vitest';
import {
  InvalidValueError,
  NATIVE_ASSET,
  type AssetValue,
  allowTrustAsset,
  assetCodeBytes,
  assetFromXdr,
  assetRecord,
  assetToXdr,
  assetsEqual,
  compareAssets,
  creditAsset,
  formatAssetStatPagingToken,
  formatCanonicalAsset,
  fromStellarAsset,
  isAssetCodeValid,
  isAssetValid,
  parseAssetCodeFilter,
  storedAsset,
  parseAssetIssuerFilter,
  parseAssetQuery,
  parseAssetStatPagingToken,
  parseAssetType,
  parseCanonicalAsset,
  parseAssetArg,
  toStellarAsset,
} from '../../src/stellar/index.js';

const ISSUER = 'GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H';
const OTHER = 'GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ';
const MUXED = 'MA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJUAAAAAAAAAAAACJUQ';

function catchInvalid(fn: () => unknown): InvalidValueError {
  try {
    fn();
  } catch (error) {
    if (error instanceof InvalidValueError) return error;
    throw error;
  }
  throw new Error('expected an InvalidValueError');
}

describe('creditAsset', () => {
  it('picks the type from the code length', () => {
    expect(creditAsset('X', ISSUER)).toEqual({ type: 'credit_alphanum4', code: 'X', issuer: ISSUER });
    expect(creditAsset('USDC', ISSUER).type).toBe('credit_alphanum4');
    expect(creditAsset('USDCX', ISSUER).type).toBe('credit_alphanum12');
    expect(creditAsset('ABCDEFGHIJKL', ISSUER).type).toBe('credit_alphanum12');
  });

  it.each(['', 'ABCDEFGHIJKLM', 'US$', 'US D', 'ÜSD', 'USD\0'])('rejects code %j', (code) => {
    expect(catchInvalid(() => creditAsset(code, ISSUER)).field).toBe('asset_code');
  });

  it.each(['', 'GABC', MUXED, ISSUER.toLowerCase()])('rejects issuer %j', (issuer) => {
    expect(catchInvalid(() => creditAsset('USD', issuer)).field).toBe('asset_issuer');
  });
});

describe('canonical strings', () => {
  it('parses native (any case) and CODE:ISSUER', () => {
    expect(parseCanonicalAsset('native')).toEqual(NATIVE_ASSET);
    expect(parseCanonicalAsset('NATIVE')).toEqual(NATIVE_ASSET);
    expect(parseCanonicalAsset(`USD:${ISSUER}`)).toEqual({ type: 'credit_alphanum4', code: 'USD', issuer: ISSUER });
    expect(parseCanonicalAsset(`EURTOKEN:${ISSUER}`)).toEqual({
      type: 'credit_alphanum12',
      code: 'EURTOKEN',
      issuer: ISSUER,
    });
  });

  it.each(['', 'XLM', 'USD', `USD:`, `:${ISSUER}`, `USD:${ISSUER}:x`, `USD:${MUXED}`, `ABCDEFGHIJKLM:${ISSUER}`, ` native`])(
    'rejects %j',
    (text) => {
      expect(() => parseCanonicalAsset(text)).toThrow(InvalidValueError);
    },
  );

  it('formats and round-trips', () => {
    expect(formatCanonicalAsset(NATIVE_ASSET)).toBe('native');
    const usd = creditAsset('USD', ISSUER);
    expect(formatCanonicalAsset(usd)).toBe(`USD:${ISSUER}`);
    expect(parseCanonicalAsset(formatCanonicalAsset(usd))).toEqual(usd);
    // same text as the SDK's Asset
    expect(formatCanonicalAsset(usd)).toBe(new Asset('USD', ISSUER).toString());
  });
  it('reads a stored canonical asset as the parser does, without checking it again', () => {
    for (const asset of [NATIVE_ASSET, creditAsset('USD', ISSUER), creditAsset('EURTOKEN', ISSUER), creditAsset('ABCD', ISSUER)]) {
      expect(storedAsset(formatCanonicalAsset(asset))).toEqual(asset);
    }
  });
});

describe('parseAssetType', () => {
  it('accepts the three asset types only', () => {
    expect(parseAssetType('native')).toBe('native');
    expect(parseAssetType('credit_alphanum4')).toBe('credit_alphanum4');
    expect(parseAssetType('credit_alphanum12')).toBe('credit_alphanum12');
    for (const text of ['', 'Native', 'liquidity_pool_shares', 'credit_alphanum']) {
      expect(catchInvalid(() => parseAssetType(text)).field).toBe('asset_type');
    }
  });
});

describe('parseAssetQuery', () => {
  it('returns null when nothing is given', () => {
    expect(parseAssetQuery({})).toBeNull();
    expect(parseAssetQuery({ assetType: '', assetCode: '', assetIssuer: '' })).toBeNull();
  });

  it('parses native and credit triples', () => {
    expect(parseAssetQuery({ assetType: 'native' })).toEqual(NATIVE_ASSET);
    expect(parseAssetQuery({ assetType: 'native', assetCode: '', assetIssuer: '' })).toEqual(NATIVE_ASSET);
    expect(parseAssetQuery({ assetType: 'credit_alphanum4', assetCode: 'USD', assetIssuer: ISSUER })).toEqual(creditAsset('USD', ISSUER));
    expect(parseAssetQuery({ assetType: 'credit_alphanum12', assetCode: 'ABCDE', assetIssuer: ISSUER })).toEqual(
      creditAsset('ABCDE', ISSUER),
    );
  });

  it.each([
    [{ assetCode: 'USD' }, 'asset_type'],
    [{ assetIssuer: ISSUER }, 'asset_type'],
    [{ assetType: 'bogus' }, 'asset_type'],
    [{ assetType: 'native', assetCode: 'XLM' }, 'asset_code'],
    [{ assetType: 'native', assetIssuer: ISSUER }, 'asset_issuer'],
    [{ assetType: 'credit_alphanum4', assetIssuer: ISSUER }, 'asset_code'],
    [{ assetType: 'credit_alphanum4', assetCode: 'USDCX', assetIssuer: ISSUER }, 'asset_code'],
    [{ assetType: 'credit_alphanum12', assetCode: 'USD', assetIssuer: ISSUER }, 'asset_code'],
    [{ assetType: 'credit_alphanum12', assetCode: 'ABCDEFGHIJKLM', assetIssuer: ISSUER }, 'asset_code'],
    [{ assetType: 'credit_alphanum4', assetCode: 'U$D', assetIssuer: ISSUER }, 'asset_code'],
    [{ assetType: 'credit_alphanum4', assetCode: 'USD' }, 'asset_issuer'],
    [{ assetType: 'credit_alphanum4', assetCode: 'USD', assetIssuer: 'GXYZ' }, 'asset_issuer'],
    [{ assetType: 'credit_alphanum4', assetCode: 'USD', assetIssuer: MUXED }, 'asset_issuer'],
  ])('rejects %j, blaming %s', (query, field) => {
    expect(catchInvalid(() => parseAssetQuery(query)).field).toBe(field);
  });
});

describe('SDK Asset conversions', () => {
  const cases: AssetValue[] = [NATIVE_ASSET, creditAsset('USD', ISSUER), creditAsset('ABCDEFGHIJKL', OTHER)];

  it.each(cases)('round-trips %j through Asset and xdr.Asset', (asset) => {
    const sdk = toStellarAsset(asset);
    expect(sdk.getAssetType()).toBe(asset.type);
    expect(fromStellarAsset(sdk)).toEqual(asset);
    const raw = assetToXdr(asset);
    expect(raw.type).toBe(
      { native: 'assetTypeNative', credit_alphanum4: 'assetTypeCreditAlphanum4', credit_alphanum12: 'assetTypeCreditAlphanum12' }[
        asset.type
      ],
    );
    expect(assetFromXdr(xdr.Asset.fromXdr(raw.toXdr()))).toEqual(asset);
  });

  it('reads zero-padded codes from XDR', () => {
    const raw = xdr.Asset.assetTypeCreditAlphanum4(
      new xdr.AlphaNum4({
        assetCode: Buffer.from([0x55, 0x53, 0, 0]),
        issuer: xdr.PublicKey.publicKeyTypeEd25519(StrKey.decodeEd25519PublicKey(ISSUER)),
      }),
    );
    expect(assetFromXdr(raw)).toEqual({ type: 'credit_alphanum4', code: 'US', issuer: ISSUER });
  });

  function alphaNum12(code: number[]): xdr.Asset {
    const bytes = Buffer.alloc(12);
    Buffer.from(code).copy(bytes);
    return xdr.Asset.assetTypeCreditAlphanum12(
      new xdr.AlphaNum12({
        assetCode: bytes,
        issuer: xdr.PublicKey.publicKeyTypeEd25519(StrKey.decodeEd25519PublicKey(ISSUER)),
      }),
    );
  }

  it('rejects XDR assets stellar-core considers invalid', () => {
    // alphanum12 with a 3-character code: the SDK's Asset would silently call it alphanum4
    expect(() => assetFromXdr(alphaNum12([0x41, 0x42, 0x43]))).toThrow(InvalidValueError);
    // bytes after the zero padding
    expect(() => assetFromXdr(alphaNum12([0x41, 0x42, 0x43, 0x44, 0x45, 0, 0x46]))).toThrow(InvalidValueError);
    // non-alphanumeric byte
    expect(() => assetFromXdr(alphaNum12([0x41, 0x42, 0x43, 0x44, 0x2d]))).toThrow(InvalidValueError);
    // empty code
    expect(() => assetFromXdr(alphaNum12([]))).toThrow(InvalidValueError);
    expect(assetFromXdr(alphaNum12([0x41, 0x42, 0x43, 0x44, 0x45]))).toEqual(creditAsset('ABCDE', ISSUER));
  });
});

describe('assetsEqual', () => {
  it('compares by value', () => {
    expect(assetsEqual(NATIVE_ASSET, { type: 'native' })).toBe(true);
    expect(assetsEqual(creditAsset('USD', ISSUER), creditAsset('USD', ISSUER))).toBe(true);
    expect(assetsEqual(creditAsset('USD', ISSUER), creditAsset('USD', OTHER))).toBe(false);
    expect(assetsEqual(creditAsset('USD', ISSUER), creditAsset('EUR', ISSUER))).toBe(false);
    expect(assetsEqual(NATIVE_ASSET, creditAsset('XLM', ISSUER))).toBe(false);
  });
});

describe('compareAssets (stellar-core XDR order)', () => {
  const keyA = StrKey.encodeEd25519PublicKey(Buffer.alloc(32, 0x00)); // GAAA...
  const keyB = StrKey.encodeEd25519PublicKey(Buffer.alloc(32, 0x34)); // GA2...: bytes larger, text smaller

  it('orders by type first', () => {
    expect(compareAssets(NATIVE_ASSET, creditAsset('A', keyA))).toBe(-1);
    expect(compareAssets(creditAsset('ZZZZ', keyB), creditAsset('AAAAA', keyA))).toBe(-1);
    expect(compareAssets(creditAsset('AAAAA', keyA), creditAsset('ZZZZ', keyB))).toBe(1);
  });

  it('then by code bytes (a prefix sorts first, upper case before lower case)', () => {
    expect(compareAssets(creditAsset('AB', keyB), creditAsset('ABC', keyA))).toBe(-1);
    expect(compareAssets(creditAsset('USD', keyA), creditAsset('usd', keyA))).toBe(-1);
    expect(compareAssets(creditAsset('B', keyA), creditAsset('A', keyB))).toBe(1);
  });

  it('then by issuer key bytes, not strkey text (where it differs from Asset.compare)', () => {
    expect(keyB < keyA).toBe(true); // as text
    expect(compareAssets(creditAsset('USD', keyA), creditAsset('USD', keyB))).toBe(-1);
    expect(Asset.compare(new Asset('USD', keyA), new Asset('USD', keyB))).toBe(1);
  });

  it('is 0 for equal assets and antisymmetric', () => {
    const list = [NATIVE_ASSET, creditAsset('USD', keyA), creditAsset('USD', keyB), creditAsset('EURO1', keyA)];
    expect(compareAssets(NATIVE_ASSET, NATIVE_ASSET)).toBe(0);
    expect(compareAssets(creditAsset('USD', ISSUER), creditAsset('USD', ISSUER))).toBe(0);
    for (const a of list) for (const b of list) expect(compareAssets(a, b)).toBe(-compareAssets(b, a) || 0);
    expect([...list].reverse().sort(compareAssets)).toEqual(list);
  });
});

describe('stellar-core asset validity', () => {
  const code = (bytes: number[], size: number) => {
    const out = Buffer.alloc(size);
    Buffer.from(bytes).copy(out);
    return out;
  };

  it('accepts letters and digits followed by zero padding, at least 1 (alphanum4) or 5 (alphanum12)', () => {
    expect(isAssetCodeValid(code([0x55, 0x53, 0x44], 4))).toBe(true);
    expect(isAssetCodeValid(code([0x41, 0x42, 0x43, 0x44], 4))).toBe(true);
    expect(isAssetCodeValid(code([], 4))).toBe(false);
    expect(isAssetCodeValid(code([0x41, 0, 0x42], 4))).toBe(false);
    expect(isAssetCodeValid(code([0x41, 0x2d], 4))).toBe(false);
    expect(isAssetCodeValid(code([0x41, 0x42, 0x43, 0x44], 12))).toBe(false);
    expect(isAssetCodeValid(code([0x41, 0x42, 0x43, 0x44, 0x35], 12))).toBe(true);
  });

  it('judges every XDR asset union the same way, and no pool share is an asset', () => {
    const usd = toStellarAsset(creditAsset('USD', ISSUER));
    // as decoded from XDR, and as built by the SDK's Asset
    const changeTrust = xdr.ChangeTrustAsset.fromXdr(usd.toChangeTrustXdrObject().toXdr());
    const trustLine = xdr.TrustLineAsset.fromXdr(usd.toTrustLineXdrObject().toXdr());
    expect(isAssetValid(assetToXdr(NATIVE_ASSET))).toBe(true);
    expect(isAssetValid(xdr.Asset.fromXdr(usd.toXdrObject().toXdr()))).toBe(true);
    expect(isAssetValid(changeTrust)).toBe(true);
    expect(isAssetValid(trustLine)).toBe(true);
    const poolShare = xdr.TrustLineAsset.fromXdr(Buffer.concat([Buffer.from([0, 0, 0, 3]), Buffer.alloc(32)]));
    expect(poolShare.type).toBe('assetTypePoolShare');
    expect(isAssetValid(poolShare)).toBe(false);
    expect(assetFromXdr(trustLine)).toEqual(creditAsset('USD', ISSUER));
    expect(assetFromXdr(usd.toTrustLineXdrObject())).toEqual(creditAsset('USD', ISSUER));
  });

  it('encodes as the SDK does', () => {
    for (const asset of [
      NATIVE_ASSET,
      creditAsset('A', ISSUER),
      creditAsset('ABCD', ISSUER),
      creditAsset('ABCDE', OTHER),
      creditAsset('ABCDEFGHIJKL', OTHER),
    ]) {
      expect(Buffer.from(assetToXdr(asset).toXdr()).equals(toStellarAsset(asset).toXdrObject().toXdr())).toBe(true);
    }
    expect(assetCodeBytes(creditAsset('USD', ISSUER))).toEqual(Buffer.from([0x55, 0x53, 0x44, 0]));
    expect(assetCodeBytes(creditAsset('ABCDE', ISSUER))).toEqual(Buffer.from([0x41, 0x42, 0x43, 0x44, 0x45, 0, 0, 0, 0, 0, 0, 0]));
  });

  it('reads the asset of an allow trust operation, issued by its source', () => {
    const op = (asset: xdr.AssetCode) =>
      new xdr.AllowTrustOp({ trustor: xdr.PublicKey.publicKeyTypeEd25519(StrKey.decodeEd25519PublicKey(OTHER)), asset, authorize: 1 });
    expect(allowTrustAsset(op(xdr.AssetCode.assetTypeCreditAlphanum4(Buffer.from('EUR\0'))), ISSUER)).toEqual(creditAsset('EUR', ISSUER));
    expect(allowTrustAsset(op(xdr.AssetCode.assetTypeCreditAlphanum12(Buffer.from('LONGER\0\0\0\0\0\0'))), ISSUER)).toEqual(
      creditAsset('LONGER', ISSUER),
    );
  });
});

describe('Horizon asset parameters and records', () => {
  it('reads an asset argument and names the prefixed field at fault', () => {
    expect(parseAssetArg({ assetType: 'native' }, 'selling')).toEqual(NATIVE_ASSET);
    expect(parseAssetArg({ assetType: 'credit_alphanum4', assetCode: 'USD', assetIssuer: ISSUER }, 'buying')).toEqual(
      creditAsset('USD', ISSUER),
    );
    expect(catchInvalid(() => parseAssetArg({}, 'selling')).field).toBe('selling_asset_type');
    expect(catchInvalid(() => parseAssetArg({ assetType: null, assetCode: 'USD' }, 'selling')).field).toBe('selling_asset_type');
    expect(catchInvalid(() => parseAssetArg({ assetType: 'credit_alphanum4', assetCode: 'USD' }, 'buying')).field).toBe(
      'buying_asset_issuer',
    );
  });

  it('renders an asset as Horizon records show it', () => {
    expect(assetRecord(NATIVE_ASSET)).toEqual({ assetType: 'native' });
    expect(assetRecord(creditAsset('USD', ISSUER))).toEqual({ assetType: 'credit_alphanum4', assetCode: 'USD', assetIssuer: ISSUER });
  });
});

// Horizon's /assets (actions/asset.go validateAssetParams, ExpAssetStat.PagingToken)
describe('asset stats filters and paging tokens', () => {
  it('round-trips a paging token, whatever the type it names', () => {
    const token = formatAssetStatPagingToken('credit_alphanum4', 'USD', ISSUER);
    expect(token).toBe(`USD_${ISSUER}_credit_alphanum4`);
    expect(parseAssetStatPagingToken(token)).toEqual({ code: 'USD', issuer: ISSUER });
    expect(parseAssetStatPagingToken(`ETHER_${ISSUER}_native`)).toEqual({ code: 'ETHER', issuer: ISSUER });
  });

  it("rejects with Horizon's reasons", () => {
    expect(() => parseAssetStatPagingToken('USD')).toThrow('the cursor is not a valid paging_token');
    expect(() => parseAssetStatPagingToken(`ABC_${ISSUER}_credit_alphanum4_`)).toThrow('credit_alphanum4_ is not a valid asset type');
    expect(() => parseAssetStatPagingToken(`tooooooooolong_${ISSUER}_credit_alphanum12`)).toThrow('not a valid asset code');
    expect(() => parseAssetStatPagingToken('ABC_invalidissuer_credit_alphanum4')).toThrow('not a valid asset issuer');
    expect(() => parseAssetStatPagingToken(`ABC_${ISSUER}_liquidity_pool_shares`)).toThrow('not a valid asset type');
  });

  it('takes any 1-12 letters and digits as a code filter, and an account id as an issuer', () => {
    expect(parseAssetCodeFilter('ABCDEFGHIJKL')).toBe('ABCDEFGHIJKL');
    expect(parseAssetCodeFilter('x1')).toBe('x1');
    expect(catchInvalid(() => parseAssetCodeFilter('tooooooooolong')).field).toBe('asset_code');
    expect(catchInvalid(() => parseAssetCodeFilter('US-D')).message).toBe('US-D is not a valid asset code');
    expect(parseAssetIssuerFilter(OTHER)).toBe(OTHER);
    expect(catchInvalid(() => parseAssetIssuerFilter(MUXED)).field).toBe('asset_issuer');
  });
});
