// Loads a horizon-scenarios core dump: ledgers with their close times and envelopes, the expected
// results, and the final state tables.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { xdr } from '@stellar/stellar-sdk/base';
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
  /** the fee charge's entry changes (txfeehistory) */
  feeChanges: xdr.LedgerEntryChange[];
}

export interface ScenarioLedger {
  seq: number;
  closeTime: number;
  hash: string;
  header: xdr.LedgerHeader;
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
    .map((r) => ({
      seq: Number(r.ledgerseq),
      closeTime: Number(r.closetime),
      hash: String(r.ledgerhash),
      header: xdr.LedgerHeader.fromXdr(String(r.data), 'base64'),
      txs: [] as ScenarioTx[],
    }))
    .sort((a, b) => a.seq - b.seq);
  const fees = new Map((t.get('txfeehistory') ?? []).map((r) => [String(r.txid), String(r.txchanges)]));
  for (const r of t.get('txhistory') ?? []) {
    const l = ledgers.find((x) => x.seq === Number(r.ledgerseq));
    if (!l) throw new Error(`no ledger ${String(r.ledgerseq)}`);
    const feeChanges = fees.get(String(r.txid));
    if (feeChanges === undefined) throw new Error(`no txfeehistory row for ${String(r.txid)}`);
    l.txs.push({
      txid: String(r.txid),
      index: Number(r.txindex),
      envelope: String(r.txbody),
      expected: xdr.TransactionResultPair.fromXdr(String(r.txresult), 'base64'),
      meta: xdr.TransactionMeta.fromXdr(String(r.txmeta), 'base64'),
      feeChanges: xdr.decodeArray(xdr.LedgerEntryChange, feeChanges, 'base64'),
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

/** every scenario of the fixtures, in the order of their ledgers' complexity */
export const SCENARIOS = [
  'base',
  'failed_transactions',
  'account_merge',
  'operation_fee_stats_1',
  'operation_fee_stats_2',
  'operation_fee_stats_3',
  'ingest_asset_stats',
  'pathed_payment',
  'paths_strict_send',
  'offer_ids',
  'trades',
];

const big = (v: unknown): bigint => (v === null || v === undefined ? 0n : BigInt(String(v)));

/** The dump's final ledger state with stellar-core's column names, numbers as strings, sorted by key. */
export interface FinalState {
  accounts: SqlRow[];
  trustlines: SqlRow[];
  offers: SqlRow[];
  accountdata: SqlRow[];
}

export function finalState(s: Scenario): FinalState {
  const accounts = s.accounts
    .map((r) => ({
      accountid: r.accountid ?? null,
      balance: String(big(r.balance)),
      seqnum: String(big(r.seqnum)),
      numsubentries: String(big(r.numsubentries)),
      inflationdest: r.inflationdest ?? null,
      homedomain: r.homedomain ?? null,
      thresholds: r.thresholds ?? null,
      flags: String(big(r.flags)),
      lastmodified: String(big(r.lastmodified)),
      buyingliabilities: String(big(r.buyingliabilities)),
      sellingliabilities: String(big(r.sellingliabilities)),
      signers: r.signers === null ? '0' : String(r.signers),
    }))
    .sort((a, b) => String(a.accountid).localeCompare(String(b.accountid)));
  const trustlines = s.trustlines
    .map((r) => ({
      accountid: r.accountid ?? null,
      assettype: String(big(r.assettype)),
      issuer: r.issuer ?? null,
      assetcode: r.assetcode ?? null,
      tlimit: String(big(r.tlimit)),
      balance: String(big(r.balance)),
      flags: String(big(r.flags)),
      lastmodified: String(big(r.lastmodified)),
      buyingliabilities: String(big(r.buyingliabilities)),
      sellingliabilities: String(big(r.sellingliabilities)),
    }))
    .sort((a, b) =>
      `${String(a.accountid)}${String(a.assetcode)}${String(a.issuer)}`.localeCompare(
        `${String(b.accountid)}${String(b.assetcode)}${String(b.issuer)}`,
      ),
    );
  const offers = s.offers
    .map((r) => ({
      sellerid: r.sellerid ?? null,
      offerid: String(big(r.offerid)),
      sellingasset: r.sellingasset ?? null,
      buyingasset: r.buyingasset ?? null,
      amount: String(big(r.amount)),
      pricen: String(big(r.pricen)),
      priced: String(big(r.priced)),
      flags: String(big(r.flags)),
      lastmodified: String(big(r.lastmodified)),
    }))
    .sort((a, b) => Number(a.offerid) - Number(b.offerid));
  const accountdata = s.accountdata.map((r) => ({ ...r, lastmodified: String(r.lastmodified) }));
  return { accounts, trustlines, offers, accountdata };
}
