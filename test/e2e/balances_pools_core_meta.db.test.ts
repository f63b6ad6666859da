// Claimable balances and liquidity pools through @stellar/stellar-sdk on stellar-core's own ledgers
// (FrozenLedgerKeysTests: one case creates a claimable balance, another creates a pool and deposits
// into it), ingested from a datastore as `zenith ingest --datastore` does. The ground truth is
// stellar-core's meta: every expected value is read from its entries and envelopes here, never from
// what our ingest wrote (balances the embedded core makes: claimable_balances_core_sdk.db.test.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Asset, Horizon, StrKey } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { datastoreSource, startIngester } from '../../src/ingest/index.js';
import { type TestApi, serveTestApi } from '../support/api_server.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { coreLcmCase, coreLcmManifest, ledgerBody, writeCaseDatastore } from '../support/stellar_core_lcm.js';

const POOL_CASE = 'frozen_ledger_keys_apply_time_validation-liquidity_pool_deposit_assetA_trustline_frozen';
const BALANCE_CASE = 'frozen_ledger_keys_apply_time_validation-claim_claimable_balance_trustline_frozen';

// biome-ignore lint/suspicious/noExplicitAny: the SDK's XDR unions walked generically
type Any = any;
/** the value of an XDR union, whatever its arm's name */
const armOf = (u: Any): Any => u[Object.keys(u).find((k) => k !== 'type') as string];
const bytesOf = (v: Any): Buffer => Buffer.from(v.value ?? v);
const accountOf = (key: Any): string =>
  StrKey.encodeEd25519PublicKey(bytesOf(key.type === 'keyTypeMuxedEd25519' ? key.med25519.ed25519 : key.ed25519));
/** stroops as Horizon's amount string (seven decimals) */
const amountOf = (stroops: bigint): string => `${stroops / 10_000_000n}.${(stroops % 10_000_000n).toString().padStart(7, '0')}`;
const assetOf = (asset: Any): string => {
  if (asset.type === 'assetTypeNative') return 'native';
  const credit = armOf(asset);
  return `${bytesOf(credit.assetCode).toString('latin1').replace(/\0+$/, '')}:${accountOf(credit.issuer)}`;
};
/** an XDR type name as Horizon's operation type (changeTrust → change_trust) */
const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

interface Touch {
  ledger: number;
  txHash: string;
  type: string;
  source: string;
}

interface Served {
  t: TestDatabase;
  api: TestApi;
  server: Horizon.Server;
  scratch: string;
  closeTimes: Map<number, string>;
  /** the last state of each pool or balance entry in the case's meta, with its ledger */
  entries: { data: Any; ext: Any; ledger: number }[];
  /** the operations whose changes touch a pool or a balance (Horizon's link rows), in order */
  touching: Touch[];
  /** every operation in the case, with its envelope body */
  operations: (Touch & { body: Any; successful: boolean })[];
}

