// Horizon's `details` of an operation (operations_processor.go at 096f654), for every classic
// operation; later operation types keep their type and an empty object.
import type { xdr } from '@stellar/stellar-base';
import { accountIdFromXdr, allowTrustAsset, formatPrice } from '../../stellar/index.js';
import type { Details, JsonValue } from '../rows.js';
import { addAccount, addAsset, addXdrAsset, amountOf, signerKeyAddress } from './details.js';

const AUTH_FLAG_NAMES: [number, string][] = [
  [1, 'auth_required'],
  [2, 'auth_revocable'],
  [4, 'auth_immutable'],
  [8, 'auth_clawback_enabled'],
];

function addAuthFlags(details: Details, flags: number, prefix: 'set' | 'clear'): void {
  const set = AUTH_FLAG_NAMES.filter(([bit]) => (flags & bit) !== 0);
  details[`${prefix}_flags`] = set.map(([bit]) => bit);
  details[`${prefix}_flags_s`] = set.map(([, name]) => name);
}

/** int64 values as JSON numbers while exact (Horizon writes numbers), else strings */
export function int64Json(value: xdr.Int64 | xdr.Uint64 | bigint): JsonValue {
  const big = BigInt(value.toString());
  return big <= BigInt(Number.MAX_SAFE_INTEGER) && big >= -BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big.toString();
}

function price(details: Details, p: xdr.Price): void {
  details.price = formatPrice({ n: p.n(), d: p.d() });
  details.price_r = { n: p.n(), d: p.d() };
}

function path(assets: xdr.Asset[]): Details[] {
  return assets.map((a) => {
    const d: Details = {};
    addXdrAsset(d, a);
    return d;
  });
}

/**
 * `result` is the operation's result when the transaction succeeded (it fills the path payments'
 * computed amounts), undefined otherwise.
 */
