// The byte scanners for envelopes and results (tx_scan.ts) must end exactly where the library's
// encoding ends, for every classic operation and result arm, find where an envelope's signatures start (the
// bytes before them are hashed), and give up (null, never a wrong position) on anything else.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  Account,
  Asset,
  Keypair,
  LiquidityPoolAsset,
  Memo,
  Networks,
  Operation,
  StrKey,
  TransactionBuilder,
  xdr,
} from '@stellar/stellar-sdk/base';
import { envelopeHash, readDatastoreFile } from '../../src/meta/index.js';
import { scanEnvelope, scanResultPair } from '../../src/meta/tx_scan.js';
import { networkId } from '../../src/stellar/index.js';
import { TEST_PASSPHRASE, loadScenario } from '../core/support/scenario.js';
import { TESTNET_DATASTORE, TESTNET_PASSPHRASE } from '../ingest/support/fixtures.js';

const SCENARIOS = fs
  .readdirSync(path.join(path.dirname(TESTNET_DATASTORE), '..', 'horizon-scenarios'))
  .filter((f) => f.endsWith('-core.sql'))
  .map((f) => f.replace('-core.sql', ''));

/** the envelope's hash from the scanned bytes, as ledger_bytes.ts computes it */
function scannedHash(bytes: Buffer, passphrase: string): string | null {
  const scan = scanEnvelope(bytes, 0);
  if (!scan) return null;
  const prefix = scan.type === 5 ? [0, 0, 0, 5] : scan.type === 0 ? [0, 0, 0, 2, 0, 0, 0, 0] : [0, 0, 0, 2];
  const network = createHash('sha256').update(passphrase).digest();
  return createHash('sha256').update(network).update(Buffer.from(prefix)).update(bytes.subarray(4, scan.signatures)).digest('hex');
}

function expectEnvelope(envelope: xdr.TransactionEnvelope, hash: string, passphrase: string): void {
  const bytes = Buffer.from(envelope.toXdr());
  // scanned inside a larger buffer, as in a ledger
  const padded = Buffer.concat([Buffer.alloc(8, 1), bytes, Buffer.alloc(8, 2)]);
  expect(scanEnvelope(padded, 8)?.end).toBe(8 + bytes.length);
  expect(scannedHash(bytes, passphrase)).toBe(hash);
}

function expectResult(pair: xdr.TransactionResultPair): void {
  const bytes = Buffer.from(pair.toXdr());
  const padded = Buffer.concat([Buffer.alloc(4, 9), bytes, Buffer.alloc(4, 9)]);
  expect(scanResultPair(padded, 4)).toBe(4 + bytes.length);
}

const source = Keypair.fromRawEd25519Seed(Buffer.alloc(32, 1));
const other = Keypair.fromRawEd25519Seed(Buffer.alloc(32, 2));
const usd = new Asset('USD', other.publicKey());
const long = new Asset('LONGASSET12', other.publicKey());
const muxed = StrKey.encodeMed25519PublicKey(Buffer.concat([other.rawPublicKey(), Buffer.from([0, 0, 0, 0, 0, 0, 0, 7])]));

/** one of every classic operation, with optional parts present */
const EVERY_OPERATION: xdr.Operation[] = [
  Operation.createAccount({ destination: other.publicKey(), startingBalance: '10' }),
  Operation.payment({ destination: muxed, asset: usd, amount: '1', source: muxed }),
  Operation.pathPaymentStrictReceive({
    sendAsset: Asset.native(),
    sendMax: '5',
    destination: other.publicKey(),
    destAsset: usd,
    destAmount: '1',
    path: [long, usd],
  }),
  Operation.manageSellOffer({ selling: usd, buying: long, amount: '3', price: '1.5', offerId: '7' }),
  Operation.createPassiveSellOffer({ selling: Asset.native(), buying: usd, amount: '3', price: { n: 3, d: 7 } }),
  Operation.setOptions({
    inflationDest: other.publicKey(),
    clearFlags: 1,
    setFlags: 2,
    masterWeight: 3,
    lowThreshold: 1,
    medThreshold: 2,
    highThreshold: 3,
    homeDomain: 'example.org',
    signer: { ed25519PublicKey: other.publicKey(), weight: 1 },
  }),
  Operation.setOptions({ signer: { sha256Hash: Buffer.alloc(32, 3), weight: 2 } }),
  Operation.setOptions({
    signer: {
      ed25519SignedPayload: StrKey.encodeSignedPayload(
        Buffer.concat([other.rawPublicKey(), Buffer.from([0, 0, 0, 5, 1, 2, 3, 4, 5, 0, 0, 0])]),
      ),
      weight: 1,
    },
  }),
  Operation.setOptions({}),
  Operation.changeTrust({ asset: long, limit: '100' }),
  Operation.changeTrust({ asset: new LiquidityPoolAsset(Asset.native(), usd, 30) }),
  Operation.allowTrust({ trustor: other.publicKey(), assetCode: 'USD', authorize: 1 }),
  Operation.allowTrust({ trustor: other.publicKey(), assetCode: 'LONGASSET12', authorize: 0 }),
  Operation.accountMerge({ destination: muxed }),
  Operation.inflation({}),
  Operation.manageData({ name: 'key', value: 'value' }),
  Operation.manageData({ name: 'gone', value: null }),
  Operation.bumpSequence({ bumpTo: '1234567890123' }),
  Operation.manageBuyOffer({ selling: usd, buying: Asset.native(), buyAmount: '2', price: '0.5' }),
  Operation.pathPaymentStrictSend({ sendAsset: usd, sendAmount: '1', destination: muxed, destAsset: long, destMin: '0.5', path: [] }),
];

