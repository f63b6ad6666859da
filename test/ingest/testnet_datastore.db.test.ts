// Ingests real testnet ledgers 997–999 (a galexie datastore) and checks the rows against what the
// meta itself contains, with hashes recomputed by the SDK.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TransactionBuilder, xdr } from '@stellar/stellar-sdk/base';
import { readDatastoreFile } from '../../src/meta/index.js';
import { datastoreSource, startIngester } from '../../src/ingest/index.js';
import { EFFECT_TYPES, OPERATION_TYPE_NAMES } from '../../src/stellar/index.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { TESTNET_DATASTORE, TESTNET_PASSPHRASE } from './support/fixtures.js';

interface MetaFacts {
  successful: number;
  failed: number;
  opsByType: Map<number, number>;
  hashes: string[];
  successfulOps: xdr.Operation[];
}

async function metaFacts(): Promise<MetaFacts> {
  const facts: MetaFacts = { successful: 0, failed: 0, opsByType: new Map(), hashes: [], successfulOps: [] };
  const files = fs.readdirSync(TESTNET_DATASTORE).filter((f) => f.endsWith('.xdr.zst'));
  for (const file of files) {
    const batch = await readDatastoreFile(fs.readFileSync(path.join(TESTNET_DATASTORE, file)));
    for (const meta of batch.ledgerCloseMetas) {
      const v1 = xdr.expectUnionVariant(meta, 'v1').v1;
      const envelopes = v1.txSet.v1TxSet.phases.flatMap((p) =>
        xdr.expectUnionVariant(p, 'v0Components').v0Components.flatMap((c) => c.txsMaybeDiscountedFee.txs),
      );
      const byHash = new Map(
        envelopes.map((e) => [Buffer.from(TransactionBuilder.fromXdr(e, TESTNET_PASSPHRASE).hash()).toString('hex'), e] as const),
      );
      for (const p of v1.txProcessing) {
        const hash = Buffer.from(p.result.transactionHash.value).toString('hex');
        facts.hashes.push(hash);
        const env = byHash.get(hash)!;
        const ops =
          env.type === 'envelopeTypeTx'
            ? env.v1.tx.operations
            : xdr.expectUnionVariant(env, 'envelopeTypeTxFeeBump').feeBump.tx.innerTx.v1.tx.operations;
        const ok = p.result.result.result.type === 'txSuccess';
        if (ok) {
          facts.successful++;
          facts.successfulOps.push(...ops);
        } else facts.failed++;
        for (const op of ops) {
          const type = xdr.OperationType.fromName(op.body.type).value;
          facts.opsByType.set(type, (facts.opsByType.get(type) ?? 0) + 1);
        }
      }
    }
  }
  return facts;
}

describe('ingesting the testnet datastore (ledgers 997-999)', () => {
  let t: TestDatabase;
  let facts: MetaFacts;

  beforeAll(async () => {
    t = await createTestDatabase();
    facts = await metaFacts();
    const ingester = await startIngester({ db: t.db, source: datastoreSource(TESTNET_DATASTORE), networkPassphrase: TESTNET_PASSPHRASE });
    expect(await ingester.done).toBeNull();
    expect(ingester.lastLedger).toBe(999);
  });
  afterAll(async () => t?.drop());

  it('stores the three ledgers with their transaction counts', async () => {
    const ledgers = await t.db.prisma.ledger.findMany({ orderBy: { sequence: 'asc' } });
    expect(ledgers.map((l) => l.sequence)).toEqual([997, 998, 999]);
    expect(ledgers.reduce((n, l) => n + l.successfulTransactionCount, 0)).toBe(facts.successful);
    expect(ledgers.reduce((n, l) => n + l.failedTransactionCount, 0)).toBe(facts.failed);
    expect(facts.failed).toBe(8); // 3 in 997, 5 in 998 (fixtures README)
    expect(ledgers[1]!.prevHash).toBe(ledgers[0]!.hash);
    expect(ledgers[2]!.prevHash).toBe(ledgers[1]!.hash);
  });

  it('stores every transaction under the hash of its envelope', async () => {
    const txs = await t.db.prisma.transaction.findMany({ orderBy: { id: 'asc' } });
    expect(txs.map((x) => x.hash).sort()).toEqual([...facts.hashes].sort());
    expect(txs.filter((x) => x.successful).length).toBe(facts.successful);
    for (const tx of txs) {
      const env = xdr.TransactionEnvelope.fromXdr(tx.envelopeXdr, 'base64');
      expect(Buffer.from(TransactionBuilder.fromXdr(env, TESTNET_PASSPHRASE).hash()).toString('hex')).toBe(tx.hash);
    }
  });

  it('stores the operations of every type', async () => {
    const ops = await t.db.prisma.operation.groupBy({ by: ['type'], _count: true });
    const counted = new Map(ops.map((o) => [o.type, o._count]));
    expect(counted).toEqual(facts.opsByType);
    expect([...counted.keys()].map((k) => OPERATION_TYPE_NAMES[k])).toEqual(
      expect.arrayContaining(['create_account', 'payment', 'change_trust', 'set_options', 'account_merge']),
    );
  });

  it('derives the effects the operations imply', async () => {
    const rows = await t.db.prisma.effect.groupBy({ by: ['type'], _count: true });
    const effects = new Map(rows.map((r) => [r.type, r._count]));
    const count = (name: string) => facts.successfulOps.filter((op) => op.body.type === name).length;
    const creates = count('createAccount');
    const payments = count('payment');
    const merges = count('accountMerge');
    expect(effects.get(EFFECT_TYPES.account_created)).toBe(creates);
    expect(effects.get(EFFECT_TYPES.account_removed) ?? 0).toBe(merges);
    expect(effects.get(EFFECT_TYPES.account_credited)).toBe(payments + merges);
    expect(effects.get(EFFECT_TYPES.account_debited)).toBe(creates + payments + merges);
    const trustEffects = [EFFECT_TYPES.trustline_created, EFFECT_TYPES.trustline_updated, EFFECT_TYPES.trustline_removed]
      .map((ty) => effects.get(ty) ?? 0)
      .reduce((a, b) => a + b, 0);
    expect(trustEffects).toBe(count('changeTrust'));
    // every effect belongs to an operation of a successful transaction, numbered from 1
    const orphans = await t.db.session((sql) =>
      sql.query(`SELECT e.operation_id FROM history_effects e JOIN history_operations o ON o.id = e.operation_id
                 WHERE NOT o.transaction_successful`),
    );
    expect(orphans).toEqual([]);
  });

  it('fills the state tables from the entry changes', async () => {
    const accounts = await t.db.prisma.account.count();
    expect(accounts).toBeGreaterThan(10);
    const cursor = await t.db.prisma.ingestCursor.findUnique({ where: { id: 1 } });
    const last = await t.db.prisma.ledger.findUnique({ where: { sequence: 999 } });
    expect(cursor?.ledgerSequence).toBe(999);
    expect(cursor?.ledgerHash).toBe(last?.hash);
  });
});
