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
  for (const f of files) out.push(...(await readDatastoreFile(fs.readFileSync(path.join(TESTNET_DATASTORE, f)))).ledgerCloseMetas);
  return out;
}

const withoutMetaXdr = (rows: LedgerRows) => ({
  ...rows,
  transactions: rows.transactions.map((t) => ({ ...t, result_meta_xdr: '' })),
});

/** a LedgerCloseMeta's bytes, as a datastore file holds them */
const bytesOf = (meta: xdr.LedgerCloseMeta): Buffer => Buffer.from(meta.toXdr());

/** the testnet ledgers' LedgerCloseMeta v1 */
const v1Of = (meta: xdr.LedgerCloseMeta): xdr.LedgerCloseMetaV1 => xdr.expectUnionVariant(meta, 'v1').v1;

/** the envelopes of a v1 transaction set's phase (these ledgers have no parallel Soroban phase) */
const phaseEnvelopes = (phase: xdr.TransactionPhase): xdr.TransactionEnvelope[] =>
  xdr.expectUnionVariant(phase, 'v0Components').v0Components.flatMap((c) => c.txsMaybeDiscountedFee.txs);

function asV0(meta: xdr.LedgerCloseMeta): xdr.LedgerCloseMeta {
  const v1 = v1Of(meta);
  const txs = v1.txSet.v1TxSet.phases.flatMap(phaseEnvelopes);
  return xdr.LedgerCloseMeta.v0(
    new xdr.LedgerCloseMetaV0({
      ledgerHeader: v1.ledgerHeader,
      txSet: new xdr.TransactionSet({ previousLedgerHash: v1.ledgerHeader.header.previousLedgerHash, txs }),
      txProcessing: v1.txProcessing,
      upgradesProcessing: v1.upgradesProcessing,
      scpInfo: [],
    }),
  );
}

function asV2(meta: xdr.LedgerCloseMeta): xdr.LedgerCloseMeta {
  const v1 = v1Of(meta);
  return xdr.LedgerCloseMeta.v2(
    new xdr.LedgerCloseMetaV2({
      ext: v1.ext,
      ledgerHeader: v1.ledgerHeader,
      txSet: v1.txSet,
      txProcessing: v1.txProcessing.map(
        (p) =>
          new xdr.TransactionResultMetaV1({
            ext: xdr.ExtensionPoint.v0(),
            result: p.result,
            feeProcessing: p.feeProcessing,
            txApplyProcessing: p.txApplyProcessing,
            postTxApplyFeeProcessing: [],
          }),
      ),
      upgradesProcessing: v1.upgradesProcessing,
      scpInfo: [],
      totalByteSizeOfLiveSorobanState: v1.totalByteSizeOfLiveSorobanState,
      evictedKeys: [],
    }),
  );
}

/** the same ledger with every TransactionMeta rewritten to `version` */
function withTxMeta(meta: xdr.LedgerCloseMeta, version: 1 | 2 | 4): xdr.LedgerCloseMeta {
  const copy = xdr.LedgerCloseMeta.fromXdr(meta.toXdr());
  const txProcessing = v1Of(copy).txProcessing;
  txProcessing.forEach((p, i) => {
    const v3 = xdr.expectUnionVariant(p.txApplyProcessing, 'v3').v3;
    const ops = v3.operations;
    let converted: xdr.TransactionMeta;
    if (version === 1) {
      converted = xdr.TransactionMeta.v1(new xdr.TransactionMetaV1({ txChanges: v3.txChangesBefore, operations: ops }));
    } else if (version === 2) {
      converted = xdr.TransactionMeta.v2(
        new xdr.TransactionMetaV2({ txChangesBefore: v3.txChangesBefore, operations: ops, txChangesAfter: v3.txChangesAfter }),
      );
    } else {
      converted = xdr.TransactionMeta.v4(
        new xdr.TransactionMetaV4({
          ext: xdr.ExtensionPoint.v0(),
          txChangesBefore: v3.txChangesBefore,
          operations: ops.map((o) => new xdr.OperationMetaV2({ ext: xdr.ExtensionPoint.v0(), changes: o.changes, events: [] })),
          txChangesAfter: v3.txChangesAfter,
          sorobanMeta: null,
          events: [],
          diagnosticEvents: [],
        }),
      );
    }
    txProcessing[i] = new xdr.TransactionResultMeta({ result: p.result, feeProcessing: p.feeProcessing, txApplyProcessing: converted });
  });
  return copy;
}

