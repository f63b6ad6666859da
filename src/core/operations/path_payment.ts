// What the path payments share (stellar-core PathPaymentOpFrameBase, protocol ≥ 13): crediting the
// destination, debiting the source, and converting one hop through the book or a pool. Codes are returned
// as suffixes ('NoTrust') so `payment` can map them to its own, as stellar-core's PaymentOpFrame does.
import type { xdr } from '@stellar/stellar-sdk/base';
import {
  assetFromXdr,
  assetsEqual,
  INT64_MAX,
  isAssetValid,
  MAX_OFFERS_TO_CROSS,
  muxedAccountBase,
  type AssetValue,
  type Rounding,
} from '../../stellar/index.js';
import { convertWithOffersAndPools } from '../exchange.js';
import type { ClaimAtomRec } from '../exchange.js';
import type { OpContext } from './context.js';
import { accountExists, addAccountBalance, availableBalance, loadAccount, loadTrustLineView, viewAuthorized } from './helpers.js';
import { viewAddBalanceExact } from './liabilities.js';

export type PathFailure =
  | 'Malformed'
  | 'Underfunded'
  | 'SrcNoTrust'
  | 'SrcNotAuthorized'
  | 'NoDestination'
  | 'NoTrust'
  | 'NotAuthorized'
  | 'LineFull'
  | 'TooFewOffers'
  | 'OfferCrossSelf'
  | 'OverSendmax'
  | 'UnderDestmin'
  | 'ExceededWorkLimit';

export type PathOutcome =
  | { ok: true; trail: ClaimAtomRec[]; destId: string; destAsset: AssetValue; destAmount: bigint }
  | { ok: false; code: PathFailure };

export interface PathSpec {
  sendAsset: AssetValue;
  destAsset: AssetValue;
  destId: string;
  path: AssetValue[];
}

export function pathSpec(send: xdr.Asset, dest: xdr.Asset, destination: xdr.MuxedAccount, path: xdr.Asset[]): PathSpec {
  return {
    sendAsset: assetFromXdr(send),
    destAsset: assetFromXdr(dest),
    destId: muxedAccountBase(destination),
    path: path.map((a) => assetFromXdr(a)),
  };
}

/** doCheckValid of both path payments: positive amounts, valid assets. */
export function pathAmountsAndAssetsValid(a: bigint, b: bigint, assets: xdr.Asset[]): boolean {
  return a > 0n && b > 0n && assets.every((x) => isAssetValid(x));
}

// credits sent back to their issuer need neither a path nor the issuer account to exist
export function bypassIssuerCheck(s: PathSpec): boolean {
  return s.destAsset.type !== 'native' && s.path.length === 0 && assetsEqual(s.sendAsset, s.destAsset) && s.destAsset.issuer === s.destId;
}

export function destinationMissing(ctx: OpContext, s: PathSpec): boolean {
  return !bypassIssuerCheck(s) && !accountExists(ctx.ltx, s.destId);
}

export function updateDestBalance(ctx: OpContext, s: PathSpec, amount: bigint): PathFailure | null {
  if (s.destAsset.type === 'native') {
    const d = loadAccount(ctx.ltx, s.destId)!;
    return addAccountBalance(ctx.header, d, amount) ? null : 'LineFull';
  }
  const line = loadTrustLineView(ctx.ltx, s.destId, s.destAsset);
  if (!line) return 'NoTrust';
  if (!viewAuthorized(line)) return 'NotAuthorized';
  return viewAddBalanceExact(line, amount) ? null : 'LineFull';
}

export function updateSourceBalance(ctx: OpContext, s: PathSpec, amount: bigint): PathFailure | null {
  if (s.sendAsset.type === 'native') {
    const acc = loadAccount(ctx.ltx, ctx.sourceId);
    if (!acc) return 'Malformed';
    if (amount > availableBalance(ctx.header, acc)) return 'Underfunded';
    if (!addAccountBalance(ctx.header, acc, -amount)) throw new Error('path payment: balance invariant');
    return null;
  }
  const line = loadTrustLineView(ctx.ltx, ctx.sourceId, s.sendAsset);
  if (!line) return 'SrcNoTrust';
  if (!viewAuthorized(line)) return 'SrcNotAuthorized';
  return viewAddBalanceExact(line, -amount) ? null : 'Underfunded';
}

export interface Hop {
  failure: PathFailure | null;
  amountSend: bigint;
  amountRecv: bigint;
  trail: ClaimAtomRec[];
}

