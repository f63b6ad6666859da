// Changes as pairs, and stellar-go's order of them (by ledger key bytes, stable).
import { xdr } from '@stellar/stellar-sdk/base';
import { describe, expect, it } from 'vitest';
import { changePairs, ledgerKeyOf, sortChangePairs } from '../../src/meta/index.js';
import {
  accountEntry,
  ledgerEntry,
  state,
  trustLineAsset,
  trustLineEntry,
  updated,
  created,
  creditAsset,
} from '../ingest/support/horizon_effects.js';

const A = 'GAUJETIZVEP2NRYLUESJ3LS66NVCEGMON4UDCBCSBEVPIID773P2W6AY';
const B = 'GDRW375MAYR46ODGF2WGANQC2RRZL7O246DYHHCGWTV2RE7IHE2QUQLD';

describe('sortChangePairs', () => {
  it('orders by entry type, then key, keeping the order of one entry’s changes', () => {
    const line = ledgerEntry(trustLineEntry(A, trustLineAsset(creditAsset('USD', B))));
    const b1 = ledgerEntry(accountEntry({ accountId: B, balance: 1n }));
    const b2 = ledgerEntry(accountEntry({ accountId: B, balance: 2n }));
    const a = ledgerEntry(accountEntry({ accountId: A, balance: 3n }));
    const pairs = changePairs([created(line), state(b1), updated(b2), state(b2), updated(b1), created(a)]);
    const sorted = sortChangePairs(pairs);
    // accounts (type 0) before trust lines (type 1); A's key before B's; B's two changes in their order
    const balance = (entry: xdr.LedgerEntry) => xdr.expectUnionVariant(entry.data, 'account').account.balance.toString();
    expect(sorted.map((p) => [p.type, p.type === 'account' ? balance(p.post!) : null])).toEqual([
      ['account', '3'],
      ['account', '2'],
      ['account', '1'],
      ['trustline', null],
    ]);
    expect(pairs.map((p) => p.type)).toEqual(['trustline', 'account', 'account', 'account']);
  });

  it('keys an entry as stellar-core does', () => {
    const entry = ledgerEntry(accountEntry({ accountId: A }));
    expect(ledgerKeyOf(entry).toXdr('base64')).toBe(
      xdr.LedgerKey.account(new xdr.LedgerKeyAccount({ accountId: xdr.expectUnionVariant(entry.data, 'account').account.accountId })).toXdr(
        'base64',
      ),
    );
  });
});
