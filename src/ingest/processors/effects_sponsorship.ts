// Horizon's sponsorship effects (addLedgerEntrySponsorshipEffects, addSignerSponsorshipEffects):
// derived from any operation's changes by comparing each entry's sponsor before and after, and
// each signer's sponsor in an account's signer list.
import { xdr } from '@stellar/stellar-sdk/base';
import type { EntryChange } from '../../meta/index.js';
import { accountIdFromXdr, balanceIdHex, poolIdHex, type EffectTypeName } from '../../stellar/index.js';
import type { Details } from '../rows.js';
import { canonicalAsset, entrySponsor, sponsorPerSigner } from './details.js';
import type { EffectList } from './effect_list.js';

type Kinds = { created: EffectTypeName; updated: EffectTypeName; removed: EffectTypeName };

const kinds = (prefix: string): Kinds => ({
  created: `${prefix}_sponsorship_created` as EffectTypeName,
  updated: `${prefix}_sponsorship_updated` as EffectTypeName,
  removed: `${prefix}_sponsorship_removed` as EffectTypeName,
});

// offers have no sponsorship effects (they have no creation effects either); pools cannot be sponsored
const KINDS_BY_ENTRY: Record<string, Kinds> = {
  account: kinds('account'),
  trustline: kinds('trustline'),
  data: kinds('data'),
  claimableBalance: kinds('claimable_balance'),
};

function addEntrySponsorshipEffect(list: EffectList, change: EntryChange): void {
  const types = KINDS_BY_ENTRY[change.type];
  if (!types) return;
  const pre = entrySponsor(change.pre);
  const post = entrySponsor(change.post);
  let type: EffectTypeName;
  const details: Details = {};
  if (pre === null && post !== null) {
    type = types.created;
    details.sponsor = post;
  } else if (pre !== null && post === null) {
    type = types.removed;
    details.former_sponsor = pre;
  } else if (pre !== null && post !== null && pre !== post) {
    type = types.updated;
    details.new_sponsor = post;
    details.former_sponsor = pre;
  } else {
    return;
  }
  const data = (change.post ?? change.pre)!.data;
  switch (data.type) {
    case 'account':
      list.add(accountIdFromXdr(data.account.accountId), null, type, details);
      break;
    case 'trustline': {
      const line = data.trustLine;
      const asset = line.asset;
      if (asset.type === 'assetTypePoolShare') {
        details.asset_type = 'liquidity_pool';
        details.liquidity_pool_id = poolIdHex(asset.liquidityPoolId);
      } else {
        details.asset = canonicalAsset(asset);
      }
      list.add(accountIdFromXdr(line.accountId), null, type, details);
      break;
    }
    case 'data':
      details.data_name = Buffer.from(data.data.dataName.bytes).toString('utf8');
      list.addSource(type, details);
      break;
    default:
      details.balance_id = balanceIdHex(xdr.expectUnionVariant(data, 'claimableBalance').claimableBalance.balanceId);
      list.addSource(type, details);
      break;
  }
}

/** the G... of an account entry */
const accountOf = (entry: xdr.LedgerEntry): string => accountIdFromXdr(xdr.expectUnionVariant(entry.data, 'account').account.accountId);

function addSignerSponsorshipEffects(list: EffectList, change: EntryChange): void {
  if (change.type !== 'account') return;
  const before = sponsorPerSigner(change.pre);
  const after = sponsorPerSigner(change.post);
  if (before.size === 0 && after.size === 0) return;
  const signers = [...new Set([...before.keys(), ...after.keys()])].sort();
  for (const signer of signers) {
    const pre = before.get(signer);
    const post = after.get(signer);
    if (pre === undefined && post !== undefined) {
      list.add(accountOf(change.post!), null, 'signer_sponsorship_created', { sponsor: post, signer });
    } else if (pre !== undefined && post === undefined) {
      list.add(accountOf(change.pre!), null, 'signer_sponsorship_removed', {
        former_sponsor: pre,
        signer,
      });
    } else if (pre !== undefined && post !== undefined && pre !== post) {
      list.add(accountOf(change.post!), null, 'signer_sponsorship_updated', {
        former_sponsor: pre,
        new_sponsor: post,
        signer,
      });
    }
  }
}

/** the sponsorship effects of every change of the operation, in the changes' order */
export function addSponsorshipEffects(list: EffectList): void {
  for (const change of list.changes) {
    addEntrySponsorshipEffect(list, change);
    addSignerSponsorshipEffects(list, change);
  }
}
