// Horizon's effects of one successful operation (stellar-horizon's effects_processor.go), with
// `order` from 1: the operation's own effects, then the sponsorship effects of its ledger entry
// changes, then the liquidity pools they created or removed (the changes in stellar-go's order).
import { xdr } from '@stellar/stellar-sdk/base';
import {
  accountIdFromXdr,
  allowTrustAsset,
  assetFromXdr,
  encodeAccountId,
  poolIdOf,
  type AssetValue,
  type EffectTypeName,
} from '../../stellar/index.js';
import type { Details, EffectRow } from '../rows.js';
import { addAccount, addAsset, addXdrAsset, amountOf, signerKeyAddress } from './details.js';
import { EffectList, type EffectInput } from './effect_list.js';
import {
  addClaimBalanceEffects,
  addClawbackBalanceEffects,
  addClawbackEffects,
  addCreateBalanceEffects,
} from './effects_claimable_balances.js';
import { addInvokeHostFunctionEffects } from './effects_contracts.js';
import { addDepositEffect, addPoolEntryEffects, addPoolRevokedEffects, addPoolTradeEffect, addWithdrawEffect } from './effects_pools.js';
import { addSponsorshipEffects } from './effects_sponsorship.js';
import { claimAmount, claimAsset, int64Json, strictReceiveSendAmount } from './operation_details.js';

export type { EffectInput } from './effect_list.js';

