// The fixtures as the processors see them, and what Horizon made of them. Each ledger of a
// horizon-scenarios core dump becomes the LedgerCloseMeta (v0) stellar-core would have emitted for
// it, built from its own envelopes, results, fee changes and TransactionMeta, and is read through
// the ingester's ledger view over bytes, as a datastore ledger is; the testnet ledgers 997–999 are
// read from their datastore files. The -horizon.sql dump gives Horizon's rows for the same ledgers.
import fs from 'node:fs';
import path from 'node:path';
import {
  FeeBumpTransaction,
  type Transaction,
  TransactionBuilder,
  decodeAddressToMuxedAccount,
  extractBaseAddress,
  xdr,
} from '@stellar/stellar-sdk/base';
import { readBatchLedgers, viewLedgerBytes, type LedgerTx, type LedgerView } from '../../../src/meta/index.js';
import { networkId } from '../../../src/stellar/index.js';
import type { EffectInput } from '../../../src/ingest/processors/effects.js';
import { closedAt } from '../../../src/ingest/processors/ledgers.js';
import { type OperationContext, operationSource } from '../../../src/ingest/processors/operations.js';
import type { TradeInput } from '../../../src/ingest/processors/trades.js';
import { isSuccessful, operationResults, transactionParts } from '../../../src/ingest/processors/transactions.js';
import { type AssetValue, toid } from '../../../src/stellar/index.js';
import { loadScenario, TEST_PASSPHRASE, type ScenarioLedger } from '../../core/support/scenario.js';
import { readInserts, type SqlRow } from '../../core/support/sql_dump.js';
import { FIXTURES, TESTNET_DATASTORE, TESTNET_PASSPHRASE } from './fixtures.js';

/** A ledger of a core dump as a LedgerCloseMeta: transactions in application order (txindex). */
export function scenarioMeta(ledger: ScenarioLedger): xdr.LedgerCloseMeta {
  return xdr.LedgerCloseMeta.v0(
    new xdr.LedgerCloseMetaV0({
      ledgerHeader: new xdr.LedgerHeaderHistoryEntry({
        hash: Buffer.from(ledger.hash, 'hex'),
        header: ledger.header,
        ext: xdr.LedgerHeaderHistoryEntryExt.v0(),
      }),
      txSet: new xdr.TransactionSet({
        previousLedgerHash: ledger.header.previousLedgerHash,
        txs: ledger.txs.map((tx) => xdr.TransactionEnvelope.fromXdr(tx.envelope, 'base64')),
      }),
      txProcessing: ledger.txs.map(
        (tx) => new xdr.TransactionResultMeta({ result: tx.expected, feeProcessing: tx.feeChanges, txApplyProcessing: tx.meta }),
      ),
      upgradesProcessing: [],
      scpInfo: [],
    }),
  );
}

/** Every ledger of a scenario (ledger 1, the genesis, included) as the ingester views it. */
export function scenarioViews(name: string): LedgerView[] {
  const network = networkId(TEST_PASSPHRASE);
  return loadScenario(name).ledgers.map((ledger) => viewLedgerBytes(Buffer.from(scenarioMeta(ledger).toXdr()), network));
}

/** The testnet ledgers 997–999 as the ingester views them. */
export async function testnetViews(): Promise<LedgerView[]> {
  const network = networkId(TESTNET_PASSPHRASE);
  // the files' names count down from 0xFFFFFFFF: the last name holds the first ledger
  const files = fs
    .readdirSync(TESTNET_DATASTORE)
    .filter((f) => f.endsWith('.xdr.zst'))
    .sort()
    .reverse();
  const views: LedgerView[] = [];
  for (const f of files) {
    for (const raw of await readBatchLedgers(fs.readFileSync(path.join(TESTNET_DATASTORE, f)))) views.push(viewLedgerBytes(raw, network));
  }
  return views;
}

