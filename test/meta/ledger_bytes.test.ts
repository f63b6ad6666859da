// The sequence of a LedgerCloseMeta read from its bytes' header: for every LedgerCloseMeta version,
// with or without the v1 extension, upgrades and a signed close value, as the library decodes it.
// And a ledger read from its bytes where the scanners give up: the library reads those parts.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Account, Keypair, Networks, TransactionBuilder, xdr } from '@stellar/stellar-sdk/base';
import { envelopeHash, rawLedgerSequence, readDatastoreFile, viewLedger, viewLedgerBytes } from '../../src/meta/index.js';
import { networkId } from '../../src/stellar/index.js';
import { TESTNET_DATASTORE } from '../ingest/support/fixtures.js';

async function testnetMetas(): Promise<xdr.LedgerCloseMeta[]> {
  const out: xdr.LedgerCloseMeta[] = [];
  for (const f of fs.readdirSync(TESTNET_DATASTORE).filter((n) => n.endsWith('.xdr.zst'))) {
    out.push(...(await readDatastoreFile(fs.readFileSync(path.join(TESTNET_DATASTORE, f)))).ledgerCloseMetas);
  }
  return out;
}

const bytesOf = (meta: xdr.LedgerCloseMeta): Buffer => Buffer.from(meta.toXdr());

const decodedSequence = (bytes: Buffer): number => xdr.LedgerCloseMeta.fromXdr(bytes).value.ledgerHeader.header.ledgerSeq;

/** a copy of a v1 ledger with another extension and close value, at another sequence */
function withHeader(meta: xdr.LedgerCloseMeta, sequence: number, scpExt: xdr.StellarValueExt): xdr.LedgerCloseMeta {
  const v1 = xdr.expectUnionVariant(meta, 'v1').v1;
  const entry = v1.ledgerHeader;
  const header = entry.header;
  const scpValue = new xdr.StellarValue({ ...header.scpValue, upgrades: [Buffer.from('abc'), Buffer.alloc(8, 1)], ext: scpExt });
  return xdr.LedgerCloseMeta.v1(
    new xdr.LedgerCloseMetaV1({
      ...v1,
      ext: xdr.LedgerCloseMetaExt.v1(new xdr.LedgerCloseMetaExtV1({ ext: xdr.ExtensionPoint.v0(), sorobanFeeWrite1Kb: 7n })),
      ledgerHeader: new xdr.LedgerHeaderHistoryEntry({
        ...entry,
        header: new xdr.LedgerHeader({ ...header, ledgerSeq: sequence, scpValue }),
      }),
    }),
  );
}

const signature = () =>
  new xdr.LedgerCloseValueSignature({
    nodeId: xdr.PublicKey.publicKeyTypeEd25519(Keypair.random().rawPublicKey()),
    signature: Buffer.alloc(64, 9),
  });

describe('rawLedgerSequence', () => {
  it('reads the testnet ledgers', async () => {
    const metas = await testnetMetas();
    expect(metas.map((m) => rawLedgerSequence(bytesOf(m))).sort()).toEqual([997, 998, 999]);
    for (const m of metas) expect(rawLedgerSequence(bytesOf(m))).toBe(decodedSequence(bytesOf(m)));
  });

  it('reads a v0 ledger, and the v1 extension, upgrades and a signed close value of a later one', async () => {
    const [meta] = await testnetMetas();
    const v1 = xdr.expectUnionVariant(meta!, 'v1').v1;
    const v0 = xdr.LedgerCloseMeta.v0(
      new xdr.LedgerCloseMetaV0({
        ledgerHeader: v1.ledgerHeader,
        txSet: new xdr.TransactionSet({ previousLedgerHash: Buffer.alloc(32), txs: [] }),
        txProcessing: [],
        upgradesProcessing: [],
        scpInfo: [],
      }),
    );
    expect(rawLedgerSequence(bytesOf(v0))).toBe(v1.ledgerHeader.header.ledgerSeq);

    const bytes = bytesOf(withHeader(meta!, 123_456, xdr.StellarValueExt.stellarValueSigned(signature())));
    expect(decodedSequence(bytes)).toBe(123_456);
    expect(rawLedgerSequence(bytes)).toBe(123_456);
    // the header is enough: the bytes of the transactions are not read
    expect(rawLedgerSequence(bytes.subarray(0, 1024))).toBe(123_456);
  });

  it('reads the close value proposed for an empty transaction set (STELLAR_VALUE_EMPTY_TX_SET)', async () => {
    const [meta] = await testnetMetas();
    const proposed = new xdr.StellarValueProposedValue({
      txSetHash: Buffer.alloc(32, 1),
      previousLedgerHash: Buffer.alloc(32, 2),
      previousLedgerVersion: 25,
      lcValueSignature: signature(),
    });
    const bytes = bytesOf(withHeader(meta!, 654_321, xdr.StellarValueExt.stellarValueEmptyTxSet(proposed)));
    expect(decodedSequence(bytes)).toBe(654_321);
    expect(rawLedgerSequence(bytes)).toBe(654_321);
  });
});

