// Operation type name → implementation. Types without an entry are answered opNOT_SUPPORTED.
import type { OperationDef } from './context.js';
import { accountMerge } from './account_merge.js';
import { allowTrust } from './allow_trust.js';
import { beginSponsoringFutureReserves } from './begin_sponsoring_future_reserves.js';
import { bumpSequence } from './bump_sequence.js';
import { changeTrust } from './change_trust.js';
import { clawback } from './clawback.js';
import { claimClaimableBalance } from './claim_claimable_balance.js';
import { clawbackClaimableBalance } from './clawback_claimable_balance.js';
import { createClaimableBalance } from './create_claimable_balance.js';
import { createAccount } from './create_account.js';
import { createPassiveSellOffer } from './create_passive_sell_offer.js';
import { endSponsoringFutureReserves } from './end_sponsoring_future_reserves.js';
import { inflation } from './inflation.js';
import { liquidityPoolDeposit } from './liquidity_pool_deposit.js';
import { liquidityPoolWithdraw } from './liquidity_pool_withdraw.js';
import { manageBuyOffer } from './manage_buy_offer.js';
import { manageData } from './manage_data.js';
import { manageSellOffer } from './manage_sell_offer.js';
import { pathPaymentStrictReceive } from './path_payment_strict_receive.js';
import { pathPaymentStrictSend } from './path_payment_strict_send.js';
import { payment } from './payment.js';
import { revokeSponsorship } from './revoke_sponsorship.js';
import { setOptions } from './set_options.js';
import { setTrustLineFlags } from './set_trust_line_flags.js';

const registry = new Map<string, OperationDef>([
  ['createAccount', createAccount],
  ['payment', payment],
  ['pathPaymentStrictReceive', pathPaymentStrictReceive],
  ['manageSellOffer', manageSellOffer],
  ['createPassiveSellOffer', createPassiveSellOffer],
  ['setOptions', setOptions],
  ['changeTrust', changeTrust],
  ['allowTrust', allowTrust],
  ['accountMerge', accountMerge],
  ['inflation', inflation],
  ['manageData', manageData],
  ['bumpSequence', bumpSequence],
  ['manageBuyOffer', manageBuyOffer],
  ['pathPaymentStrictSend', pathPaymentStrictSend],
  ['createClaimableBalance', createClaimableBalance],
  ['claimClaimableBalance', claimClaimableBalance],
  ['beginSponsoringFutureReserves', beginSponsoringFutureReserves],
  ['endSponsoringFutureReserves', endSponsoringFutureReserves],
  ['revokeSponsorship', revokeSponsorship],
  ['clawback', clawback],
  ['clawbackClaimableBalance', clawbackClaimableBalance],
  ['setTrustLineFlags', setTrustLineFlags],
  ['liquidityPoolDeposit', liquidityPoolDeposit],
  ['liquidityPoolWithdraw', liquidityPoolWithdraw],
]);

/** Soroban operations: a classic network answers txMALFORMED for them, as stellar-core does without sorobanData. */
export const SOROBAN_OPERATIONS: ReadonlySet<string> = new Set(['invokeHostFunction', 'extendFootprintTtl', 'restoreFootprint']);

export function operationDef(type: string): OperationDef | undefined {
  return registry.get(type);
}
