// Replays Horizon's scenario ledgers (stellar-core dumps, protocol 11/12) on the embedded core and
// compares every result and the final state with the dump.
import { describe, expect, it } from 'vitest';
import { StrKey, xdr } from '@stellar/stellar-base';
import { createCore } from '../../src/core/index.js';
import type { Core } from '../../src/core/index.js';
import { opResultCode } from '../../src/core/ledger/results.js';
import { TEST_PASSPHRASE, loadScenario } from './support/scenario.js';
import type { Scenario } from './support/scenario.js';
import type { SqlRow } from './support/sql_dump.js';

const big = (v: unknown): bigint => (v === null || v === undefined ? 0n : BigInt(String(v)));

/**
 * Transactions with operations of the exchange (next issue): until it lands this core rejects them
 * at submission (txFAILED / opNOT_SUPPORTED, as stellar-core does for unsupported operations), so
 * they are not in our ledger and their source account's fee, sequence number and offer subentry
 * are not compared.
 */
const EXCHANGE_OPS = new Set(['manageSellOffer', 'manageBuyOffer', 'createPassiveSellOffer', 'pathPaymentStrictReceive', 'pathPaymentStrictSend']);

function opTypes(envelopeB64: string): string[] {
  const env = xdr.TransactionEnvelope.fromXDR(envelopeB64, 'base64');
  const tx = env.switch().name === 'envelopeTypeTxV0' ? env.v0().tx() : env.v1().tx();
  return tx.operations().map((o) => o.body().switch().name);
}

async function replay(s: Scenario): Promise<{ core: Core; exchangeSources: Set<string> }> {
  const core = await createCore({
    dataDir: null,
    networkPassphrase: TEST_PASSPHRASE,
    baseReserve: 100_000_000,
    maxTxSetSize: 100,
    manualClose: true,
  });
  const exchangeSources = new Set<string>();
  for (const ledger of s.ledgers) {
    if (ledger.seq === 1) continue;
    const included = ledger.txs.filter((tx) => {
      const status = core.submit(tx.envelope);
      if (!opTypes(tx.envelope).some((t) => EXCHANGE_OPS.has(t))) {
        expect(status, `submit ${tx.txid}`).toEqual({ status: 'PENDING' });
        return true;
      }
      expect(status.status).toBe('ERROR');
      const r = xdr.TransactionResult.fromXDR((status as { error: string }).error, 'base64');
      expect(r.result().results().map(opResultCode)).toContain('opNotSupported');
      const env = xdr.TransactionEnvelope.fromXDR(tx.envelope, 'base64');
      exchangeSources.add(StrKey.encodeEd25519PublicKey(env.v0().tx().sourceAccountEd25519()));
      return false;
    });
    const closed = await core.closeLedger(ledger.closeTime);
    expect(closed.sequence).toBe(ledger.seq);
    const meta = xdr.LedgerCloseMeta.fromXDR(core.ledgerMetaXdr(ledger.seq)!);
    const processing = meta.v1().txProcessing();
    expect(processing.map((p) => p.result().transactionHash().toString('hex'))).toEqual(included.map((t) => t.txid));
    included.forEach((tx, i) => {
      const ours = processing[i]!.result().result();
      const theirs = tx.expected.result();
      expect(String(ours.feeCharged().toBigInt()), `fee ${tx.txid}`).toBe(String(theirs.feeCharged().toBigInt()));
      expect(ours.result().switch().name, `result ${tx.txid}`).toBe(theirs.result().switch().name);
      const arm = theirs.result().switch().name;
      if (arm === 'txSuccess' || arm === 'txFailed') {
        expect(ours.result().results().map(opResultCode), `ops ${tx.txid}`).toEqual(theirs.result().results().map(opResultCode));
      }
      // the whole TransactionResult is byte-identical to stellar-core's
      expect(ours.toXDR('base64'), `xdr ${tx.txid}`).toBe(theirs.toXDR('base64'));
    });
  }
  return { core, exchangeSources };
}

