// Fields of Horizon's resources that come from the ingester's rows, checked against Horizon's own
// outputs:
// - transactions: the records of Horizon's OpenAPI examples (fixtures/horizon_transactions.json,
//   copied from shared/reference/horizon-openapi.yml), ingested from their XDR by the transactions
//   processor and served again (preconditions, memo, memo_bytes); Horizon's resourceadapter tests
//   (transaction_test.go) for muxed accounts of a fee bump, preconditions and a text memo's raw bytes;
// - trades with a liquidity pool, from Horizon's trades processor suite (see
//   test/ingest/processors/trades_horizon_suite.test.ts), as resourceadapter/trade.go renders them;
// - pool shares in an account's balances, with the trust line of Horizon's account_entry_test.go.
import { readFileSync } from 'node:fs';
import { Account, Asset, Keypair, Memo, Operation, StrKey, TransactionBuilder, xdr } from '@stellar/stellar-sdk/base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeHistory } from '../../../src/ingest/encode/history.js';
import { emptyTransactionRows } from '../../../src/ingest/ledger_rows.js';
import { stateRows } from '../../../src/ingest/processors/state.js';
import { transactionRow } from '../../../src/ingest/processors/transactions.js';
import type { TradeRecord, TransactionRow } from '../../../src/ingest/rows.js';
import { writeEncodedHistory, writeState } from '../../../src/ingest/writer.js';
import type { LedgerTx, LedgerView } from '../../../src/meta/index.js';
import { accountIdToXdr, creditAsset, toid, TRADE_TYPE_LIQUIDITY_POOL } from '../../../src/stellar/index.js';
import { serveTestApi, type TestApi, getJson } from '../../support/api_server.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';

// biome-ignore lint/suspicious/noExplicitAny: the tests read deep paths of answers they just checked
type Json = Record<string, any>;

let test: TestDatabase;
let api: TestApi;
let base: string;

beforeAll(async () => {
  test = await createTestDatabase();
  api = await serveTestApi(test);
  base = api.base;
});

afterAll(async () => {
  await api.close();
  await test.drop();
});

const get = (path: string, status = 200): Promise<Json> => getJson(base, path, status);

const noRows = emptyTransactionRows();

async function writeTransactions(transactions: TransactionRow[]): Promise<void> {
  await test.db.transaction((sql) => writeEncodedHistory(sql, [encodeHistory([{ ...noRows, transactions }])]));
}

/** a transaction as the ledger's meta has it, from its XDR (no entry changes: rows of history_transactions need none) */
function ledgerTx(index: number, hash: string, xdrs: { envelope: string; result: string; meta: string; feeMeta: string }): LedgerTx {
  return {
    index,
    hash,
    envelope: xdr.TransactionEnvelope.fromXdr(xdrs.envelope, 'base64'),
    result: new xdr.TransactionResultPair({
      transactionHash: Buffer.from(hash, 'hex'),
      result: xdr.TransactionResult.fromXdr(xdrs.result, 'base64'),
    }),
    feeChanges: [],
    meta: xdr.TransactionMeta.fromXdr(xdrs.meta, 'base64'),
    postApplyFeeChanges: [],
    changesBefore: [],
    operationChanges: [],
    changesAfter: [],
    raw: { envelopeXdr: xdrs.envelope, resultXdr: xdrs.result, resultMetaXdr: xdrs.meta, feeMetaXdr: xdrs.feeMeta },
  };
}

describe('transactions as Horizon’s OpenAPI examples show them', () => {
  const fixture = JSON.parse(readFileSync(new URL('./fixtures/horizon_transactions.json', import.meta.url), 'utf8')) as {
    records: { example: string; record: Json }[];
  };
  const records = fixture.records.map((r) => r.record);

  beforeAll(async () => {
    await writeTransactions(
      records.map((r) => {
        // the paging token is the TOID: ledger and application order
        const id = BigInt(r.paging_token);
        const index = Number((id >> 12n) & 0xfffffn);
        const tx = ledgerTx(index, r.hash, {
          envelope: r.envelope_xdr,
          result: r.result_xdr,
          meta: r.result_meta_xdr,
          feeMeta: r.fee_meta_xdr,
        });
        return transactionRow(tx, id, r.ledger, new Date(r.created_at).toISOString());
      }),
    );
  });

  it.each(records.map((r) => [r.hash.slice(0, 10), r] as const))(
    '%s: every field of Horizon’s record, links included',
    async (_name, record) => {
      const ours = await get(`/transactions/${record.hash}`);
      const theirs = JSON.parse(JSON.stringify(record).replaceAll('https://horizon-testnet.stellar.org', base)) as Json;
      for (const [key, value] of Object.entries(theirs)) expect(ours[key], key).toEqual(value);
      // and none of Horizon's omitted fields
      for (const key of [
        'memo',
        'memo_bytes',
        'preconditions',
        'account_muxed',
        'account_muxed_id',
        'fee_account_muxed',
        'fee_account_muxed_id',
      ]) {
        if (!(key in theirs)) expect(ours, key).not.toHaveProperty(key);
      }
    },
  );
});

