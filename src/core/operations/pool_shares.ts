// What a pool-share trust line does to the lines of its pool's assets and to the pool (stellar-core
// TransactionUtils): use counts, the pool's count of shares lines, and redeeming an account's
// shares into claimable balances when its line in one of the assets is revoked
// (removeOffersAndPoolShareTrustLines).
import { xdr } from '@stellar/stellar-sdk/base';
import { assetsEqual, poolRevokeBalanceId, poolWithdrawalAmount, type AssetValue, type CreditAsset } from '../../stellar/index.js';
import { liquidityPoolKey, trustLineKey } from '../ledger/entries.js';
import type { ClaimableBalanceRec, LiquidityPoolRec, TrustLineRec } from '../ledger/entries.js';
import { LedgerTxn } from '../ledger/ledger_txn.js';
import type { OpContext } from './context.js';
import {
  CLAIMABLE_BALANCE_CLAWBACK_ENABLED_FLAG,
  isAuthorizedToMaintainLiabilities,
  loadAccount,
  TL_CLAWBACK_ENABLED_FLAG,
} from './helpers.js';
import { removeOffersByAccountAndAsset } from './liabilities.js';
import { createEntryWithPossibleSponsorship, establishEntrySponsorship, removeEntryWithPossibleSponsorship } from './sponsorship.js';

const INT32_MAX = 2 ** 31 - 1;
const UINT32_MAX = 0xffffffff;

// the asset's own line, unless the account issues it (or it is native): pools count on it
const usesLine = (accountId: string, asset: AssetValue): asset is CreditAsset => asset.type !== 'native' && asset.issuer !== accountId;

/** stellar-core tryIncrementPoolUseCount: null, or change_trust's failure code. */
export function incrementPoolUseCount(ltx: LedgerTxn, accountId: string, asset: AssetValue): string | null {
  if (!usesLine(accountId, asset)) return null;
  const line = ltx.load<TrustLineRec>(trustLineKey(accountId, asset));
  if (!line) return 'changeTrustTrustLineMissing';
  if (!isAuthorizedToMaintainLiabilities(line.flags)) return 'changeTrustNotAuthMaintainLiabilities';
  if (line.liquidityPoolUseCount === INT32_MAX) throw new Error('liquidityPoolUseCount is INT32_MAX');
  line.extLevel = 2;
  line.liquidityPoolUseCount += 1;
  return null;
}

/** stellar-core decrementLiquidityPoolUseCount. */
export function decrementPoolUseCount(ltx: LedgerTxn, accountId: string, asset: AssetValue): void {
  if (!usesLine(accountId, asset)) return;
  const line = ltx.load<TrustLineRec>(trustLineKey(accountId, asset));
  if (!line) throw new Error('asset trustline is missing');
  if (line.extLevel < 2 || line.liquidityPoolUseCount <= 0) throw new Error('liquidityPoolUseCount is negative');
  line.liquidityPoolUseCount -= 1;
}

/** stellar-core decrementPoolSharesTrustLineCount: the pool goes with its last shares line. */
export function decrementPoolSharesTrustLineCount(ltx: LedgerTxn, poolId: string): void {
  const key = liquidityPoolKey(poolId);
  const pool = ltx.load<LiquidityPoolRec>(key);
  if (!pool) throw new Error('liquidity pool is missing');
  pool.poolSharesTrustLineCount -= 1n;
  if (pool.poolSharesTrustLineCount === 0n) ltx.erase(key);
  else if (pool.poolSharesTrustLineCount < 0n) throw new Error('poolSharesTrustLineCount is negative');
}

export type RemoveResult = 'ok' | 'lowReserve' | 'tooManySponsoring';

// the account's shares lines in pools of `asset`, in stellar-core's LedgerKey order (by pool id)
function poolShareLinesUsing(ltx: LedgerTxn, accountId: string, asset: CreditAsset): string[] {
  // a line no pool-share line counts on has none to find
  const line = ltx.get(trustLineKey(accountId, asset)) as TrustLineRec | undefined;
  if (!line || line.liquidityPoolUseCount === 0) return [];
  const keys = new Set<string>();
  ltx.keysWithPrefix(`T${accountId}/`, new Set(), keys);
  const found: string[] = [];
  for (const key of keys) {
    const tl = ltx.get(key) as TrustLineRec;
    if (tl.asset.type !== 'pool_share') continue;
    const pool = ltx.get(liquidityPoolKey(tl.asset.poolId)) as LiquidityPoolRec;
    if (assetsEqual(pool.assetA, asset) || assetsEqual(pool.assetB, asset)) found.push(tl.asset.poolId);
  }
  return found.sort().map((poolId) => trustLineKey(accountId, { type: 'pool_share', poolId }));
}