export function operationEffects(input: EffectInput): EffectRow[] {
  const list = new EffectList(input);
  const { op, source } = input;
  const body = op.body;
  switch (body.type) {
    case 'createAccount': {
      const o = body.createAccountOp;
      const dest = accountIdFromXdr(o.destination);
      list.add(dest, null, 'account_created', { starting_balance: amountOf(o.startingBalance) });
      list.addMuxed(source, 'account_debited', { asset_type: 'native', amount: amountOf(o.startingBalance) });
      list.add(dest, null, 'signer_created', { public_key: dest, weight: 1 });
      break;
    }
    case 'payment': {
      const o = body.paymentOp;
      const details: Details = { amount: amountOf(o.amount) };
      addXdrAsset(details, o.asset);
      list.addMuxed(o.destination, 'account_credited', details);
      list.addMuxed(source, 'account_debited', details);
      break;
    }
    case 'pathPaymentStrictReceive': {
      const o = body.pathPaymentStrictReceiveOp;
      const { success } = xdr.expectUnionVariant(
        xdr.expectUnionVariant(input.result, 'pathPaymentStrictReceive').pathPaymentStrictReceiveResult,
        'pathPaymentStrictReceiveSuccess',
      );
      const credited: Details = { amount: amountOf(o.destAmount) };
      addXdrAsset(credited, o.destAsset);
      list.addMuxed(o.destination, 'account_credited', credited);
      const debited: Details = { amount: amountOf(strictReceiveSendAmount(success)) };
      addXdrAsset(debited, o.sendAsset);
      list.addMuxed(source, 'account_debited', debited);
      addTradeEffects(list, source, success.offers);
      break;
    }
    case 'pathPaymentStrictSend': {
      const o = body.pathPaymentStrictSendOp;
      const { success } = xdr.expectUnionVariant(
        xdr.expectUnionVariant(input.result, 'pathPaymentStrictSend').pathPaymentStrictSendResult,
        'pathPaymentStrictSendSuccess',
      );
      const credited: Details = { amount: amountOf(success.last.amount) };
      addXdrAsset(credited, o.destAsset);
      list.addMuxed(o.destination, 'account_credited', credited);
      const debited: Details = { amount: amountOf(o.sendAmount) };
      addXdrAsset(debited, o.sendAsset);
      list.addMuxed(source, 'account_debited', debited);
      addTradeEffects(list, source, success.offers);
      break;
    }
    case 'manageSellOffer':
    case 'manageBuyOffer':
    case 'createPassiveSellOffer':
      addTradeEffects(list, source, offersClaimed(input.result));
      break;
    case 'setOptions':
      setOptionsEffects(list, body.setOptionsOp);
      break;
    case 'changeTrust':
      changeTrustEffects(list, body.changeTrustOp);
      break;
    case 'allowTrust': {
      const o = body.allowTrustOp;
      const asset = allowTrustAsset(o, input.sourceId);
      const details: Details = { trustor: accountIdFromXdr(o.trustor) };
      addAsset(details, asset);
      const flags = o.authorize;
      // Horizon also gives the trustline_flags_updated effect set_trust_line_flags would
      if ((flags & AUTHORIZED) !== 0) {
        list.addSource('trustline_authorized', details);
        addTrustLineFlagsEffect(list, o.trustor, asset, AUTHORIZED, null);
      } else if ((flags & AUTHORIZED_TO_MAINTAIN_LIABILITIES) !== 0) {
        list.addSource('trustline_authorized_to_maintain_liabilities', details);
        addTrustLineFlagsEffect(list, o.trustor, asset, AUTHORIZED_TO_MAINTAIN_LIABILITIES, null);
      } else {
        list.addSource('trustline_deauthorized', details);
        addTrustLineFlagsEffect(list, o.trustor, asset, null, AUTHORIZED | AUTHORIZED_TO_MAINTAIN_LIABILITIES);
      }
      addPoolRevokedEffects(list);
      break;
    }
    case 'accountMerge': {
      const amount = xdr.expectUnionVariant(
        xdr.expectUnionVariant(input.result, 'accountMerge').accountMergeResult,
        'accountMergeSuccess',
      ).sourceAccountBalance;
      const details: Details = { amount: amountOf(amount), asset_type: 'native' };
      list.addMuxed(source, 'account_debited', details);
      list.addMuxed(body.destination, 'account_credited', details);
      list.addMuxed(source, 'account_removed', {});
      break;
    }
    case 'inflation': {
      const inflation = xdr.expectUnionVariant(input.result, 'inflation').inflationResult;
      for (const payout of xdr.expectUnionVariant(inflation, 'inflationSuccess').payouts) {
        list.add(accountIdFromXdr(payout.destination), null, 'account_credited', {
          amount: amountOf(payout.amount),
          asset_type: 'native',
        });
      }
      break;
    }
    case 'manageData': {
      const o = body.manageDataOp;
      const details: Details = { name: Buffer.from(o.dataName.bytes).toString('utf8') };
      const change = list.changes.find((c) => c.type === 'data');
      if (change) {
        if (change.post)
          details.value = Buffer.from(xdr.expectUnionVariant(change.post.data, 'data').data.dataValue.value).toString('base64');
        const type: EffectTypeName = change.pre === null ? 'data_created' : change.post === null ? 'data_removed' : 'data_updated';
        list.addSource(type, details);
      }
      break;
    }
    case 'bumpSequence': {
      const change = list.changes.find((c) => c.type === 'account');
      if (change?.pre && change.post) {
        const before = xdr.expectUnionVariant(change.pre.data, 'account').account.seqNum;
        const after = xdr.expectUnionVariant(change.post.data, 'account').account.seqNum;
        if (before !== after) list.addSource('sequence_bumped', { new_seq: int64Json(after) });
      }
      break;
    }
    case 'createClaimableBalance':
      addCreateBalanceEffects(list);
      break;
    case 'claimClaimableBalance':
      addClaimBalanceEffects(list, body.claimClaimableBalanceOp);
      break;
    case 'clawback':
      addClawbackEffects(list, body.clawbackOp);
      break;
    case 'clawbackClaimableBalance':
      addClawbackBalanceEffects(list, body.clawbackClaimableBalanceOp);
      break;
    case 'setTrustLineFlags': {
      const o = body.setTrustLineFlagsOp;
      addTrustLineFlagsEffect(list, o.trustor, assetFromXdr(o.asset), o.setFlags, o.clearFlags);
      addPoolRevokedEffects(list);
      break;
    }
    case 'liquidityPoolDeposit':
      addDepositEffect(list, body.liquidityPoolDepositOp);
      break;
    case 'liquidityPoolWithdraw':
      addWithdrawEffect(list, body.liquidityPoolWithdrawOp);
      break;
    case 'invokeHostFunction':
      addInvokeHostFunctionEffects(list);
      break;
    default:
      // begin/end_sponsoring_future_reserves and revoke_sponsorship have only the sponsorship
      // effects of their changes; extend_footprint_ttl and restore_footprint have none
      break;
  }
  if (input.sponsored !== false) {
    addSponsorshipEffects(list);
    addPoolEntryEffects(list);
  }
  return list.rows;
}