describe('viewLedgerBytes', () => {
  // a contract call authorized with SOROBAN_CREDENTIALS_ADDRESS_WITH_DELEGATES (arm 3, protocol 26/27):
  // no scanner knows its envelope, result or meta, so the library reads each
  const source = Keypair.fromRawEd25519Seed(Buffer.alloc(32, 1));
  const contract = xdr.ScAddress.scAddressTypeContract(new xdr.ContractId(Buffer.alloc(32, 7)));
  const call = new xdr.InvokeContractArgs({ contractAddress: contract, functionName: 'hello', args: [xdr.ScVal.scvU32(5)] });
  const address = xdr.ScAddress.scAddressTypeAccount(xdr.PublicKey.publicKeyTypeEd25519(source.rawPublicKey()));
  const credentials = xdr.SorobanCredentials.sorobanCredentialsAddressWithDelegates(
    new xdr.SorobanAddressCredentialsWithDelegates({
      addressCredentials: new xdr.SorobanAddressCredentials({
        address,
        nonce: 42n,
        signatureExpirationLedger: 1000,
        signature: xdr.ScVal.scvVoid(),
      }),
      delegates: [new xdr.SorobanDelegateSignature({ address: contract, signature: xdr.ScVal.scvVoid(), nestedDelegates: [] })],
    }),
  );
  const operation = new xdr.Operation({
    sourceAccount: null,
    body: xdr.OperationBody.invokeHostFunction(
      new xdr.InvokeHostFunctionOp({
        hostFunction: xdr.HostFunction.hostFunctionTypeInvokeContract(call),
        auth: [
          new xdr.SorobanAuthorizationEntry({
            credentials,
            rootInvocation: new xdr.SorobanAuthorizedInvocation({
              function: xdr.SorobanAuthorizedFunction.sorobanAuthorizedFunctionTypeContractFn(call),
              subInvocations: [],
            }),
          }),
        ],
      }),
    ),
  });

  it('reads what the scanners do not know with the library, as the decoded view does', async () => {
    const [meta] = await testnetMetas();
    const v1 = xdr.expectUnionVariant(meta!, 'v1').v1;
    const tx = new TransactionBuilder(new Account(source.publicKey(), '41'), { fee: '100', networkPassphrase: Networks.TESTNET })
      .addOperation(operation)
      .setTimeout(0)
      .build();
    tx.sign(source);
    const envelope = tx.toEnvelope();
    const network = networkId(Networks.TESTNET);
    const result = new xdr.TransactionResultPair({
      transactionHash: envelopeHash(envelope, network),
      result: new xdr.TransactionResult({
        feeCharged: 100n,
        result: xdr.TransactionResultResult.txFailed([
          xdr.OperationResult.opInner(xdr.OperationResultTr.invokeHostFunction(xdr.InvokeHostFunctionResult.invokeHostFunctionTrapped())),
        ]),
        ext: xdr.TransactionResultExt.v0(),
      }),
    });
    const txMeta = xdr.TransactionMeta.v3(
      new xdr.TransactionMetaV3({
        ext: xdr.ExtensionPoint.v0(),
        txChangesBefore: [],
        operations: [new xdr.OperationMeta({ changes: [] })],
        txChangesAfter: [],
        sorobanMeta: new xdr.SorobanTransactionMeta({
          ext: xdr.SorobanTransactionMetaExt.v0(),
          events: [],
          returnValue: xdr.ScVal.scvBool(false),
          diagnosticEvents: [],
        }),
      }),
    );
    const ledger = xdr.LedgerCloseMeta.v1(
      new xdr.LedgerCloseMetaV1({
        ...v1,
        txSet: xdr.GeneralizedTransactionSet.v1TxSet(
          new xdr.TransactionSetV1({
            previousLedgerHash: Buffer.alloc(32),
            phases: [
              xdr.TransactionPhase.v0Components([
                xdr.TxSetComponent.txsetCompTxsMaybeDiscountedFee(
                  new xdr.TxSetComponentTxsMaybeDiscountedFee({ baseFee: null, txs: [envelope] }),
                ),
              ]),
            ],
          }),
        ),
        txProcessing: [new xdr.TransactionResultMeta({ result, feeProcessing: [], txApplyProcessing: txMeta })],
        upgradesProcessing: [],
      }),
    );

    const view = viewLedgerBytes(bytesOf(ledger), network);
    const decoded = viewLedger(ledger, network);
    expect(view.sequence).toBe(decoded.sequence);
    expect(view.hash).toBe(decoded.hash);
    expect(view.txs).toHaveLength(1);
    const [read] = view.txs;
    expect(read!.hash).toBe(decoded.txs[0]!.hash);
    const raw = read!.raw!;
    expect([raw.envelopeXdr, raw.resultXdr, raw.resultMetaXdr, raw.feeMetaXdr]).toEqual([
      envelope.toXdr('base64'),
      result.result.toXdr('base64'),
      txMeta.toXdr('base64'),
      'AAAAAA==',
    ]);
    expect(read!.envelope.toXdr('base64')).toBe(envelope.toXdr('base64'));
    expect(read!.result.toXdr('base64')).toBe(result.toXdr('base64'));
    expect(read!.meta.toXdr('base64')).toBe(txMeta.toXdr('base64'));
    const body = xdr.expectUnionVariant(
      xdr.expectUnionVariant(read!.envelope, 'envelopeTypeTx').v1.tx.operations[0]!.body,
      'invokeHostFunction',
    );
    expect(body.invokeHostFunctionOp.auth[0]!.credentials.type).toBe('sorobanCredentialsAddressWithDelegates');
  });
});