/** a history_transactions row with nothing set, for Horizon's rows of its resourceadapter tests */
function bareRow(id: bigint, hash: string): TransactionRow {
  return {
    id,
    hash,
    ledger_sequence: Number(id >> 32n),
    application_order: Number((id >> 12n) & 0xfffffn),
    closed_at: '2026-01-01T00:00:00.000Z',
    successful: true,
    account: 'GAQAA5L65LSYH7CQ3VTJ7F3HHLGCL3DSLAR2Y47263D56MNNGHSQSTVY',
    account_muxed: null,
    account_sequence: 1n,
    max_fee: 100n,
    fee_charged: 100n,
    operation_count: 1,
    memo_type: 'none',
    memo: null,
    memo_bytes: null,
    signatures: [],
    valid_after: null,
    valid_before: null,
    min_ledger: null,
    max_ledger: null,
    min_account_sequence: null,
    min_account_sequence_age: null,
    min_account_sequence_ledger_gap: null,
    extra_signers: [],
    fee_account: null,
    fee_account_muxed: null,
    new_max_fee: null,
    inner_transaction_hash: null,
    inner_signatures: [],
    envelope_xdr: 'AAAA',
    result_xdr: 'AAAA',
    result_meta_xdr: 'AAAA',
    fee_meta_xdr: 'AAAA',
  };
}