function offersClaimed(result: xdr.OperationResultTr): xdr.ClaimAtom[] {
  // stellar-core reports create_passive_sell_offer results in the manage_sell_offer arm
  const offer =
    result.type === 'manageBuyOffer'
      ? xdr.expectUnionVariant(result.manageBuyOfferResult, 'manageBuyOfferSuccess')
      : result.type === 'createPassiveSellOffer'
        ? xdr.expectUnionVariant(result.createPassiveSellOfferResult, 'manageSellOfferSuccess')
        : xdr.expectUnionVariant(xdr.expectUnionVariant(result, 'manageSellOffer').manageSellOfferResult, 'manageSellOfferSuccess');
  return offer.success.offersClaimed;
}

function addTradeEffects(list: EffectList, buyer: xdr.MuxedAccount, claims: xdr.ClaimAtom[]): void {
  for (const claim of claims) {
    const sold = claimAmount(claim, 'sold');
    const bought = claimAmount(claim, 'bought');
    if (sold === 0n && bought === 0n) continue;
    if (claim.type === 'claimAtomTypeLiquidityPool') {
      addPoolTradeEffect(list, claim.liquidityPool);
      continue;
    }
    const seller =
      claim.type === 'claimAtomTypeOrderBook' ? accountIdFromXdr(claim.orderBook.sellerId) : encodeAccountId(claim.v0.sellerEd25519.value);
    const offerId = int64Json(claim.value.offerId);
    const buyerDetails: Details = {
      offer_id: offerId,
      seller,
      bought_amount: amountOf(sold),
      sold_amount: amountOf(bought),
    };
    addXdrAsset(buyerDetails, claimAsset(claim, 'sold'), 'bought_');
    addXdrAsset(buyerDetails, claimAsset(claim, 'bought'), 'sold_');
    list.addMuxed(buyer, 'trade', buyerDetails);
    const sellerDetails: Details = { offer_id: offerId, bought_amount: amountOf(bought), sold_amount: amountOf(sold) };
    addAccount(sellerDetails, buyer, 'seller');
    addXdrAsset(sellerDetails, claimAsset(claim, 'bought'), 'bought_');
    addXdrAsset(sellerDetails, claimAsset(claim, 'sold'), 'sold_');
    list.add(seller, null, 'trade', sellerDetails);
  }
}

const ACCOUNT_FLAG_KEYS: [number, string][] = [
  [1, 'auth_required_flag'],
  [2, 'auth_revocable_flag'],
  [4, 'auth_immutable_flag'],
  [8, 'auth_clawback_enabled_flag'],
];

/** address → weight, with the master key when its weight is above 0 (stellar-go's SignerSummary) */
function signerSummary(account: xdr.AccountEntry): Map<string, number> {
  const out = new Map<string, number>();
  const master = account.thresholds.value[0] ?? 0;
  if (master > 0) out.set(accountIdFromXdr(account.accountId), master);
  for (const signer of account.signers) out.set(signerKeyAddress(signer.key), signer.weight);
  return out;
}

