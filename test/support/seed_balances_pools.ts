// Claimable balances and liquidity pools as the ingester writes them (Horizon's rows: a balance's
// claimants as Horizon's JSON with one claimant row each; a pool's two reserves in the protocol's
// order), and the link rows that tie operations and transactions to them. Values follow Horizon's
// own action tests (buildClaimableBalance, MakeTestPool).
import { Asset, getLiquidityPoolId, LiquidityPoolFeeV18 } from '@stellar/stellar-sdk';
import type { Database } from '../../src/db/database.js';

/** Horizon's test id: ClaimableBalanceId V0 of a hash starting with `bytes`, as MarshalHex writes it. */
export function balanceId(...bytes: number[]): string {
  return `00000000${Buffer.concat([Buffer.from(bytes), Buffer.alloc(32 - bytes.length)]).toString('hex')}`;
}

/** buildClaimableBalance: one unconditional claimant; an asset other than lumens is sponsored by that account. */
export async function seedClaimableBalance(
  db: Database,
  balance: { id: string; account: string; ledger: number; asset?: string; amount?: bigint; flags?: number; predicate?: object },
): Promise<void> {
  const sponsor = balance.asset ? balance.account : null;
  await db.prisma.claimableBalance.create({
    data: {
      id: balance.id,
      asset: balance.asset ?? 'native',
      amount: balance.amount ?? 10n,
      sponsor,
      flags: balance.flags ?? 0,
      claimants: [{ destination: balance.account, predicate: balance.predicate ?? { unconditional: true } }],
      lastModifiedLedger: balance.ledger,
    },
  });
  await db.prisma.claimableBalanceClaimant.create({
    data: { balanceId: balance.id, destination: balance.account, lastModifiedLedger: balance.ledger },
  });
}

const canonical = (asset: Asset) => (asset.isNative() ? 'native' : `${asset.getCode()}:${asset.getIssuer()}`);

/** MakeTestPool: the pool of two assets (fee 30) with 12345 trust lines and 67890 shares, modified in ledger 123; returns its id. */
export async function seedPool(db: Database, a: Asset, reserveA: bigint, b: Asset, reserveB: bigint): Promise<string> {
  if (Asset.compare(a, b) > 0) return seedPool(db, b, reserveB, a, reserveA);
  const id = Buffer.from(getLiquidityPoolId('constant_product', { assetA: a, assetB: b, fee: LiquidityPoolFeeV18 })).toString('hex');
  await db.prisma.liquidityPool.create({
    data: {
      id,
      type: 0,
      fee: LiquidityPoolFeeV18,
      trustlineCount: 12345n,
      shareCount: 67890n,
      assetA: canonical(a),
      assetB: canonical(b),
      reserveA,
      reserveB,
      lastModifiedLedger: 123,
    },
  });
  return id;
}

/** The rows that say an operation (and its transaction) touched a balance or a pool. */
export async function linkHistory(
  db: Database,
  link: { operationId: bigint; transactionId: bigint; claimableBalanceId?: string; liquidityPoolId?: string },
): Promise<void> {
  const { operationId, transactionId, claimableBalanceId, liquidityPoolId } = link;
  if (claimableBalanceId) {
    await db.prisma.operationClaimableBalance.create({ data: { claimableBalanceId, operationId } });
    await db.prisma.transactionClaimableBalance.createMany({ data: [{ claimableBalanceId, transactionId }], skipDuplicates: true });
  }
  if (liquidityPoolId) {
    await db.prisma.operationLiquidityPool.create({ data: { liquidityPoolId, operationId } });
    await db.prisma.transactionLiquidityPool.createMany({ data: [{ liquidityPoolId, transactionId }], skipDuplicates: true });
  }
}