/** the SDK's reading of a transaction: the envelope's, and the one that carries the operations. */
export interface ReadTransaction {
  outer: Transaction | FeeBumpTransaction;
  /** a fee bump's inner transaction, else the transaction itself */
  inner: Transaction;
}

export function readTransaction(envelope: xdr.TransactionEnvelope, passphrase: string): ReadTransaction {
  const outer = TransactionBuilder.fromXdr(envelope, passphrase);
  return { outer, inner: outer instanceof FeeBumpTransaction ? outer.innerTransaction : outer };
}

/** A testnet transaction in its ledger, with the SDK's reading of it. */
export interface TestnetTransaction extends ReadTransaction {
  view: LedgerView;
  tx: LedgerTx;
  successful: boolean;
}

/** Every transaction of the testnet ledgers 997–999, in order. */
export async function testnetTransactions(): Promise<TestnetTransaction[]> {
  return (await testnetViews()).flatMap((view) =>
    view.txs.map((tx) => ({ view, tx, successful: isSuccessful(tx.result), ...readTransaction(tx.envelope, TESTNET_PASSPHRASE) })),
  );
}

/** A transaction's operations with what the operations processor takes beside them. */
export interface TransactionInput {
  operations: xdr.Operation[];
  context: OperationContext;
  /** the transaction's source account (G...) */
  txSourceId: string;
  /** each operation's source account (G...) */
  sourceIds: string[];
}

/** The transaction's and its operations' sources are read by the SDK (a fee bump's inner ones). */
export function transactionInput(view: LedgerView, tx: LedgerTx, passphrase: string): TransactionInput {
  const { inner } = readTransaction(tx.envelope, passphrase);
  return {
    operations: transactionParts(tx).operations,
    context: {
      ledgerSequence: view.sequence,
      txIndex: tx.index,
      txId: toid(view.sequence, tx.index, 0),
      txHash: tx.hash,
      closedAt: closedAt(view),
      successful: isSuccessful(tx.result),
      txSource: decodeAddressToMuxedAccount(inner.source),
      results: operationResults(tx.result),
      networkId: view.networkId,
      tx,
    },
    txSourceId: extractBaseAddress(inner.source),
    sourceIds: inner.operations.map((op) => extractBaseAddress(op.source ?? inner.source)),
  };
}

/** One operation of a successful transaction as the effect and trade processors take it. */
export interface OperationInput extends EffectInput, TradeInput {}

/** The per-operation inputs of a transaction; none for a failed one, whose operations have no effects or trades. */
export function operationInputs(view: LedgerView, tx: LedgerTx, passphrase: string): OperationInput[] {
  const { operations, context, sourceIds } = transactionInput(view, tx, passphrase);
  if (!context.successful) return [];
  return operations.map((op, i) => ({
    operationId: toid(view.sequence, tx.index, i + 1),
    closedAt: context.closedAt,
    op,
    source: operationSource(op, context.txSource),
    sourceId: sourceIds[i]!,
    result: xdr.expectUnionVariant(context.results[i]!, 'opInner').tr,
    changes: tx.operationChanges[i] ?? [],
    meta: tx.meta,
    networkId: view.networkId,
  }));
}

/** What Horizon ingested from a scenario, keyed by Horizon's ids (TOIDs, as ours). */
export interface HorizonDump {
  ledgers: Map<number, SqlRow>;
  transactions: Map<string, SqlRow>;
  operations: Map<string, SqlRow>;
  /** each operation's effects in their order, with the account's address */
  effects: Map<string, HorizonEffect[]>;
  /** each operation's trades in their order */
  trades: Map<string, HorizonTrade[]>;
  /** the addresses of each transaction's and each operation's participants, sorted */
  transactionParticipants: Map<string, string[]>;
  operationParticipants: Map<string, string[]>;
}

export interface HorizonEffect {
  account: string;
  order: number;
  type: number;
  details: unknown;
}