async function serveCase(name: string): Promise<Served> {
  const scratch = mkdtempSync(join(tmpdir(), 'zenith-core-meta-'));
  const { metas, last } = await writeCaseDatastore(coreLcmCase(name), scratch);
  const closeTimes = new Map<number, string>();
  const entries = new Map<string, { data: Any; ext: Any; ledger: number }>();
  const touching: Touch[] = [];
  const operations: Served['operations'] = [];
  for (const meta of metas) {
    const body: Any = ledgerBody(meta);
    const ledger = body.ledgerHeader.header.ledgerSeq as number;
    closeTimes.set(ledger, new Date(Number(body.ledgerHeader.header.scpValue.closeTime) * 1000).toISOString().replace('.000Z', 'Z'));
    // these cases close one transaction per ledger: its envelope is the set's only one
    const envelopes: Any[] =
      meta.type === 'v0'
        ? []
        : body.txSet.v1TxSet.phases.flatMap((phase: Any) =>
            phase.type === 'v0Components'
              ? phase.v0Components.flatMap((c: Any) => armOf(c).txs)
              : phase.parallelTxsComponent.executionStages.flat(2),
          );
    expect(envelopes.length).toBe(body.txProcessing.length);
    expect(envelopes.length).toBeLessThanOrEqual(1);
    for (const tx of body.txProcessing) {
      const txHash = bytesOf(tx.result.transactionHash).toString('hex');
      const envelope = envelopes[0];
      const inner = envelope?.type === 'envelopeTypeTx' ? envelope.v1.tx : null;
      const applied = armOf(tx.txApplyProcessing);
      const successful = tx.result.result.result.type === 'txSuccess';
      for (const [index, op] of (inner?.operations ?? []).entries()) {
        const source = accountOf(op.sourceAccount ?? inner.sourceAccount);
        const touch = { ledger, txHash, type: snake(op.body.type), source };
        operations.push({ ...touch, body: armOf(op.body), successful });
        let touched = false;
        for (const change of applied.operations?.[index]?.changes ?? []) {
          const entry = armOf(change);
          if (!entry?.data || !['liquidityPool', 'claimableBalance'].includes(entry.data.type)) continue;
          touched = true;
          const key = entry.data.type === 'liquidityPool' ? poolHex(entry.data) : balanceHex(entry.data);
          if (change.type !== 'ledgerEntryState') entries.set(key, { data: entry.data, ext: entry.ext, ledger });
        }
        if (touched) touching.push(touch);
      }
    }
  }
  const t = await createTestDatabase();
  const ingester = await startIngester({
    db: t.db,
    source: datastoreSource(scratch),
    networkPassphrase: coreLcmManifest.networkPassphrase,
  });
  expect(await ingester.done).toBeNull();
  expect(ingester.lastLedger).toBe(last);
  const api = await serveTestApi(t, coreLcmManifest.networkPassphrase);
  const server = new Horizon.Server(api.base, { allowHttp: true });
  return { t, api, server, scratch, closeTimes, entries: [...entries.values()], touching, operations };
}

const poolHex = (data: Any): string => bytesOf(data.liquidityPool.liquidityPoolId).toString('hex');
// a ClaimableBalanceID's XDR: the v0 discriminant (four zero bytes), then the hash
const balanceHex = (data: Any): string => `00000000${bytesOf(data.claimableBalance.balanceId.v0).toString('hex')}`;

async function close(s: Served | undefined) {
  await s?.api.close();
  await s?.t.drop();
  if (s) rmSync(s.scratch, { recursive: true, force: true });
}

describe("a liquidity pool from stellar-core's meta, through the SDK", () => {
  let s: Served;
  let pool: { data: Any; ledger: number };
  let id = '';
  beforeAll(async () => {
    s = await serveCase(POOL_CASE);
    const pools = s.entries.filter((e) => e.data.type === 'liquidityPool');
    expect(pools).toHaveLength(1);
    pool = pools[0]!;
    id = poolHex(pool.data);
  }, 60_000);
  afterAll(() => close(s));

  const expected = () => {
    const cp = armOf(pool.data.liquidityPool.body);
    return {
      id,
      paging_token: id,
      fee_bp: cp.params.fee,
      type: 'constant_product',
      total_trustlines: String(cp.poolSharesTrustLineCount),
      total_shares: amountOf(BigInt(cp.totalPoolShares)),
      reserves: [
        { asset: assetOf(cp.params.assetA), amount: amountOf(BigInt(cp.reserveA)) },
        { asset: assetOf(cp.params.assetB), amount: amountOf(BigInt(cp.reserveB)) },
      ],
      last_modified_ledger: pool.ledger,
      last_modified_time: s.closeTimes.get(pool.ledger),
    };
  };

  it('lists it, finds it by its assets, by a holder of its shares and by id', async () => {
    const cp = armOf(pool.data.liquidityPool.body);
    expect(BigInt(cp.reserveA)).toBeGreaterThan(0n); // the deposit reached it
    const all = await s.server.liquidityPools().call();
    expect(all.records.map((r) => ({ ...r, _links: undefined }))).toMatchObject([expected()]);
    const [a, b] = expected().reserves.map((r) => r.asset.split(':')) as [string[], string[]];
    const byAssets = await s.server.liquidityPools().forAssets(new Asset(a[0]!, a[1]), new Asset(b[0]!, b[1])).call();
    expect(byAssets.records.map((r) => r.id)).toEqual([id]);
    const depositor = s.operations.find((o) => o.type === 'liquidity_pool_deposit' && o.successful)?.source ?? '';
    const byAccount = await s.server.liquidityPools().forAccount(depositor).call();
    expect(byAccount.records.map((r) => r.id)).toEqual([id]);
    const one = await s.server.liquidityPools().liquidityPoolId(id).call();
    expect(one).toMatchObject(expected());
  });

  it('lists the operations and transactions whose changes touched it, and their effects', async () => {
    const operations = await s.server.operations().forLiquidityPool(id).limit(200).call();
    const ledgerOf = (pagingToken: string) => Number(BigInt(pagingToken) >> 32n);
    expect(operations.records.map((r) => ({ ledger: ledgerOf(r.paging_token), type: r.type, hash: r.transaction_hash }))).toEqual(
      s.touching.map((t) => ({ ledger: t.ledger, type: t.type, hash: t.txHash })),
    );
    expect(s.touching.map((t) => t.type)).toContain('liquidity_pool_deposit');
    const transactions = await s.server.transactions().forLiquidityPool(id).limit(200).call();
    expect(transactions.records.map((r) => r.hash)).toEqual([...new Set(s.touching.map((t) => t.txHash))]);
    const effects = await s.server.effects().forLiquidityPool(id).limit(200).call();
    const deposited = effects.records.find((e) => e.type === 'liquidity_pool_deposited') as Any;
    const cp = armOf(pool.data.liquidityPool.body);
    expect(deposited?.shares_received).toBe(amountOf(BigInt(cp.totalPoolShares)));
    expect(deposited?.liquidity_pool?.id).toBe(id);
    expect(effects.records.map((e) => e.type)).toContain('liquidity_pool_created');
  });
});

