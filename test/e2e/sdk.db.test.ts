// End to end: a fresh database, the embedded core, the ingester and the API, read through
// @stellar/stellar-sdk unchanged. Activity is submitted to the core directly (POST /transactions
// has its own test, submission.db.test.ts); every read goes through the SDK, and one GraphQL
// query is checked field by field against the REST answers.
import { Account, Asset, Horizon, Keypair, NotFoundError, Operation, TransactionBuilder } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snakeCase } from '../../src/api/rest/render.js';
import { NETWORK_PASSPHRASE, startTestNetwork, type TestNetwork } from '../support/network.js';

let network: TestNetwork;
let server: Horizon.Server;
const alice = Keypair.random();
const bob = Keypair.random();
let createLedger = 0;
let createHash = '';
const paymentHashes: string[] = [];
const PAYMENTS = 7;

function build(source: Account, signer: Keypair, operations: ReturnType<typeof Operation.payment>[]) {
  const builder = new TransactionBuilder(source, { fee: '100', networkPassphrase: NETWORK_PASSPHRASE }).setTimeout(0);
  for (const op of operations) builder.addOperation(op);
  const tx = builder.build();
  tx.sign(signer);
  return tx;
}

beforeAll(async () => {
  network = await startTestNetwork();
  server = new Horizon.Server(network.url, { allowHttp: true });
  const rootState = network.core.account(network.root.publicKey());
  if (!rootState) throw new Error('no root account');
  const root = new Account(network.root.publicKey(), rootState.seqNum.toString());
  const create = build(root, network.root, [
    Operation.createAccount({ destination: alice.publicKey(), startingBalance: '1000' }),
    Operation.createAccount({ destination: bob.publicKey(), startingBalance: '1000' }),
  ]);
  createHash = Buffer.from(create.hash()).toString('hex');
  createLedger = await network.submit(create);
  // one payment per ledger, so that pages of Alice's transactions span ledgers
  for (let i = 1; i <= PAYMENTS; i++) {
    const source = await server.loadAccount(alice.publicKey());
    const tx = build(new Account(alice.publicKey(), source.sequence), alice, [
      Operation.payment({ destination: bob.publicKey(), asset: Asset.native(), amount: `${i}` }),
    ]);
    paymentHashes.push(Buffer.from(tx.hash()).toString('hex'));
    await network.submit(tx);
  }
}, 120_000);

afterAll(async () => {
  await network?.stop();
});

describe('@stellar/stellar-sdk against Zenith', () => {
  it('loads an account', async () => {
    const account = await server.loadAccount(alice.publicKey());
    expect(account.accountId()).toBe(alice.publicKey());
    expect(account.sequence).toMatch(/^\d+$/);
    const native = account.balances.find((b) => b.asset_type === 'native');
    expect(native?.balance).toBe(
      `${1000 - (PAYMENTS * (PAYMENTS + 1)) / 2 - PAYMENTS * 0.00001}`.replace(
        /^(\d+)\.?(\d*)$/,
        (_m, w: string, f: string) => `${w}.${f.padEnd(7, '0')}`,
      ),
    );
    expect(account.signers).toEqual([expect.objectContaining({ key: alice.publicKey(), weight: 1 })]);
    expect(account.thresholds).toEqual({ low_threshold: 0, med_threshold: 0, high_threshold: 0 });
  });

  it('pages an account’s transactions newest first, then next and prev', async () => {
    const first = await server.transactions().forAccount(alice.publicKey()).order('desc').limit(5).call();
    expect(first.records.map((r) => r.hash)).toEqual([...paymentHashes].reverse().slice(0, 5));
    const next = await first.next();
    // the two oldest payments, then the transaction that created the account
    expect(next.records.map((r) => r.hash)).toEqual([paymentHashes[1], paymentHashes[0], createHash]);
    const prev = await next.prev();
    expect(prev.records.map((r) => r.hash)).toEqual(paymentHashes.slice(2, 7));
    expect(first.records[0]).toMatchObject({ successful: true, source_account: alice.publicKey(), ledger_attr: createLedger + PAYMENTS });
  });

  it('lists an account’s payments', async () => {
    const page = await server.payments().forAccount(alice.publicKey()).limit(200).call();
    expect(page.records.map((r) => r.type)).toEqual(['create_account', ...Array<string>(PAYMENTS).fill('payment')]);
    expect(page.records[1]).toMatchObject({ from: alice.publicKey(), to: bob.publicKey(), amount: '1.0000000', asset_type: 'native' });
    expect(page.records[0]).toMatchObject({
      account: alice.publicKey(),
      funder: network.root.publicKey(),
      starting_balance: '1000.0000000',
    });
  });

  it('lists a ledger’s operations and loads a ledger and an operation', async () => {
    const ops = await server.operations().forLedger(createLedger).call();
    expect(ops.records.map((r) => r.type)).toEqual(['create_account', 'create_account']);
    const ledger = await server.ledgers().ledger(createLedger).call();
    expect(ledger).toMatchObject({ sequence: createLedger, successful_transaction_count: 1, operation_count: 2 });
    const id = ops.records[1]?.id as string;
    const op = await server.operations().operation(id).call();
    expect(op).toMatchObject({ id, type: 'create_account', account: bob.publicKey() });
  });

  it('lists a transaction’s effects', async () => {
    const effects = await server
      .effects()
      .forTransaction(paymentHashes[0] as string)
      .call();
    expect(effects.records.map((r) => r.type)).toEqual(['account_credited', 'account_debited']);
    expect(effects.records[0]).toMatchObject({ account: bob.publicKey(), amount: '1.0000000', asset_type: 'native' });
  });

  it('answers a missing account with NotFoundError', async () => {
    await expect(server.loadAccount(Keypair.random().publicKey())).rejects.toBeInstanceOf(NotFoundError);
  });

  it('gives in one GraphQL query the same values as the REST calls, field by field', async () => {
    const response = await fetch(`${network.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: `query($id: String!) { account(id: $id) { accountId sequence payments(first: 20) { edges { node {
          pagingToken type typeI sourceAccount transactionHash createdAt transactionSuccessful
          ... on PaymentOperation { from to amount assetType }
          ... on CreateAccountOperation { funder account startingBalance }
          transaction { hash ledgerSequence sourceAccount sourceAccountSequence feeCharged maxFee operationCount envelopeXdr resultXdr createdAt successful }
        } } } } }`,
        variables: { id: alice.publicKey() },
      }),
    });
    const body = (await response.json()) as {
      data: { account: { sequence: string; payments: { edges: { node: Record<string, unknown> }[] } } };
    };
    const account = await server.loadAccount(alice.publicKey());
    expect(body.data.account.sequence).toBe(account.sequence);
    const payments = (await server.payments().forAccount(alice.publicKey()).limit(20).call()).records as unknown as Record<
      string,
      unknown
    >[];
    const nodes = body.data.account.payments.edges.map((e) => e.node);
    expect(nodes).toHaveLength(payments.length);
    for (const [i, node] of nodes.entries()) {
      const rest = payments[i] as Record<string, unknown>;
      const { transaction, ...fields } = node as { transaction: Record<string, unknown> } & Record<string, unknown>;
      for (const [name, value] of Object.entries(fields)) expect(rest[snakeCase(name)], name).toEqual(value);
      const tx = (await server.transactions().transaction(String(rest.transaction_hash)).call()) as unknown as Record<string, unknown>;
      for (const [name, value] of Object.entries(transaction)) {
        const restName = name === 'ledgerSequence' ? 'ledger_attr' : snakeCase(name);
        expect(tx[restName], name).toEqual(value);
      }
    }
  });
});
