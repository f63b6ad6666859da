// change_trust: creates, updates (limit) or removes (limit 0) a trust line to a credit asset or to
// a liquidity pool's shares (stellar-core ChangeTrustOpFrame, protocol ≥ 18). A pool-share line
// needs lines (or issuance) of both pool assets, counts in their liquidityPoolUseCount, creates
// the pool with its first line and removes it with its last.
import type { xdr } from '@stellar/stellar-sdk/base';
import {
  assetFromXdr,
  compareAssets,
  isAssetValid,
  LIQUIDITY_POOL_FEE_V18,
  poolIdOf,
  type AssetValue,
  type CreditAsset,
} from '../../stellar/index.js';
import { accountKey, liquidityPoolKey, trustLineKey } from '../ledger/entries.js';
import type { AccountRec, LiquidityPoolRec, TrustLineAsset, TrustLineRec } from '../ledger/entries.js';
import type { LedgerTxn } from '../ledger/ledger_txn.js';
import { opInner } from '../ledger/results.js';
import type { OperationDef, OpOutcome } from './context.js';
import {
  AUTH_CLAWBACK_ENABLED_FLAG,
  AUTH_REQUIRED_FLAG,
  TL_AUTHORIZED_FLAG,
  TL_CLAWBACK_ENABLED_FLAG,
  loadAccount,
  opBody,
} from './helpers.js';
import { decrementPoolSharesTrustLineCount, decrementPoolUseCount, incrementPoolUseCount } from './pool_shares.js';
import { createEntryWithPossibleSponsorship, removeEntryWithPossibleSponsorship, sponsorshipFailure } from './sponsorship.js';

const T = 'changeTrust';
const fail = (code: string): OpOutcome => ({ success: false, result: opInner(T, code) });

/** A pool-share line's pool: its id and its two assets, in the parameters' order. */
interface PoolShareLine {
  poolId: string;
  assetA: AssetValue;
  assetB: AssetValue;
}

// stellar-core isAssetValid for a ChangeTrustAsset: a valid credit asset, or a pool of two valid
// assets in order (A < B) with the protocol's fee
function isLineValid(line: xdr.ChangeTrustAsset): boolean {
  if (line.type !== 'assetTypePoolShare') return isAssetValid(line);
  const cp = line.liquidityPool.constantProduct;
  if (!isAssetValid(cp.assetA) || !isAssetValid(cp.assetB)) return false;
  return compareAssets(assetFromXdr(cp.assetA), assetFromXdr(cp.assetB)) < 0 && cp.fee === LIQUIDITY_POOL_FEE_V18;
}

// checkValid has ruled out the native asset and invalid lines
function lineOf(line: xdr.ChangeTrustAsset): CreditAsset | PoolShareLine {
  if (line.type !== 'assetTypePoolShare') return assetFromXdr(line) as CreditAsset;
  const cp = line.liquidityPool.constantProduct;
  return { poolId: poolIdOf(line.liquidityPool), assetA: assetFromXdr(cp.assetA), assetB: assetFromXdr(cp.assetB) };
}

const isPoolShare = (l: CreditAsset | PoolShareLine): l is PoolShareLine => 'poolId' in l;

/** stellar-core tryManagePoolOnNewTrustLine: null, or the failure code. */
function addPoolShareLine(ltx: LedgerTxn, accountId: string, p: PoolShareLine): string | null {
  const missing = incrementPoolUseCount(ltx, accountId, p.assetA) ?? incrementPoolUseCount(ltx, accountId, p.assetB);
  if (missing) return missing;
  const pool = ltx.load<LiquidityPoolRec>(liquidityPoolKey(p.poolId));
  if (pool) {
    pool.poolSharesTrustLineCount += 1n;
    return null;
  }
  ltx.create({
    type: 'liquidityPool',
    poolId: p.poolId,
    assetA: p.assetA,
    assetB: p.assetB,
    fee: LIQUIDITY_POOL_FEE_V18,
    reserveA: 0n,
    reserveB: 0n,
    totalPoolShares: 0n,
    poolSharesTrustLineCount: 1n,
    lastModified: 0,
  });
  return null;
}

