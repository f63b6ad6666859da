// The envelope byte reader (readTxFrame) against the library: for envelopes the SDK builds and for
// bit flips of them, whatever the reader accepts, the library decodes, and makeTxFrame builds the
// same frame from the library's objects.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Account, Asset, Keypair, Memo, MuxedAccount, Operation, StrKey, TransactionBuilder, xdr } from '@stellar/stellar-sdk/base';
import { decodeEnvelope, makeTxFrame, readTxFrame } from '../../src/core/ledger/tx_frame.js';
import type { TxFrame } from '../../src/core/ledger/tx_frame.js';

const PASSPHRASE = 'Zenith Tx Frame Test';
const NETWORK_ID = createHash('sha256').update(PASSPHRASE).digest();

const source = Keypair.random();
const other = Keypair.random();

function builder(account: Account | MuxedAccount, fee = '100') {
  return new TransactionBuilder(account, { fee, networkPassphrase: PASSPHRASE });
}

function envelopes(): Buffer[] {
  const account = new Account(source.publicKey(), '41');
  const muxed = new MuxedAccount(new Account(source.publicKey(), '7'), '12345');
  const pay = Operation.payment({ destination: other.publicKey(), asset: Asset.native(), amount: '1.5' });
  const plain = builder(account).addOperation(pay).addMemo(Memo.text('hello')).setTimeout(300).build();
  plain.sign(source);
  const fromMuxed = builder(muxed)
    .addOperation(
      Operation.payment({
        destination: muxed.accountId(),
        asset: new Asset('USD', other.publicKey()),
        amount: '2',
        source: muxed.accountId(),
      }),
    )
    .addMemo(Memo.id('987654321'))
    .setTimeout(0)
    .build();
  fromMuxed.sign(source, other);
  const payload = Buffer.from('a signed payload of some bytes');
  const conditions = builder(new Account(source.publicKey(), '99'))
    .addOperation(Operation.manageData({ name: 'k', value: 'v' }))
    .addOperation(Operation.setOptions({ homeDomain: 'example.com', source: other.publicKey() }))
    .addOperation(Operation.createAccount({ destination: Keypair.random().publicKey(), startingBalance: '10' }))
    .addOperation(Operation.payment({ destination: other.publicKey(), asset: new Asset('LONGERCODE', other.publicKey()), amount: '3' }))
    .addMemo(Memo.hash(createHash('sha256').update('m').digest()))
    .setTimebounds(5, 1_000_000)
    .setLedgerbounds(3, 900)
    .setMinAccountSequence('90')
    .setMinAccountSequenceAge(60n)
    .setMinAccountSequenceLedgerGap(2)
    .setExtraSigners([
      other.publicKey(),
      StrKey.encodeSignedPayload(
        Buffer.concat([
          other.rawPublicKey(),
          Buffer.from([0, 0, 0, payload.length]),
          payload,
          Buffer.alloc((4 - (payload.length % 4)) % 4),
        ]),
      ),
    ])
    .build();
  conditions.sign(source);
  const bump = TransactionBuilder.buildFeeBumpTransaction(other, '500', plain, PASSPHRASE);
  bump.sign(other);
  const returned = builder(new Account(source.publicKey(), '1'))
    .addOperation(pay)
    .addMemo(Memo.return(createHash('sha256').update('r').digest()))
    .setTimeout(60)
    .build();
  return [plain, fromMuxed, conditions, bump, returned].map((t) => Buffer.from(t.toEnvelope().toXdr()));
}

/** a frame's values, comparable with toEqual (XDR objects as their bytes) */
function plain(f: TxFrame): unknown {
  return {
    ...f,
    ops: f.ops.map((o) => ({ ...o, op: o.op.toXdr('base64') })),
    extraSigners: f.extraSigners.map((k) => k.toXdr('base64')),
    signatures: f.signatures.map((s) => ({ hint: s.hint.toString('hex'), signature: s.signature.toString('hex') })),
    feeBump: f.feeBump && {
      ...f.feeBump,
      signatures: f.feeBump.signatures.map((s) => ({ hint: s.hint.toString('hex'), signature: s.signature.toString('hex') })),
    },
  };
}

function libraryFrame(blob: Buffer): TxFrame | null {
  const env = decodeEnvelope(blob);
  return env && makeTxFrame(env, NETWORK_ID, blob);
}

describe('readTxFrame', () => {
  it('reads what the library decodes, for v1 and fee-bump envelopes of every memo and precondition', () => {
    for (const [i, blob] of envelopes().entries()) {
      const read = readTxFrame(blob, NETWORK_ID);
      expect(read, `envelope ${i}`).not.toBeNull();
      expect(plain(read!)).toEqual(plain(libraryFrame(blob)!));
      // the operations the reader builds itself are the library's objects, field by field
      expect(read!.ops.map((o) => o.op)).toStrictEqual(libraryFrame(blob)!.ops.map((o) => o.op));
    }
  });

  it('leaves v0 envelopes and Soroban data to the library', () => {
    const blob = envelopes()[0]!;
    const v1 = xdr.expectUnionVariant(xdr.TransactionEnvelope.fromXdr(blob), 'envelopeTypeTx').v1;
    const v0 = xdr.TransactionEnvelope.envelopeTypeTxV0(
      new xdr.TransactionV0Envelope({
        tx: new xdr.TransactionV0({
          sourceAccountEd25519: source.rawPublicKey(),
          fee: v1.tx.fee,
          seqNum: v1.tx.seqNum,
          timeBounds: null,
          memo: v1.tx.memo,
          operations: v1.tx.operations,
          ext: xdr.TransactionV0Ext.v0(),
        }),
        signatures: v1.signatures,
      }),
    ).toXdr();
    expect(readTxFrame(Buffer.from(v0), NETWORK_ID)).toBeNull();
    expect(libraryFrame(Buffer.from(v0))).not.toBeNull();
  });

  it('accepts no bit flip or truncation the library refuses, and reads the accepted ones as the library does', () => {
    let x = 7;
    const random = () => {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      return (x >>> 0) / 0x100000000;
    };
    let accepted = 0;
    for (const good of envelopes()) {
      const blobs: Buffer[] = [Buffer.concat([good, Buffer.alloc(4)])];
      for (let i = 0; i < good.length; i += 5) blobs.push(good.subarray(0, i));
      for (let i = 0; i < 200; i++) {
        const m = Buffer.from(good);
        const pos = Math.floor(random() * m.length);
        m[pos] = m[pos]! ^ (1 << Math.floor(random() * 8));
        blobs.push(m);
      }
      for (const blob of blobs) {
        const read = readTxFrame(blob, NETWORK_ID);
        if (!read) continue;
        accepted++;
        expect(plain(read)).toEqual(plain(libraryFrame(blob)!));
      }
    }
    expect(accepted).toBeGreaterThan(100);
  });
});
