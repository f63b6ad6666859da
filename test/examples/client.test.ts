// The example client (examples/client.ts) against a test network: the nested account view of an
// account that received and made payments here, a payment followed over graphql-sse, and the
// script itself as its README runs it. Not a *.db.test.ts: the client sees the same API on both
// databases (one run, on PGlite); the GraphQL tests cover both.
import { Asset, Keypair, Operation } from '@stellar/stellar-sdk/base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountView, describePayment, followPayments } from '../../examples/client.js';
import { startTestNetwork, type TestNetwork } from '../support/network.js';
import { spawnProcess } from '../support/processes.js';

let network: TestNetwork;
const alice = Keypair.random();
const bob = Keypair.random();
let fundedLedger = 0;
let paidLedger = 0;

const pay = (from: Keypair, to: Keypair, amount: string) =>
  network.submitOperations(from, [Operation.payment({ destination: to.publicKey(), asset: Asset.native(), amount })]);

beforeAll(async () => {
  network = await startTestNetwork();
  fundedLedger = await network.fund(alice, bob);
  paidLedger = await pay(alice, bob, '12.5');
});

afterAll(async () => {
  await network?.stop();
});

describe('examples/client.ts', () => {
  it('reads the nested account view in one request', async () => {
    const view = await accountView(network.url, alice.publicKey());
    expect(view).toMatchObject({
      accountId: alice.publicKey(),
      subentryCount: 0,
      // 1000 funded, 12.5 paid, 100 stroops of fee
      balances: [{ assetType: 'native', balance: '987.4999900', assetCode: null }],
      signers: [{ key: alice.publicKey(), type: 'ed25519_public_key', weight: 1 }],
      offers: { edges: [] },
    });
    // newest first: the payment, then the creation
    expect(view?.payments.edges.map(({ node }) => node)).toMatchObject([
      {
        __typename: 'PaymentOperation',
        from: alice.publicKey(),
        to: bob.publicKey(),
        amount: '12.5000000',
        assetType: 'native',
        transaction: { feeCharged: '100', ledger: { sequence: paidLedger } },
      },
      {
        __typename: 'CreateAccountOperation',
        funder: network.root.publicKey(),
        account: alice.publicKey(),
        startingBalance: '1000.0000000',
        transaction: { ledger: { sequence: fundedLedger } },
      },
    ]);
    expect(await accountView(network.url, Keypair.random().publicKey())).toBeNull();
  });

  it('follows payments over graphql-sse from a cursor', async () => {
    const view = await accountView(network.url, alice.publicKey());
    const newest = view!.payments.edges[0]!.node.pagingToken;
    const payments = followPayments(network.url, alice.publicKey(), newest);
    // the cursor is fixed, so the payment is replayed whether it lands before or after the stream opens
    const next = payments.next();
    const ledger = await pay(bob, alice, '3');
    const { value } = await next;
    expect(value).toMatchObject({
      __typename: 'PaymentOperation',
      from: bob.publicKey(),
      to: alice.publicKey(),
      amount: '3.0000000',
      transaction: { ledger: { sequence: ledger } },
    });
    expect(describePayment(value!)).toBe(
      `${bob.publicKey()} paid ${alice.publicKey()} 3.0000000 XLM (ledger ${ledger}, transaction ${value!.transaction.hash.slice(0, 8)}…)`,
    );
    // leaving the loop closes the stream
    await payments.return(undefined);
  });

  it('runs as a script: the view, then payments as they come', async () => {
    const script = spawnProcess(process.execPath, ['--import', 'tsx', 'examples/client.ts', network.url, alice.publicKey()]);
    try {
      await script.waitForLine(/following its payments/, { timeoutMs: 30_000 });
      expect(script.stdout()).toContain(`${alice.publicKey()} paid ${bob.publicKey()} 12.5000000 XLM (ledger ${paidLedger},`);
      // cursor "now" is read when the subscription starts, after that line: paid until one shows
      let shown = false;
      for (let attempt = 0; attempt < 5 && !shown; attempt++) {
        const amount = `${attempt + 1}.25`;
        await pay(bob, alice, amount);
        shown = await script.waitForLine(new RegExp(`paid ${alice.publicKey()} ${amount}00000 XLM`), { timeoutMs: 3_000 }).then(
          () => true,
          () => false,
        );
      }
      expect(shown, script.stdout() + script.stderr()).toBe(true);
    } finally {
      await script.stop();
    }
  }, 60_000);
});
