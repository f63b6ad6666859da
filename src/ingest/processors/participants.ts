// Accounts each transaction and operation touched (participants_processor.go at 096f654): sources,
// the fee account, operation counterparts, and every account entry the operations changed.
import type { xdr } from '@stellar/stellar-base';
import { accountIdOf, decodeMuxed } from './details.js';

/** The accounts an operation names directly (Horizon's Participants of an operation). */
export function operationParticipants(op: xdr.Operation, source: xdr.MuxedAccount): string[] {
  const out = new Set<string>([decodeMuxed(source).accountId]);
  const body = op.body();
  switch (body.switch().name) {
    case 'createAccount':
      out.add(accountIdOf(body.createAccountOp().destination()));
      break;
    case 'payment':
      out.add(decodeMuxed(body.paymentOp().destination()).accountId);
      break;
    case 'pathPaymentStrictReceive':
      out.add(decodeMuxed(body.pathPaymentStrictReceiveOp().destination()).accountId);
      break;
    case 'pathPaymentStrictSend':
      out.add(decodeMuxed(body.pathPaymentStrictSendOp().destination()).accountId);
      break;
    case 'allowTrust':
      out.add(accountIdOf(body.allowTrustOp().trustor()));
      break;
    case 'accountMerge':
      out.add(decodeMuxed(body.destination()).accountId);
      break;
    case 'createClaimableBalance':
      for (const c of body.createClaimableBalanceOp().claimants()) out.add(accountIdOf(c.v0().destination()));
      break;
    case 'beginSponsoringFutureReserves':
      out.add(accountIdOf(body.beginSponsoringFutureReservesOp().sponsoredId()));
      break;
    case 'clawback':
      out.add(decodeMuxed(body.clawbackOp().from()).accountId);
      break;
    case 'setTrustLineFlags':
      out.add(accountIdOf(body.setTrustLineFlagsOp().trustor()));
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
      const arm = change.switch().name;
      if (arm === 'ledgerEntryRemoved') {
        const key = change.removed();
        if (key.switch().name === 'account') out.push(accountIdOf(key.account().accountId()));
        continue;
      }
      const entry =
        arm === 'ledgerEntryCreated'
          ? change.created()
          : arm === 'ledgerEntryUpdated'
            ? change.updated()
            : arm === 'ledgerEntryState'
              ? change.state()
              : change.restored();
      const data = entry.data();
      if (data.switch().name === 'account') out.push(accountIdOf(data.account().accountId()));
    }
  }
  return out;
}