function setOptionsEffects(list: EffectList, o: xdr.SetOptionsOp): void {
  const homeDomain = o.homeDomain;
  if (homeDomain !== null) {
    list.addSource('account_home_domain_updated', { home_domain: Buffer.from(homeDomain.bytes).toString('utf8') });
  }
  const thresholds: Details = {};
  const low = o.lowThreshold;
  const med = o.medThreshold;
  const high = o.highThreshold;
  if (low !== null) thresholds.low_threshold = low;
  if (med !== null) thresholds.med_threshold = med;
  if (high !== null) thresholds.high_threshold = high;
  if (Object.keys(thresholds).length > 0) list.addSource('account_thresholds_updated', thresholds);
  const flags: Details = {};
  const setFlags = o.setFlags;
  const clearFlags = o.clearFlags;
  if (setFlags !== null) {
    for (const [bit, key] of ACCOUNT_FLAG_KEYS) if ((setFlags & bit) !== 0) flags[key] = true;
  }
  if (clearFlags !== null) {
    for (const [bit, key] of ACCOUNT_FLAG_KEYS) if ((clearFlags & bit) !== 0) flags[key] = false;
  }
  if (Object.keys(flags).length > 0) list.addSource('account_flags_updated', flags);
  const inflationDest = o.inflationDest;
  if (inflationDest) {
    list.addSource('account_inflation_destination_updated', { inflation_destination: accountIdFromXdr(inflationDest) });
  }
  for (const change of list.changes) {
    if (change.type !== 'account' || !change.pre || !change.post) continue;
    const before = signerSummary(xdr.expectUnionVariant(change.pre.data, 'account').account);
    const after = signerSummary(xdr.expectUnionVariant(change.post.data, 'account').account);
    for (const key of [...before.keys()].sort()) {
      const weight = after.get(key);
      if (weight === undefined) list.addSource('signer_removed', { public_key: key });
      else if (weight !== before.get(key)) list.addSource('signer_updated', { public_key: key, weight });
    }
    for (const key of [...after.keys()].sort()) {
      if (!before.has(key)) list.addSource('signer_created', { public_key: key, weight: after.get(key)! });
    }
  }
}

/**
 * One effect for the trust line the operation names (an asset's, or a pool's shares'): created,
 * removed or updated. A trust line to itself changes nothing and has none.
 */
function changeTrustEffects(list: EffectList, o: xdr.ChangeTrustOp): void {
  const line = o.line;
  for (const change of list.changes) {
    if (change.type !== 'trustline') continue;
    const entry = xdr.expectUnionVariant((change.post ?? change.pre)!.data, 'trustline').trustLine;
    // the same arm (both unions share ChangeTrustAsset's discriminants)
    if (entry.asset.type !== line.type) continue;
    const type: EffectTypeName =
      change.pre === null ? 'trustline_created' : change.post === null ? 'trustline_removed' : 'trustline_updated';
    const details: Details = { limit: amountOf(o.limit) };
    if (line.type === 'assetTypePoolShare') {
      details.asset_type = 'liquidity_pool_shares';
      details.liquidity_pool_id = poolIdOf(line.liquidityPool);
    } else {
      addAsset(details, assetFromXdr(line));
    }
    list.addSource(type, details);
    return;
  }
}

const AUTHORIZED = 1;
const AUTHORIZED_TO_MAINTAIN_LIABILITIES = 2;
const CLAWBACK_ENABLED = 4;

const TRUST_LINE_FLAG_KEYS: [number, string][] = [
  [AUTHORIZED, 'authorized_flag'],
  // Horizon's key, misspelling included
  [AUTHORIZED_TO_MAINTAIN_LIABILITIES, 'authorized_to_maintain_liabilites'],
  [CLAWBACK_ENABLED, 'clawback_enabled_flag'],
];

/** Horizon's addTrustLineFlagsEffect: the flags set (true), then those cleared (false) */
function addTrustLineFlagsEffect(
  list: EffectList,
  trustor: xdr.AccountId,
  asset: AssetValue,
  setFlags: number | null,
  clearFlags: number | null,
): void {
  const details: Details = { trustor: accountIdFromXdr(trustor) };
  addAsset(details, asset);
  for (const [flags, value] of [
    [setFlags, true],
    [clearFlags, false],
  ] as const) {
    if (flags === null) continue;
    for (const [bit, key] of TRUST_LINE_FLAG_KEYS) if ((flags & bit) !== 0) details[key] = value;
  }
  list.addSource('trustline_flags_updated', details);
}
