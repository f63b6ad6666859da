// The hand-written XDR encoder agrees byte for byte with the SDK's generated XDR classes.
import { describe, expect, it } from 'vitest';
import { Keypair, xdr } from '@stellar/stellar-sdk/base';
import { entryFromXdr, entryKey, entryToLedgerKey, entryToXdr, keyFromLedgerKey, newAccount } from '../../src/core/ledger/entries.js';
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
        { key: `00000000${Buffer.alloc(32, 1).toString('hex')}`, weight: 3, sponsor: id() },
        { key: `00000001${Buffer.alloc(32, 2).toString('hex')}`, weight: 1, sponsor: null },
      ],
    },
    { ...acc, extLevel: 2, signers: [{ key: `00000002${Buffer.alloc(32, 3).toString('hex')}`, weight: 1, sponsor: null }] },
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
      liquidityPoolUseCount: 0,
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
      liquidityPoolUseCount: 0,
      lastModified: 4,
      sponsor: id(),
    },
    {
      type: 'trustline',
      accountId: id(),
      asset: { type: 'credit_alphanum4', code: 'POOL', issuer: id() },
      balance: 5n,
      limit: 9n,
      flags: 5,
      extLevel: 2,
      buyingLiabilities: 0n,
      sellingLiabilities: 0n,
      liquidityPoolUseCount: 2,
      lastModified: 4,
      sponsor: null,
    },
    {
      type: 'trustline',
      accountId: id(),
      asset: { type: 'pool_share', poolId: Buffer.alloc(32, 9).toString('hex') },
      balance: 5n,
      limit: 9n,
      flags: 1,
      extLevel: 0,
      buyingLiabilities: 0n,
      sellingLiabilities: 0n,
      liquidityPoolUseCount: 0,
      lastModified: 4,
    },
    {
      type: 'claimableBalance',
      balanceId: Buffer.alloc(32, 0xab).toString('hex'),
      claimants: [
        { destination: id(), predicate: xdr.ClaimPredicate.claimPredicateUnconditional() },
        {
          destination: id(),
          predicate: xdr.ClaimPredicate.claimPredicateAnd([
            xdr.ClaimPredicate.claimPredicateBeforeAbsoluteTime(1_700_000_000n),
            xdr.ClaimPredicate.claimPredicateNot(xdr.ClaimPredicate.claimPredicateBeforeAbsoluteTime(5n)),
          ]),
        },
      ],
      asset: { type: 'credit_alphanum12', code: 'LONGERCODE1', issuer: id() },
      amount: 42n,
      flags: 1,
      extLevel: 1,
      lastModified: 8,
      sponsor: id(),
    },
    {
      type: 'claimableBalance',
      balanceId: Buffer.alloc(32, 0xcd).toString('hex'),
      claimants: [
        {
          destination: id(),
          predicate: xdr.ClaimPredicate.claimPredicateOr([
            xdr.ClaimPredicate.claimPredicateUnconditional(),
            xdr.ClaimPredicate.claimPredicateUnconditional(),
          ]),
        },
      ],
      asset: { type: 'native' },
      amount: 1n,
      flags: 0,
      extLevel: 0,
      lastModified: 8,
      sponsor: id(),
    },
    {
      type: 'liquidityPool',
      poolId: Buffer.alloc(32, 0x11).toString('hex'),
      assetA: { type: 'native' },
      assetB: { type: 'credit_alphanum4', code: 'USD', issuer: id() },
      fee: 30,
      reserveA: 1000n,
      reserveB: 2000n,
      totalPoolShares: 1414n,
      poolSharesTrustLineCount: 3n,
      lastModified: 9,
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
      sponsor: id(),
    },
  ];
  it('entries and keys', () => {
    for (const e of samples) {
      expect(Buffer.from(encodeEntry(e)).toString('hex')).toBe(entryToXdr(e).toXdr('hex'));
      expect(Buffer.from(encodeKey(e)).toString('hex')).toBe(entryToLedgerKey(e).toXdr('hex'));
    }
  });
  it('entries read back from XDR as they were, sponsors and extensions included', () => {
    for (const e of samples) {
      const back = entryFromXdr(entryToXdr(e));
      expect(encodeEntry(back).toString('hex')).toBe(encodeEntry(e).toString('hex'));
      expect(entryKey(back)).toBe(entryKey(e));
      expect(keyFromLedgerKey(entryToLedgerKey(e))).toBe(entryKey(e));
    }
  });
});
