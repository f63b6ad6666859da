// Every LedgerCloseMeta version (v0, v1, v2) and TransactionMeta version (v1 to v4) gives the same
// rows; reading from bytes (slices of the input) gives the rows of the decoded objects; fee-bump
// envelopes fill the fee-bump columns.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Asset, Keypair, Operation, TransactionBuilder, xdr } from '@stellar/stellar-sdk/base';
import { createCore } from '../../src/core/index.js';
import { ledgerRows, type LedgerRows } from '../../src/ingest/index.js';
import { envelopeHash, readBatchLedgers, readDatastoreFile, viewLedger, viewLedgerBytes } from '../../src/meta/index.js';
import { networkId, rootKeypair } from '../../src/stellar/index.js';
import { changedAccounts } from '../../src/ingest/processors/participants.js';
import { TESTNET_DATASTORE, TESTNET_PASSPHRASE } from './support/fixtures.js';

const network = networkId(TESTNET_PASSPHRASE);
const files = fs
  .readdirSync(TESTNET_DATASTORE)
  .filter((f) => f.endsWith('.xdr.zst'))
  .sort();

async function testnetMetas(): Promise<xdr.LedgerCloseMeta[]> {
  const out: xdr.LedgerCloseMeta[] = [];
  for (const f of files) out.push(...(await readDatastoreFile(fs.readFileSync(path.join(TESTNET_DATASTORE, f)))).ledgerCloseMeta());
  return out;
}

const withoutMetaXdr = (rows: LedgerRows) => ({
  ...rows,
  transactions: rows.transactions.map((t) => ({ ...t, result_meta_xdr: '' })),
});

function asV0(meta: xdr.LedgerCloseMeta): xdr.LedgerCloseMeta {
  const v1 = meta.v1();
  const txes = v1
    .txSet()
    .v1TxSet()
    .phases()
    .flatMap((p) => p.v0Components().flatMap((c) => c.txsMaybeDiscountedFee().txes()));
  return new xdr.LedgerCloseMeta(
    0,
    new xdr.LedgerCloseMetaV0({
      ledgerHeader: v1.ledgerHeader(),
      txSet: new xdr.TransactionSet({ previousLedgerHash: v1.ledgerHeader().header().previousLedgerHash(), txes }),
      txProcessing: v1.txProcessing(),
      upgradesProcessing: v1.upgradesProcessing(),
      scpInfo: [],
    }),
  );
}

function asV2(meta: xdr.LedgerCloseMeta): xdr.LedgerCloseMeta {
  const v1 = meta.v1();
  return new xdr.LedgerCloseMeta(
    2,
    new xdr.LedgerCloseMetaV2({
      ext: v1.ext(),
      ledgerHeader: v1.ledgerHeader(),
      txSet: v1.txSet(),
      txProcessing: v1.txProcessing().map(
        (p) =>
          new xdr.TransactionResultMetaV1({
            ext: new xdr.ExtensionPoint(0),
            result: p.result(),
            feeProcessing: p.feeProcessing(),
            txApplyProcessing: p.txApplyProcessing(),
            postTxApplyFeeProcessing: [],
          }),
      ),
      upgradesProcessing: v1.upgradesProcessing(),
      scpInfo: [],
      totalByteSizeOfLiveSorobanState: v1.totalByteSizeOfLiveSorobanState(),
      evictedKeys: [],
    }),
  );
}

/** the same ledger with every TransactionMeta rewritten to `version` */
function withTxMeta(meta: xdr.LedgerCloseMeta, version: 1 | 2 | 4): xdr.LedgerCloseMeta {
  const copy = xdr.LedgerCloseMeta.fromXDR(meta.toXDR());
  for (const p of copy.v1().txProcessing()) {
    const v3 = p.txApplyProcessing().v3();
    const ops = v3.operations();
    let converted: xdr.TransactionMeta;
    if (version === 1) {
      converted = new xdr.TransactionMeta(1, new xdr.TransactionMetaV1({ txChanges: v3.txChangesBefore(), operations: ops }));
    } else if (version === 2) {
      converted = new xdr.TransactionMeta(
        2,
        new xdr.TransactionMetaV2({ txChangesBefore: v3.txChangesBefore(), operations: ops, txChangesAfter: v3.txChangesAfter() }),
      );
    } else {
      converted = new xdr.TransactionMeta(
        4,
        new xdr.TransactionMetaV4({
          ext: new xdr.ExtensionPoint(0),
          txChangesBefore: v3.txChangesBefore(),
          operations: ops.map((o) => new xdr.OperationMetaV2({ ext: new xdr.ExtensionPoint(0), changes: o.changes(), events: [] })),
          txChangesAfter: v3.txChangesAfter(),
          sorobanMeta: null,
          events: [],
          diagnosticEvents: [],
        }),
      );
    }
    p.txApplyProcessing(converted);
  }
  return copy;
}

