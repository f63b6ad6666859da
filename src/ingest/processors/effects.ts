// Horizon's effects of one successful operation (effects_processor.go at 096f654) for the classic
// operations: account, signer, trust line, data, sequence and trade effects, with `order` from 1.
import type { xdr } from '@stellar/stellar-base';
import { changePairs, type EntryChange } from '../../meta/index.js';
import {
  EFFECT_TYPES,
  accountIdFromXdr,
  allowTrustAsset,
  encodeAccountId,
  muxedAccountFromXdr,
  type EffectTypeName,
} from '../../stellar/index.js';
import type { Details, EffectRow } from '../rows.js';
import { addAccount, addAsset, addXdrAsset, amountOf, signerKeyAddress } from './details.js';
import { claimAmount, claimAsset, int64Json, strictReceiveSendAmount } from './operation_details.js';

export interface EffectInput {
  operationId: bigint;
  closedAt: string;
  op: xdr.Operation;
  source: xdr.MuxedAccount;
  sourceId: string;
  result: xdr.OperationResultTr;
  changes: xdr.LedgerEntryChange[];
}

class EffectList {
  readonly rows: EffectRow[] = [];
  constructor(private readonly input: EffectInput) {}

  add(account: string, muxed: string | null, type: EffectTypeName, details: Details): void {
    this.rows.push({
      operation_id: this.input.operationId,
      order: this.rows.length + 1,
      account,
      account_muxed: muxed,
      closed_at: this.input.closedAt,
      type: EFFECT_TYPES[type],
      details,
    });
  }

  addMuxed(account: xdr.MuxedAccount, type: EffectTypeName, details: Details): void {
    const decoded = muxedAccountFromXdr(account);
    this.add(decoded.accountId, decoded.muxedAddress, type, details);
  }
}

export function operationEffects(input: EffectInput): EffectRow[] {
  const list = new EffectList(input);
  const { op, source, result } = input;
  const body = op.body();
  const pairs = (): EntryChange[] => changePairs(input.changes);
  switch (body.switch().name) {
    case 'createAccount': {
      const o = body.createAccountOp();
      const dest = accountIdFromXdr(o.destination());
      list.add(dest, null, 'account_created', { starting_balance: amountOf(o.startingBalance()) });
      list.addMuxed(source, 'account_debited', { asset_type: 'native', amount: amountOf(o.startingBalance()) });
      list.add(dest, null, 'signer_created', { public_key: dest, weight: 1 });
      break;
    }
    case 'payment': {
      const o = body.paymentOp();
      const details: Details = { amount: amountOf(o.amount()) };
      addXdrAsset(details, o.asset());
      list.addMuxed(o.destination(), 'account_credited', details);
      list.addMuxed(source, 'account_debited', details);
      break;
    }
    case 'pathPaymentStrictReceive': {
      const o = body.pathPaymentStrictReceiveOp();
      const success = result.pathPaymentStrictReceiveResult().success();
      const credited: Details = { amount: amountOf(o.destAmount()) };
      addXdrAsset(credited, o.destAsset());
      list.addMuxed(o.destination(), 'account_credited', credited);
      const debited: Details = { amount: amountOf(strictReceiveSendAmount(success)) };
      addXdrAsset(debited, o.sendAsset());
      list.addMuxed(source, 'account_debited', debited);
      addTradeEffects(list, source, success.offers());
      break;
    }
    case 'pathPaymentStrictSend': {
      const o = body.pathPaymentStrictSendOp();
      const success = result.pathPaymentStrictSendResult().success();
      const credited: Details = { amount: amountOf(success.last().amount()) };
      addXdrAsset(credited, o.destAsset());
      list.addMuxed(o.destination(), 'account_credited', credited);
      const debited: Details = { amount: amountOf(o.sendAmount()) };
      addXdrAsset(debited, o.sendAsset());
      list.addMuxed(source, 'account_debited', debited);
      addTradeEffects(list, source, success.offers());
      break;
    }
    case 'manageSellOffer':
    case 'manageBuyOffer':
    case 'createPassiveSellOffer':
      addTradeEffects(list, source, offersClaimed(result));
      break;
    case 'setOptions':
      setOptionsEffects(list, body.setOptionsOp(), source, pairs());
      break;
    case 'changeTrust': {
      const o = body.changeTrustOp();
      const line = o.line();
      if (line.switch().name === 'assetTypePoolShare') break;
      for (const change of pairs()) {
        if (change.type !== 'trustline') continue;
        const entry = (change.post ?? change.pre)!.data().trustLine();
        if (entry.asset().switch().name === 'assetTypePoolShare') continue;
        const type: EffectTypeName =
          change.pre === null ? 'trustline_created' : change.post === null ? 'trustline_removed' : 'trustline_updated';
        const details: Details = { limit: amountOf(o.limit()) };
        addXdrAsset(details, line as unknown as xdr.Asset);
        list.addMuxed(source, type, details);
        break;
      }
      break;
    }
    case 'allowTrust': {
      const o = body.allowTrustOp();
      const asset = allowTrustAsset(o, input.sourceId);
      const details: Details = { trustor: accountIdFromXdr(o.trustor()) };
      addAsset(details, asset);
      const flags = o.authorize();
      const flagDetails: Details = { trustor: accountIdFromXdr(o.trustor()) };
      addAsset(flagDetails, asset);
      if ((flags & 1) !== 0) {
        list.addMuxed(source, 'trustline_authorized', details);
        flagDetails.authorized_flag = true;
      } else if ((flags & 2) !== 0) {
        list.addMuxed(source, 'trustline_authorized_to_maintain_liabilities', details);
        // Horizon's key, misspelling included
        flagDetails.authorized_to_maintain_liabilites = true;
      } else {
        list.addMuxed(source, 'trustline_deauthorized', details);
        flagDetails.authorized_flag = false;
        flagDetails.authorized_to_maintain_liabilites = false;
      }
      list.addMuxed(source, 'trustline_flags_updated', flagDetails);
      break;
    }
    case 'accountMerge': {
      const amount = result.accountMergeResult().sourceAccountBalance();
      const details: Details = { amount: amountOf(amount), asset_type: 'native' };
      list.addMuxed(source, 'account_debited', details);
      list.addMuxed(body.destination(), 'account_credited', details);
      list.addMuxed(source, 'account_removed', {});
      break;
    }
    case 'inflation':
      for (const payout of result.inflationResult().payouts()) {
        list.add(accountIdFromXdr(payout.destination()), null, 'account_credited', {
          amount: amountOf(payout.amount()),
          asset_type: 'native',
        });
      }
      break;
    case 'manageData': {
      const o = body.manageDataOp();
      const details: Details = { name: Buffer.from(o.dataName()).toString('utf8') };
      for (const change of pairs()) {
        if (change.type !== 'data') continue;
        if (change.post) details.value = Buffer.from(change.post.data().data().dataValue()).toString('base64');
        const type: EffectTypeName = change.pre === null ? 'data_created' : change.post === null ? 'data_removed' : 'data_updated';
        list.addMuxed(source, type, details);
        break;
      }
      break;
    }
    case 'bumpSequence':
      for (const change of pairs()) {
        if (change.type !== 'account' || !change.pre || !change.post) continue;
        const before = change.pre.data().account().seqNum().toString();
        const after = change.post.data().account().seqNum();
        if (before !== after.toString()) list.addMuxed(source, 'sequence_bumped', { new_seq: int64Json(after) });
        break;
      }
      break;
    default:
      break;
  }
  return list.rows;
}

