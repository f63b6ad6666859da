// The transactions processor on real transactions: every transaction of Horizon's scenarios gives
// Horizon's history_transactions row (its XDR blobs byte for byte), and every testnet transaction
// the fields the SDK reads from its envelope.
import { describe, expect, it } from 'vitest';
import { closedAt } from '../../../src/ingest/processors/ledgers.js';
import { memoText, transactionRow } from '../../../src/ingest/processors/transactions.js';
import { toid } from '../../../src/stellar/index.js';
import { SCENARIOS } from '../../core/support/scenario.js';
import type { SqlRow } from '../../core/support/sql_dump.js';
import { horizonDump, scenarioViews, testnetTransactions } from '../support/scenarios.js';

/** a PostgreSQL array literal of base64 strings, as pg_dump writes it: {a,b} */
const pgArray = (v: unknown): string[] =>
  v === null
    ? []
    : String(v)
        .replace(/^\{|\}$/g, '')
        .split(',')
        .filter(Boolean);

/** `[min,max)` of Horizon's time_bounds; an open end is null */
function timeBounds(v: unknown): { valid_after: bigint | null; valid_before: bigint | null } {
  if (v === null) return { valid_after: null, valid_before: null };
  const [min = '', max = ''] = String(v)
    .replace(/^\[|\)$/g, '')
    .split(',');
  return { valid_after: min ? BigInt(min) : null, valid_before: max ? BigInt(max) : null };
}

/** Horizon's row with our column names. */
function horizonTransaction(r: SqlRow) {
  return {
    id: BigInt(String(r.id)),
    hash: r.transaction_hash,
    ledger_sequence: Number(r.ledger_sequence),
    application_order: Number(r.application_order),
    successful: String(r.successful) === 'true',
    account: r.account,
    account_sequence: BigInt(String(r.account_sequence)),
    max_fee: BigInt(String(r.max_fee)),
    fee_charged: BigInt(String(r.fee_charged)),
    operation_count: Number(r.operation_count),
    memo_type: r.memo_type,
    memo: r.memo,
    signatures: pgArray(r.signatures),
    ...timeBounds(r.time_bounds),
    envelope_xdr: r.tx_envelope,
    result_xdr: r.tx_result,
    result_meta_xdr: r.tx_meta,
    fee_meta_xdr: r.tx_fee_meta,
  };
}

describe.each(SCENARIOS)('transactions of scenario %s', (name) => {
  const expected = horizonDump(name);
  const views = scenarioViews(name);

  it('gives Horizon’s row for every transaction', () => {
    let count = 0;
    for (const view of views) {
      for (const tx of view.txs) {
        const id = toid(view.sequence, tx.index, 0);
        const theirs = expected.transactions.get(String(id));
        expect(theirs, `transaction ${id}`).toBeDefined();
        const ours = transactionRow(tx, id, view.sequence, closedAt(view));
        expect(ours, `transaction ${tx.hash}`).toMatchObject(horizonTransaction(theirs!));
        // protocol 11/12 had neither fee bumps, muxed accounts nor preconditions beyond time bounds
        expect(ours).toMatchObject({
          account_muxed: null,
          fee_account: null,
          fee_account_muxed: null,
          new_max_fee: null,
          inner_transaction_hash: null,
          inner_signatures: [],
          min_ledger: null,
          max_ledger: null,
          min_account_sequence: null,
          extra_signers: [],
        });
        count++;
      }
    }
    expect(count).toBe(expected.transactions.size);
  });
});

const txs = await testnetTransactions();

describe('transactions of the testnet datastore', () => {
  it('read every envelope as the SDK does', () => {
    for (const { view, tx, outer, inner } of txs) {
      const memo = inner.memo.value;
      const maxTime = BigInt(inner.timeBounds?.maxTime ?? 0);
      const ours = transactionRow(tx, toid(view.sequence, tx.index, 0), view.sequence, closedAt(view));
      expect(ours).toMatchObject({
        hash: Buffer.from(outer.hash()).toString('hex'),
        account: inner.source,
        account_sequence: BigInt(inner.sequence),
        max_fee: BigInt(inner.fee),
        operation_count: inner.operations.length,
        memo_type: inner.memo.type,
        memo: memo === null ? null : memo instanceof Uint8Array ? Buffer.from(memo).toString('utf8') : String(memo),
        signatures: inner.signatures.map((s) => Buffer.from(s.signature.value).toString('base64')),
        valid_after: inner.timeBounds ? BigInt(inner.timeBounds.minTime) : null,
        valid_before: maxTime === 0n ? null : maxTime,
        envelope_xdr: outer.toEnvelope().toXdr('base64'),
      });
    }
    expect(txs).toHaveLength(17);
  });
});

describe('a text memo', () => {
  // Horizon's utf8.Scrub (internal/utf8/main_test.go TestScrub), then without NULs as Horizon's
  // transaction batch insert builder stores it
  it('is read as Horizon scrubs it', () => {
    expect(memoText(Buffer.from('scott'))).toBe('scott');
    expect(memoText(Buffer.from('scött'))).toBe('scött');
    expect(memoText(Buffer.from([0xc3, 0x28]))).toBe('\uFFFD(');
    expect(memoText(Buffer.from([0, 0, 1, 1, 0, 0, 3, 3]))).toBe('\u0001\u0001\u0003\u0003');
  });
});