describe("a claimable balance from stellar-core's meta, through the SDK", () => {
  let s: Served;
  let balance: { data: Any; ext: Any; ledger: number };
  let id = '';
  beforeAll(async () => {
    s = await serveCase(BALANCE_CASE);
    const balances = s.entries.filter((e) => e.data.type === 'claimableBalance');
    expect(balances).toHaveLength(1);
    balance = balances[0]!;
    id = balanceHex(balance.data);
  }, 60_000);
  afterAll(() => close(s));

  const expected = () => {
    const cb = balance.data.claimableBalance;
    const claimants = cb.claimants.map((c: Any) => armOf(c));
    expect(claimants.every((c: Any) => c.predicate.type === 'claimPredicateUnconditional')).toBe(true);
    return {
      id,
      paging_token: `${balance.ledger}-${id}`,
      asset: assetOf(cb.asset),
      amount: amountOf(BigInt(cb.amount)),
      sponsor: balance.ext.type === 'v1' ? accountOf(balance.ext.v1.sponsoringId) : undefined,
      claimants: claimants.map((c: Any) => ({ destination: accountOf(c.destination), predicate: { unconditional: true } })),
      last_modified_ledger: balance.ledger,
      last_modified_time: s.closeTimes.get(balance.ledger),
      flags: { clawback_enabled: false },
    };
  };

  it('lists it by claimant, sponsor and asset, and finds it by id', async () => {
    const e = expected();
    expect(e.sponsor).toMatch(/^G/);
    const byClaimant = await s.server.claimableBalances().claimant(e.claimants[0].destination).call();
    expect(byClaimant.records).toHaveLength(1);
    expect(byClaimant.records[0]).toMatchObject(e);
    const bySponsor = await s.server
      .claimableBalances()
      .sponsor(e.sponsor as string)
      .call();
    expect(bySponsor.records.map((r) => r.id)).toEqual([id]);
    const [code, issuer] = e.asset.split(':') as [string, string];
    const byAsset = await s.server.claimableBalances().asset(new Asset(code, issuer)).call();
    expect(byAsset.records.map((r) => r.id)).toEqual([id]);
    expect(await s.server.claimableBalances().claimableBalance(id).call()).toMatchObject(e);
  });

  it('lists the operation and transaction that created it; a failed claim changed nothing and is not among them', async () => {
    expect(s.operations.some((o) => o.type === 'claim_claimable_balance' && !o.successful)).toBe(true);
    const operations = await s.server.operations().forClaimableBalance(id).includeFailed(true).call();
    expect(operations.records.map((r) => ({ type: r.type, hash: r.transaction_hash }))).toEqual(
      s.touching.map((t) => ({ type: t.type, hash: t.txHash })),
    );
    expect(s.touching.map((t) => t.type)).toEqual(['create_claimable_balance']);
    const transactions = await s.server.transactions().forClaimableBalance(id).call();
    expect(transactions.records.map((r) => r.hash)).toEqual(s.touching.map((t) => t.txHash));
  });
});