function buildTx(options: { memo?: Memo; v2?: boolean; extra?: xdr.Operation[] } = {}) {
  const builder = new TransactionBuilder(new Account(source.publicKey(), '41'), {
    fee: '100',
    networkPassphrase: Networks.TESTNET,
    memo: options.memo,
  });
  for (const op of [...EVERY_OPERATION, ...(options.extra ?? [])]) builder.addOperation(op);
  if (options.v2) {
    builder
      .setTimebounds(10, 20)
      .setLedgerbounds(5, 6)
      .setMinAccountSequence('40')
      .setMinAccountSequenceAge(60n)
      .setMinAccountSequenceLedgerGap(2)
      .setExtraSigners([StrKey.encodeSha256Hash(Buffer.alloc(32, 1))]);
  } else {
    builder.setTimeout(0);
  }
  const tx = builder.build();
  tx.sign(source, other);
  return tx;
}

const claimAtoms = (): xdr.ClaimAtom[] => [
  xdr.ClaimAtom.claimAtomTypeV0(
    new xdr.ClaimOfferAtomV0({
      sellerEd25519: other.rawPublicKey(),
      offerId: 1n,
      assetSold: usd.toXdrObject(),
      amountSold: 5n,
      assetBought: Asset.native().toXdrObject(),
      amountBought: 6n,
    }),
  ),
  xdr.ClaimAtom.claimAtomTypeOrderBook(
    new xdr.ClaimOfferAtom({
      sellerId: xdr.PublicKey.publicKeyTypeEd25519(other.rawPublicKey()),
      offerId: 2n,
      assetSold: long.toXdrObject(),
      amountSold: 5n,
      assetBought: usd.toXdrObject(),
      amountBought: 6n,
    }),
  ),
  xdr.ClaimAtom.claimAtomTypeLiquidityPool(
    new xdr.ClaimLiquidityAtom({
      liquidityPoolId: new xdr.PoolId(Buffer.alloc(32, 4)),
      assetSold: usd.toXdrObject(),
      amountSold: 5n,
      assetBought: Asset.native().toXdrObject(),
      amountBought: 6n,
    }),
  ),
];

const offer = () =>
  new xdr.OfferEntry({
    sellerId: xdr.PublicKey.publicKeyTypeEd25519(source.rawPublicKey()),
    offerId: 9n,
    selling: usd.toXdrObject(),
    buying: long.toXdrObject(),
    amount: 10n,
    price: new xdr.Price({ n: 1, d: 2 }),
    flags: 0,
    ext: xdr.OfferEntryExt.v0(),
  });

const inner = (tr: xdr.OperationResultTr) => xdr.OperationResult.opInner(tr);
const success = (atoms: xdr.ClaimAtom[], effect: 'created' | 'updated' | 'deleted') =>
  new xdr.ManageOfferSuccessResult({
    offersClaimed: atoms,
    offer:
      effect === 'created'
        ? xdr.ManageOfferSuccessResultOffer.manageOfferCreated(offer())
        : effect === 'updated'
          ? xdr.ManageOfferSuccessResultOffer.manageOfferUpdated(offer())
          : xdr.ManageOfferSuccessResultOffer.manageOfferDeleted(),
  });
const last = () =>
  new xdr.SimplePaymentResult({
    destination: xdr.PublicKey.publicKeyTypeEd25519(other.rawPublicKey()),
    asset: usd.toXdrObject(),
    amount: 3n,
  });

