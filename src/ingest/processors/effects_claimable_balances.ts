// Horizon's effects of claimable balances (effects_processor.go): a balance created with one effect
// a claimant, claimed, clawed back; and clawback, whose asset goes back to its issuer.
import { xdr } from '@stellar/stellar-sdk/base';
import { accountIdFromXdr, balanceIdHex, claimPredicateJson } from '../../stellar/index.js';
import type { Details } from '../rows.js';
import { addXdrAsset, amountOf, canonicalAsset } from './details.js';
import type { EffectList } from './effect_list.js';

const CLAWBACK_ENABLED_FLAG = 1;

function balanceDetails(balance: xdr.ClaimableBalanceEntry, id: string): Details {
  const details: Details = { balance_id: id, amount: amountOf(balance.amount), asset: canonicalAsset(balance.asset) };
  const ext = balance.ext;
  if (ext.type === 'v1' && (ext.v1.flags & CLAWBACK_ENABLED_FLAG) !== 0) {
    details.claimable_balance_clawback_enabled_flag = true;
  }
  return details;
}

/** the claimable balance of an entry of a `claimableBalance` change */
export function claimableBalanceOf(entry: xdr.LedgerEntry): xdr.ClaimableBalanceEntry {
  return xdr.expectUnionVariant(entry.data, 'claimableBalance').claimableBalance;
}

/** amount and asset fields of an account_credited or account_debited effect */
function movedDetails(amount: bigint, asset: xdr.Asset): Details {
  const details: Details = { amount: amountOf(amount) };
  addXdrAsset(details, asset);
  return details;
}

/**
 * claimable_balance_created, then claimable_balance_claimant_created for each claimant. A
 * create_claimable_balance operation's own claimants are named (stellar-core turns relative
 * predicates into absolute ones in the entry); a revocation's balance names the entry's.
 */
export function addBalanceCreatedEffects(list: EffectList, balance: xdr.ClaimableBalanceEntry): void {
  const id = balanceIdHex(balance.balanceId);
  list.addSource('claimable_balance_created', balanceDetails(balance, id));
  const body = list.input.op.body;
  const claimants = body.type === 'createClaimableBalance' ? body.createClaimableBalanceOp.claimants : balance.claimants;
  for (const claimant of claimants) {
    const v0 = claimant.v0;
    list.add(accountIdFromXdr(v0.destination), null, 'claimable_balance_claimant_created', {
      balance_id: id,
      amount: amountOf(balance.amount),
      predicate: claimPredicateJson(v0.predicate),
      asset: canonicalAsset(balance.asset),
    });
  }
}

export function addCreateBalanceEffects(list: EffectList): void {
  const created = list.changes.find((c) => c.type === 'claimableBalance' && c.post !== null);
  if (!created) throw new Error(`operation ${list.input.operationId}: claimable balance entry not found`);
  const balance = claimableBalanceOf(created.post!);
  addBalanceCreatedEffects(list, balance);
  list.addSource('account_debited', movedDetails(balance.amount, balance.asset));
}

export function addClaimBalanceEffects(list: EffectList, op: xdr.ClaimClaimableBalanceOp): void {
  const id = balanceIdHex(op.balanceId);
  const removed = list.changes.find(
    (c) => c.type === 'claimableBalance' && c.pre !== null && c.post === null && balanceIdHex(claimableBalanceOf(c.pre).balanceId) === id,
  );
  if (!removed) throw new Error(`operation ${list.input.operationId}: no change for claimable balance ${id}`);
  const balance = claimableBalanceOf(removed.pre!);
  list.addSource('claimable_balance_claimed', balanceDetails(balance, id));
  list.addSource('account_credited', movedDetails(balance.amount, balance.asset));
}

export function addClawbackBalanceEffects(list: EffectList, op: xdr.ClawbackClaimableBalanceOp): void {
  list.addSource('claimable_balance_clawed_back', { balance_id: balanceIdHex(op.balanceId) });
  // the issuer is credited, although the funds are burned
  const removed = list.changes.find((c) => c.type === 'claimableBalance' && c.pre !== null && c.post === null);
  if (!removed) return;
  const balance = claimableBalanceOf(removed.pre!);
  list.addSource('account_credited', movedDetails(balance.amount, balance.asset));
}

export function addClawbackEffects(list: EffectList, op: xdr.ClawbackOp): void {
  const details = movedDetails(op.amount, op.asset);
  // the issuer is credited, although the funds are burned
  list.addSource('account_credited', details);
  list.addMuxed(op.from, 'account_debited', details);
}
