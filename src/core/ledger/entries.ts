// Plain-object ledger entries (fast to clone and compare) and their conversion to and from XDR.
// Assets and account ids are the protocol's own (src/stellar/).
import { xdr } from '@stellar/stellar-sdk/base';
import {
  accountIdFromXdr,
  accountIdKey,
  accountIdToXdr,
  assetCodeBytes,
  assetFromXdr,
  assetToXdr,
  type AssetValue,
  type CreditAsset,
} from '../../stellar/index.js';

export interface SignerRec {
  /** hex of the XDR SignerKey; hex order equals stellar-core's signer order for fixed-size keys */
  key: string;
  weight: number;
}

export interface AccountRec {
  type: 'account';
  accountId: string;
  balance: bigint;
  seqNum: bigint;
  numSubEntries: number;
  inflationDest: string | null;
  flags: number;
  homeDomain: string;
  /** master weight, low, medium, high */
  thresholds: [number, number, number, number];
  signers: SignerRec[];
  /** highest AccountEntry extension present (0–3); stellar-core only adds extensions, never drops them */
  extLevel: number;
  buyingLiabilities: bigint;
  sellingLiabilities: bigint;
  numSponsored: number;
  numSponsoring: number;
  seqLedger: number;
  seqTime: bigint;
  lastModified: number;
}

export interface TrustLineRec {
  type: 'trustline';
  accountId: string;
  asset: CreditAsset;
  balance: bigint;
  limit: bigint;
  flags: number;
  extLevel: number;
  buyingLiabilities: bigint;
  sellingLiabilities: bigint;
  lastModified: number;
}

export interface DataRec {
  type: 'data';
  accountId: string;
  name: string;
  /** base64 of the value bytes */
  value: string;
  lastModified: number;
}

export interface OfferRec {
  type: 'offer';
  sellerId: string;
  offerId: bigint;
  selling: AssetValue;
  buying: AssetValue;
  amount: bigint;
  priceN: number;
  priceD: number;
  flags: number;
  lastModified: number;
}

export type EntryRec = AccountRec | TrustLineRec | DataRec | OfferRec;

// ---- keys --------------------------------------------------------------------------------------

export function accountKey(accountId: string): string {
  return `A${accountId}`;
}
export function trustLineKey(accountId: string, asset: CreditAsset): string {
  return `T${accountId}/${asset.code}/${asset.issuer}`;
}
export function dataKey(accountId: string, name: string): string {
  return `D${accountId}/${name}`;
}
export function offerKey(sellerId: string, offerId: bigint): string {
  return `O${sellerId}/${offerId}`;
}

export function entryKey(e: EntryRec): string {
  switch (e.type) {
    case 'account':
      return accountKey(e.accountId);
    case 'trustline':
      return trustLineKey(e.accountId, e.asset);
    case 'data':
      return dataKey(e.accountId, e.name);
    case 'offer':
      return offerKey(e.sellerId, e.offerId);
  }
}

export function cloneEntry<T extends EntryRec>(e: T): T {
  if (e.type === 'account') {
    return {
      ...e,
      thresholds: [...e.thresholds],
      signers: e.signers.map((s) => ({ ...s })),
    } as T;
  }
  return { ...e };
}

export function newAccount(accountId: string, balance: bigint, seqNum: bigint, ledgerSeq: number): AccountRec {
  return {
    type: 'account',
    accountId,
    balance,
    seqNum,
    numSubEntries: 0,
    inflationDest: null,
    flags: 0,
    homeDomain: '',
    thresholds: [1, 0, 0, 0],
    signers: [],
    extLevel: 0,
    buyingLiabilities: 0n,
    sellingLiabilities: 0n,
    numSponsored: 0,
    numSponsoring: 0,
    seqLedger: 0,
    seqTime: 0n,
    lastModified: ledgerSeq,
  };
}

// ---- XDR helpers -------------------------------------------------------------------------------

function trustLineAssetToXdr(a: CreditAsset): xdr.TrustLineAsset {
  const parts = { assetCode: assetCodeBytes(a), issuer: accountIdToXdr(a.issuer) };
  return a.code.length <= 4
    ? xdr.TrustLineAsset.assetTypeCreditAlphanum4(new xdr.AlphaNum4(parts))
    : xdr.TrustLineAsset.assetTypeCreditAlphanum12(new xdr.AlphaNum12(parts));
}

/** A trust line's asset: always a credit asset (pool shares do not exist on this network). */
function trustLineAssetFromXdr(a: xdr.TrustLineAsset): CreditAsset {
  const asset = assetFromXdr(a);
  if (asset.type === 'native') throw new Error('a trust line to the native asset');
  return asset;
}

export function signerKeyFromHex(hex: string): xdr.SignerKey {
  return xdr.SignerKey.fromXDR(Buffer.from(hex, 'hex'));
}

export function signerKeyToHex(k: xdr.SignerKey): string {
  return k.toXDR('hex');
}

const signerHexCache = new Map<string, string>();

