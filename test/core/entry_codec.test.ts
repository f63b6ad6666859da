// The hand-written XDR encoder agrees byte for byte with the SDK's generated XDR classes.
import { describe, expect, it } from 'vitest';
import { Keypair } from '@stellar/stellar-sdk/base';
import { entryToLedgerKey, entryToXdr, newAccount } from '../../src/core/ledger/entries.js';
import type { EntryRec } from '../../src/core/ledger/entries.js';
import { encodeEntry, encodeKey } from '../../src/core/ledger/entry_codec.js';

const id = () => Keypair.random().publicKey();

describe('entry codec', () => {
  const acc = newAccount(id(), 123n, 456n << 32n, 7);
  const samples: EntryRec[] = [
    acc,
    { ...acc, extLevel: 1, buyingLiabilities: 5n, sellingLiabilities: 9n, homeDomain: 'abc.de', inflationDest: id(), flags: 3 },
    {
      ...acc,
      extLevel: 3,
      seqLedger: 99,
      seqTime: 1_700_000_000n,
      numSponsored: 0,
      numSponsoring: 1,
      thresholds: [0, 1, 2, 255],
      signers: [
        { key: `00000000${Buffer.alloc(32, 1).toString('hex')}`, weight: 3 },
        { key: `00000001${Buffer.alloc(32, 2).toString('hex')}`, weight: 1 },
      ],
    },
    { ...acc, extLevel: 2, signers: [{ key: `00000002${Buffer.alloc(32, 3).toString('hex')}`, weight: 1 }] },
    {
      type: 'trustline',
      accountId: id(),
      asset: { type: 'credit_alphanum4', code: 'USD', issuer: id() },
      balance: 10n,
      limit: 1000n,
      flags: 1,
      extLevel: 0,
      buyingLiabilities: 0n,
      sellingLiabilities: 0n,
      lastModified: 3,
    },
    {
      type: 'trustline',
      accountId: id(),
      asset: { type: 'credit_alphanum12', code: 'LONGERCODE1', issuer: id() },
      balance: 0n,
      limit: 9n,
      flags: 2,
      extLevel: 1,
      buyingLiabilities: 1n,
      sellingLiabilities: 2n,
      lastModified: 4,
    },
    { type: 'data', accountId: id(), name: 'k', value: Buffer.from('hello').toString('base64'), lastModified: 5 },
    { type: 'data', accountId: id(), name: 'four', value: Buffer.alloc(64, 7).toString('base64'), lastModified: 5 },
    {
      type: 'offer',
      sellerId: id(),
      offerId: 77n,
      selling: { type: 'native' },
      buying: { type: 'credit_alphanum12', code: 'EURO5', issuer: id() },
      amount: 100n,
      priceN: 3,
      priceD: 7,
      flags: 0,
      lastModified: 6,
    },
  ];
  it('entries and keys', () => {
    for (const e of samples) {
      expect(Buffer.from(encodeEntry(e)).toString('hex')).toBe(entryToXdr(e).toXdr('hex'));
      expect(Buffer.from(encodeKey(e)).toString('hex')).toBe(entryToLedgerKey(e).toXdr('hex'));
    }
  });
});