function offersClaimed(result: xdr.OperationResultTr): xdr.ClaimAtom[] {
  // stellar-core reports create_passive_sell_offer results in the manage_sell_offer arm
  const arm = result.switch().name;
  if (arm === 'manageBuyOffer') return result.manageBuyOfferResult().success().offersClaimed();
  if (arm === 'createPassiveSellOffer') return result.createPassiveSellOfferResult().success().offersClaimed();
  return result.manageSellOfferResult().success().offersClaimed();
}

function addTradeEffects(list: EffectList, buyer: xdr.MuxedAccount, claims: xdr.ClaimAtom[]): void {
  for (const claim of claims) {
    if (claim.switch().name === 'claimAtomTypeLiquidityPool') continue;
    const sold = claimAmount(claim, 'sold');
    const bought = claimAmount(claim, 'bought');
    if (sold === 0n && bought === 0n) continue;
    const atom = claim.value() as xdr.ClaimOfferAtom | xdr.ClaimOfferAtomV0;
    const seller = 'sellerId' in atom ? accountIdFromXdr(atom.sellerId()) : encodeAccountId(atom.sellerEd25519());
    const offerId = int64Json(atom.offerId());
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
  const master = account.thresholds()[0] ?? 0;
  if (master > 0) out.set(accountIdFromXdr(account.accountId()), master);
  for (const signer of account.signers()) out.set(signerKeyAddress(signer.key()), signer.weight());
  return out;
}

function setOptionsEffects(list: EffectList, o: xdr.SetOptionsOp, source: xdr.MuxedAccount, changes: EntryChange[]): void {
  const homeDomain = o.homeDomain();
  if (homeDomain !== null && homeDomain !== undefined) {
    list.addMuxed(source, 'account_home_domain_updated', { home_domain: Buffer.from(homeDomain).toString('utf8') });
  }
  const thresholds: Details = {};
  const low = o.lowThreshold();
  const med = o.medThreshold();
  const high = o.highThreshold();
  if (low !== null && low !== undefined) thresholds.low_threshold = low;
  if (med !== null && med !== undefined) thresholds.med_threshold = med;
  if (high !== null && high !== undefined) thresholds.high_threshold = high;
  if (Object.keys(thresholds).length > 0) list.addMuxed(source, 'account_thresholds_updated', thresholds);
  const flags: Details = {};
  const setFlags = o.setFlags();
  const clearFlags = o.clearFlags();
  if (setFlags !== null && setFlags !== undefined) {
    for (const [bit, key] of ACCOUNT_FLAG_KEYS) if ((setFlags & bit) !== 0) flags[key] = true;
  }
  if (clearFlags !== null && clearFlags !== undefined) {
    for (const [bit, key] of ACCOUNT_FLAG_KEYS) if ((clearFlags & bit) !== 0) flags[key] = false;
  }
  if (Object.keys(flags).length > 0) list.addMuxed(source, 'account_flags_updated', flags);
  const inflationDest = o.inflationDest();
  if (inflationDest) {
    list.addMuxed(source, 'account_inflation_destination_updated', { inflation_destination: accountIdFromXdr(inflationDest) });
  }
  for (const change of changes) {
    if (change.type !== 'account' || !change.pre || !change.post) continue;
    const before = signerSummary(change.pre.data().account());
    const after = signerSummary(change.post.data().account());
    for (const key of [...before.keys()].sort()) {
      const weight = after.get(key);
      if (weight === undefined) list.addMuxed(source, 'signer_removed', { public_key: key });
      else if (weight !== before.get(key)) list.addMuxed(source, 'signer_updated', { public_key: key, weight });
    }
    for (const key of [...after.keys()].sort()) {
      if (!before.has(key)) list.addMuxed(source, 'signer_created', { public_key: key, weight: after.get(key)! });
    }
  }
}
