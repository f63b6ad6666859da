// Trades from the claim atoms of offer and path payment results (trades_processor.go at 096f654).
// The rows keep the seller's and the buyer's side; the writer turns them into base/counter by the
// assets' history ids, as Horizon does.
import type { xdr } from '@stellar/stellar-base';
import { changePairs } from '../../meta/index.js';
import { accountIdFromXdr, assetFromXdr, encodeAccountId, muxedAccountFromXdr } from '../../stellar/index.js';
import type { TradeRecord } from '../rows.js';
import { claimAmount, claimAsset } from './operation_details.js';

/** Horizon's synthetic offer id for a buyer without a resting offer: the operation id, type bit 62 */
export function syntheticOfferId(operationId: bigint): bigint {
  return operationId | (1n << 62n);
}

export interface TradeInput {
  operationId: bigint;
  closedAt: string;
  op: xdr.Operation;
  source: xdr.MuxedAccount;
  result: xdr.OperationResultTr;
  changes: xdr.LedgerEntryChange[];
}

export function operationTrades(input: TradeInput): TradeRecord[] {
  const { op, result } = input;
  let claims: xdr.ClaimAtom[];
  let buyOffer: xdr.OfferEntry | null = null;
  switch (op.body().switch().name) {
    case 'pathPaymentStrictReceive':
      claims = result.pathPaymentStrictReceiveResult().success().offers();
      break;
    case 'pathPaymentStrictSend':
      claims = result.pathPaymentStrictSendResult().success().offers();
      break;
    case 'manageBuyOffer': {
      const success = result.manageBuyOfferResult().success();
      claims = success.offersClaimed();
      buyOffer = restingOffer(success.offer());
      break;
    }
    case 'manageSellOffer':
    case 'createPassiveSellOffer': {
      const success =
        result.switch().name === 'createPassiveSellOffer'
          ? result.createPassiveSellOfferResult().success()
          : result.manageSellOfferResult().success();
      claims = success.offersClaimed();
      buyOffer = restingOffer(success.offer());
      break;
    }
    default:
      return [];
  }
  const buyer = muxedAccountFromXdr(input.source).accountId;
  const rows: TradeRecord[] = [];
  claims.forEach((claim, order) => {
    if (claim.switch().name === 'claimAtomTypeLiquidityPool') return;
    const sold = claimAmount(claim, 'sold');
    const bought = claimAmount(claim, 'bought');
    if (sold === 0n && bought === 0n) return;
    const atom = claim.value() as xdr.ClaimOfferAtom | xdr.ClaimOfferAtomV0;
    const seller = 'sellerId' in atom ? accountIdFromXdr(atom.sellerId()) : encodeAccountId(atom.sellerEd25519());
    const offerId = BigInt(atom.offerId().toString());
    const price = offerPrice(input.changes, seller, offerId);
    rows.push({
      operation_id: input.operationId,
      order,
      closed_at: input.closedAt,
      offer_id: offerId,
      seller,
      seller_offer_id: offerId,
      buyer,
      buyer_offer_id: buyOffer ? BigInt(buyOffer.offerId().toString()) : syntheticOfferId(input.operationId),
      sold_asset: assetFromXdr(claimAsset(claim, 'sold')),
      sold_amount: sold,
      bought_asset: assetFromXdr(claimAsset(claim, 'bought')),
      bought_amount: bought,
      price_n: price.n,
      price_d: price.d,
    });
  });
  return rows;
}

function restingOffer(offer: xdr.ManageOfferSuccessResultOffer): xdr.OfferEntry | null {
  const arm = offer.switch().name;
  return arm === 'manageOfferCreated' || arm === 'manageOfferUpdated' ? offer.offer() : null;
}

/** the crossed offer's price before this operation (its state entry in the operation's changes) */
function offerPrice(changes: xdr.LedgerEntryChange[], seller: string, offerId: bigint): { n: bigint; d: bigint } {
  for (const change of changePairs(changes)) {
    if (change.type !== 'offer' || !change.pre) continue;
    const offer = change.pre.data().offer();
    if (BigInt(offer.offerId().toString()) === offerId && accountIdFromXdr(offer.sellerId()) === seller) {
      return { n: BigInt(offer.price().n()), d: BigInt(offer.price().d()) };
    }
  }
  throw new Error(`no ledger entry change for crossed offer ${offerId} of ${seller}`);
}
