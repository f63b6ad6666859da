// The state tables from ledger entry changes: the last change of each entry in the ledger wins, so
// the rows are upserts and deletes that are correct whatever was ingested before (ingesting from
// the middle of history works). Fee changes of all transactions come before their application, as
// stellar-core applies them.
import { xdr } from '@stellar/stellar-sdk/base';
import type { LedgerView } from '../../meta/index.js';
import { accountIdFromXdr, assetFromXdr, balanceIdHex, claimPredicateJson, formatCanonicalAsset, poolIdHex } from '../../stellar/index.js';
import type {
  AccountRow,
  ClaimableBalanceClaimantRow,
  ClaimableBalanceRow,
  DataRow,
  LiquidityPoolRow,
  OfferRow,
  SignerRow,
  StateRows,
  TrustLineRow,
} from '../rows.js';
import { canonicalAsset, entrySponsor, signerKeyAddress } from './details.js';

type Final = Map<string, { entry: xdr.LedgerEntry | null; key: xdr.LedgerKey | null }>;

function entryKey(data: xdr.LedgerEntryData | xdr.LedgerKey): string | null {
  switch (data.type) {
    case 'account':
      return `A${accountIdFromXdr(data.account.accountId)}`;
    case 'trustline': {
      const t = data.trustLine;
      return `T${accountIdFromXdr(t.accountId)}/${t.asset.toXdr('hex')}`;
    }
    case 'data': {
      const d = data.data;
      return `D${accountIdFromXdr(d.accountId)}/${Buffer.from(d.dataName.bytes).toString('hex')}`;
    }
    case 'offer':
      return `O${data.offer.offerId.toString()}`;
    case 'claimableBalance':
      return `C${balanceIdHex(data.claimableBalance.balanceId)}`;
    case 'liquidityPool':
      return `L${poolIdHex(data.liquidityPool.liquidityPoolId)}`;
    default:
      return null;
  }
}

function applyChanges(final: Final, changes: xdr.LedgerEntryChange[]): void {
  for (const change of changes) {
    if (change.type === 'ledgerEntryState') continue;
    if (change.type === 'ledgerEntryRemoved') {
      const key = change.removed;
      const k = entryKey(key);
      if (k) final.set(k, { entry: null, key });
      continue;
    }
    const entry = change.value;
    const k = entryKey(entry.data);
    if (k) final.set(k, { entry, key: null });
  }
}

/** The final entries a ledger touched; `seed` entries (genesis) come first. */
export function stateRows(view: LedgerView, seed: xdr.LedgerEntry[] = []): StateRows {
  const final: Final = new Map();
  for (const entry of seed) {
    const k = entryKey(entry.data);
    if (k) final.set(k, { entry, key: null });
  }
  for (const tx of view.txs) applyChanges(final, tx.feeChanges);
  for (const tx of view.txs) {
    applyChanges(final, tx.changesBefore);
    for (const ops of tx.operationChanges) applyChanges(final, ops);
    applyChanges(final, tx.changesAfter);
    applyChanges(final, tx.postApplyFeeChanges);
  }
  applyChanges(final, view.upgradeChanges);

  const rows = emptyStateRows();
  for (const { entry, key } of final.values()) {
    if (entry === null) {
      const removed = key!;
      switch (removed.type) {
        case 'account': {
          const id = accountIdFromXdr(removed.account.accountId);
          rows.removedAccounts.push(id);
          rows.signerAccounts.push(id);
          break;
        }
        case 'trustline': {
          const t = removed.trustLine;
          const line = trustLineAsset(t.asset);
          if (line) rows.removedTrustLines.push({ account_id: accountIdFromXdr(t.accountId), ...line.key });
          break;
        }
        case 'data': {
          const d = removed.data;
          rows.removedData.push({ account_id: accountIdFromXdr(d.accountId), name: Buffer.from(d.dataName.bytes).toString('utf8') });
          break;
        }
        case 'offer':
          rows.removedOffers.push(removed.offer.offerId);
          break;
        case 'claimableBalance':
          rows.removedClaimableBalances.push(balanceIdHex(removed.claimableBalance.balanceId));
          break;
        case 'liquidityPool':
          rows.removedLiquidityPools.push(poolIdHex(removed.liquidityPool.liquidityPoolId));
          break;
        default:
          break;
      }
      continue;
    }
    const modified = entry.lastModifiedLedgerSeq;
    const sponsor = entrySponsor(entry);
    const data = entry.data;
    switch (data.type) {
      case 'account': {
        const { account, signers } = accountRow(data.account, modified, sponsor);
        rows.accounts.push(account);
        rows.signerAccounts.push(account.id);
        rows.signers.push(...signers);
        break;
      }
      case 'trustline': {
        const row = trustLineRow(data.trustLine, modified, sponsor);
        if (row) rows.trustLines.push(row);
        break;
      }
      case 'data':
        rows.data.push(dataRow(data.data, modified, sponsor));
        break;
      case 'offer':
        rows.offers.push(offerRow(data.offer, modified, sponsor));
        break;
      case 'claimableBalance': {
        const { balance, claimants } = claimableBalanceRow(data.claimableBalance, modified, sponsor);
        rows.claimableBalances.push(balance);
        rows.claimableBalanceClaimants.push(...claimants);
        break;
      }
      case 'liquidityPool':
        rows.liquidityPools.push(liquidityPoolRow(data.liquidityPool, modified));
        break;
      default:
        break;
    }
  }
  return rows;
}

