// stellar-core's own golden ledger meta (test-lcm-current/: protocols 20 to 27, every suite, Soroban
// included; packed by scripts/stellar_core_lcm.ts), each test case written as a datastore folder and
// reingested, as Horizon's TestCoreLCMIngestion ingests the same files. Then the REST API must serve
// every transaction of the meta (by the hash stellar-core wrote), every operation with the type of its
// envelope's body, and effects of Horizon's types only. Expected values come from the meta itself,
// read with the SDK's XDR, never from our ingest.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TransactionBuilder, type xdr } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { datastoreSource } from '../../src/ingest/index.js';
import { reingestRange } from '../../src/ingest/reingest.js';
import { deleteHistory } from '../../src/ingest/writer.js';
import { type TestApi, serveTestApi } from '../support/api_server.js';
import { type CoreLcmCase as Case, coreLcmManifest as manifest, ledgerBody, writeCaseDatastore } from '../support/stellar_core_lcm.js';
import { runZenith } from '../support/cli.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

const PASSPHRASE = manifest.networkPassphrase;
const suites = [...new Set(manifest.cases.map((c) => c.suite))];

// Horizon's effect type names (stellar/stellar-horizon internal/resourceadapter/effects.go, v28.0.0)
const HORIZON_EFFECT_TYPES = new Set(
  `account_created account_removed account_credited account_debited account_thresholds_updated
  account_home_domain_updated account_flags_updated account_inflation_destination_updated signer_created
  signer_removed signer_updated trustline_created trustline_removed trustline_updated trustline_authorized
  trustline_authorized_to_maintain_liabilities trustline_deauthorized trustline_flags_updated offer_created
  offer_removed offer_updated trade data_created data_removed data_updated sequence_bumped
  claimable_balance_created claimable_balance_claimant_created claimable_balance_claimed
  account_sponsorship_created account_sponsorship_updated account_sponsorship_removed
  trustline_sponsorship_created trustline_sponsorship_updated trustline_sponsorship_removed
  data_sponsorship_created data_sponsorship_updated data_sponsorship_removed
  claimable_balance_sponsorship_created claimable_balance_sponsorship_updated
  claimable_balance_sponsorship_removed signer_sponsorship_created signer_sponsorship_updated
  signer_sponsorship_removed claimable_balance_clawed_back liquidity_pool_deposited liquidity_pool_withdrew
  liquidity_pool_trade liquidity_pool_created liquidity_pool_removed liquidity_pool_revoked
  contract_credited contract_debited`.split(/\s+/),
);

function envelopes(meta: xdr.LedgerCloseMeta): xdr.TransactionEnvelope[] {
  if (meta.type === 'v0') return meta.v0.txSet.txs;
  const set = meta.type === 'v1' ? meta.v1.txSet : meta.v2.txSet;
  return set.v1TxSet.phases.flatMap((phase) =>
    phase.type === 'v0Components'
      ? phase.v0Components.flatMap((component) => component.txsMaybeDiscountedFee.txs)
      : phase.parallelTxsComponent.executionStages.flat(2),
  );
}

const snake = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

interface Expected {
  sequences: number[];
  /** transaction hash → the operation types of its envelope, in order */
  transactions: Map<string, string[]>;
}

function expectedOf(metas: xdr.LedgerCloseMeta[]): Expected {
  const transactions = new Map<string, string[]>();
  const sequences: number[] = [];
  for (const meta of metas) {
    const body = ledgerBody(meta);
    sequences.push(body.ledgerHeader.header.ledgerSeq);
    const byHash = new Map<string, xdr.TransactionEnvelope>();
    for (const envelope of envelopes(meta)) {
      byHash.set(Buffer.from(TransactionBuilder.fromXDR(envelope, PASSPHRASE).hash()).toString('hex'), envelope);
    }
    for (const applied of body.txProcessing) {
      const hash = Buffer.from(applied.result.transactionHash.value).toString('hex');
      const envelope = byHash.get(hash);
      if (!envelope) throw new Error(`ledger ${sequences.at(-1)}: no envelope in the set for ${hash}`);
      const tx =
        envelope.type === 'envelopeTypeTxV0'
          ? envelope.v0.tx
          : envelope.type === 'envelopeTypeTx'
            ? envelope.v1.tx
            : envelope.feeBump.tx.innerTx.v1.tx;
      transactions.set(
        hash,
        tx.operations.map((op) => snake(op.body.type)),
      );
    }
  }
  return { sequences, transactions };
}

type Row = Record<string, unknown>;

async function allRecords(api: TestApi, route: string): Promise<Row[]> {
  const records: Row[] = [];
  let url = `${api.base}${route}${route.includes('?') ? '&' : '?'}limit=200&order=asc`;
  for (;;) {
    const response = await fetch(url);
    if (response.status !== 200) throw new Error(`${url}: ${response.status} ${await response.text()}`);
    const page = (await response.json()) as { _embedded: { records: Row[] }; _links: { next: { href: string } } };
    if (page._embedded.records.length === 0) return records;
    records.push(...page._embedded.records);
    const next = new URL(page._links.next.href);
    url = `${api.base}${next.pathname}${next.search}`;
  }
}

