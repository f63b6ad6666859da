// Differential test against stellar-core's own golden ledger meta (test-lcm-current/, protocol 26/27):
// every case of its classic suites is replayed on the embedded core, and each transaction's result,
// fee, operation results and ledger-entry changes must be those stellar-core recorded
// (support/core_lcm_replay.ts says what is normalized and why).
import { describe, expect, it } from 'vitest';
import { coreLcmManifest } from '../support/stellar_core_lcm.js';
import { CLASSIC_SUITES, isClassic, loadCase, replayCase, unsupportedOps } from './support/core_lcm_replay.js';

/**
 * Cases expected to differ only because they use an operation the core does not support yet
 * (opNOT_SUPPORTED at submission). Each must still use such an operation (as the registry says),
 * differ, and differ first at a transaction holding one. Once the operation lands, its cases fail
 * here and must leave this list: from then on they have to match.
 */
const PENDING_OPERATIONS = new Set([
  // BeginSponsoringFutureReservesTests.cpp "sponsor future reserves": begin/end sponsoring future reserves
  'sponsor_future_reserves-protocol_version_26-already_sponsored',
  'sponsor_future_reserves-protocol_version_27-already_sponsored',
  'sponsor_future_reserves-protocol_version_26-bad_sponsorship',
  'sponsor_future_reserves-protocol_version_27-bad_sponsorship',
  'sponsor_future_reserves-protocol_version_26-sponsoring_account_is_sponsored',
  'sponsor_future_reserves-protocol_version_27-sponsoring_account_is_sponsored',
  'sponsor_future_reserves-protocol_version_26-sponsored_account_is_sponsoring',
  'sponsor_future_reserves-protocol_version_27-sponsored_account_is_sponsoring',
  'sponsor_future_reserves-protocol_version_26-success',
  'sponsor_future_reserves-protocol_version_27-success',
  'sponsor_future_reserves-protocol_version_26-add_sponsored_entry_before_adding_first_sponsored_signer',
  'sponsor_future_reserves-protocol_version_27-add_sponsored_entry_before_adding_first_sponsored_signer',
  'sponsor_future_reserves-protocol_version_26-sponsorships_with_precondition_that_uses_v3_extension',
  'sponsor_future_reserves-protocol_version_27-sponsorships_with_precondition_that_uses_v3_extension',
]);

/**
 * Cases that differ for a reason other than a missing operation, each with its explanation
 * (a difference too large to fix in place). None today.
 */
const KNOWN_DIFFERENCES = new Map<string, string>();

/**
 * TxEnvelopeTests' "soroban transaction validation" cases invoke host functions (and upgrade the
 * Soroban config): not classic, so not replayed. Any other case of these suites must be classic.
 */
const SOROBAN_CASE = /^soroban_transaction_validation-/;

const cases = await Promise.all(
  coreLcmManifest.cases.filter((c) => CLASSIC_SUITES.includes(c.suite)).map(async (c) => ({ c, loaded: await loadCase(c) })),
);

describe('stellar-core golden ledger meta, classic suites', () => {
  it('holds the expected cases', () => {
    expect(cases.length).toBe(91);
    expect(cases.filter((x) => !isClassic(x.loaded)).map((x) => x.c.name)).toEqual(
      cases.filter((x) => SOROBAN_CASE.test(x.c.name)).map((x) => x.c.name),
    );
    const names = new Set(cases.map((x) => x.c.name));
    for (const name of [...PENDING_OPERATIONS, ...KNOWN_DIFFERENCES.keys()]) expect(names, name).toContain(name);
  });

  for (const { c, loaded } of cases) {
    if (!isClassic(loaded)) continue;
    it(`${c.suite} ${c.name}`, async () => {
      const r = await replayCase(c, loaded);
      if (PENDING_OPERATIONS.has(c.name)) {
        expect(r.unsupportedOps, 'uses an operation the core does not support yet (else: leave PENDING_OPERATIONS)').not.toEqual([]);
        expect(r.mismatches.length, 'differs').toBeGreaterThan(0);
        expect(
          unsupportedOps(r.firstMismatchOps ?? []),
          `first difference at a transaction with an unsupported operation: ${r.mismatches[0]}`,
        ).not.toEqual([]);
      } else if (KNOWN_DIFFERENCES.has(c.name)) {
        expect(r.mismatches.length, KNOWN_DIFFERENCES.get(c.name)).toBeGreaterThan(0);
      } else {
        expect(r.mismatches.join('\n')).toBe('');
      }
    });
  }
});