describe('transaction fields of Horizon’s resourceadapter tests', () => {
  const hashOf = (n: number) => n.toString(16).padStart(64, 'f');

  it('muxed accounts of a fee bump (TestFeeBumpTransaction)', async () => {
    const hash = 'cebb875a00ff6e1383aef0fd251a76f22c1f9ab2a2dffcb077855736ade2659a';
    const inner = '2374e99349b9ef7dba9a5db3339b78fda8f34777b1af33ba468ad5c0df946d4d';
    await writeTransactions([
      {
        ...bareRow(toid(7, 1, 0), hash),
        max_fee: 123n,
        fee_charged: 100n,
        fee_account: 'GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ',
        fee_account_muxed: 'MA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJUAAAAAAAAAAAACJUQ',
        account: 'GAQAA5L65LSYH7CQ3VTJ7F3HHLGCL3DSLAR2Y47263D56MNNGHSQSTVY',
        account_muxed: 'MAQAA5L65LSYH7CQ3VTJ7F3HHLGCL3DSLAR2Y47263D56MNNGHSQSAAAAAAAAAAE2LP26',
        new_max_fee: 10000n,
        inner_transaction_hash: inner,
        signatures: ['a', 'b', 'c'],
        inner_signatures: ['d', 'e', 'f'],
      },
    ]);
    const tx = await get(`/transactions/${hash}`);
    expect(tx).toMatchObject({
      hash,
      id: hash,
      fee_account: 'GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ',
      fee_account_muxed: 'MA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJUAAAAAAAAAAAACJUQ',
      source_account: 'GAQAA5L65LSYH7CQ3VTJ7F3HHLGCL3DSLAR2Y47263D56MNNGHSQSTVY',
      account_muxed: 'MAQAA5L65LSYH7CQ3VTJ7F3HHLGCL3DSLAR2Y47263D56MNNGHSQSAAAAAAAAAAE2LP26',
      // Horizon's AccountMuxedID 1234, a string in JSON
      account_muxed_id: '1234',
      fee_charged: '100',
      max_fee: '10000',
      signatures: ['a', 'b', 'c'],
      inner_transaction: { hash: inner, max_fee: '123', signatures: ['d', 'e', 'f'] },
      fee_bump_transaction: { hash, signatures: ['a', 'b', 'c'] },
    });
    // FeeAccountMuxedID is 0: omitempty leaves it out
    expect(tx).not.toHaveProperty('fee_account_muxed_id');
  });

  it('preconditions (TestPopulateTransaction_Preconditions)', async () => {
    const hash = hashOf(1);
    const validAfter = 1_700_000_000n;
    const validBefore = validAfter + 7200n;
    await writeTransactions([
      {
        ...bareRow(toid(7, 2, 0), hash),
        valid_after: validAfter,
        valid_before: validBefore,
        min_ledger: 40071006 - 1024,
        max_ledger: 40071006 + 1024,
        min_account_sequence: 10n,
        min_account_sequence_age: 30n * 1000n,
        min_account_sequence_ledger_gap: 5,
        extra_signers: ['D34DB33F', '8BADF00D'],
      },
    ]);
    expect((await get(`/transactions/${hash}`)).preconditions).toEqual({
      timebounds: { min_time: String(validAfter), max_time: String(validBefore) },
      ledgerbounds: { min_ledger: 40071006 - 1024, max_ledger: 40071006 + 1024 },
      min_account_sequence: '10',
      min_account_sequence_age: '30000',
      min_account_sequence_ledger_gap: 5,
      extra_signers: ['D34DB33F', '8BADF00D'],
    });
  });

  it('omits every precondition that is not set (TestPopulateTransaction_PreconditionsV2_Omissions)', async () => {
    // a ledger gap of 0 alone keeps an empty preconditions object; a sequence age of 0 alone does not
    await writeTransactions([
      { ...bareRow(toid(7, 3, 0), hashOf(2)), min_account_sequence_ledger_gap: 0, min_account_sequence_age: 0n },
      { ...bareRow(toid(7, 4, 0), hashOf(3)), min_account_sequence_age: 0n },
      { ...bareRow(toid(7, 5, 0), hashOf(4)) },
    ]);
    expect((await get(`/transactions/${hashOf(2)}`)).preconditions).toEqual({});
    expect(await get(`/transactions/${hashOf(3)}`)).not.toHaveProperty('preconditions');
    expect(await get(`/transactions/${hashOf(4)}`)).not.toHaveProperty('preconditions');
  });

  it('a text memo’s raw bytes (TestPopulateTransaction_TextMemo), through the transactions processor', async () => {
    const rawMemo = Buffer.from([0, 0, 1, 1, 0, 0, 3, 3]);
    const source = Keypair.fromRawEd25519Seed(Buffer.alloc(32, 7));
    const envelope = new TransactionBuilder(new Account(source.publicKey(), '1'), { fee: '100', networkPassphrase: 'test' })
      .addOperation(Operation.payment({ destination: source.publicKey(), asset: Asset.native(), amount: '1' }))
      .addMemo(new Memo('text', rawMemo))
      .setTimeout(0)
      .build()
      .toEnvelope();
    const result = new xdr.TransactionResult({
      feeCharged: 100n,
      result: xdr.TransactionResultResult.txSuccess([]),
      ext: xdr.TransactionResultExt.v0(),
    });
    const hash = hashOf(5);
    const tx = ledgerTx(1, hash, {
      envelope: envelope.toXdr('base64'),
      result: result.toXdr('base64'),
      meta: xdr.TransactionMeta.fromXdr('AAAAAAAAAAA=', 'base64').toXdr('base64'),
      feeMeta: 'AAAAAA==',
    });
    await writeTransactions([transactionRow(tx, toid(8, 1, 0), 8, '2026-01-01T00:00:00.000Z')]);
    const ours = await get(`/transactions/${hash}`);
    expect(ours.memo_type).toBe('text');
    expect(ours.memo_bytes).toBe(rawMemo.toString('base64'));
  });
});

