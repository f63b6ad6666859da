// A new claimable balance's id, against the ids stellar-core's own ledgers hold.
import { describe, expect, it } from 'vitest';
import { claimableBalanceHash } from '../../src/stellar/index.js';

describe('claimableBalanceHash', () => {
  it('is the id stellar-core gave a balance (FrozenLedgerKeysTests golden meta, test-lcm-current at a9b86132)', () => {
    // ledger 12 of "claim_claimable_balance_trustline_frozen": a create_claimable_balance, the first
    // operation of a transaction from GBIFX…Z7SX with sequence number 12884901891; the result and
    // the created entry carry this id
    expect(claimableBalanceHash('GBIFX2QKGC6J4VRBEQDJZJSFZA43IQK2CYR3BF473UFC7VMSOOM2Z7SX', 12884901891n, 0).toString('hex')).toBe(
      '1da94a495496a5f1565e98d2a3ba83c798ddc43a94ecc81c29b43c764a233fa0',
    );
  });

  it('changes with the sequence number and the operation index ("multiple creates in tx to test index in hash")', () => {
    const source = 'GBIFX2QKGC6J4VRBEQDJZJSFZA43IQK2CYR3BF473UFC7VMSOOM2Z7SX';
    const ids = new Set([
      claimableBalanceHash(source, 12884901891n, 0).toString('hex'),
      claimableBalanceHash(source, 12884901891n, 1).toString('hex'),
      claimableBalanceHash(source, 12884901892n, 0).toString('hex'),
    ]);
    expect(ids.size).toBe(3);
  });
});