let t: TestDatabase;
let api: TestApi;
const scratch = mkdtempSync(join(tmpdir(), 'zenith-core-lcm-'));
const totals = { cases: 0, ledgers: 0, transactions: 0, operations: 0, effects: 0 };

beforeAll(async () => {
  t = await createTestDatabase();
  api = await serveTestApi(t, PASSPHRASE);
});

// closing an embedded database that has held every suite's history takes a while on a loaded
// machine (a full run's close once passed the default 60 s): the time each step took is printed
afterAll(async () => {
  const started = Date.now();
  await api?.close();
  const closed = Date.now();
  await t?.drop();
  rmSync(scratch, { recursive: true, force: true });
  const timings = { closeMs: closed - started, dropMs: Date.now() - closed };
  console.log(`stellar-core golden meta: ${JSON.stringify(totals)} ${JSON.stringify(timings)}`);
}, 300_000);

async function writeDatastore(c: Case): Promise<{ folder: string } & Awaited<ReturnType<typeof writeCaseDatastore>>> {
  const folder = join(scratch, c.suite, c.file);
  return { folder, ...(await writeCaseDatastore(c, folder)) };
}

describe("stellar-core's golden ledger meta, reingested", () => {
  it('holds every suite of test-lcm-current', () => {
    expect(suites.sort()).toEqual([
      'BeginSponsoringFutureReservesTests',
      'FrozenLedgerKeysTests',
      'InvokeHostFunctionTests',
      'MergeTests',
      'OfferTests',
      'PathPaymentTests',
      'TxEnvelopeTests',
      'TxResultsTests',
    ]);
    expect(manifest.cases.length).toBeGreaterThanOrEqual(985);
  });

  it.each(suites)(
    '%s: every case reingests, and every transaction, operation and effect is served',
    { timeout: 900_000 },
    async (suite) => {
      const failures: string[] = [];
      for (const c of manifest.cases.filter((c) => c.suite === suite)) {
        const label = `${c.suite}/${c.file} (${c.name})`;
        try {
          const { folder, ledgers, metas, first, last } = await writeDatastore(c);
          const expected = expectedOf(metas);
          await t.db.transaction((sql) => deleteHistory(sql, 1, 1_000_000));
          await reingestRange({
            db: t.db,
            source: datastoreSource(folder),
            networkPassphrase: PASSPHRASE,
            from: first,
            to: last,
            workers: 0,
          });

          const served = await allRecords(api, '/transactions?include_failed=true');
          const operations = await allRecords(api, '/operations?include_failed=true');
          const effects = await allRecords(api, '/effects');
          expect(served.map((tx) => tx.hash).sort(), label).toEqual([...expected.transactions.keys()].sort());
          const typesOf = new Map<string, string[]>();
          for (const op of operations) {
            const list = typesOf.get(op.transaction_hash as string) ?? [];
            list.push(op.type as string);
            typesOf.set(op.transaction_hash as string, list);
          }
          for (const [hash, types] of expected.transactions) expect(typesOf.get(hash) ?? [], `${label} ${hash}`).toEqual(types);
          const operationIds = new Set(operations.map((op) => op.id));
          for (const effect of effects) {
            expect(HORIZON_EFFECT_TYPES.has(effect.type as string), `${label}: effect type ${effect.type}`).toBe(true);
            const operation = (effect._links as { operation: { href: string } }).operation.href.split('/').at(-1);
            expect(operationIds.has(operation), `${label}: effect ${effect.id} of an unserved operation`).toBe(true);
          }
          totals.cases++;
          totals.ledgers += ledgers.length;
          totals.transactions += served.length;
          totals.operations += operations.length;
          totals.effects += effects.length;
        } catch (error) {
          failures.push(`${label}: ${(error as Error).message.split('\n').slice(0, 6).join(' | ')}`);
        }
      }
      expect(failures).toEqual([]);
    },
  );

  // the command itself, once per suite: its exit code on the longest case
  it('zenith db reingest exits 0 on a case of every suite', { timeout: 1_200_000 }, async () => {
    for (const suite of suites) {
      const longest = manifest.cases.filter((c) => c.suite === suite).sort((a, b) => b.length - a.length)[0]!;
      const { folder, first, last } = await writeDatastore(longest);
      const dataDir = join(scratch, 'cli', suite);
      const run = await runZenith(
        ['db', 'reingest', String(first), String(last), '--data-dir', dataDir, '--datastore', folder, '--network-passphrase', PASSPHRASE],
        { DATABASE_URL: '' },
      );
      expect(run.code, `${suite}/${longest.file}: ${run.stderr}`).toBe(0);
    }
  });
});