export interface HorizonTrade {
  order: number;
  closedAt: string;
  offerId: string;
  baseAccount: string;
  baseAsset: AssetValue;
  baseAmount: bigint;
  counterAccount: string;
  counterAsset: AssetValue;
  counterAmount: bigint;
  baseIsSeller: boolean;
  priceN: bigint;
  priceD: bigint;
  baseOfferId: string;
  counterOfferId: string;
}

function grouped<T>(rows: SqlRow[], key: (r: SqlRow) => string, value: (r: SqlRow) => T): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const r of rows) {
    const k = key(r);
    const list = out.get(k) ?? [];
    list.push(value(r));
    out.set(k, list);
  }
  return out;
}

/** A timestamp of the dump (UTC, no zone) as an ISO string. */
export function dumpTime(value: unknown): string {
  return new Date(`${String(value).replace(' ', 'T')}Z`).toISOString();
}

export function horizonDump(name: string): HorizonDump {
  const t = readInserts(path.join(FIXTURES, 'horizon-scenarios', `${name}-horizon.sql`));
  const rows = (table: string) => t.get(table) ?? [];
  const address = new Map(rows('history_accounts').map((r) => [String(r.id), String(r.address)]));
  const account = (id: unknown) => address.get(String(id)) ?? `unknown history account ${String(id)}`;
  const assets = new Map(
    rows('history_assets').map((a): [string, AssetValue] => [
      String(a.id),
      a.asset_type === 'native'
        ? { type: 'native' }
        : {
            type: String(a.asset_type) as 'credit_alphanum4' | 'credit_alphanum12',
            code: String(a.asset_code),
            issuer: String(a.asset_issuer),
          },
    ]),
  );
  const asset = (id: unknown) => {
    const found = assets.get(String(id));
    if (!found) throw new Error(`${name}: no history asset ${String(id)}`);
    return found;
  };
  const byOrder = <T extends { order: number }>(m: Map<string, T[]>) => {
    for (const list of m.values()) list.sort((a, b) => a.order - b.order);
    return m;
  };
  const participants = (table: string, column: string) => {
    const m = grouped(
      rows(table),
      (r) => String(r[column]),
      (r) => account(r.history_account_id),
    );
    for (const list of m.values()) list.sort();
    return m;
  };
  return {
    ledgers: new Map(rows('history_ledgers').map((r) => [Number(r.sequence), r])),
    transactions: new Map(rows('history_transactions').map((r) => [String(r.id), r])),
    operations: new Map(rows('history_operations').map((r) => [String(r.id), r])),
    effects: byOrder(
      grouped(
        rows('history_effects'),
        (r) => String(r.history_operation_id),
        (r): HorizonEffect => ({
          account: account(r.history_account_id),
          order: Number(r.order),
          type: Number(r.type),
          details: JSON.parse(String(r.details)) as unknown,
        }),
      ),
    ),
    trades: byOrder(
      grouped(
        rows('history_trades'),
        (r) => String(r.history_operation_id),
        (r): HorizonTrade => ({
          order: Number(r.order),
          closedAt: dumpTime(r.ledger_closed_at),
          offerId: String(r.offer_id),
          baseAccount: account(r.base_account_id),
          baseAsset: asset(r.base_asset_id),
          baseAmount: BigInt(String(r.base_amount)),
          counterAccount: account(r.counter_account_id),
          counterAsset: asset(r.counter_asset_id),
          counterAmount: BigInt(String(r.counter_amount)),
          baseIsSeller: String(r.base_is_seller) === 'true',
          priceN: BigInt(String(r.price_n)),
          priceD: BigInt(String(r.price_d)),
          baseOfferId: String(r.base_offer_id),
          counterOfferId: String(r.counter_offer_id),
        }),
      ),
    ),
    transactionParticipants: participants('history_transaction_participants', 'history_transaction_id'),
    operationParticipants: participants('history_operation_participants', 'history_operation_id'),
  };
}
