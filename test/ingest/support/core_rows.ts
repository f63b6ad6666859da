// The ingester's rows for every ledger an embedded core (test harness) has closed, read from the
// meta objects and from the meta bytes alike (both must give the same rows).
import { xdr } from '@stellar/stellar-sdk/base';
import { expect } from 'vitest';
import { ledgerRows, type LedgerRows } from '../../../src/ingest/index.js';
import { viewLedger, viewLedgerBytes } from '../../../src/meta/index.js';
import { genesisLedgerEntries, networkId } from '../../../src/stellar/index.js';
import { type Harness, PASSPHRASE } from '../../core/support/harness.js';

export function coreLedgerRows(h: Harness): LedgerRows[] {
  const network = networkId(PASSPHRASE);
  const all: LedgerRows[] = [];
  for (let seq = 1; seq <= h.core.latestLedger().sequence; seq++) {
    const raw = h.core.ledgerMetaXdr(seq)!;
    // a meta carries only changes: ledger 1 starts from the genesis entries
    const seed = seq === 1 ? genesisLedgerEntries(PASSPHRASE) : [];
    const rows = ledgerRows(viewLedger(xdr.LedgerCloseMeta.fromXdr(raw), network), seed);
    expect(ledgerRows(viewLedgerBytes(raw, network), seed)).toEqual(rows);
    all.push(rows);
  }
  return all;
}