/** One hop sendAsset → recvAsset through the book or the pool; `budget.offers` is the operation's work budget. */
export function convertHop(
  ctx: OpContext,
  budget: { offers: number },
  sendAsset: AssetValue,
  maxSend: bigint,
  recvAsset: AssetValue,
  maxRecv: bigint,
  round: Rounding,
): Hop {
  const conv = convertWithOffersAndPools(
    ctx.ltx,
    ctx.header,
    {
      sheep: sendAsset,
      maxSheepSend: maxSend,
      wheat: recvAsset,
      maxWheatReceive: maxRecv,
      round,
      filter: (o) => (o.sellerId === ctx.sourceId ? 'stopCrossSelf' : 'keep'),
    },
    budget,
  );
  const hop = (failure: PathFailure | null): Hop => ({
    failure,
    amountSend: conv.sheepSend,
    amountRecv: conv.wheatReceived,
    trail: conv.trail,
  });
  switch (conv.result) {
    case 'stopCrossSelf':
      return hop('OfferCrossSelf');
    case 'crossedTooMany':
      return hop('ExceededWorkLimit');
    case 'ok': {
      // the strict side of the hop must be met exactly
      const exact = round === 'strictReceive' ? conv.wheatReceived === maxRecv : conv.sheepSend === maxSend;
      return hop(exact ? null : 'TooFewOffers');
    }
    default:
      return hop('TooFewOffers');
  }
}

/** path_payment_strict_receive: the destination gets exactly `destAmount`; the source pays at most `sendMax`. */
export function applyStrictReceive(ctx: OpContext, s: PathSpec, destAmount: bigint, sendMax: bigint): PathOutcome {
  if (destinationMissing(ctx, s)) return { ok: false, code: 'NoDestination' };
  const destFail = updateDestBalance(ctx, s, destAmount);
  if (destFail) return { ok: false, code: destFail };
  const fullPath = [...s.path].reverse();
  fullPath.push(s.sendAsset);
  let recvAsset = s.destAsset;
  let maxAmountRecv = destAmount;
  const budget = { offers: MAX_OFFERS_TO_CROSS };
  let trail: ClaimAtomRec[] = [];
  for (const sendAsset of fullPath) {
    if (assetsEqual(recvAsset, sendAsset)) continue;
    const hop = convertHop(ctx, budget, sendAsset, INT64_MAX, recvAsset, maxAmountRecv, 'strictReceive');
    if (hop.failure) return { ok: false, code: hop.failure };
    maxAmountRecv = hop.amountSend;
    recvAsset = sendAsset;
    // hops run from the destination back: earlier hops go first in the result
    trail = [...hop.trail, ...trail];
  }
  if (maxAmountRecv > sendMax) return { ok: false, code: 'OverSendmax' };
  const srcFail = updateSourceBalance(ctx, s, maxAmountRecv);
  if (srcFail) return { ok: false, code: srcFail };
  return { ok: true, trail, destId: s.destId, destAsset: s.destAsset, destAmount };
}

/** path_payment_strict_send: the source pays exactly `sendAmount`; the destination gets at least `destMin`. */
export function applyStrictSend(ctx: OpContext, s: PathSpec, sendAmount: bigint, destMin: bigint): PathOutcome {
  if (destinationMissing(ctx, s)) return { ok: false, code: 'NoDestination' };
  const srcFail = updateSourceBalance(ctx, s, sendAmount);
  if (srcFail) return { ok: false, code: srcFail };
  const fullPath = [...s.path, s.destAsset];
  let sendAsset = s.sendAsset;
  let maxAmountSend = sendAmount;
  const budget = { offers: MAX_OFFERS_TO_CROSS };
  const trail: ClaimAtomRec[] = [];
  for (const recvAsset of fullPath) {
    if (assetsEqual(recvAsset, sendAsset)) continue;
    const hop = convertHop(ctx, budget, sendAsset, maxAmountSend, recvAsset, INT64_MAX, 'strictSend');
    if (hop.failure) return { ok: false, code: hop.failure };
    maxAmountSend = hop.amountRecv;
    sendAsset = recvAsset;
    trail.push(...hop.trail);
  }
  if (maxAmountSend < destMin) return { ok: false, code: 'UnderDestmin' };
  const destFail = updateDestBalance(ctx, s, maxAmountSend);
  if (destFail) return { ok: false, code: destFail };
  return { ok: true, trail, destId: s.destId, destAsset: s.destAsset, destAmount: maxAmountSend };
}
