// The protocol's genesis: the root account's key comes from the network id (as the SDK's
// Keypair.master), and it holds every stroop at sequence 0.
import { Keypair, StrKey } from '@stellar/stellar-sdk/base';
import { describe, expect, it } from 'vitest';
import { TOTAL_COINS, genesisLedgerEntries, networkId, rootKeypair } from '../../src/stellar/index.js';

const PASSPHRASE = 'Test SDF Network ; September 2015';

describe('genesis', () => {
  it('derives the root account from the network id', () => {
    expect(networkId(PASSPHRASE).toString('hex')).toBe('cee0302d59844d32bdca915c8203dd44b33fbb7edc19051ea37abedf28ecd472');
    expect(rootKeypair(PASSPHRASE).publicKey()).toBe(Keypair.master(PASSPHRASE).publicKey());
  });

  it('has the root account alone, with all the coins, in ledger 1', () => {
    const entries = genesisLedgerEntries(PASSPHRASE);
    expect(entries).toHaveLength(1);
    const [root] = entries;
    expect(root!.lastModifiedLedgerSeq).toBe(1);
    const data = root!.data;
    if (data.type !== 'account') throw new Error(`genesis entry is a ${data.type}`);
    const account = data.account;
    expect(StrKey.encodeEd25519PublicKey(account.accountId.ed25519.value)).toBe(rootKeypair(PASSPHRASE).publicKey());
    expect(account.balance).toBe(TOTAL_COINS);
    expect(account.seqNum).toBe(0n);
    expect([...account.thresholds.value]).toEqual([1, 0, 0, 0]);
    expect(account.signers).toEqual([]);
    expect(account.ext.type).toBe('v0');
  });
});