function accountRow(a: xdr.AccountEntry, modified: number, sponsor: string | null): { account: AccountRow; signers: SignerRow[] } {
  const id = accountIdFromXdr(a.accountId);
  const thresholds = a.thresholds.value;
  let buying = 0n;
  let selling = 0n;
  let numSponsored = 0;
  let numSponsoring = 0;
  let sequenceLedger: number | null = null;
  let sequenceTime: bigint | null = null;
  let sponsors: (xdr.AccountId | null)[] = [];
  const ext = a.ext;
  if (ext.type === 'v1') {
    const v1 = ext.v1;
    buying = v1.liabilities.buying;
    selling = v1.liabilities.selling;
    const ext2 = v1.ext;
    if (ext2.type === 'v2') {
      const v2 = ext2.v2;
      numSponsored = v2.numSponsored;
      numSponsoring = v2.numSponsoring;
      sponsors = v2.signerSponsoringIDs;
      const ext3 = v2.ext;
      if (ext3.type === 'v3') {
        sequenceLedger = ext3.v3.seqLedger;
        sequenceTime = ext3.v3.seqTime;
      }
    }
  }
  const inflationDest = a.inflationDest;
  const signers = a.signers.map((s, i): SignerRow => {
    const signerSponsor = sponsors[i];
    return {
      account_id: id,
      signer: signerKeyAddress(s.key),
      weight: s.weight,
      sponsor: signerSponsor ? accountIdFromXdr(signerSponsor) : null,
    };
  });
  return {
    account: {
      id,
      balance: a.balance,
      buying_liabilities: buying,
      selling_liabilities: selling,
      sequence: a.seqNum,
      sequence_ledger: sequenceLedger,
      sequence_time: sequenceTime,
      subentry_count: a.numSubEntries,
      num_sponsoring: numSponsoring,
      num_sponsored: numSponsored,
      inflation_destination: inflationDest ? accountIdFromXdr(inflationDest) : null,
      home_domain: Buffer.from(a.homeDomain.bytes).toString('utf8'),
      flags: a.flags,
      master_weight: thresholds[0] ?? 0,
      threshold_low: thresholds[1] ?? 0,
      threshold_medium: thresholds[2] ?? 0,
      threshold_high: thresholds[3] ?? 0,
      last_modified_ledger: modified,
      sponsor,
    },
    signers,
  };
}

/**
 * A trust line's asset as trust_lines keeps it: an asset's code and issuer, or pool shares (an
 * empty code and issuer, and the pool's hex id, as Horizon's trust_lines); null for the native
 * asset, which no trust line holds.
 */
function trustLineAsset(
  asset: xdr.TrustLineAsset,
): { type: string; key: { asset_code: string; asset_issuer: string; liquidity_pool_id: string } } | null {
  if (asset.type === 'assetTypePoolShare') {
    return {
      type: 'liquidity_pool_shares',
      key: { asset_code: '', asset_issuer: '', liquidity_pool_id: Buffer.from(asset.liquidityPoolId.value).toString('hex') },
    };
  }
  const value = assetFromXdr(asset);
  if (value.type === 'native') return null;
  return { type: value.type, key: { asset_code: value.code, asset_issuer: value.issuer, liquidity_pool_id: '' } };
}

