// The LedgerCloseMeta an ingester receives: header chaining, tx set, fee/sequence/operation changes.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Asset, Keypair, Operation, StrKey, xdr } from '@stellar/stellar-sdk/base';
import { genesisLedgerEntries } from '../../src/stellar/index.js';
import { Harness, PASSPHRASE } from './support/harness.js';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function describeChange(c: xdr.LedgerEntryChange): string {
  const kind = c.switch().name.replace('ledgerEntry', '').toLowerCase();
  if (kind === 'removed') return `${kind}:${c.removed().switch().name}`;
  const e = c.value() as xdr.LedgerEntry;
  const d = e.data();
  if (d.switch().name === 'account') {
    const a = d.account();
    return `${kind}:account:${StrKey.encodeEd25519PublicKey(a.accountId().ed25519()).slice(0, 4)}:${a.balance().toString()}:${a.seqNum().toString()}`;
  }
  return `${kind}:${d.switch().name}`;
}

describe('ledger close meta', () => {
  it('chains headers and hashes the tx set and results like stellar-core', async () => {
    const h = await Harness.create();
    const [a, b] = await h.fund(100, 2);
    const env = h.envelope(a!, [Operation.payment({ destination: b!.publicKey(), asset: Asset.native(), amount: '5' })]);
    h.core.submit(env);
    const prev = h.core.latestLedger();
    const closed = await h.core.closeLedger(prev.closeTime + 5);
    const meta = xdr.LedgerCloseMeta.fromXDR(h.core.ledgerMetaXdr(closed.sequence)!);
    expect(meta.switch()).toBe(1);
    const v1 = meta.v1();
    const hh = v1.ledgerHeader();
    const header = hh.header();
    expect(hh.hash().toString('hex')).toBe(sha(header.toXDR()));
    expect(hh.hash().toString('hex')).toBe(closed.hash);
    expect(header.previousLedgerHash().toString('hex')).toBe(prev.hash);
    expect(header.ledgerSeq()).toBe(prev.sequence + 1);
    expect(Number(header.scpValue().closeTime().toBigInt())).toBe(prev.closeTime + 5);
    expect(header.ledgerVersion()).toBe(22);
    expect(header.totalCoins().toBigInt()).toBe(10n ** 18n);
    expect(header.feePool().toBigInt()).toBe(300n); // funding tx (2 operations) + this payment
    expect(header.baseFee()).toBe(100);
    expect(header.baseReserve()).toBe(5_000_000);
    expect(header.scpValue().txSetHash().toString('hex')).toBe(sha(v1.txSet().toXDR()));
    const pairs = v1.txProcessing().map((p) => p.result());
    expect(header.txSetResultHash().toString('hex')).toBe(sha(new xdr.TransactionResultSet({ results: pairs }).toXDR()));
    const comp = v1.txSet().v1TxSet().phases()[0]!.v0Components()[0]!.txsMaybeDiscountedFee();
    expect(comp.baseFee()!.toBigInt()).toBe(100n);
    expect(comp.txes().map((e) => e.toXDR('base64'))).toEqual([env]);
    expect(v1.txSet().v1TxSet().phases()[1]!.v0Components()).toHaveLength(0);
    // canonical encoding: decoding and re-encoding gives the same bytes
    expect(meta.toXDR().equals(h.core.ledgerMetaXdr(closed.sequence)!)).toBe(true);
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
    const v1 = xdr.LedgerCloseMeta.fromXDR(h.core.ledgerMetaXdr(closed.sequence)!).v1();
    const [ok, failed] = v1.txProcessing();
    expect(ok!.feeProcessing().map(describeChange)).toEqual([
      `state:account:${aId}:${bal}:${seq}`,
      `updated:account:${aId}:${bal - 100n}:${seq}`,
    ]);
    const okMeta = ok!.txApplyProcessing();
    expect(okMeta.switch()).toBe(3);
    expect(okMeta.v3().txChangesBefore().map(describeChange)).toEqual([
      `state:account:${aId}:${bal - 200n}:${seq}`,
      `updated:account:${aId}:${bal - 200n}:${seq + 1n}`,
    ]);
    expect(
      okMeta
        .v3()
        .operations()
        .map((o) => o.changes().map(describeChange)),
    ).toEqual([
      [
        `state:account:${bId}:${bBal}:${h.seq(b!)}`,
        `updated:account:${bId}:${bBal + 50_000_000n}:${h.seq(b!)}`,
        `state:account:${aId}:${bal - 200n}:${seq + 1n}`,
        `updated:account:${aId}:${bal - 200n - 50_000_000n}:${seq + 1n}`,
      ],
    ]);
    expect(okMeta.v3().txChangesAfter()).toHaveLength(0);
    expect(okMeta.v3().sorobanMeta()).toBeFalsy();
    const updated = okMeta.v3().txChangesBefore()[1]!.updated().data().account();
    const v3 = updated.ext().v1().ext().v2().ext().v3();
    expect(v3.seqLedger()).toBe(closed.sequence);
    expect(Number(v3.seqTime().toBigInt())).toBe(closed.closeTime);
    expect(failed!.result().result().result().switch().name).toBe('txFailed');
    expect(failed!.txApplyProcessing().v3().operations()).toHaveLength(0);
    expect(failed!.txApplyProcessing().v3().txChangesBefore()).toHaveLength(2);
  });

  it('genesis: ledger 1 meta and the root account entry', async () => {
    const h = await Harness.create();
    const m = xdr.LedgerCloseMeta.fromXDR(h.core.ledgerMetaXdr(1)!).v1();
    expect(m.ledgerHeader().header().ledgerSeq()).toBe(1);
    expect(m.txProcessing()).toHaveLength(0);
    const [root] = genesisLedgerEntries(PASSPHRASE);
    const acc = root!.data().account();
    expect(StrKey.encodeEd25519PublicKey(acc.accountId().ed25519())).toBe(h.root.publicKey());
    expect(acc.balance().toBigInt()).toBe(10n ** 18n);
    expect(acc.seqNum().toBigInt()).toBe(0n);
  });
});