/** hex SignerKey of an account's own ed25519 key. */
export function ed25519SignerHex(accountId: string): string {
  let hex = signerHexCache.get(accountId);
  if (!hex) {
    hex = `00000000${accountIdKey(accountId).toString('hex')}`;
    if (signerHexCache.size > 100_000) signerHexCache.clear();
    signerHexCache.set(accountId, hex);
  }
  return hex;
}

function int64(v: bigint): xdr.Int64 {
  return new xdr.Int64(v);
}

function accountToXdr(a: AccountRec): xdr.AccountEntry {
  let ext: xdr.AccountEntryExt;
  if (a.extLevel >= 1) {
    let ext1: xdr.AccountEntryExtensionV1Ext;
    if (a.extLevel >= 2) {
      const ext2ext =
        a.extLevel >= 3
          ? new xdr.AccountEntryExtensionV2Ext(
              3,
              new xdr.AccountEntryExtensionV3({
                ext: new xdr.ExtensionPoint(0),
                seqLedger: a.seqLedger,
                seqTime: new xdr.Uint64(a.seqTime),
              }),
            )
          : new xdr.AccountEntryExtensionV2Ext(0);
      ext1 = new xdr.AccountEntryExtensionV1Ext(
        2,
        new xdr.AccountEntryExtensionV2({
          numSponsored: a.numSponsored,
          numSponsoring: a.numSponsoring,
          signerSponsoringIDs: a.signers.map(() => null) as unknown as xdr.SponsorshipDescriptor[],
          ext: ext2ext,
        }),
      );
    } else {
      ext1 = new xdr.AccountEntryExtensionV1Ext(0);
    }
    ext = new xdr.AccountEntryExt(
      1,
      new xdr.AccountEntryExtensionV1({
        liabilities: new xdr.Liabilities({
          buying: int64(a.buyingLiabilities),
          selling: int64(a.sellingLiabilities),
        }),
        ext: ext1,
      }),
    );
  } else {
    ext = new xdr.AccountEntryExt(0);
  }
  return new xdr.AccountEntry({
    accountId: accountIdToXdr(a.accountId),
    balance: int64(a.balance),
    seqNum: int64(a.seqNum),
    numSubEntries: a.numSubEntries,
    inflationDest: a.inflationDest ? accountIdToXdr(a.inflationDest) : null,
    flags: a.flags,
    homeDomain: Buffer.from(a.homeDomain, 'latin1'),
    thresholds: Buffer.from(a.thresholds),
    signers: a.signers.map((s) => new xdr.Signer({ key: signerKeyFromHex(s.key), weight: s.weight })),
    ext,
  });
}

function trustLineToXdr(t: TrustLineRec): xdr.TrustLineEntry {
  const ext =
    t.extLevel >= 1
      ? new xdr.TrustLineEntryExt(
          1,
          new xdr.TrustLineEntryV1({
            liabilities: new xdr.Liabilities({
              buying: int64(t.buyingLiabilities),
              selling: int64(t.sellingLiabilities),
            }),
            ext: new xdr.TrustLineEntryV1Ext(0),
          }),
        )
      : new xdr.TrustLineEntryExt(0);
  return new xdr.TrustLineEntry({
    accountId: accountIdToXdr(t.accountId),
    asset: trustLineAssetToXdr(t.asset),
    balance: int64(t.balance),
    limit: int64(t.limit),
    flags: t.flags,
    ext,
  });
}

function dataToXdr(d: DataRec): xdr.DataEntry {
  return new xdr.DataEntry({
    accountId: accountIdToXdr(d.accountId),
    dataName: Buffer.from(d.name, 'latin1'),
    dataValue: Buffer.from(d.value, 'base64'),
    ext: new xdr.DataEntryExt(0),
  });
}

function offerToXdr(o: OfferRec): xdr.OfferEntry {
  return new xdr.OfferEntry({
    sellerId: accountIdToXdr(o.sellerId),
    offerId: int64(o.offerId),
    selling: assetToXdr(o.selling),
    buying: assetToXdr(o.buying),
    amount: int64(o.amount),
    price: new xdr.Price({ n: o.priceN, d: o.priceD }),
    flags: o.flags,
    ext: new xdr.OfferEntryExt(0),
  });
}

export function entryToXdr(e: EntryRec): xdr.LedgerEntry {
  let data: xdr.LedgerEntryData;
  switch (e.type) {
    case 'account':
      data = xdr.LedgerEntryData.account(accountToXdr(e));
      break;
    case 'trustline':
      data = xdr.LedgerEntryData.trustline(trustLineToXdr(e));
      break;
    case 'data':
      data = xdr.LedgerEntryData.data(dataToXdr(e));
      break;
    case 'offer':
      data = xdr.LedgerEntryData.offer(offerToXdr(e));
      break;
  }
  return new xdr.LedgerEntry({ lastModifiedLedgerSeq: e.lastModified, data, ext: new xdr.LedgerEntryExt(0) });
}