describe('effect fields of Horizon’s resourceadapter tests', () => {
  it('the muxed account of an effect (TestNewEffect_EffectTrade_Muxed)', async () => {
    const hash = 'ab'.repeat(32);
    const account = 'GAQAA5L65LSYH7CQ3VTJ7F3HHLGCL3DSLAR2Y47263D56MNNGHSQSTVY';
    const muxed = 'MAQAA5L65LSYH7CQ3VTJ7F3HHLGCL3DSLAR2Y47263D56MNNGHSQSAAAAAAAAAAE2LP26';
    const muxedZero = StrKey.encodeMed25519PublicKey(Buffer.concat([StrKey.decodeEd25519PublicKey(account), Buffer.alloc(8)]));
    const operation = toid(9, 1, 1);
    const closed_at = '2026-01-01T00:00:00.000Z';
    await test.db.transaction((sql) =>
      writeEncodedHistory(sql, [
        encodeHistory([
          {
            ...noRows,
            transactions: [bareRow(toid(9, 1, 0), hash)],
            operations: [
              {
                id: operation,
                transaction_id: toid(9, 1, 0),
                transaction_hash: hash,
                application_order: 1,
                closed_at,
                type: 3,
                details: {},
                source_account: account,
                source_account_muxed: null,
                transaction_successful: true,
                is_payment: false,
              },
            ],
            effects: [
              {
                operation_id: operation,
                order: 1,
                account,
                account_muxed: muxed,
                closed_at,
                type: 33,
                details: { seller: account, seller_muxed: muxed, seller_muxed_id: 1234 },
              },
              { operation_id: operation, order: 2, account, account_muxed: muxedZero, closed_at, type: 33, details: {} },
            ],
          },
        ]),
      ]),
    );
    const page = (await get(`/operations/${operation}/effects`)) as { _embedded: { records: Json[] } };
    // Horizon's AccountMuxedID 1234, a string in JSON (uint64 with the string tag)
    expect(page._embedded.records[0]).toMatchObject({
      type: 'trade',
      account,
      account_muxed: muxed,
      account_muxed_id: '1234',
      seller_muxed: muxed,
    });
    // an id of 0 is left out (omitempty), the muxed address is not
    expect(page._embedded.records[1]).toMatchObject({ account_muxed: muxedZero });
    expect(page._embedded.records[1]).not.toHaveProperty('account_muxed_id');
  });
});

describe('a trade with a liquidity pool', () => {
  // the suite's strict send across pool 04 05 06: the pool sold 67 WER for 98 NIJ of the operation's source
  const ISSUER = 'GAUJETIZVEP2NRYLUESJ3LS66NVCEGMON4UDCBCSBEVPIID773P2W6AY';
  const BUYER = 'GC3C4AKRBQLHOJ45U4XG35ESVWRDECWO5XLDGYADO6DPR3L7KIDVUMML';
  const pool = Buffer.concat([Buffer.from([4, 5, 6]), Buffer.alloc(29)]).toString('hex');
  const operationId = toid(100, 1, 9);
  const synthetic = operationId | (1n << 62n);

  beforeAll(async () => {
    const trade: TradeRecord = {
      operation_id: operationId,
      order: 0,
      closed_at: '2021-11-18T03:47:47.000Z',
      offer_id: null,
      seller: null,
      seller_offer_id: null,
      seller_liquidity_pool_id: pool,
      buyer: BUYER,
      buyer_offer_id: synthetic,
      sold_asset: creditAsset('WER', ISSUER),
      sold_amount: 67n,
      bought_asset: creditAsset('NIJ', ISSUER),
      bought_amount: 98n,
      price_n: 98n,
      price_d: 67n,
      trade_type: TRADE_TYPE_LIQUIDITY_POOL,
      liquidity_pool_fee: 30,
      rounding_slippage: 0n,
    };
    await test.db.transaction((sql) => writeEncodedHistory(sql, [{ copy: {}, trades: [trade] }]));
  });

  // NIJ gets the smaller history id (assets are numbered in type/code/issuer order), so it is the
  // base and the buyer is the base side: Horizon swaps sides and inverts the price
  const expected = () => ({
    _links: {
      self: { href: '' },
      base: { href: `${base}/accounts/${BUYER}` },
      counter: { href: `${base}/liquidity_pools/${pool}` },
      operation: { href: `${base}/operations/${operationId}` },
    },
    id: `${operationId}-0`,
    paging_token: `${operationId}-0`,
    ledger_close_time: '2021-11-18T03:47:47Z',
    trade_type: 'liquidity_pool',
    liquidity_pool_fee_bp: 30,
    base_offer_id: String(synthetic),
    base_account: BUYER,
    base_amount: '0.0000098',
    base_asset_type: 'credit_alphanum4',
    base_asset_code: 'NIJ',
    base_asset_issuer: ISSUER,
    counter_liquidity_pool_id: pool,
    counter_amount: '0.0000067',
    counter_asset_type: 'credit_alphanum4',
    counter_asset_code: 'WER',
    counter_asset_issuer: ISSUER,
    base_is_seller: false,
    price: { n: '67', d: '98' },
  });

  it('renders Horizon’s fields: the trade type, the pool’s fee and id, the pool linked', async () => {
    const [record] = (await get('/trades'))._embedded.records as Json[];
    expect(record).toEqual(expected());
    expect(Object.keys(record ?? {})).not.toContain('offer_id');
  });

  it('is listed by trade_type liquidity_pool and all, not orderbook; the links keep the filter', async () => {
    const pools = await get('/trades?trade_type=liquidity_pool&limit=5');
    expect(pools._embedded.records).toEqual([expected()]);
    expect(pools._links.next.href).toBe(`${base}/trades?cursor=${operationId}-0&limit=5&order=asc&trade_type=liquidity_pool`);
    expect((await get('/trades?trade_type=all'))._embedded.records).toHaveLength(1);
    expect((await get('/trades?trade_type=orderbook'))._embedded.records).toEqual([]);
  });

  it('refuses another trade_type, and a pool’s trades of an offer (Horizon’s messages)', async () => {
    expect(await get('/trades?trade_type=liquidity_pools', 400)).toMatchObject({
      extras: { invalid_field: 'trade_type', reason: 'Trade type must be all, orderbook, or liquidity_pool' },
    });
    expect(await get(`/offers/${synthetic}/trades?trade_type=liquidity_pool`, 400)).toMatchObject({
      extras: { invalid_field: 'trade_type', reason: 'trade_type liquidity_pool cannot be used with the offer_id filter' },
    });
  });
});

