// The network check on real testnet ledgers 997–999 (their passphrase: "Test SDF Network ;
// September 2015", shared/fixtures/README.md): their transaction hashes are those of that network,
// not of the standalone network's.
import { xdr } from '@stellar/stellar-sdk/base';
import { describe, expect, it } from 'vitest';
import { checkSourceNetwork, datastoreSource, networkCheckedSource } from '../../src/ingest/index.js';
import { STANDALONE_PASSPHRASE } from '../../src/config.js';
import { TESTNET_DATASTORE, TESTNET_PASSPHRASE } from './support/fixtures.js';

describe('the network of a source', () => {
  it('is told by the first ledger with transactions', async () => {
    expect(await checkSourceNetwork(datastoreSource(TESTNET_DATASTORE), TESTNET_PASSPHRASE)).toEqual({ matches: true, sequence: 997 });
    expect(await checkSourceNetwork(datastoreSource(TESTNET_DATASTORE), STANDALONE_PASSPHRASE)).toEqual({ matches: false, sequence: 997 });
  });

  it('is checked as the ledgers pass: a mismatch stops before the ledger is handed on', async () => {
    const seen: number[] = [];
    const mismatch = (sequence: number) => new Error(`not of this network at ${sequence}`);
    const wrong = networkCheckedSource(datastoreSource(TESTNET_DATASTORE), STANDALONE_PASSPHRASE, mismatch);
    await expect(
      (async () => {
        for await (const raw of wrong.rawLedgers!(0)) seen.push(raw.length);
      })(),
    ).rejects.toThrow('not of this network at 997');
    expect(seen).toEqual([]);
    const right = networkCheckedSource(datastoreSource(TESTNET_DATASTORE), TESTNET_PASSPHRASE, mismatch);
    const sequences: number[] = [];
    for await (const meta of right.ledgers(0)) sequences.push(xdr.expectUnionVariant(meta, 'v1').v1.ledgerHeader.header.ledgerSeq);
    expect(sequences).toEqual([997, 998, 999]);
  });
});
