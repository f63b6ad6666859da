// Ledger entry changes as (before, after) pairs, as stellar-go's ingest.Change: a `state` entry
// followed by its `updated`/`removed`, or a lone `created`/`restored`.
import { xdr } from '@stellar/stellar-sdk/base';

export interface EntryChange {
  type: string;
  pre: xdr.LedgerEntry | null;
  post: xdr.LedgerEntry | null;
}

/** The pairs in the order of the changes (see sortChangePairs for stellar-go's order). */
export function changePairs(changes: xdr.LedgerEntryChange[]): EntryChange[] {
  const out: EntryChange[] = [];
  let state: xdr.LedgerEntry | null = null;
  for (const change of changes) {
    switch (change.type) {
      case 'ledgerEntryState':
        state = change.state;
        break;
      case 'ledgerEntryCreated': {
        const post = change.created;
        out.push({ type: post.data.type, pre: null, post });
        break;
      }
      case 'ledgerEntryRestored': {
        const post = change.restored;
        out.push({ type: post.data.type, pre: null, post });
        break;
      }
      case 'ledgerEntryUpdated': {
        const post = change.updated;
        out.push({ type: post.data.type, pre: state, post });
        state = null;
        break;
      }
      case 'ledgerEntryRemoved': {
        const pre = state;
        if (pre) out.push({ type: pre.data.type, pre, post: null });
        state = null;
        break;
      }
      default:
        break;
    }
  }
  return out;
}

/**
 * stellar-go's order of a group of changes (GetChangesFromLedgerEntryChanges): by the XDR bytes of
 * the entry's ledger key, changes of one entry keeping their order (a stable sort). stellar-core
 * writes an operation's changes from an unordered map, so Horizon sorts them before it derives
 * effects from them. Returns a new array.
 */
export function sortChangePairs(pairs: EntryChange[]): EntryChange[] {
  if (pairs.length < 2) return pairs.slice();
  const keyed = pairs.map((pair) => ({ pair, key: ledgerKeyOf((pair.pre ?? pair.post)!).toXdr() }));
  keyed.sort((a, b) => Buffer.compare(a.key, b.key));
  return keyed.map((k) => k.pair);
}

/** The ledger key of an entry. */
export function ledgerKeyOf(entry: xdr.LedgerEntry): xdr.LedgerKey {
  const data = entry.data;
  switch (data.type) {
    case 'account':
      return xdr.LedgerKey.account(new xdr.LedgerKeyAccount({ accountId: data.account.accountId }));
    case 'trustline': {
      const t = data.trustLine;
      return xdr.LedgerKey.trustline(new xdr.LedgerKeyTrustLine({ accountId: t.accountId, asset: t.asset }));
    }
    case 'offer': {
      const o = data.offer;
      return xdr.LedgerKey.offer(new xdr.LedgerKeyOffer({ sellerId: o.sellerId, offerId: o.offerId }));
    }
    case 'data': {
      const d = data.data;
      return xdr.LedgerKey.data(new xdr.LedgerKeyData({ accountId: d.accountId, dataName: d.dataName }));
    }
    case 'claimableBalance':
      return xdr.LedgerKey.claimableBalance(new xdr.LedgerKeyClaimableBalance({ balanceId: data.claimableBalance.balanceId }));
    case 'liquidityPool':
      return xdr.LedgerKey.liquidityPool(new xdr.LedgerKeyLiquidityPool({ liquidityPoolId: data.liquidityPool.liquidityPoolId }));
    case 'contractData': {
      const c = data.contractData;
      return xdr.LedgerKey.contractData(new xdr.LedgerKeyContractData({ contract: c.contract, key: c.key, durability: c.durability }));
    }
    case 'contractCode':
      return xdr.LedgerKey.contractCode(new xdr.LedgerKeyContractCode({ hash: data.contractCode.hash }));
    case 'configSetting':
      // the entry's arm is named after its ConfigSettingID
      return xdr.LedgerKey.configSetting(
        new xdr.LedgerKeyConfigSetting({ configSettingId: xdr.ConfigSettingId.fromName(data.configSetting.type) }),
      );
    case 'ttl':
      return xdr.LedgerKey.ttl(new xdr.LedgerKeyTtl({ keyHash: data.ttl.keyHash }));
  }
}
