// The meta of pool operations, as stellar-core writes it: the LiquidityPoolEntry created by the
// first shares line, state then updated by deposits, withdrawals and trades, state then removed
// with the last shares line; the asset lines whose liquidityPoolUseCount changes beside it.
import { Asset, type Keypair } from '@stellar/stellar-sdk/base';
import { describe, expect, it } from 'vitest';
import { Harness, closeMetaV1, txMetaV3 } from './support/harness.js';
import { ANY_PRICE, deposit, pay, poolIdOf, strictSend, trust, trustPool, withdraw } from './support/dex.js';

interface Change {
  kind: string;
  type: string;
  pool?: [bigint, bigint, bigint, bigint];
  poolShares?: boolean;
  useCount?: number;
}

// the changes of the last closed ledger's only transaction's first operation
function opChanges(h: Harness): Change[] {
  const tm = txMetaV3(closeMetaV1(h.core, h.core.latestLedger().sequence).txProcessing[0]!);
  return tm.operations[0]!.changes.map((c): Change => {
    if (c.type === 'ledgerEntryRemoved') return { kind: c.type, type: c.removed.type };
    const d = c.value.data;
    if (d.type === 'liquidityPool') {
      const cp = d.liquidityPool.body.constantProduct;
      return { kind: c.type, type: d.type, pool: [cp.reserveA, cp.reserveB, cp.totalPoolShares, cp.poolSharesTrustLineCount] };
    }
    if (d.type === 'trustline') {
      const t = d.trustLine;
      const ext = t.ext.type === 'v1' && t.ext.v1.ext.type === 'v2' ? t.ext.v1.ext.v2.liquidityPoolUseCount : undefined;
      return {
        kind: c.type,
        type: d.type,
        poolShares: t.asset.type === 'assetTypePoolShare',
        ...(ext === undefined ? {} : { useCount: ext }),
      };
    }
    return { kind: c.type, type: d.type };
  });
}

const of = (cs: Change[], type: string) => cs.filter((c) => c.type === type);

describe('pool meta', () => {
  it('records the pool entry created, updated by deposits, trades and withdrawals, and removed', async () => {
    const h = await Harness.create();
    const [gw, lp, payer] = (await h.fund(100, 3)) as [Keypair, Keypair, Keypair];
    const cur1 = new Asset('CUR1', gw.publicKey());
    const cur2 = new Asset('CUR2', gw.publicKey());
    const pool = poolIdOf(cur1, cur2);
    await h.succeed(lp, [trust(cur1), trust(cur2)]);
    await h.succeed(payer, [trust(cur1), trust(cur2)]);
    await h.succeed(gw, [pay(lp, cur1, 1000), pay(lp, cur2, 1000), pay(payer, cur1, 100)]);

    await h.succeed(lp, [trustPool(cur1, cur2)]);
    let changes = opChanges(h);
    expect(of(changes, 'liquidityPool')).toEqual([{ kind: 'ledgerEntryCreated', type: 'liquidityPool', pool: [0n, 0n, 0n, 1n] }]);
    // both asset lines gain the extension with the use count, the shares line is created, the account takes 2 subentries
    expect(of(changes, 'trustline')).toEqual([
      { kind: 'ledgerEntryState', type: 'trustline', poolShares: false },
      { kind: 'ledgerEntryUpdated', type: 'trustline', poolShares: false, useCount: 1 },
      { kind: 'ledgerEntryState', type: 'trustline', poolShares: false },
      { kind: 'ledgerEntryUpdated', type: 'trustline', poolShares: false, useCount: 1 },
      { kind: 'ledgerEntryCreated', type: 'trustline', poolShares: true },
    ]);
    expect(of(changes, 'account').map((c) => c.kind)).toEqual(['ledgerEntryState', 'ledgerEntryUpdated']);

    await h.succeed(lp, [deposit(pool, 1000, 1000, ...ANY_PRICE)]);
    changes = opChanges(h);
    expect(of(changes, 'liquidityPool')).toEqual([
      { kind: 'ledgerEntryState', type: 'liquidityPool', pool: [0n, 0n, 0n, 1n] },
      { kind: 'ledgerEntryUpdated', type: 'liquidityPool', pool: [1000n, 1000n, 1000n, 1n] },
    ]);
    expect(of(changes, 'trustline').filter((c) => c.kind === 'ledgerEntryUpdated')).toHaveLength(3);

    // a swap through the pool: 10 CUR1 in, 9 CUR2 out (LiquidityPoolTradeTests' reserves 1010, 991)
    await h.succeed(payer, [strictSend(cur1, 10, payer, cur2, 9)]);
    expect(of(opChanges(h), 'liquidityPool')).toEqual([
      { kind: 'ledgerEntryState', type: 'liquidityPool', pool: [1000n, 1000n, 1000n, 1n] },
      { kind: 'ledgerEntryUpdated', type: 'liquidityPool', pool: [1010n, 991n, 1000n, 1n] },
    ]);

    await h.succeed(lp, [withdraw(pool, 1000, 0, 0)]);
    expect(of(opChanges(h), 'liquidityPool')).toEqual([
      { kind: 'ledgerEntryState', type: 'liquidityPool', pool: [1010n, 991n, 1000n, 1n] },
      { kind: 'ledgerEntryUpdated', type: 'liquidityPool', pool: [0n, 0n, 0n, 1n] },
    ]);

    await h.succeed(lp, [trustPool(cur1, cur2, 0)]);
    changes = opChanges(h);
    expect(of(changes, 'liquidityPool')).toEqual([
      { kind: 'ledgerEntryState', type: 'liquidityPool', pool: [0n, 0n, 0n, 1n] },
      { kind: 'ledgerEntryRemoved', type: 'liquidityPool' },
    ]);
    expect(of(changes, 'trustline').filter((c) => c.kind === 'ledgerEntryUpdated')).toEqual([
      { kind: 'ledgerEntryUpdated', type: 'trustline', poolShares: false, useCount: 0 },
      { kind: 'ledgerEntryUpdated', type: 'trustline', poolShares: false, useCount: 0 },
    ]);
    expect(of(changes, 'trustline').filter((c) => c.kind === 'ledgerEntryRemoved')).toHaveLength(1);
  });
});