describe('pool shares in an account’s balances', () => {
  // account_entry_test.go's pool-share trust line: balance 10000, limit 123456789, no flags, ledger 900
  const ACCOUNT = 'GAOQJGUAB7NI7K7I62ORBXMN3J4SSWQUQ7FOEPSDJ322W2HMCNWPHXFB';
  const pool = 'ab'.repeat(32);

  beforeAll(async () => {
    const account = new xdr.LedgerEntry({
      lastModifiedLedgerSeq: 900,
      data: xdr.LedgerEntryData.account(
        new xdr.AccountEntry({
          accountId: accountIdToXdr(ACCOUNT),
          balance: 20000n,
          seqNum: 1n,
          numSubEntries: 1,
          inflationDest: null,
          flags: 0,
          homeDomain: '',
          thresholds: Buffer.from([1, 0, 0, 0]),
          signers: [],
          ext: xdr.AccountEntryExt.v0(),
        }),
      ),
      ext: xdr.LedgerEntryExt.v0(),
    });
    const shares = new xdr.LedgerEntry({
      lastModifiedLedgerSeq: 900,
      data: xdr.LedgerEntryData.trustline(
        new xdr.TrustLineEntry({
          accountId: accountIdToXdr(ACCOUNT),
          asset: xdr.TrustLineAsset.assetTypePoolShare(new xdr.PoolId(pool)),
          balance: 10000n,
          limit: 123456789n,
          flags: 0,
          ext: xdr.TrustLineEntryExt.v0(),
        }),
      ),
      ext: xdr.LedgerEntryExt.v0(),
    });
    // the state processor over a ledger that created both entries, then the writer
    const changes = [xdr.LedgerEntryChange.ledgerEntryCreated(account), xdr.LedgerEntryChange.ledgerEntryCreated(shares)];
    const tx = { feeChanges: [], changesBefore: [], operationChanges: [changes], changesAfter: [], postApplyFeeChanges: [] };
    const view = { sequence: 900, txs: [tx], upgradeChanges: [] } as unknown as LedgerView;
    const state = stateRows(view);
    await test.db.transaction((sql) => writeState(sql, { state } as Parameters<typeof writeState>[1]));
  });

  it('lists them as Horizon does: their pool, no liabilities, not authorized (no one authorizes pool shares)', async () => {
    const account = await get(`/accounts/${ACCOUNT}`);
    expect(account.balances).toEqual([
      {
        balance: '0.0010000',
        liquidity_pool_id: pool,
        limit: '12.3456789',
        last_modified_ledger: 900,
        is_authorized: false,
        is_authorized_to_maintain_liabilities: false,
        asset_type: 'liquidity_pool_shares',
      },
      { balance: '0.0020000', buying_liabilities: '0.0000000', selling_liabilities: '0.0000000', asset_type: 'native' },
    ]);
  });

  it('are no asset to pay from in a path search', async () => {
    const { accountBalances } = await import('../../../src/market/path_params.js');
    expect([...(await accountBalances(test.db, ACCOUNT)).keys()]).toEqual(['native']);
  });
});