describe('meta versions', () => {
  it('reads the testnet ledgers (v1, TransactionMeta v3) from bytes exactly as from objects', async () => {
    let count = 0;
    for (const f of files) {
      for (const raw of await readBatchLedgers(fs.readFileSync(path.join(TESTNET_DATASTORE, f)))) {
        const fromBytes = ledgerRows(viewLedgerBytes(raw, network));
        const fromObjects = ledgerRows(viewLedger(xdr.LedgerCloseMeta.fromXDR(raw), network));
        expect(fromBytes).toEqual(fromObjects);
        count += fromBytes.transactions.length;
      }
    }
    expect(count).toBe(17);
  });

  it('gives the same rows for LedgerCloseMeta v0, v1 and v2, from objects and from bytes', async () => {
    for (const meta of await testnetMetas()) {
      const expected = ledgerRows(viewLedger(meta, network));
      for (const other of [asV0(meta), asV2(meta)]) {
        expect(ledgerRows(viewLedger(other, network))).toEqual(expected);
        expect(ledgerRows(viewLedgerBytes(other.toXDR(), network))).toEqual(expected);
      }
    }
  });

  it('gives the same rows for TransactionMeta v1, v2, v3 and v4', async () => {
    for (const meta of await testnetMetas()) {
      const expected = withoutMetaXdr(ledgerRows(viewLedger(meta, network)));
      for (const version of [1, 2, 4] as const) {
        const converted = withTxMeta(meta, version);
        expect(withoutMetaXdr(ledgerRows(viewLedger(converted, network)))).toEqual(expected);
        expect(withoutMetaXdr(ledgerRows(viewLedgerBytes(converted.toXDR(), network)))).toEqual(expected);
      }
    }
  });

  it('scans the meta bytes of every version for the accounts the operations changed, as js-xdr finds them', async () => {
    let scanned = 0;
    for (const meta of await testnetMetas()) {
      for (const version of [1, 2, 3, 4] as const) {
        const converted = version === 3 ? meta : withTxMeta(meta, version);
        const objects = viewLedger(converted, network);
        const bytes = viewLedgerBytes(converted.toXDR(), network);
        bytes.txs.forEach((tx, i) => {
          // classic entries only: every testnet transaction is scanned, none falls back to js-xdr
          expect(tx.operationAccounts).toBeDefined();
          expect(tx.operationAccounts!.flat()).toEqual(changedAccounts(objects.txs[i]!.operationChanges));
          // the lazily decoded changes are the decoded ones
          expect(tx.feeChanges.map((c) => c.toXDR('base64'))).toEqual(objects.txs[i]!.feeChanges.map((c) => c.toXDR('base64')));
          expect(tx.meta.toXDR('base64')).toEqual(objects.txs[i]!.meta.toXDR('base64'));
          scanned++;
        });
      }
    }
    expect(scanned).toBe(4 * 17);
  });

  it('marks the operations whose changes name a sponsor, whose effects are then derived as from decoded meta', async () => {
    const meta = xdr.LedgerCloseMeta.fromXDR((await testnetMetas())[0]!.toXDR());
    const sponsor = Keypair.random();
    const markedTxs = new Set<string>();
    for (const p of meta.v1().txProcessing()) {
      // the first entry an operation creates gets a sponsor
      const change = p
        .txApplyProcessing()
        .v3()
        .operations()[0]
        ?.changes()
        .find((c) => c.switch().name === 'ledgerEntryCreated');
      if (!change) continue;
      change
        .created()
        .ext(
          new xdr.LedgerEntryExt(
            1,
            new xdr.LedgerEntryExtensionV1({ sponsoringId: sponsor.xdrAccountId(), ext: new xdr.LedgerEntryExtensionV1Ext(0) }),
          ),
        );
      markedTxs.add(p.result().transactionHash().toString('hex'));
    }
    expect(markedTxs.size).toBeGreaterThan(0);
    const bytes = viewLedgerBytes(meta.toXDR(), network);
    const objects = viewLedger(meta, network);
    for (const tx of bytes.txs) expect(tx.operationSponsored).toEqual(tx.operationChanges.map((_, i) => i === 0 && markedTxs.has(tx.hash)));
    const rows = ledgerRows(bytes);
    expect(rows).toEqual(ledgerRows(objects));
    const sponsored = rows.effects.filter((e) => e.details.sponsor === sponsor.publicKey());
    expect(sponsored.length).toBe(markedTxs.size);
  });

  it('falls back to js-xdr for entries the scanner does not know, with the same rows', async () => {
    for (const meta of await testnetMetas()) {
      const copy = xdr.LedgerCloseMeta.fromXDR(meta.toXDR());
      for (const p of copy.v1().txProcessing()) {
        // a removed TTL entry (Soroban) among an operation's changes: no row and no participant
        const ttl = xdr.LedgerEntryChange.ledgerEntryRemoved(xdr.LedgerKey.ttl(new xdr.LedgerKeyTtl({ keyHash: Buffer.alloc(32, 7) })));
        p.txApplyProcessing().v3().operations()[0]?.changes().push(ttl);
      }
      const bytes = viewLedgerBytes(copy.toXDR(), network);
      for (const tx of bytes.txs) if (tx.operationChanges.length > 0) expect(tx.operationAccounts).toBeUndefined();
      expect(withoutMetaXdr(ledgerRows(bytes))).toEqual(withoutMetaXdr(ledgerRows(viewLedger(meta, network))));
    }
  });

  it('falls back to js-xdr for envelopes and results the scanner does not know, with the same rows', async () => {
    const meta = xdr.LedgerCloseMeta.fromXDR((await testnetMetas())[0]!.toXDR());
    const envelopes = meta.v1().txSet().v1TxSet().phases()[0]!.v0Components()[0]!.txsMaybeDiscountedFee().txes();
    const envelope = envelopes[0]!;
    const oldHash = envelopeHash(envelope, network);
    // a clawback (not a classic operation for the scanner) appended to the envelope, and to its result
    const ops = envelope.v1().tx().operations();
    ops.push(
      Operation.clawback({ asset: new Asset('USD', Keypair.random().publicKey()), from: Keypair.random().publicKey(), amount: '1' }),
    );
    const processing = meta
      .v1()
      .txProcessing()
      .find((p) => p.result().transactionHash().equals(oldHash))!;
    processing.result().transactionHash(envelopeHash(envelope, network));
    const result = processing.result().result().result();
    if (result.switch().name === 'txSuccess' || result.switch().name === 'txFailed') {
      result.results().push(xdr.OperationResult.opInner(xdr.OperationResultTr.clawback(xdr.ClawbackResult.clawbackSuccess())));
    }
    const bytes = viewLedgerBytes(meta.toXDR(), network);
    const objects = viewLedger(meta, network);
    expect(bytes.txs.map((t) => t.hash)).toContain(envelopeHash(envelope, network).toString('hex'));
    expect(bytes.txs.map((t) => t.envelope.toXDR('base64'))).toEqual(objects.txs.map((t) => t.envelope.toXDR('base64')));
    expect(bytes.txs.map((t) => t.result.toXDR('base64'))).toEqual(objects.txs.map((t) => t.result.toXDR('base64')));
    expect(ledgerRows(bytes)).toEqual(ledgerRows(objects));
  });

  it('fills the fee-bump columns of a fee-bump transaction', async () => {
    const passphrase = 'Zenith Fee Bump Test';
    const core = await createCore({ dataDir: null, networkPassphrase: passphrase, manualClose: true });
    try {
      const root = rootKeypair(passphrase);
      const alice = Keypair.random();
      const account = (kp: Keypair) => ({
        accountId: () => kp.publicKey(),
        sequenceNumber: () => (core.nextSequence(kp.publicKey())! - 1n).toString(),
        incrementSequenceNumber: () => {},
      });
      const create = new TransactionBuilder(account(root), { fee: '100', networkPassphrase: passphrase })
        .addOperation(Operation.createAccount({ destination: alice.publicKey(), startingBalance: '100' }))
        .setTimeout(0)
        .build();
      create.sign(root);
      expect(core.submit(create.toXDR()).status).toBe('PENDING');
      await core.closeLedger();
      const inner = new TransactionBuilder(account(alice), { fee: '100', networkPassphrase: passphrase })
        .addOperation(Operation.payment({ destination: root.publicKey(), asset: Asset.native(), amount: '1' }))
        .setTimeout(0)
        .build();
      inner.sign(alice);
      const bump = TransactionBuilder.buildFeeBumpTransaction(root, '1000', inner, passphrase);
      bump.sign(root);
      expect(core.submit(bump.toXDR()).status).toBe('PENDING');
      const closed = await core.closeLedger();
      const raw = core.ledgerMetaXdr(closed.sequence)!;
      const rows = ledgerRows(viewLedgerBytes(raw, networkId(passphrase)));
      expect(rows.transactions).toHaveLength(1);
      const tx = rows.transactions[0]!;
      expect(tx).toMatchObject({
        hash: bump.hash().toString('hex'),
        successful: true,
        account: alice.publicKey(),
        fee_account: root.publicKey(),
        inner_transaction_hash: inner.hash().toString('hex'),
        max_fee: 100n,
        new_max_fee: 2000n,
        signatures: [bump.signatures[0]!.signature().toString('base64')],
        inner_signatures: [inner.signatures[0]!.signature().toString('base64')],
      });
      expect(rows.transactionParticipants.map((p) => p.account).sort()).toEqual([alice.publicKey(), root.publicKey()].sort());
      expect(rows.effects.map((e) => e.type)).toEqual([2, 3]);
      expect(ledgerRows(viewLedger(xdr.LedgerCloseMeta.fromXDR(raw), networkId(passphrase)))).toEqual(rows);
    } finally {
      await core.stop();
    }
  });
});
