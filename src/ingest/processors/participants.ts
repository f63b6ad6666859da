// Accounts each transaction and operation touched (participants_processor.go at 096f654): sources,
// the fee account, operation counterparts, and every account entry the operations changed.
import type { xdr } from '@stellar/stellar-sdk/base';
import { accountIdFromXdr, muxedAccountFromXdr } from '../../stellar/index.js';

/** The accounts an operation names directly (Horizon's Participants of an operation). */
export function operationParticipants(op: xdr.Operation, source: xdr.MuxedAccount): string[] {
  const out = new Set<string>([muxedAccountFromXdr(source).accountId]);
  const body = op.body;
  switch (body.type) {
    case 'createAccount':
      out.add(accountIdFromXdr(body.createAccountOp.destination));
      break;
    case 'payment':
      out.add(muxedAccountFromXdr(body.paymentOp.destination).accountId);
      break;
    case 'pathPaymentStrictReceive':
      out.add(muxedAccountFromXdr(body.pathPaymentStrictReceiveOp.destination).accountId);
      break;
    case 'pathPaymentStrictSend':
      out.add(muxedAccountFromXdr(body.pathPaymentStrictSendOp.destination).accountId);
      break;
    case 'allowTrust':
      out.add(accountIdFromXdr(body.allowTrustOp.trustor));
      break;
    case 'accountMerge':
      out.add(muxedAccountFromXdr(body.destination).accountId);
      break;
    case 'createClaimableBalance':
      for (const c of body.createClaimableBalanceOp.claimants) out.add(accountIdFromXdr(c.v0.destination));
      break;
    case 'beginSponsoringFutureReserves':
      out.add(accountIdFromXdr(body.beginSponsoringFutureReservesOp.sponsoredId));
      break;
    case 'clawback':
      out.add(muxedAccountFromXdr(body.clawbackOp.from).accountId);
      break;
    case 'setTrustLineFlags':
      out.add(accountIdFromXdr(body.setTrustLineFlagsOp.trustor));
      break;
    default:
      break;
  }
  return [...out];
}

/** Account entries changed by the operations (Horizon's participantsForMeta). */
export function changedAccounts(operationChanges: xdr.LedgerEntryChange[][]): string[] {
  const out: string[] = [];
  for (const changes of operationChanges) {
    for (const change of changes) {
      if (change.type === 'ledgerEntryRemoved') {
        const key = change.removed;
        if (key.type === 'account') out.push(accountIdFromXdr(key.account.accountId));
        continue;
      }
      const data = change.value.data;
      if (data.type === 'account') out.push(accountIdFromXdr(data.account.accountId));
    }
  }
  return out;
}
