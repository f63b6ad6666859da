// The LedgerCloseMeta an ingester receives: header chaining, tx set, fee/sequence/operation changes.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Asset, Keypair, Operation, StrKey, xdr } from '@stellar/stellar-sdk/base';
import { genesisLedgerEntries } from '../../src/stellar/index.js';
import { Harness, PASSPHRASE, closeMetaV1, hex, metaV1, txMetaV3 } from './support/harness.js';

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

function describeChange(c: xdr.LedgerEntryChange): string {
  const kind = c.type.replace('ledgerEntry', '').toLowerCase();
  if (c.type === 'ledgerEntryRemoved') return `${kind}:${c.removed.type}`;
  const d = c.value.data;
  if (d.type === 'account') {
    const a = d.account;
    return `${kind}:account:${StrKey.encodeEd25519PublicKey(a.accountId.ed25519.value).slice(0, 4)}:${a.balance.toString()}:${a.seqNum.toString()}`;
  }
  return `${kind}:${d.type}`;
}

describe('ledger close meta', () => {
  it('chains headers and hashes the tx set and results like stellar-core', async () => {
    const h = await Harness.create();
    const [a, b] = await h.fund(100, 2);
    const env = h.envelope(a!, [Operation.payment({ destination: b!.publicKey(), asset: Asset.native(), amount: '5' })]);
    h.core.submit(env);
    const prev = h.core.latestLedger();
    const closed = await h.core.closeLedger(prev.closeTime + 5);
    const bytes = h.core.ledgerMetaXdr(closed.sequence)!;
    const meta = xdr.LedgerCloseMeta.fromXdr(bytes);
    expect(meta.type).toBe('v1');
    const v1 = metaV1(meta);
    const hh = v1.ledgerHeader;
    const header = hh.header;
    expect(hex(hh.hash)).toBe(sha(header.toXdr()));
    expect(hex(hh.hash)).toBe(closed.hash);
    expect(hex(header.previousLedgerHash)).toBe(prev.hash);
    expect(header.ledgerSeq).toBe(prev.sequence + 1);
    expect(Number(header.scpValue.closeTime)).toBe(prev.closeTime + 5);
    expect(header.ledgerVersion).toBe(22);
    expect(header.totalCoins).toBe(10n ** 18n);
    expect(header.feePool).toBe(300n); // funding tx (2 operations) + this payment
    expect(header.baseFee).toBe(100);
    expect(header.baseReserve).toBe(5_000_000);
    expect(hex(header.scpValue.txSetHash)).toBe(sha(v1.txSet.toXdr()));
    const pairs = v1.txProcessing.map((p) => p.result);
    expect(hex(header.txSetResultHash)).toBe(sha(new xdr.TransactionResultSet({ results: pairs }).toXdr()));
    const phases = v1.txSet.v1TxSet.phases;
    const comp = xdr.expectUnionVariant(phases[0]!, 'v0Components').v0Components[0]!.txsMaybeDiscountedFee;
    expect(comp.baseFee).toBe(100n);
    expect(comp.txs.map((e) => e.toXdr('base64'))).toEqual([env]);
    expect(xdr.expectUnionVariant(phases[1]!, 'v0Components').v0Components).toHaveLength(0);
    // canonical encoding: decoding and re-encoding gives the same bytes
    expect(Buffer.from(meta.toXdr()).equals(bytes)).toBe(true);
  });

  it('fee, sequence and operation changes, and an empty operations list for failed transactions', async () => {
    const h = await Harness.create();
    const [a, b] = await h.fund(100, 2);
    const aId = a!.publicKey().slice(0, 4);
    const bId = b!.publicKey().slice(0, 4);
    const seq = h.seq(a!);
    const bal = h.balance(a!);
    const bBal = h.balance(b!);
    h.core.submit(h.envelope(a!, [Operation.payment({ destination: b!.publicKey(), asset: Asset.native(), amount: '5' })]));
    h.core.submit(
      h.envelope(a!, [Operation.payment({ destination: Keypair.random().publicKey(), asset: Asset.native(), amount: '5' })], {
        seq: seq + 2n,
      }),
    );
    const closed = await h.core.closeLedger(h.nextCloseTime());
    const v1 = closeMetaV1(h.core, closed.sequence);
    const [ok, failed] = v1.txProcessing;
    expect(ok!.feeProcessing.map(describeChange)).toEqual([
      `state:account:${aId}:${bal}:${seq}`,
      `updated:account:${aId}:${bal - 100n}:${seq}`,
    ]);
    expect(ok!.txApplyProcessing.type).toBe('v3');
    const okMeta = txMetaV3(ok!);
    expect(okMeta.txChangesBefore.map(describeChange)).toEqual([
      `state:account:${aId}:${bal - 200n}:${seq}`,
      `updated:account:${aId}:${bal - 200n}:${seq + 1n}`,
    ]);
    expect(okMeta.operations.map((o) => o.changes.map(describeChange))).toEqual([
      [
        `state:account:${bId}:${bBal}:${h.seq(b!)}`,
        `updated:account:${bId}:${bBal + 50_000_000n}:${h.seq(b!)}`,
        `state:account:${aId}:${bal - 200n}:${seq + 1n}`,
        `updated:account:${aId}:${bal - 200n - 50_000_000n}:${seq + 1n}`,
      ],
    ]);
    expect(okMeta.txChangesAfter).toHaveLength(0);
    expect(okMeta.sorobanMeta).toBeFalsy();
    const updated = xdr.expectUnionVariant(
      xdr.expectUnionVariant(okMeta.txChangesBefore[1]!, 'ledgerEntryUpdated').updated.data,
      'account',
    ).account;
    const v1Ext = xdr.expectUnionVariant(updated.ext, 'v1').v1;
    const v2Ext = xdr.expectUnionVariant(v1Ext.ext, 'v2').v2;
    const v3 = xdr.expectUnionVariant(v2Ext.ext, 'v3').v3;
    expect(v3.seqLedger).toBe(closed.sequence);
    expect(Number(v3.seqTime)).toBe(closed.closeTime);
    expect(failed!.result.result.result.type).toBe('txFailed');
    expect(txMetaV3(failed!).operations).toHaveLength(0);
    expect(txMetaV3(failed!).txChangesBefore).toHaveLength(2);
  });

  it('genesis: ledger 1 meta and the root account entry', async () => {
    const h = await Harness.create();
    const m = closeMetaV1(h.core, 1);
    expect(m.ledgerHeader.header.ledgerSeq).toBe(1);
    expect(m.txProcessing).toHaveLength(0);
    const [root] = genesisLedgerEntries(PASSPHRASE);
    const acc = xdr.expectUnionVariant(root!.data, 'account').account;
    expect(StrKey.encodeEd25519PublicKey(acc.accountId.ed25519.value)).toBe(h.root.publicKey());
    expect(acc.balance).toBe(10n ** 18n);
    expect(acc.seqNum).toBe(0n);
  });
});