function trustLineRow(t: xdr.TrustLineEntry, modified: number, sponsor: string | null): TrustLineRow | null {
  const line = trustLineAsset(t.asset);
  if (!line) return null;
  let buying = 0n;
  let selling = 0n;
  const ext = t.ext;
  if (ext.type === 'v1') {
    buying = ext.v1.liabilities.buying;
    selling = ext.v1.liabilities.selling;
  }
  return {
    account_id: accountIdFromXdr(t.accountId),
    asset_type: line.type,
    ...line.key,
    balance: t.balance,
    limit: t.limit,
    buying_liabilities: buying,
    selling_liabilities: selling,
    flags: t.flags,
    last_modified_ledger: modified,
    sponsor,
  };
}

function dataRow(d: xdr.DataEntry, modified: number, sponsor: string | null): DataRow {
  return {
    account_id: accountIdFromXdr(d.accountId),
    name: Buffer.from(d.dataName.bytes).toString('utf8'),
    value: Buffer.from(d.dataValue.value).toString('base64'),
    last_modified_ledger: modified,
    sponsor,
  };
}

function offerRow(o: xdr.OfferEntry, modified: number, sponsor: string | null): OfferRow {
  const { n, d } = o.price;
  return {
    id: o.offerId,
    seller_id: accountIdFromXdr(o.sellerId),
    selling_asset: formatCanonicalAsset(assetFromXdr(o.selling)),
    buying_asset: formatCanonicalAsset(assetFromXdr(o.buying)),
    amount: o.amount,
    price_n: n,
    price_d: d,
    price: n / d,
    flags: o.flags,
    last_modified_ledger: modified,
    sponsor,
  };
}

/** Horizon's claimable_balances row (claimants as its JSON, flags 0 without the v1 extension) and a row per claimant. */
function claimableBalanceRow(
  b: xdr.ClaimableBalanceEntry,
  modified: number,
  sponsor: string | null,
): { balance: ClaimableBalanceRow; claimants: ClaimableBalanceClaimantRow[] } {
  const id = balanceIdHex(b.balanceId);
  const claimants = b.claimants.map((c) => ({
    destination: accountIdFromXdr(c.v0.destination),
    predicate: claimPredicateJson(c.v0.predicate),
  }));
  const ext = b.ext;
  return {
    balance: {
      id,
      asset: canonicalAsset(b.asset),
      amount: b.amount,
      sponsor,
      flags: ext.type === 'v1' ? ext.v1.flags : 0,
      claimants,
      last_modified_ledger: modified,
    },
    // stellar-core refuses a balance that names a destination twice; the set keeps the key unique anyway
    claimants: [...new Set(claimants.map((c) => c.destination))].map((destination) => ({
      id,
      destination,
      last_modified_ledger: modified,
    })),
  };
}

/** Horizon's liquidity_pools row (its LiquidityPoolsChangeProcessor's ledgerEntryToRow). */
function liquidityPoolRow(p: xdr.LiquidityPoolEntry, modified: number): LiquidityPoolRow {
  const cp = p.body.constantProduct;
  return {
    id: poolIdHex(p.liquidityPoolId),
    type: xdr.LiquidityPoolType.fromName(p.body.type).value,
    fee: cp.params.fee,
    trustline_count: cp.poolSharesTrustLineCount,
    share_count: cp.totalPoolShares,
    asset_a: canonicalAsset(cp.params.assetA),
    asset_b: canonicalAsset(cp.params.assetB),
    reserve_a: cp.reserveA,
    reserve_b: cp.reserveB,
    last_modified_ledger: modified,
  };
}

/** State rows that change nothing. */
export function emptyStateRows(): StateRows {
  return {
    accounts: [],
    removedAccounts: [],
    signerAccounts: [],
    signers: [],
    data: [],
    removedData: [],
    trustLines: [],
    removedTrustLines: [],
    offers: [],
    removedOffers: [],
    claimableBalances: [],
    claimableBalanceClaimants: [],
    removedClaimableBalances: [],
    liquidityPools: [],
    removedLiquidityPools: [],
  };
}
