// Plain-object ledger entries (fast to clone and compare) and their conversion to and from XDR.
// Assets and account ids are the protocol's own (src/stellar/).
import { xdr } from '@stellar/stellar-sdk/base';
import { boundedMemo } from '../../support/bounded_memo.js';
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
import { asBuffer } from '../../stellar/bytes.js';

/** A key and its weight, as signature checks see signers. */
export interface SignerWeight {
  /** hex of the XDR SignerKey; hex order equals stellar-core's signer order for fixed-size keys */
  key: string;
  weight: number;
}

export interface SignerRec extends SignerWeight {
  /** AccountEntryExtensionV2.signerSponsoringIDs at this signer's index */
  sponsor: string | null;
}

/**
 * LedgerEntry.ext.v1.sponsoringID: absent = ext v0; null = ext v1 without a sponsor (stellar-core
 * never drops the extension once an entry had one).
 */
interface Sponsorable {
  sponsor?: string | null;
}

/** A trust line in a liquidity pool's shares (LiquidityPoolEntry id as 64 hex). */
export interface PoolShareAsset {
  type: 'pool_share';
  poolId: string;
}

export type TrustLineAsset = CreditAsset | PoolShareAsset;

export interface AccountRec extends Sponsorable {
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

export interface TrustLineRec extends Sponsorable {
  type: 'trustline';
  accountId: string;
  asset: TrustLineAsset;
  balance: bigint;
  limit: bigint;
  flags: number;
  /** 1: liabilities (TrustLineEntry.ext.v1); 2: also liquidityPoolUseCount (TrustLineEntryExtensionV2) */
  extLevel: number;
  buyingLiabilities: bigint;
  sellingLiabilities: bigint;
  /** pool-share lines using this (credit) line */
  liquidityPoolUseCount: number;
  lastModified: number;
}

export interface DataRec extends Sponsorable {
  type: 'data';
  accountId: string;
  name: string;
  /** base64 of the value bytes */
  value: string;
  lastModified: number;
}

export interface OfferRec extends Sponsorable {
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

export interface ClaimantRec {
  destination: string;
  /** absolute predicates only: relative ones are made absolute at creation */
  predicate: xdr.ClaimPredicate;
}

export interface ClaimableBalanceRec extends Sponsorable {
  type: 'claimableBalance';
  /** hex of the ClaimableBalanceID's v0 hash */
  balanceId: string;
  claimants: ClaimantRec[];
  asset: AssetValue;
  amount: bigint;
  /** ClaimableBalanceEntryExtensionV1.flags; extLevel 1 when the extension is present */
  flags: number;
  extLevel: number;
  lastModified: number;
}

export interface LiquidityPoolRec extends Sponsorable {
  type: 'liquidityPool';
  /** hex of the PoolID */
  poolId: string;
  assetA: AssetValue;
  assetB: AssetValue;
  /** basis points */
  fee: number;
  reserveA: bigint;
  reserveB: bigint;
  totalPoolShares: bigint;
  poolSharesTrustLineCount: bigint;
  lastModified: number;
}

export type EntryRec = AccountRec | TrustLineRec | DataRec | OfferRec | ClaimableBalanceRec | LiquidityPoolRec;

// ---- keys --------------------------------------------------------------------------------------

/**
 * Cached: the same key string each time, whose hash the state's maps compute once (a new
 * concatenation is hashed again at every lookup, and accounts are looked up many times per transaction).
 */
export const accountKey: (accountId: string) => string = boundedMemo(100_000, (accountId) => `A${accountId}`);
export function trustLineKey(accountId: string, asset: TrustLineAsset): string {
  return asset.type === 'pool_share' ? `T${accountId}/${asset.poolId}` : `T${accountId}/${asset.code}/${asset.issuer}`;
}
export function dataKey(accountId: string, name: string): string {
  return `D${accountId}/${name}`;
}
export function offerKey(sellerId: string, offerId: bigint): string {
  return `O${sellerId}/${offerId}`;
}
export function claimableBalanceKey(balanceId: string): string {
  return `C${balanceId}`;
}
export function liquidityPoolKey(poolId: string): string {
  return `L${poolId}`;
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
    case 'claimableBalance':
      return claimableBalanceKey(e.balanceId);
    case 'liquidityPool':
      return liquidityPoolKey(e.poolId);
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

function trustLineAssetToXdr(a: TrustLineAsset): xdr.TrustLineAsset {
  if (a.type === 'pool_share') return xdr.TrustLineAsset.assetTypePoolShare(new xdr.PoolId(a.poolId));
  const parts = { assetCode: assetCodeBytes(a), issuer: accountIdToXdr(a.issuer) };
  return a.code.length <= 4
    ? xdr.TrustLineAsset.assetTypeCreditAlphanum4(new xdr.AlphaNum4(parts))
    : xdr.TrustLineAsset.assetTypeCreditAlphanum12(new xdr.AlphaNum12(parts));
}

/** A trust line's asset: a credit asset or a pool's shares, never native. */
function trustLineAssetFromXdr(a: xdr.TrustLineAsset): TrustLineAsset {
  if (a.type === 'assetTypePoolShare') return { type: 'pool_share', poolId: a.liquidityPoolId.toString() };
  const asset = assetFromXdr(a);
  if (asset.type === 'native') throw new Error('a trust line to the native asset');
  return asset;
}

export function signerKeyFromHex(hex: string): xdr.SignerKey {
  return xdr.SignerKey.fromXdr(hex, 'hex');
}

export function signerKeyToHex(k: xdr.SignerKey): string {
  return k.toXdr('hex');
}

const signerHexCache = new Map<string, string>();

/** hex SignerKey of an account's own ed25519 key. */
export function ed25519SignerHex(accountId: string): string {
  let hex = signerHexCache.get(accountId);
  if (!hex) {
    hex = `00000000${asBuffer(accountIdKey(accountId)).toString('hex')}`;
    if (signerHexCache.size > 100_000) signerHexCache.clear();
    signerHexCache.set(accountId, hex);
  }
  return hex;
}

/** Raw bytes as latin1 text (names and home domains are kept byte for byte). */
function latin1(bytes: Uint8Array): string {
  return asBuffer(bytes).toString('latin1');
}

function accountToXdr(a: AccountRec): xdr.AccountEntry {
  let ext: xdr.AccountEntryExt;
  if (a.extLevel >= 1) {
    let ext1: xdr.AccountEntryExtensionV1Ext;
    if (a.extLevel >= 2) {
      const ext2ext =
        a.extLevel >= 3
          ? xdr.AccountEntryExtensionV2Ext.v3(
              new xdr.AccountEntryExtensionV3({
                ext: xdr.ExtensionPoint.v0(),
                seqLedger: a.seqLedger,
                seqTime: a.seqTime,
              }),
            )
          : xdr.AccountEntryExtensionV2Ext.v0();
      ext1 = xdr.AccountEntryExtensionV1Ext.v2(
        new xdr.AccountEntryExtensionV2({
          numSponsored: a.numSponsored,
          numSponsoring: a.numSponsoring,
          signerSponsoringIDs: a.signers.map((s) => (s.sponsor ? accountIdToXdr(s.sponsor) : null)),
          ext: ext2ext,
        }),
      );
    } else {
      ext1 = xdr.AccountEntryExtensionV1Ext.v0();
    }
    ext = xdr.AccountEntryExt.v1(
      new xdr.AccountEntryExtensionV1({
        liabilities: new xdr.Liabilities({ buying: a.buyingLiabilities, selling: a.sellingLiabilities }),
        ext: ext1,
      }),
    );
  } else {
    ext = xdr.AccountEntryExt.v0();
  }
  return new xdr.AccountEntry({
    accountId: accountIdToXdr(a.accountId),
    balance: a.balance,
    seqNum: a.seqNum,
    numSubEntries: a.numSubEntries,
    inflationDest: a.inflationDest ? accountIdToXdr(a.inflationDest) : null,
    flags: a.flags,
    homeDomain: Buffer.from(a.homeDomain, 'latin1'),
    thresholds: Uint8Array.from(a.thresholds),
    signers: a.signers.map((s) => new xdr.Signer({ key: signerKeyFromHex(s.key), weight: s.weight })),
    ext,
  });
}

function trustLineToXdr(t: TrustLineRec): xdr.TrustLineEntry {
  const ext =
    t.extLevel >= 1
      ? xdr.TrustLineEntryExt.v1(
          new xdr.TrustLineEntryV1({
            liabilities: new xdr.Liabilities({ buying: t.buyingLiabilities, selling: t.sellingLiabilities }),
            ext:
              t.extLevel >= 2
                ? xdr.TrustLineEntryV1Ext.v2(
                    new xdr.TrustLineEntryExtensionV2({
                      liquidityPoolUseCount: t.liquidityPoolUseCount,
                      ext: xdr.TrustLineEntryExtensionV2Ext.v0(),
                    }),
                  )
                : xdr.TrustLineEntryV1Ext.v0(),
          }),
        )
      : xdr.TrustLineEntryExt.v0();
  return new xdr.TrustLineEntry({
    accountId: accountIdToXdr(t.accountId),
    asset: trustLineAssetToXdr(t.asset),
    balance: t.balance,
    limit: t.limit,
    flags: t.flags,
    ext,
  });
}

function dataToXdr(d: DataRec): xdr.DataEntry {
  return new xdr.DataEntry({
    accountId: accountIdToXdr(d.accountId),
    dataName: Buffer.from(d.name, 'latin1'),
    dataValue: Buffer.from(d.value, 'base64'),
    ext: xdr.DataEntryExt.v0(),
  });
}

function offerToXdr(o: OfferRec): xdr.OfferEntry {
  return new xdr.OfferEntry({
    sellerId: accountIdToXdr(o.sellerId),
    offerId: o.offerId,
    selling: assetToXdr(o.selling),
    buying: assetToXdr(o.buying),
    amount: o.amount,
    price: new xdr.Price({ n: o.priceN, d: o.priceD }),
    flags: o.flags,
    ext: xdr.OfferEntryExt.v0(),
  });
}

function claimableBalanceToXdr(c: ClaimableBalanceRec): xdr.ClaimableBalanceEntry {
  return new xdr.ClaimableBalanceEntry({
    balanceId: claimableBalanceIdToXdr(c.balanceId),
    claimants: c.claimants.map((cl) =>
      xdr.Claimant.claimantTypeV0(new xdr.ClaimantV0({ destination: accountIdToXdr(cl.destination), predicate: cl.predicate })),
    ),
    asset: assetToXdr(c.asset),
    amount: c.amount,
    ext:
      c.extLevel >= 1
        ? xdr.ClaimableBalanceEntryExt.v1(
            new xdr.ClaimableBalanceEntryExtensionV1({ ext: xdr.ClaimableBalanceEntryExtensionV1Ext.v0(), flags: c.flags }),
          )
        : xdr.ClaimableBalanceEntryExt.v0(),
  });
}

export function claimableBalanceIdToXdr(balanceId: string): xdr.ClaimableBalanceId {
  return xdr.ClaimableBalanceId.claimableBalanceIdTypeV0(new xdr.Hash(balanceId));
}

function liquidityPoolToXdr(p: LiquidityPoolRec): xdr.LiquidityPoolEntry {
  return new xdr.LiquidityPoolEntry({
    liquidityPoolId: new xdr.PoolId(p.poolId),
    body: xdr.LiquidityPoolEntryBody.liquidityPoolConstantProduct(
      new xdr.LiquidityPoolEntryConstantProduct({
        params: new xdr.LiquidityPoolConstantProductParameters({ assetA: assetToXdr(p.assetA), assetB: assetToXdr(p.assetB), fee: p.fee }),
        reserveA: p.reserveA,
        reserveB: p.reserveB,
        totalPoolShares: p.totalPoolShares,
        poolSharesTrustLineCount: p.poolSharesTrustLineCount,
      }),
    ),
  });
}

/** An offer record as stellar-core's OfferEntry (operation results carry it). */
export function offerEntryToXdr(o: OfferRec): xdr.OfferEntry {
  return offerToXdr(o);
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
    case 'claimableBalance':
      data = xdr.LedgerEntryData.claimableBalance(claimableBalanceToXdr(e));
      break;
    case 'liquidityPool':
      data = xdr.LedgerEntryData.liquidityPool(liquidityPoolToXdr(e));
      break;
  }
  const ext =
    e.sponsor === undefined
      ? xdr.LedgerEntryExt.v0()
      : xdr.LedgerEntryExt.v1(
          new xdr.LedgerEntryExtensionV1({
            sponsoringId: e.sponsor === null ? null : accountIdToXdr(e.sponsor),
            ext: xdr.LedgerEntryExtensionV1Ext.v0(),
          }),
        );
  return new xdr.LedgerEntry({ lastModifiedLedgerSeq: e.lastModified, data, ext });
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
      return xdr.LedgerKey.offer(new xdr.LedgerKeyOffer({ sellerId: accountIdToXdr(e.sellerId), offerId: e.offerId }));
    case 'claimableBalance':
      return xdr.LedgerKey.claimableBalance(new xdr.LedgerKeyClaimableBalance({ balanceId: claimableBalanceIdToXdr(e.balanceId) }));
    case 'liquidityPool':
      return xdr.LedgerKey.liquidityPool(new xdr.LedgerKeyLiquidityPool({ liquidityPoolId: new xdr.PoolId(e.poolId) }));
  }
}

/** Our map key for an XDR LedgerKey (used when replaying removals from meta). */
export function keyFromLedgerKey(k: xdr.LedgerKey): string {
  switch (k.type) {
    case 'account':
      return accountKey(accountIdFromXdr(k.account.accountId));
    case 'trustline': {
      const t = k.trustLine;
      return trustLineKey(accountIdFromXdr(t.accountId), trustLineAssetFromXdr(t.asset));
    }
    case 'data': {
      const d = k.data;
      return dataKey(accountIdFromXdr(d.accountId), latin1(d.dataName.bytes));
    }
    case 'offer': {
      const o = k.offer;
      return offerKey(accountIdFromXdr(o.sellerId), o.offerId);
    }
    case 'claimableBalance':
      return claimableBalanceKey(k.claimableBalance.balanceId.v0.toString());
    case 'liquidityPool':
      return liquidityPoolKey(k.liquidityPool.liquidityPoolId.toString());
    default:
      throw new Error(`unsupported ledger key type ${k.type}`);
  }
}

export function entryFromXdr(le: xdr.LedgerEntry): EntryRec {
  const rec = entryDataFromXdr(le);
  if (le.ext.type === 'v1') {
    const id = le.ext.v1.sponsoringId;
    rec.sponsor = id ? accountIdFromXdr(id) : null;
  }
  return rec;
}

function entryDataFromXdr(le: xdr.LedgerEntry): EntryRec {
  const d = le.data;
  const lastModified = le.lastModifiedLedgerSeq;
  switch (d.type) {
    case 'account': {
      const a = d.account;
      const th = a.thresholds.value;
      // the extensions' fields keep newAccount's defaults unless the entry has them
      const rec: AccountRec = {
        ...newAccount(accountIdFromXdr(a.accountId), a.balance, a.seqNum, lastModified),
        numSubEntries: a.numSubEntries,
        inflationDest: a.inflationDest ? accountIdFromXdr(a.inflationDest) : null,
        flags: a.flags,
        homeDomain: latin1(a.homeDomain.bytes),
        thresholds: [th[0] ?? 0, th[1] ?? 0, th[2] ?? 0, th[3] ?? 0],
        signers: a.signers.map((s) => ({ key: signerKeyToHex(s.key), weight: s.weight, sponsor: null })),
      };
      const ext = a.ext;
      if (ext.type === 'v1') {
        rec.extLevel = 1;
        const v1 = ext.v1;
        rec.buyingLiabilities = v1.liabilities.buying;
        rec.sellingLiabilities = v1.liabilities.selling;
        if (v1.ext.type === 'v2') {
          rec.extLevel = 2;
          const v2 = v1.ext.v2;
          rec.numSponsored = v2.numSponsored;
          rec.numSponsoring = v2.numSponsoring;
          v2.signerSponsoringIDs.forEach((id, i) => {
            if (id) rec.signers[i]!.sponsor = accountIdFromXdr(id);
          });
          if (v2.ext.type === 'v3') {
            rec.extLevel = 3;
            rec.seqLedger = v2.ext.v3.seqLedger;
            rec.seqTime = v2.ext.v3.seqTime;
          }
        }
      }
      return rec;
    }
    case 'trustline': {
      const t = d.trustLine;
      const rec: TrustLineRec = {
        type: 'trustline',
        accountId: accountIdFromXdr(t.accountId),
        asset: trustLineAssetFromXdr(t.asset),
        balance: t.balance,
        limit: t.limit,
        flags: t.flags,
        extLevel: 0,
        buyingLiabilities: 0n,
        sellingLiabilities: 0n,
        liquidityPoolUseCount: 0,
        lastModified,
      };
      if (t.ext.type === 'v1') {
        rec.extLevel = 1;
        rec.buyingLiabilities = t.ext.v1.liabilities.buying;
        rec.sellingLiabilities = t.ext.v1.liabilities.selling;
        if (t.ext.v1.ext.type === 'v2') {
          rec.extLevel = 2;
          rec.liquidityPoolUseCount = t.ext.v1.ext.v2.liquidityPoolUseCount;
        }
      }
      return rec;
    }
    case 'data': {
      const x = d.data;
      return {
        type: 'data',
        accountId: accountIdFromXdr(x.accountId),
        name: latin1(x.dataName.bytes),
        value: asBuffer(x.dataValue.value).toString('base64'),
        lastModified,
      };
    }
    case 'offer': {
      const o = d.offer;
      return {
        type: 'offer',
        sellerId: accountIdFromXdr(o.sellerId),
        offerId: o.offerId,
        selling: assetFromXdr(o.selling),
        buying: assetFromXdr(o.buying),
        amount: o.amount,
        priceN: o.price.n,
        priceD: o.price.d,
        flags: o.flags,
        lastModified,
      };
    }
    case 'claimableBalance': {
      const c = d.claimableBalance;
      return {
        type: 'claimableBalance',
        balanceId: c.balanceId.v0.toString(),
        claimants: c.claimants.map((cl) => ({ destination: accountIdFromXdr(cl.v0.destination), predicate: cl.v0.predicate })),
        asset: assetFromXdr(c.asset),
        amount: c.amount,
        flags: c.ext.type === 'v1' ? c.ext.v1.flags : 0,
        extLevel: c.ext.type === 'v1' ? 1 : 0,
        lastModified,
      };
    }
    case 'liquidityPool': {
      const p = d.liquidityPool;
      const cp = p.body.constantProduct;
      return {
        type: 'liquidityPool',
        poolId: p.liquidityPoolId.toString(),
        assetA: assetFromXdr(cp.params.assetA),
        assetB: assetFromXdr(cp.params.assetB),
        fee: cp.params.fee,
        reserveA: cp.reserveA,
        reserveB: cp.reserveB,
        totalPoolShares: cp.totalPoolShares,
        poolSharesTrustLineCount: cp.poolSharesTrustLineCount,
        lastModified,
      };
    }
    default:
      throw new Error(`unsupported ledger entry type ${d.type}`);
  }
}