/**
 * stellar-core removeOffersAndPoolShareTrustLines (protocol ≥ 18), when `accountId`'s line in
 * `asset` loses authorization to maintain liabilities: its offers in the asset go, and each of its
 * shares lines in a pool of the asset is removed, its shares redeemed into one claimable balance
 * per pool asset (claimable by the account without condition, clawback-enabled as the asset
 * line is, reserved by whoever reserved the shares line). Nothing is kept unless all succeed.
 */
export function removeOffersAndPoolShareTrustLines(ctx: OpContext, accountId: string, asset: CreditAsset): RemoveResult {
  removeOffersByAccountAndAsset(ctx.ltx, ctx.header, accountId, asset);
  const ltx = new LedgerTxn(ctx.ltx, ctx.ltx.ledgerSeq);
  for (const key of poolShareLinesUsing(ltx, accountId, asset)) {
    const line = ltx.load<TrustLineRec>(key)!;
    if (line.asset.type !== 'pool_share') throw new Error('not a pool share trust line');
    const poolId = line.asset.poolId;
    const balance = line.balance;
    // the balances take the reserve the shares line held (getTrustLineBacker)
    const backerId = line.sponsor ?? accountId;
    removeEntryWithPossibleSponsorship(ltx, line, loadAccount(ltx, accountId)!);
    ltx.erase(key);

    const redeem = (poolAsset: AssetValue, amount: bigint): RemoveResult => {
      // an issuer's own asset is burned
      if (amount === 0n || (poolAsset.type !== 'native' && poolAsset.issuer === accountId)) return 'ok';
      const balanceEntry: ClaimableBalanceRec = {
        type: 'claimableBalance',
        balanceId: poolRevokeBalanceId(ctx.frame.sourceId, ctx.frame.seqNum, ctx.opIndex, poolId, poolAsset),
        claimants: [{ destination: accountId, predicate: xdr.ClaimPredicate.claimPredicateUnconditional() }],
        asset: poolAsset,
        amount,
        flags: 0,
        extLevel: 0,
        lastModified: 0,
      };
      if (poolAsset.type !== 'native') {
        const assetLine = ltx.load<TrustLineRec>(trustLineKey(accountId, poolAsset))!;
        if (assetLine.flags & TL_CLAWBACK_ENABLED_FLAG) {
          balanceEntry.flags = CLAIMABLE_BALANCE_CLAWBACK_ENABLED_FLAG;
          balanceEntry.extLevel = 1;
        }
      }
      const backer = loadAccount(ltx, backerId)!;
      if (ltx.futureSponsor(backerId) !== undefined) {
        // a sandwich around the backer moves the reserve to its sponsor, which may lack it
        const r = createEntryWithPossibleSponsorship(ltx, ctx.header, balanceEntry, backer);
        if (r === 'lowReserve' || r === 'tooManySponsoring') return r;
        if (r !== 'ok') throw new Error('Unexpected result from canEstablishEntrySponsorship');
      } else {
        // the reserve freed by the shares line pays, even below a raised base reserve
        if (backer.numSponsoring > UINT32_MAX - 1) throw new Error('no numSponsoring available for revoke');
        establishEntrySponsorship(balanceEntry, backer, null);
      }
      ltx.create(balanceEntry);
      return 'ok';
    };

    const pool = ltx.load<LiquidityPoolRec>(liquidityPoolKey(poolId))!;
    if (balance !== 0n) {
      const amountA = poolWithdrawalAmount(balance, pool.totalPoolShares, pool.reserveA);
      const ra = redeem(pool.assetA, amountA);
      if (ra !== 'ok') return ra;
      const amountB = poolWithdrawalAmount(balance, pool.totalPoolShares, pool.reserveB);
      const rb = redeem(pool.assetB, amountB);
      if (rb !== 'ok') return rb;
      pool.totalPoolShares -= balance;
      pool.reserveA -= amountA;
      pool.reserveB -= amountB;
    }
    decrementPoolUseCount(ltx, accountId, pool.assetA);
    decrementPoolUseCount(ltx, accountId, pool.assetB);
    decrementPoolSharesTrustLineCount(ltx, poolId);
  }
  ltx.commit();
  return 'ok';
}
