// Loads a horizon-scenarios core dump: ledgers with their close times and envelopes, the expected
// results, and the final state tables.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { xdr } from '@stellar/stellar-base';
import { readInserts } from './sql_dump.js';
import type { SqlRow } from './sql_dump.js';

export const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../shared/fixtures');
export const TEST_PASSPHRASE = 'Test SDF Network ; September 2015';

export interface ScenarioTx {
  txid: string;
  index: number;
  envelope: string;
  expected: xdr.TransactionResultPair;
  /** stellar-core's TransactionMeta (v1 in these dumps) */
  meta: xdr.TransactionMeta;
}

export interface ScenarioLedger {
  seq: number;
  closeTime: number;
  txs: ScenarioTx[];
}

export interface Scenario {
  ledgers: ScenarioLedger[];
  accounts: SqlRow[];
  trustlines: SqlRow[];
  accountdata: SqlRow[];
  offers: SqlRow[];
}

export function loadScenario(name: string): Scenario {
  const t = readInserts(path.join(FIXTURES, 'horizon-scenarios', `${name}-core.sql`));
  const ledgers = (t.get('ledgerheaders') ?? [])
    .map((r) => ({ seq: Number(r.ledgerseq), closeTime: Number(r.closetime), txs: [] as ScenarioTx[] }))
    .sort((a, b) => a.seq - b.seq);
  for (const r of t.get('txhistory') ?? []) {
    const l = ledgers.find((x) => x.seq === Number(r.ledgerseq));
    if (!l) throw new Error(`no ledger ${String(r.ledgerseq)}`);
    l.txs.push({
      txid: String(r.txid),
      index: Number(r.txindex),
      envelope: String(r.txbody),
      expected: xdr.TransactionResultPair.fromXDR(String(r.txresult), 'base64'),
      meta: xdr.TransactionMeta.fromXDR(String(r.txmeta), 'base64'),
    });
  }
  for (const l of ledgers) l.txs.sort((a, b) => a.index - b.index);
  return {
    ledgers,
    accounts: t.get('accounts') ?? [],
    trustlines: t.get('trustlines') ?? [],
    accountdata: t.get('accountdata') ?? [],
    offers: t.get('offers') ?? [],
  };
}
