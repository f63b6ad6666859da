// What the meta scanner tells of each operation besides the accounts it changed: whether its
// changes name a sponsor (an entry's, or an account's signer's, before or after), so that the
// operation details (and the effects) decode the changes of those operations only; and the sponsor
// the details then find.
import { Keypair, Operation, xdr } from '@stellar/stellar-sdk/base';
import { describe, expect, it } from 'vitest';
import { type DetailsContext, operationDetails } from '../../src/ingest/processors/operation_details.js';
import { splitMeta } from '../../src/meta/index.js';
import { scanTransactionMeta } from '../../src/meta/meta_scan.js';
import { accountIdToXdr } from '../../src/stellar/index.js';

const OWNER = Keypair.random().publicKey();
const SPONSOR = Keypair.random().publicKey();
const SIGNER = Keypair.random().publicKey();

function account(signerSponsor: string | null, withSigner = signerSponsor !== null): xdr.AccountEntry {
  const signers = withSigner
    ? [new xdr.Signer({ key: xdr.SignerKey.signerKeyTypeEd25519(Keypair.fromPublicKey(SIGNER).rawPublicKey()), weight: 1 })]
    : [];
  const v2 = new xdr.AccountEntryExtensionV2({
    numSponsored: 0,
    numSponsoring: 0,
    signerSponsoringIDs: signers.map(() => (signerSponsor ? accountIdToXdr(signerSponsor) : null)),
    ext: xdr.AccountEntryExtensionV2Ext.v0(),
  });
  return new xdr.AccountEntry({
    accountId: accountIdToXdr(OWNER),
    balance: 100n,
    seqNum: 1n,
    numSubEntries: signers.length,
    inflationDest: null,
    flags: 0,
    homeDomain: '',
    thresholds: new Uint8Array([1, 0, 0, 0]),
    signers,
    ext: xdr.AccountEntryExt.v1(
      new xdr.AccountEntryExtensionV1({
        liabilities: new xdr.Liabilities({ buying: 0n, selling: 0n }),
        ext: xdr.AccountEntryExtensionV1Ext.v2(v2),
      }),
    ),
  });
}

function entry(data: xdr.AccountEntry, sponsor: string | null): xdr.LedgerEntry {
  return new xdr.LedgerEntry({
    lastModifiedLedgerSeq: 2,
    data: xdr.LedgerEntryData.account(data),
    ext: sponsor
      ? xdr.LedgerEntryExt.v1(
          new xdr.LedgerEntryExtensionV1({ sponsoringId: accountIdToXdr(sponsor), ext: xdr.LedgerEntryExtensionV1Ext.v0() }),
        )
      : xdr.LedgerEntryExt.v0(),
  });
}

const created = (e: xdr.LedgerEntry) => [xdr.LedgerEntryChange.ledgerEntryCreated(e)];
const updated = (pre: xdr.LedgerEntry, post: xdr.LedgerEntry) => [
  xdr.LedgerEntryChange.ledgerEntryState(pre),
  xdr.LedgerEntryChange.ledgerEntryUpdated(post),
];

const meta = xdr.TransactionMeta.v2(
  new xdr.TransactionMetaV2({
    txChangesBefore: [],
    operations: [
      // a created, sponsored account
      created(entry(account(null), SPONSOR)),
      // an updated one that was sponsored before: the scanner sees a sponsor, the details give none
      updated(entry(account(null), SPONSOR), entry(account(null), SPONSOR)),
      // a signer added with a sponsor
      updated(entry(account(null), null), entry(account(SPONSOR), null)),
      // a signer without a sponsor
      updated(entry(account(null), null), entry(account(null, true), null)),
      [],
    ].map((changes) => new xdr.OperationMeta({ changes })),
    txChangesAfter: [],
  }),
);

describe('scanTransactionMeta', () => {
  it('marks the operations whose changes name a sponsor, an entry’s or a signer’s', () => {
    expect(scanTransactionMeta(Buffer.from(meta.toXdr()), 0)?.operationSponsored).toEqual([true, true, true, false, false]);
  });
});

// operations_processor.go getSponsor: no stellar-horizon test gives a signer's sponsor
describe('the operation sponsor the details find in those changes', () => {
  const source = xdr.MuxedAccount.keyTypeEd25519(Keypair.fromPublicKey(OWNER).rawPublicKey());
  const setSigner = Operation.setOptions({ signer: { ed25519PublicKey: SIGNER, weight: 1 } });
  const ops = [0, 1, 2, 3, 4].map(() => setSigner);
  const ctx = (sponsors: boolean[] | undefined): DetailsContext => ({
    operations: ops,
    txSource: source,
    successful: true,
    networkId: Buffer.alloc(32),
    tx: { meta, operationChanges: splitMeta(meta).ops, operationSponsored: sponsors },
  });
  const sponsorOf = (index: number, sponsors?: boolean[]) =>
    operationDetails({ op: ops[index]!, index, source, sourceId: OWNER, result: undefined }, ctx(sponsors)).sponsor;

  it('is a created entry’s sponsor or a new signer’s, whether the scanner ran or not', () => {
    const scanned = scanTransactionMeta(Buffer.from(meta.toXdr()), 0)!.operationSponsored;
    for (const sponsors of [undefined, scanned]) {
      expect([0, 1, 2, 3, 4].map((i) => sponsorOf(i, sponsors))).toEqual([SPONSOR, undefined, SPONSOR, undefined, undefined]);
    }
  });

  it('is not looked for where the scanner saw none', () => {
    expect(sponsorOf(0, [false, false, false, false, false])).toBeUndefined();
  });
});
