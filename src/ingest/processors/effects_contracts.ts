// Horizon's effects of invoke_host_function (addInvokeHostFunctionEffects and the CAP-0073
// additions): account_credited/account_debited for G accounts and contract_credited/
// contract_debited for any other address (on the operation's source) from the Stellar Asset
// Contract events; then trust lines and accounts the operation created (a SAC's trust() and its
// transfers of XLM to a new account emit no event of their own).
import { StrKey, xdr } from '@stellar/stellar-sdk/base';
import { operationContractEvents } from '../../meta/index.js';
import { accountIdFromXdr, assetFromXdr, formatAmount, formatMuxedAccountId, parseSacEvent } from '../../stellar/index.js';
import type { Details } from '../rows.js';
import { addAsset, amountOf } from './details.js';
import type { EffectList } from './effect_list.js';

/** the TransactionMeta's version, its union's discriminant (0 for the `operations` arm) */
function metaVersion(meta: xdr.TransactionMeta): number {
  return meta.type === 'operations' ? 0 : Number(meta.type.slice(1));
}

function addEvents(list: EffectList): void {
  const { meta, networkId } = list.input;
  const version = metaVersion(meta);
  // a Soroban transaction has one operation: its events are the first operation's
  for (const event of operationContractEvents(meta, 0)) {
    const sac = parseSacEvent(event, version, networkId);
    if (!sac) continue;
    const details: Details = {};
    addAsset(details, sac.asset);
    details.amount = formatAmount(sac.amount);
    const debit = (from: string, fields: Details): void => {
      if (StrKey.isValidEd25519PublicKey(from)) list.add(from, null, 'account_debited', fields);
      else list.addSource('contract_debited', { ...fields, contract: from });
    };
    const credit = (to: string, fields: Details): void => {
      if (!StrKey.isValidEd25519PublicKey(to)) list.addSource('contract_credited', { ...fields, contract: to });
      else list.add(to, sac.toMuxedId === null ? null : formatMuxedAccountId(to, sac.toMuxedId), 'account_credited', fields);
    };
    switch (sac.type) {
      case 'transfer':
        debit(sac.from!, details);
        credit(sac.to!, { ...details });
        break;
      case 'mint':
        credit(sac.to!, details);
        break;
      default:
        // clawback and burn
        debit(sac.from!, details);
        break;
    }
  }
}

function addCreatedEntryEffects(list: EffectList): void {
  for (const change of list.changes) {
    if (change.type !== 'trustline' || change.pre !== null || change.post === null) continue;
    const line = xdr.expectUnionVariant(change.post.data, 'trustline').trustLine;
    const details: Details = { limit: amountOf(line.limit) };
    addAsset(details, assetFromXdr(line.asset));
    list.add(accountIdFromXdr(line.accountId), null, 'trustline_created', details);
  }
  for (const change of list.changes) {
    if (change.type !== 'account' || change.pre !== null || change.post === null) continue;
    const account = xdr.expectUnionVariant(change.post.data, 'account').account;
    const id = accountIdFromXdr(account.accountId);
    list.add(id, null, 'account_created', { starting_balance: amountOf(account.balance) });
    list.add(id, null, 'signer_created', { public_key: id, weight: 1 });
  }
}

export function addInvokeHostFunctionEffects(list: EffectList): void {
  addEvents(list);
  addCreatedEntryEffects(list);
}