/** one of every classic result arm that carries data, and a few that do not */
const EVERY_RESULT: xdr.OperationResult[] = [
  inner(xdr.OperationResultTr.createAccount(xdr.CreateAccountResult.createAccountSuccess())),
  inner(xdr.OperationResultTr.payment(xdr.PaymentResult.paymentUnderfunded())),
  inner(
    xdr.OperationResultTr.pathPaymentStrictReceive(
      xdr.PathPaymentStrictReceiveResult.pathPaymentStrictReceiveSuccess(
        new xdr.PathPaymentStrictReceiveResultSuccess({ offers: claimAtoms(), last: last() }),
      ),
    ),
  ),
  inner(
    xdr.OperationResultTr.pathPaymentStrictReceive(xdr.PathPaymentStrictReceiveResult.pathPaymentStrictReceiveNoIssuer(usd.toXdrObject())),
  ),
  inner(xdr.OperationResultTr.pathPaymentStrictReceive(xdr.PathPaymentStrictReceiveResult.pathPaymentStrictReceiveUnderfunded())),
  inner(
    xdr.OperationResultTr.pathPaymentStrictSend(
      xdr.PathPaymentStrictSendResult.pathPaymentStrictSendSuccess(
        new xdr.PathPaymentStrictSendResultSuccess({ offers: claimAtoms(), last: last() }),
      ),
    ),
  ),
  inner(xdr.OperationResultTr.pathPaymentStrictSend(xdr.PathPaymentStrictSendResult.pathPaymentStrictSendNoIssuer(long.toXdrObject()))),
  inner(xdr.OperationResultTr.manageSellOffer(xdr.ManageSellOfferResult.manageSellOfferSuccess(success(claimAtoms(), 'created')))),
  inner(xdr.OperationResultTr.manageSellOffer(xdr.ManageSellOfferResult.manageSellOfferSuccess(success([], 'updated')))),
  inner(xdr.OperationResultTr.manageSellOffer(xdr.ManageSellOfferResult.manageSellOfferSuccess(success(claimAtoms(), 'deleted')))),
  inner(xdr.OperationResultTr.manageSellOffer(xdr.ManageSellOfferResult.manageSellOfferCrossSelf())),
  inner(xdr.OperationResultTr.createPassiveSellOffer(xdr.ManageSellOfferResult.manageSellOfferSuccess(success([], 'created')))),
  inner(xdr.OperationResultTr.manageBuyOffer(xdr.ManageBuyOfferResult.manageBuyOfferSuccess(success(claimAtoms(), 'updated')))),
  inner(xdr.OperationResultTr.setOptions(xdr.SetOptionsResult.setOptionsSuccess())),
  inner(xdr.OperationResultTr.changeTrust(xdr.ChangeTrustResult.changeTrustSuccess())),
  inner(xdr.OperationResultTr.allowTrust(xdr.AllowTrustResult.allowTrustSuccess())),
  inner(xdr.OperationResultTr.accountMerge(xdr.AccountMergeResult.accountMergeSuccess(123n))),
  inner(xdr.OperationResultTr.accountMerge(xdr.AccountMergeResult.accountMergeHasSubEntries())),
  inner(
    xdr.OperationResultTr.inflation(
      xdr.InflationResult.inflationSuccess([
        new xdr.InflationPayout({
          destination: xdr.PublicKey.publicKeyTypeEd25519(other.rawPublicKey()),
          amount: 8n,
        }),
      ]),
    ),
  ),
  inner(xdr.OperationResultTr.manageData(xdr.ManageDataResult.manageDataSuccess())),
  inner(xdr.OperationResultTr.bumpSequence(xdr.BumpSequenceResult.bumpSequenceSuccess())),
  xdr.OperationResult.opBadAuth(),
  xdr.OperationResult.opNoAccount(),
];

const pair = (result: xdr.TransactionResultResult) =>
  new xdr.TransactionResultPair({
    transactionHash: Buffer.alloc(32, 5),
    result: new xdr.TransactionResult({ feeCharged: 100n, result, ext: xdr.TransactionResultExt.v0() }),
  });