function ourAccounts(core: Core): SqlRow[] {
  const rows: SqlRow[] = [];
  for (const e of core.entries()) {
    if (e.type !== 'account') continue;
    rows.push({
      accountid: e.accountId,
      balance: String(e.balance),
      seqnum: String(e.seqNum),
      numsubentries: String(e.numSubEntries),
      inflationdest: e.inflationDest,
      homedomain: Buffer.from(e.homeDomain, 'latin1').toString('base64'),
      thresholds: Buffer.from(e.thresholds).toString('base64'),
      flags: String(e.flags),
      lastmodified: String(e.lastModified),
      buyingliabilities: String(e.buyingLiabilities),
      sellingliabilities: String(e.sellingLiabilities),
      signers: String(e.signers.length),
    });
  }
  return rows.sort((a, b) => String(a.accountid).localeCompare(String(b.accountid)));
}

function theirAccounts(s: Scenario): SqlRow[] {
  return s.accounts
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
}

function ourTrustLines(core: Core): SqlRow[] {
  const rows: SqlRow[] = [];
  for (const e of core.entries()) {
    if (e.type !== 'trustline') continue;
    rows.push({
      accountid: e.accountId,
      assettype: String(e.asset.code.length <= 4 ? 1 : 2),
      issuer: e.asset.issuer,
      assetcode: e.asset.code,
      tlimit: String(e.limit),
      balance: String(e.balance),
      flags: String(e.flags),
      lastmodified: String(e.lastModified),
      buyingliabilities: String(e.buyingLiabilities),
      sellingliabilities: String(e.sellingLiabilities),
    });
  }
  return rows.sort((a, b) => `${String(a.accountid)}${String(a.assetcode)}${String(a.issuer)}`.localeCompare(`${String(b.accountid)}${String(b.assetcode)}${String(b.issuer)}`));
}

function theirTrustLines(s: Scenario): SqlRow[] {
  return s.trustlines
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
    .sort((a, b) => `${String(a.accountid)}${String(a.assetcode)}${String(a.issuer)}`.localeCompare(`${String(b.accountid)}${String(b.assetcode)}${String(b.issuer)}`));
}

function ourData(core: Core): SqlRow[] {
  const rows: SqlRow[] = [];
  for (const e of core.entries()) {
    if (e.type === 'data') rows.push({ accountid: e.accountId, dataname: e.name, datavalue: e.value, lastmodified: String(e.lastModified) });
  }
  return rows;
}

const SCENARIOS = ['base', 'failed_transactions', 'account_merge', 'operation_fee_stats_1', 'operation_fee_stats_2', 'operation_fee_stats_3', 'ingest_asset_stats'];

describe('horizon scenario replay', () => {
  for (const name of SCENARIOS) {
    it(name, async () => {
      const s = loadScenario(name);
      const { core, exchangeSources } = await replay(s);
      const ours = ourAccounts(core);
      const theirs = theirAccounts(s);
      if (exchangeSources.size === 0) {
        expect(ours).toEqual(theirs);
        expect(ourTrustLines(core)).toEqual(theirTrustLines(s));
      } else {
        const strip = (rows: SqlRow[]) =>
          rows.map((r) =>
            exchangeSources.has(String(r.accountid))
              ? { accountid: r.accountid }
              : r,
          );
        expect(strip(ours)).toEqual(strip(theirs));
        const stripTl = (rows: SqlRow[]) =>
          rows.map((r) => (exchangeSources.has(String(r.accountid)) ? { ...r, sellingliabilities: null, buyingliabilities: null } : r));
        expect(stripTl(ourTrustLines(core))).toEqual(stripTl(theirTrustLines(s)));
      }
      expect(ourData(core)).toEqual(s.accountdata.map((r) => ({ ...r, lastmodified: String(r.lastmodified) })));
      await core.stop();
    });
  }
});