export function operationDetails(
  op: xdr.Operation,
  source: xdr.MuxedAccount,
  sourceId: string,
  result: xdr.OperationResultTr | undefined,
): Details {
  const details: Details = {};
  const body = op.body();
  switch (body.switch().name) {
    case 'createAccount': {
      const o = body.createAccountOp();
      addAccount(details, source, 'funder');
      details.account = accountIdFromXdr(o.destination());
      details.starting_balance = amountOf(o.startingBalance());
      break;
    }
    case 'payment': {
      const o = body.paymentOp();
      addAccount(details, source, 'from');
      addAccount(details, o.destination(), 'to');
      details.amount = amountOf(o.amount());
      addXdrAsset(details, o.asset());
      break;
    }
    case 'pathPaymentStrictReceive': {
      const o = body.pathPaymentStrictReceiveOp();
      addAccount(details, source, 'from');
      addAccount(details, o.destination(), 'to');
      details.amount = amountOf(o.destAmount());
      details.source_amount = amountOf(0n);
      details.source_max = amountOf(o.sendMax());
      addXdrAsset(details, o.destAsset());
      addXdrAsset(details, o.sendAsset(), 'source_');
      if (result) {
        details.source_amount = amountOf(strictReceiveSendAmount(result.pathPaymentStrictReceiveResult().success()));
      }
      details.path = path(o.path());
      break;
    }
    case 'pathPaymentStrictSend': {
      const o = body.pathPaymentStrictSendOp();
      addAccount(details, source, 'from');
      addAccount(details, o.destination(), 'to');
      details.amount = amountOf(0n);
      details.source_amount = amountOf(o.sendAmount());
      details.destination_min = amountOf(o.destMin());
      addXdrAsset(details, o.destAsset());
      addXdrAsset(details, o.sendAsset(), 'source_');
      if (result) details.amount = amountOf(result.pathPaymentStrictSendResult().success().last().amount());
      details.path = path(o.path());
      break;
    }
    case 'manageBuyOffer': {
      const o = body.manageBuyOfferOp();
      details.offer_id = int64Json(o.offerId());
      details.amount = amountOf(o.buyAmount());
      price(details, o.price());
      addXdrAsset(details, o.buying(), 'buying_');
      addXdrAsset(details, o.selling(), 'selling_');
      break;
    }
    case 'manageSellOffer': {
      const o = body.manageSellOfferOp();
      details.offer_id = int64Json(o.offerId());
      details.amount = amountOf(o.amount());
      price(details, o.price());
      addXdrAsset(details, o.buying(), 'buying_');
      addXdrAsset(details, o.selling(), 'selling_');
      break;
    }
    case 'createPassiveSellOffer': {
      const o = body.createPassiveSellOfferOp();
      details.amount = amountOf(o.amount());
      price(details, o.price());
      addXdrAsset(details, o.buying(), 'buying_');
      addXdrAsset(details, o.selling(), 'selling_');
      break;
    }
    case 'setOptions': {
      const o = body.setOptionsOp();
      const inflationDest = o.inflationDest();
      if (inflationDest) details.inflation_dest = accountIdFromXdr(inflationDest);
      const setFlags = o.setFlags();
      if (setFlags !== null && setFlags !== undefined && setFlags > 0) addAuthFlags(details, setFlags, 'set');
      const clearFlags = o.clearFlags();
      if (clearFlags !== null && clearFlags !== undefined && clearFlags > 0) addAuthFlags(details, clearFlags, 'clear');
      const optional: [string, number | null | undefined][] = [
        ['master_key_weight', o.masterWeight()],
        ['low_threshold', o.lowThreshold()],
        ['med_threshold', o.medThreshold()],
        ['high_threshold', o.highThreshold()],
      ];
      for (const [key, value] of optional) if (value !== null && value !== undefined) details[key] = value;
      const homeDomain = o.homeDomain();
      if (homeDomain !== null && homeDomain !== undefined) details.home_domain = Buffer.from(homeDomain).toString('utf8');
      const signer = o.signer();
      if (signer) {
        details.signer_key = signerKeyAddress(signer.key());
        details.signer_weight = signer.weight();
      }
      break;
    }
    case 'changeTrust': {
      const o = body.changeTrustOp();
      const line = o.line();
      if (line.switch().name === 'assetTypePoolShare') {
        details.asset_type = 'liquidity_pool_shares';
      } else {
        addXdrAsset(details, line as unknown as xdr.Asset);
        details.trustee = details.asset_issuer ?? null;
      }
      addAccount(details, source, 'trustor');
      details.limit = amountOf(o.limit());
      break;
    }
    case 'allowTrust': {
      const o = body.allowTrustOp();
      addAsset(details, allowTrustAsset(o, sourceId));
      addAccount(details, source, 'trustee');
      details.trustor = accountIdFromXdr(o.trustor());
      const flags = o.authorize();
      details.authorize = (flags & 1) !== 0;
      if ((flags & 2) !== 0) details.authorize_to_maintain_liabilities = true;
      if ((flags & 4) !== 0) details.clawback_enabled = true;
      break;
    }
    case 'accountMerge':
      addAccount(details, source, 'account');
      addAccount(details, body.destination(), 'into');
      break;
    case 'inflation':
      break;
    case 'manageData': {
      const o = body.manageDataOp();
      details.name = Buffer.from(o.dataName()).toString('utf8');
      const value = o.dataValue();
      details.value = value ? Buffer.from(value).toString('base64') : null;
      break;
    }
    case 'bumpSequence':
      details.bump_to = body.bumpSequenceOp().bumpTo().toString();
      break;
    default:
      break;
  }
  return details;
}

/** What a strict-receive path payment sent (stellar-go's SendAmount): the first hop's bought amounts. */
export function strictReceiveSendAmount(success: xdr.PathPaymentStrictReceiveResultSuccess): bigint {
  const offers = success.offers();
  // no offer crossed: the payment was in one asset
  if (offers.length === 0) return BigInt(success.last().amount().toString());
  const first = offers[0]!;
  const sold = claimAsset(first, 'bought');
  let total = 0n;
  for (const atom of offers) {
    if (assetKey(claimAsset(atom, 'bought')) === assetKey(sold)) total += claimAmount(atom, 'bought');
  }
  return total;
}

export function claimAsset(atom: xdr.ClaimAtom, side: 'sold' | 'bought'): xdr.Asset {
  const v = atom.value() as xdr.ClaimOfferAtom | xdr.ClaimOfferAtomV0 | xdr.ClaimLiquidityAtom;
  return side === 'sold' ? v.assetSold() : v.assetBought();
}

export function claimAmount(atom: xdr.ClaimAtom, side: 'sold' | 'bought'): bigint {
  const v = atom.value() as xdr.ClaimOfferAtom | xdr.ClaimOfferAtomV0 | xdr.ClaimLiquidityAtom;
  return BigInt((side === 'sold' ? v.amountSold() : v.amountBought()).toString());
}

function assetKey(asset: xdr.Asset): string {
  return asset.toXDR('hex');
}