describe('transaction scanner', () => {
  it('scans every envelope and result of the horizon scenarios (TransactionV0 envelopes) as the library encodes them', () => {
    let count = 0;
    for (const name of SCENARIOS) {
      for (const ledger of loadScenario(name).ledgers) {
        for (const tx of ledger.txs) {
          expectEnvelope(xdr.TransactionEnvelope.fromXdr(tx.envelope, 'base64'), tx.txid, TEST_PASSPHRASE);
          expectResult(tx.expected);
          count++;
        }
      }
    }
    expect(count).toBeGreaterThan(100);
  });

  it('scans the testnet ledgers\u2019 envelopes and results', async () => {
    let count = 0;
    for (const f of fs.readdirSync(TESTNET_DATASTORE).filter((n) => n.endsWith('.xdr.zst'))) {
      for (const meta of (await readDatastoreFile(fs.readFileSync(path.join(TESTNET_DATASTORE, f)))).ledgerCloseMetas) {
        const v1 = xdr.expectUnionVariant(meta, 'v1').v1;
        for (const p of v1.txProcessing) {
          expectResult(p.result);
          count++;
        }
        for (const phase of v1.txSet.v1TxSet.phases) {
          for (const c of xdr.expectUnionVariant(phase, 'v0Components').v0Components) {
            for (const env of c.txsMaybeDiscountedFee.txs) {
              expectEnvelope(env, envelopeHash(env, networkId(TESTNET_PASSPHRASE)).toString('hex'), TESTNET_PASSPHRASE);
              count++;
            }
          }
        }
      }
    }
    expect(count).toBe(2 * 17);
  });

  it('scans every classic operation, memo and precondition, in v1, fee-bump and v0 envelopes', () => {
    for (const memo of [
      Memo.none(),
      Memo.text('hello'),
      Memo.id('42'),
      Memo.hash(Buffer.alloc(32, 1).toString('hex')),
      Memo.return(Buffer.alloc(32, 2).toString('hex')),
    ]) {
      for (const v2 of [false, true]) {
        const tx = buildTx({ memo, v2 });
        expectEnvelope(tx.toEnvelope(), Buffer.from(tx.hash()).toString('hex'), Networks.TESTNET);
        const bump = TransactionBuilder.buildFeeBumpTransaction(muxed, '1000', tx, Networks.TESTNET);
        bump.sign(other);
        expectEnvelope(bump.toEnvelope(), Buffer.from(bump.hash()).toString('hex'), Networks.TESTNET);
      }
    }
    const v1 = xdr.expectUnionVariant(buildTx().toEnvelope(), 'envelopeTypeTx').v1.tx;
    const v0 = xdr.TransactionEnvelope.envelopeTypeTxV0(
      new xdr.TransactionV0Envelope({
        tx: new xdr.TransactionV0({
          sourceAccountEd25519: source.rawPublicKey(),
          fee: 100,
          seqNum: 42n,
          timeBounds: new xdr.TimeBounds({ minTime: 1n, maxTime: 2n }),
          memo: Memo.text('v0').toXdrObject(),
          operations: v1.operations,
          ext: xdr.TransactionV0Ext.v0(),
        }),
        signatures: [source.signDecorated(Buffer.alloc(32))],
      }),
    );
    const network = createHash('sha256').update(Networks.TESTNET).digest();
    // a v0 transaction hashes as the v1 transaction of the same account
    const v1Form = Buffer.concat([Buffer.from([0, 0, 0, 0]), v0.v0.tx.toXdr()]);
    const hash = createHash('sha256')
      .update(network)
      .update(Buffer.from([0, 0, 0, 2]))
      .update(v1Form)
      .digest('hex');
    expectEnvelope(v0, hash, Networks.TESTNET);
  });

  it('scans every classic result arm, in plain and fee-bump results', () => {
    for (const code of ['txSuccess', 'txFailed'] as const) {
      const results = xdr.TransactionResultResult[code](EVERY_RESULT);
      expectResult(pair(results));
      const innerPair = new xdr.InnerTransactionResultPair({
        transactionHash: Buffer.alloc(32, 6),
        result: new xdr.InnerTransactionResult({
          feeCharged: 50n,
          result: xdr.InnerTransactionResultResult[code](EVERY_RESULT),
          ext: xdr.InnerTransactionResultExt.v0(),
        }),
      });
      expectResult(
        pair(
          code === 'txSuccess'
            ? xdr.TransactionResultResult.txFeeBumpInnerSuccess(innerPair)
            : xdr.TransactionResultResult.txFeeBumpInnerFailed(innerPair),
        ),
      );
    }
    expectResult(pair(xdr.TransactionResultResult.txBadSeq()));
  });

  it('gives up on what it does not know, and on bytes that end too soon', () => {
    const envelope = buildTx({ extra: [Operation.clawback({ asset: usd, from: other.publicKey(), amount: '1' })] }).toEnvelope();
    expect(scanEnvelope(Buffer.from(envelope.toXdr()), 0)).toBeNull();
    const bytes = Buffer.from(buildTx().toEnvelope().toXdr());
    for (const cut of [3, 40, bytes.length - 1]) expect(scanEnvelope(bytes.subarray(0, cut), 0)).toBeNull();
    const clawback = xdr.OperationResult.opInner(xdr.OperationResultTr.clawback(xdr.ClawbackResult.clawbackSuccess()));
    expect(scanResultPair(Buffer.from(pair(xdr.TransactionResultResult.txSuccess([clawback])).toXdr()), 0)).toBeNull();
    const result = Buffer.from(pair(xdr.TransactionResultResult.txSuccess(EVERY_RESULT)).toXdr());
    for (const cut of [10, 60, result.length - 1]) expect(scanResultPair(result.subarray(0, cut), 0)).toBeNull();
  });
});
