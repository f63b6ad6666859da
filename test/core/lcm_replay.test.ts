// Differential test against stellar-core's own golden ledger meta (test-lcm-current/, protocol 26/27):
// every case of its classic suites, and the classic prefix (the ledgers before the first Soroban
// transaction or config upgrade) of the other suites' cases, is replayed on the embedded core; each
// transaction's result, fee, operation results and ledger-entry changes must be those stellar-core
// recorded (support/core_lcm_replay.ts says what is normalized and why).
import { describe, expect, it } from 'vitest';
import { coreLcmManifest } from '../support/stellar_core_lcm.js';
import { CLASSIC_SUITES, loadCase, replayCase } from './support/core_lcm_replay.js';
import type { CaseLedgers } from './support/core_lcm_replay.js';
import type { CoreLcmCase } from '../support/stellar_core_lcm.js';

/**
 * Cases expected to differ only because they use an operation the core does not implement yet.
 * Each must still use such an operation (no entry in src/core/operations/registry.ts), differ, and
 * differ first at a transaction the core refused with opNOT_SUPPORTED. Once the operation lands,
 * its cases fail here and must leave this list: from then on they have to match.
 */
const PENDING_OPERATIONS = new Set<string>();

/**
 * Cases that differ for a reason other than a missing operation, each with its explanation
 * (a difference too large to fix in place). None today.
 */
const KNOWN_DIFFERENCES = new Map<string, string>();

/** TxEnvelopeTests' Soroban cases: only their classic prefix (none) is replayed. Every other case of the classic suites is classic throughout. */
const SOROBAN_CASE = /^soroban_transaction_validation-/;

interface Replayed {
  c: CoreLcmCase;
  loaded: CaseLedgers;
  /** how many other cases of the suite share this classic prefix (replayed once) */
  same: number;
}

const classic: Replayed[] = [];
const prefixes = new Map<string, Replayed>();
for (const c of coreLcmManifest.cases) {
  const loaded = await loadCase(c);
  if (CLASSIC_SUITES.includes(c.suite)) classic.push({ c, loaded, same: 0 });
  else if (loaded.views.length > 0) {
    const seen = prefixes.get(loaded.digest);
    if (seen) seen.same += 1;
    else prefixes.set(loaded.digest, { c, loaded, same: 0 });
  }
}

async function check({ c, loaded }: Replayed): Promise<void> {
  const r = await replayCase(loaded);
  if (PENDING_OPERATIONS.has(c.name)) {
    expect(r.unsupportedOps, 'uses an operation the core does not implement yet (else: leave PENDING_OPERATIONS)').not.toEqual([]);
    expect(r.mismatches.length, 'differs').toBeGreaterThan(0);
    expect(r.firstAtNotSupported, `first difference at an opNOT_SUPPORTED refusal: ${r.mismatches[0]}`).toBe(true);
  } else if (KNOWN_DIFFERENCES.has(c.name)) {
    expect(r.mismatches.length, KNOWN_DIFFERENCES.get(c.name)).toBeGreaterThan(0);
  } else {
    expect(r.mismatches.join('\n')).toBe('');
  }
}

describe('stellar-core golden ledger meta', () => {
  it('holds the expected cases', () => {
    expect(classic.length).toBe(91);
    expect(classic.filter((x) => !x.loaded.whole).map((x) => x.c.name)).toEqual(
      classic.filter((x) => SOROBAN_CASE.test(x.c.name)).map((x) => x.c.name),
    );
    const names = new Set([...classic, ...prefixes.values()].map((x) => x.c.name));
    for (const name of [...PENDING_OPERATIONS, ...KNOWN_DIFFERENCES.keys()]) expect(names, name).toContain(name);
  });

  describe('classic suites', () => {
    // a Soroban case whose first ledger already upgrades the Soroban config has no classic prefix
    for (const x of classic) if (x.loaded.views.length > 0) it(`${x.c.suite} ${x.c.name}`, () => check(x));
  });

  describe('classic prefixes of the Soroban and frozen-key suites', () => {
    for (const x of prefixes.values()) {
      it(`${x.c.suite} ${x.c.name} (${x.loaded.views.length} classic ledgers, shared by ${x.same} more cases)`, () => check(x));
    }
  });
});
