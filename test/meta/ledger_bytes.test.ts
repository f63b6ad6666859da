// The sequence of a LedgerCloseMeta read from its bytes' header: for every LedgerCloseMeta version,
// with or without the v1 extension, upgrades and a signed close value, as js-xdr decodes it.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Keypair, xdr } from '@stellar/stellar-sdk/base';
import { rawLedgerSequence, readDatastoreFile } from '../../src/meta/index.js';
import { TESTNET_DATASTORE } from '../ingest/support/fixtures.js';

async function testnetMetas(): Promise<xdr.LedgerCloseMeta[]> {
  const out: xdr.LedgerCloseMeta[] = [];
  for (const f of fs.readdirSync(TESTNET_DATASTORE).filter((n) => n.endsWith('.xdr.zst'))) {
    out.push(...(await readDatastoreFile(fs.readFileSync(path.join(TESTNET_DATASTORE, f)))).ledgerCloseMeta());
  }
  return out;
}

const decodedSequence = (bytes: Buffer): number => {
  const meta = xdr.LedgerCloseMeta.fromXDR(bytes);
  const body = meta.switch() === 0 ? meta.v0() : meta.switch() === 1 ? meta.v1() : meta.v2();
  return body.ledgerHeader().header().ledgerSeq();
};

describe('rawLedgerSequence', () => {
  it('reads the testnet ledgers', async () => {
    const metas = await testnetMetas();
    expect(metas.map((m) => rawLedgerSequence(m.toXDR())).sort()).toEqual([997, 998, 999]);
    for (const m of metas) expect(rawLedgerSequence(m.toXDR())).toBe(decodedSequence(m.toXDR()));
  });

  it('reads a v0 ledger, and the v1 extension, upgrades and a signed close value of a later one', async () => {
    const [meta] = await testnetMetas();
    const v1 = meta!.v1();
    const v0 = new xdr.LedgerCloseMeta(
      0,
      new xdr.LedgerCloseMetaV0({
        ledgerHeader: v1.ledgerHeader(),
        txSet: new xdr.TransactionSet({ previousLedgerHash: Buffer.alloc(32), txes: [] }),
        txProcessing: [],
        upgradesProcessing: [],
        scpInfo: [],
      }),
    );
    expect(rawLedgerSequence(v0.toXDR())).toBe(v1.ledgerHeader().header().ledgerSeq());

    const copy = xdr.LedgerCloseMeta.fromXDR(meta!.toXDR());
    copy
      .v1()
      .ext(
        new xdr.LedgerCloseMetaExt(
          1,
          new xdr.LedgerCloseMetaExtV1({ ext: new xdr.ExtensionPoint(0), sorobanFeeWrite1Kb: new xdr.Int64(7n) }),
        ),
      );
    const header = copy.v1().ledgerHeader().header();
    header.ledgerSeq(123_456);
    header.scpValue().upgrades([Buffer.from('abc'), Buffer.alloc(8, 1)]);
    header.scpValue().ext(
      xdr.StellarValueExt.stellarValueSigned(
        new xdr.LedgerCloseValueSignature({
          nodeId: xdr.PublicKey.publicKeyTypeEd25519(Keypair.random().rawPublicKey()),
          signature: Buffer.alloc(64, 9),
        }),
      ),
    );
    const bytes = copy.toXDR();
    expect(decodedSequence(bytes)).toBe(123_456);
    expect(rawLedgerSequence(bytes)).toBe(123_456);
    // the header is enough: the bytes of the transactions are not read
    expect(rawLedgerSequence(bytes.subarray(0, 1024))).toBe(123_456);
  });
});