/** stellar-core managePoolOnDeletedTrustLine. */
function removePoolShareLine(ltx: LedgerTxn, accountId: string, p: PoolShareLine): void {
  decrementPoolUseCount(ltx, accountId, p.assetA);
  decrementPoolUseCount(ltx, accountId, p.assetB);
  decrementPoolSharesTrustLineCount(ltx, p.poolId);
}

export const changeTrust: OperationDef = {
  threshold: () => 'medium',
  supported: true,
  checkValid(op, sourceId) {
    const b = opBody(op, T).changeTrustOp;
    if (b.limit < 0n) return opInner(T, 'changeTrustMalformed');
    const line = b.line;
    if (!isLineValid(line) || line.type === 'assetTypeNative') return opInner(T, 'changeTrustMalformed');
    const l = lineOf(line);
    if (!isPoolShare(l) && l.issuer === sourceId) return opInner(T, 'changeTrustMalformed');
    return null;
  },
  apply(ctx) {
    const b = opBody(ctx.op, T).changeTrustOp;
    const l = lineOf(b.line);
    const limit = b.limit;
    if (!isPoolShare(l) && l.issuer === ctx.sourceId) return fail('changeTrustSelfNotAllowed');
    const asset: TrustLineAsset = isPoolShare(l) ? { type: 'pool_share', poolId: l.poolId } : l;
    const key = trustLineKey(ctx.sourceId, asset);
    const existing = ctx.ltx.load<TrustLineRec>(key);
    if (existing) {
      if (limit < existing.balance + existing.buyingLiabilities) return fail('changeTrustInvalidLimit');
      if (limit === 0n) {
        // a line that pool-share lines depend on stays
        if (!isPoolShare(l) && existing.liquidityPoolUseCount !== 0) return fail('changeTrustCannotDelete');
        const source = loadAccount(ctx.ltx, ctx.sourceId)!;
        removeEntryWithPossibleSponsorship(ctx.ltx, existing, source);
        ctx.ltx.erase(key);
        if (isPoolShare(l)) removePoolShareLine(ctx.ltx, ctx.sourceId, l);
      } else {
        if (!isPoolShare(l) && !ctx.ltx.get(accountKey(l.issuer))) return fail('changeTrustNoIssuer');
        existing.limit = limit;
      }
      return { success: true, result: opInner(T, 'changeTrustSuccess') };
    }
    if (limit === 0n) return fail('changeTrustInvalidLimit');
    // a pool-share line has no flags: authorization is its assets' lines'
    let flags = 0;
    if (!isPoolShare(l)) {
      const issuer = ctx.ltx.get(accountKey(l.issuer)) as AccountRec | undefined;
      if (!issuer) return fail('changeTrustNoIssuer');
      if (!(issuer.flags & AUTH_REQUIRED_FLAG)) flags = TL_AUTHORIZED_FLAG;
      if (issuer.flags & AUTH_CLAWBACK_ENABLED_FLAG) flags |= TL_CLAWBACK_ENABLED_FLAG;
    } else {
      const failure = addPoolShareLine(ctx.ltx, ctx.sourceId, l);
      if (failure) return fail(failure);
    }
    const line: TrustLineRec = {
      type: 'trustline',
      accountId: ctx.sourceId,
      asset,
      balance: 0n,
      limit,
      flags,
      extLevel: 0,
      buyingLiabilities: 0n,
      sellingLiabilities: 0n,
      liquidityPoolUseCount: 0,
      lastModified: 0,
    };
    const source = loadAccount(ctx.ltx, ctx.sourceId)!;
    const r = createEntryWithPossibleSponsorship(ctx.ltx, ctx.header, line, source);
    if (r !== 'ok') return sponsorshipFailure(r, opInner(T, 'changeTrustLowReserve'));
    ctx.ltx.create(line);
    return { success: true, result: opInner(T, 'changeTrustSuccess') };
  },
};