export function entryToLedgerKey(e: EntryRec): xdr.LedgerKey {
  switch (e.type) {
    case 'account':
      return xdr.LedgerKey.account(new xdr.LedgerKeyAccount({ accountId: accountIdToXdr(e.accountId) }));
    case 'trustline':
      return xdr.LedgerKey.trustline(
        new xdr.LedgerKeyTrustLine({ accountId: accountIdToXdr(e.accountId), asset: trustLineAssetToXdr(e.asset) }),
      );
    case 'data':
      return xdr.LedgerKey.data(new xdr.LedgerKeyData({ accountId: accountIdToXdr(e.accountId), dataName: Buffer.from(e.name, 'latin1') }));
    case 'offer':
      return xdr.LedgerKey.offer(new xdr.LedgerKeyOffer({ sellerId: accountIdToXdr(e.sellerId), offerId: int64(e.offerId) }));
  }
}

/** Our map key for an XDR LedgerKey (used when replaying removals from meta). */
export function keyFromLedgerKey(k: xdr.LedgerKey): string {
  switch (k.switch().value) {
    case xdr.LedgerEntryType.account().value:
      return accountKey(accountIdFromXdr(k.account().accountId()));
    case xdr.LedgerEntryType.trustline().value: {
      const t = k.trustLine();
      return trustLineKey(accountIdFromXdr(t.accountId()), trustLineAssetFromXdr(t.asset()));
    }
    case xdr.LedgerEntryType.data().value: {
      const d = k.data();
      return dataKey(accountIdFromXdr(d.accountId()), d.dataName().toString('latin1'));
    }
    case xdr.LedgerEntryType.offer().value: {
      const o = k.offer();
      return offerKey(accountIdFromXdr(o.sellerId()), o.offerId().toBigInt());
    }
    default:
      throw new Error(`unsupported ledger key type ${k.switch().name}`);
  }
}

export function entryFromXdr(le: xdr.LedgerEntry): EntryRec {
  const d = le.data();
  const lastModified = le.lastModifiedLedgerSeq();
  switch (d.switch().value) {
    case xdr.LedgerEntryType.account().value: {
      const a = d.account();
      const th = a.thresholds();
      // the extensions' fields keep newAccount's defaults unless the entry has them
      const rec: AccountRec = {
        ...newAccount(accountIdFromXdr(a.accountId()), a.balance().toBigInt(), a.seqNum().toBigInt(), lastModified),
        numSubEntries: a.numSubEntries(),
        inflationDest: a.inflationDest() ? accountIdFromXdr(a.inflationDest() as xdr.AccountId) : null,
        flags: a.flags(),
        homeDomain: Buffer.from(a.homeDomain()).toString('latin1'),
        thresholds: [th[0] ?? 0, th[1] ?? 0, th[2] ?? 0, th[3] ?? 0],
        signers: a.signers().map((s) => ({ key: signerKeyToHex(s.key()), weight: s.weight() })),
      };
      const ext = a.ext();
      if (ext.switch() === 1) {
        rec.extLevel = 1;
        const v1 = ext.v1();
        rec.buyingLiabilities = v1.liabilities().buying().toBigInt();
        rec.sellingLiabilities = v1.liabilities().selling().toBigInt();
        if (v1.ext().switch() === 2) {
          rec.extLevel = 2;
          const v2 = v1.ext().v2();
          rec.numSponsored = v2.numSponsored();
          rec.numSponsoring = v2.numSponsoring();
          if (v2.ext().switch() === 3) {
            rec.extLevel = 3;
            rec.seqLedger = v2.ext().v3().seqLedger();
            rec.seqTime = v2.ext().v3().seqTime().toBigInt();
          }
        }
      }
      return rec;
    }
    case xdr.LedgerEntryType.trustline().value: {
      const t = d.trustLine();
      const rec: TrustLineRec = {
        type: 'trustline',
        accountId: accountIdFromXdr(t.accountId()),
        asset: trustLineAssetFromXdr(t.asset()),
        balance: t.balance().toBigInt(),
        limit: t.limit().toBigInt(),
        flags: t.flags(),
        extLevel: 0,
        buyingLiabilities: 0n,
        sellingLiabilities: 0n,
        lastModified,
      };
      if (t.ext().switch() === 1) {
        rec.extLevel = 1;
        rec.buyingLiabilities = t.ext().v1().liabilities().buying().toBigInt();
        rec.sellingLiabilities = t.ext().v1().liabilities().selling().toBigInt();
      }
      return rec;
    }
    case xdr.LedgerEntryType.data().value: {
      const x = d.data();
      return {
        type: 'data',
        accountId: accountIdFromXdr(x.accountId()),
        name: Buffer.from(x.dataName()).toString('latin1'),
        value: Buffer.from(x.dataValue()).toString('base64'),
        lastModified,
      };
    }
    case xdr.LedgerEntryType.offer().value: {
      const o = d.offer();
      return {
        type: 'offer',
        sellerId: accountIdFromXdr(o.sellerId()),
        offerId: o.offerId().toBigInt(),
        selling: assetFromXdr(o.selling()),
        buying: assetFromXdr(o.buying()),
        amount: o.amount().toBigInt(),
        priceN: o.price().n(),
        priceD: o.price().d(),
        flags: o.flags(),
        lastModified,
      };
    }
    default:
      throw new Error(`unsupported ledger entry type ${d.switch().name}`);
  }
}