describe('meta versions', () => {
  it('reads the testnet ledgers (v1, TransactionMeta v3) from bytes exactly as from objects', async () => {
    let count = 0;
    for (const f of files) {
      for (const raw of await readBatchLedgers(fs.readFileSync(path.join(TESTNET_DATASTORE, f)))) {
        const fromBytes = ledgerRows(viewLedgerBytes(raw, network));
        const fromObjects = ledgerRows(viewLedger(xdr.LedgerCloseMeta.fromXdr(raw), network));
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
        expect(ledgerRows(viewLedgerBytes(bytesOf(other), network))).toEqual(expected);
      }
    }
  });

  it('gives the same rows for TransactionMeta v1, v2, v3 and v4', async () => {
    for (const meta of await testnetMetas()) {
      const expected = withoutMetaXdr(ledgerRows(viewLedger(meta, network)));
      for (const version of [1, 2, 4] as const) {
        const converted = withTxMeta(meta, version);
        expect(withoutMetaXdr(ledgerRows(viewLedger(converted, network)))).toEqual(expected);
        expect(withoutMetaXdr(ledgerRows(viewLedgerBytes(bytesOf(converted), network)))).toEqual(expected);
      }
    }
  });

  it('scans the meta bytes of every version for the accounts the operations changed, as js-xdr finds them', async () => {
    let scanned = 0;
    for (const meta of await testnetMetas()) {
      for (const version of [1, 2, 3, 4] as const) {
        const converted = version === 3 ? meta : withTxMeta(meta, version);
        const objects = viewLedger(converted, network);
        const bytes = viewLedgerBytes(bytesOf(converted), network);
        bytes.txs.forEach((tx, i) => {
          // classic entries only: every testnet transaction is scanned, none falls back to js-xdr
          expect(tx.operationAccounts).toBeDefined();
          expect(tx.operationAccounts!.flat()).toEqual(changedAccounts(objects.txs[i]!.operationChanges));
          // the lazily decoded changes are the decoded ones
          expect(tx.feeChanges.map((c) => c.toXdr('base64'))).toEqual(objects.txs[i]!.feeChanges.map((c) => c.toXdr('base64')));
          expect(tx.meta.toXdr('base64')).toEqual(objects.txs[i]!.meta.toXdr('base64'));
          scanned++;
        });
      }
    }
    expect(scanned).toBe(4 * 17);
  });

  it('marks the operations whose changes name a sponsor, whose effects are then derived as from decoded meta', async () => {
    const meta = xdr.LedgerCloseMeta.fromXdr((await testnetMetas())[0]!.toXdr());
    const sponsor = Keypair.random();
    const markedTxs = new Set<string>();
    for (const p of v1Of(meta).txProcessing) {
      // the first entry an operation creates gets a sponsor
      const changes = xdr.expectUnionVariant(p.txApplyProcessing, 'v3').v3.operations[0]?.changes ?? [];
      const index = changes.findIndex((c) => c.type === 'ledgerEntryCreated');
      if (index < 0) continue;
      const created = xdr.expectUnionVariant(changes[index]!, 'ledgerEntryCreated').created;
      changes[index] = xdr.LedgerEntryChange.ledgerEntryCreated(
        new xdr.LedgerEntry({
          lastModifiedLedgerSeq: created.lastModifiedLedgerSeq,
          data: created.data,
          ext: xdr.LedgerEntryExt.v1(
            new xdr.LedgerEntryExtensionV1({ sponsoringId: sponsor.xdrAccountId(), ext: xdr.LedgerEntryExtensionV1Ext.v0() }),
          ),
        }),
      );
      markedTxs.add(Buffer.from(p.result.transactionHash.value).toString('hex'));
    }
    expect(markedTxs.size).toBeGreaterThan(0);
    const bytes = viewLedgerBytes(bytesOf(meta), network);
    const objects = viewLedger(meta, network);
    for (const tx of bytes.txs) expect(tx.operationSponsored).toEqual(tx.operationChanges.map((_, i) => i === 0 && markedTxs.has(tx.hash)));
    const rows = ledgerRows(bytes);
    expect(rows).toEqual(ledgerRows(objects));
    const sponsored = rows.effects.filter((e) => e.details.sponsor === sponsor.publicKey());
    expect(sponsored.length).toBe(markedTxs.size);
  });

  it('falls back to js-xdr for entries the scanner does not know, with the same rows', async () => {
    for (const meta of await testnetMetas()) {
      const copy = xdr.LedgerCloseMeta.fromXdr(meta.toXdr());
      for (const p of v1Of(copy).txProcessing) {
        // a removed TTL entry (Soroban) among an operation's changes: no row and no participant
        const ttl = xdr.LedgerEntryChange.ledgerEntryRemoved(xdr.LedgerKey.ttl(new xdr.LedgerKeyTtl({ keyHash: Buffer.alloc(32, 7) })));
        xdr.expectUnionVariant(p.txApplyProcessing, 'v3').v3.operations[0]?.changes.push(ttl);
      }
      const bytes = viewLedgerBytes(bytesOf(copy), network);
      for (const tx of bytes.txs) if (tx.operationChanges.length > 0) expect(tx.operationAccounts).toBeUndefined();
      expect(withoutMetaXdr(ledgerRows(bytes))).toEqual(withoutMetaXdr(ledgerRows(viewLedger(meta, network))));
    }
  });

  it('falls back to js-xdr for envelopes and results the scanner does not know, with the same rows', async () => {
    const meta = xdr.LedgerCloseMeta.fromXdr((await testnetMetas())[0]!.toXdr());
    const envelopes = phaseEnvelopes(v1Of(meta).txSet.v1TxSet.phases[0]!);
    const envelope = envelopes[0]!;
    const oldHash = Buffer.from(envelopeHash(envelope, network));
    // a clawback (not a classic operation for the scanner) appended to the envelope, and to its result
    const ops = xdr.expectUnionVariant(envelope, 'envelopeTypeTx').v1.tx.operations;
    ops.push(
      Operation.clawback({ asset: new Asset('USD', Keypair.random().publicKey()), from: Keypair.random().publicKey(), amount: '1' }),
    );
    const txProcessing = v1Of(meta).txProcessing;
    const index = txProcessing.findIndex((p) => oldHash.equals(p.result.transactionHash.value));
    const processing = txProcessing[index]!;
    const result = processing.result.result.result;
    if (result.type === 'txSuccess' || result.type === 'txFailed') {
      result.results.push(xdr.OperationResult.opInner(xdr.OperationResultTr.clawback(xdr.ClawbackResult.clawbackSuccess())));
    }
    txProcessing[index] = new xdr.TransactionResultMeta({
      result: new xdr.TransactionResultPair({ transactionHash: envelopeHash(envelope, network), result: processing.result.result }),
      feeProcessing: processing.feeProcessing,
      txApplyProcessing: processing.txApplyProcessing,
    });
    const bytes = viewLedgerBytes(bytesOf(meta), network);
    const objects = viewLedger(meta, network);
    expect(bytes.txs.map((t) => t.hash)).toContain(Buffer.from(envelopeHash(envelope, network)).toString('hex'));
    expect(bytes.txs.map((t) => t.envelope.toXdr('base64'))).toEqual(objects.txs.map((t) => t.envelope.toXdr('base64')));
    expect(bytes.txs.map((t) => t.result.toXdr('base64'))).toEqual(objects.txs.map((t) => t.result.toXdr('base64')));
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
      expect(core.submit(create.toXdr()).status).toBe('PENDING');
      await core.closeLedger();
      const inner = new TransactionBuilder(account(alice), { fee: '100', networkPassphrase: passphrase })
        .addOperation(Operation.payment({ destination: root.publicKey(), asset: Asset.native(), amount: '1' }))
        .setTimeout(0)
        .build();
      inner.sign(alice);
      const bump = TransactionBuilder.buildFeeBumpTransaction(root, '1000', inner, passphrase);
      bump.sign(root);
      expect(core.submit(bump.toXdr()).status).toBe('PENDING');
      const closed = await core.closeLedger();
      const raw = core.ledgerMetaXdr(closed.sequence)!;
      const rows = ledgerRows(viewLedgerBytes(raw, networkId(passphrase)));
      expect(rows.transactions).toHaveLength(1);
      const tx = rows.transactions[0]!;
      expect(tx).toMatchObject({
        hash: Buffer.from(bump.hash()).toString('hex'),
        successful: true,
        account: alice.publicKey(),
        fee_account: root.publicKey(),
        inner_transaction_hash: Buffer.from(inner.hash()).toString('hex'),
        max_fee: 100n,
        new_max_fee: 2000n,
        signatures: [Buffer.from(bump.signatures[0]!.signature.value).toString('base64')],
        inner_signatures: [Buffer.from(inner.signatures[0]!.signature.value).toString('base64')],
      });
      expect(rows.transactionParticipants.map((p) => p.account).sort()).toEqual([alice.publicKey(), root.publicKey()].sort());
      expect(rows.effects.map((e) => e.type)).toEqual([2, 3]);
      expect(ledgerRows(viewLedger(xdr.LedgerCloseMeta.fromXdr(raw), networkId(passphrase)))).toEqual(rows);
    } finally {
      await core.stop();
    }
  });
});
