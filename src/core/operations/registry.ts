// Operation type name → implementation. Types without an entry are answered opNOT_SUPPORTED
// (offers and path payments arrive with the exchange; claimable balances, sponsorship, clawback
// and liquidity pools are outside this network's scope).
import type { OperationDef } from './context.js';
import { accountMerge } from './account_merge.js';
import { allowTrust } from './allow_trust.js';
import { bumpSequence } from './bump_sequence.js';
import { changeTrust } from './change_trust.js';
import { createAccount } from './create_account.js';
import { inflation } from './inflation.js';
import { manageData } from './manage_data.js';
import { payment } from './payment.js';
import { setOptions } from './set_options.js';

const registry = new Map<string, OperationDef>([
  ['createAccount', createAccount],
  ['payment', payment],
  ['setOptions', setOptions],
  ['changeTrust', changeTrust],
  ['allowTrust', allowTrust],
  ['accountMerge', accountMerge],
  ['inflation', inflation],
  ['manageData', manageData],
  ['bumpSequence', bumpSequence],
]);

/** Soroban operations: a classic network answers txMALFORMED for them, as stellar-core does without sorobanData. */
export const SOROBAN_OPERATIONS: ReadonlySet<string> = new Set(['invokeHostFunction', 'extendFootprintTtl', 'restoreFootprint']);

export function operationDef(type: string): OperationDef | undefined {
  return registry.get(type);
}

/** Lets later work (the exchange) add operation types without touching the dispatcher. */
export function registerOperation(type: string, def: OperationDef): void {
  registry.set(type, def);
}
