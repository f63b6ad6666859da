// End to end: POST /transactions through @stellar/stellar-sdk — the SDK's own submitTransaction
// against the embedded core, answered once the ledger is ingested, and Horizon's problems for a
// failing, a malformed and an already-ingested transaction; the txsub metrics are fed. The SDK's
// submitAsyncTransaction (POST /transactions_async) answers the core's status before any ledger.
import { Account, Asset, Horizon, Keypair, Operation, TransactionBuilder, type TransactionSource } from '@stellar/stellar-sdk';
import { xdr } from '@stellar/stellar-sdk/base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactionResultCodes } from '../../src/stellar/result_codes.js';
import { NETWORK_PASSPHRASE, startTestNetwork, type TestNetwork } from '../support/network.js';

let network: TestNetwork;
let server: Horizon.Server;
const alice = Keypair.random();

function payment(source: TransactionSource, amount: string) {
  const tx = new TransactionBuilder(source, { fee: '100', networkPassphrase: NETWORK_PASSPHRASE })
    .addOperation(Operation.payment({ destination: network.root.publicKey(), asset: Asset.native(), amount }))
    .setTimeout(0)
    .build();
  tx.sign(alice);
  return tx;
}

/** submits through the API while the test closes the ledger the transaction goes into */
async function submitAndClose<T>(request: () => Promise<T>): Promise<T> {
  const answer = request();
  await network.forwarded();
  await network.closeLedger();
  return answer;
}

beforeAll(async () => {
  network = await startTestNetwork();
  server = new Horizon.Server(network.url, { allowHttp: true });
  await network.fund(alice);
}, 60_000);

afterAll(async () => {
  await network?.stop();
});

describe('POST /transactions', () => {
  it('submits through the SDK and answers the ingested transaction, which the SDK parses', async () => {
    const tx = payment(await server.loadAccount(alice.publicKey()), '5');
    const result = await submitAndClose(() => server.submitTransaction(tx));
    expect(result.successful).toBe(true);
    expect(result.hash).toBe(Buffer.from(tx.hash()).toString('hex'));
    expect(result.ledger).toBeGreaterThan(1);
    expect(result.envelope_xdr).toBe(tx.toEnvelope().toXdr('base64'));
    expect(typeof result.result_xdr).toBe('string');
    expect(typeof result.result_meta_xdr).toBe('string');
    expect((result as unknown as { _links: { self: { href: string } } })._links.self.href).toBe(
      `${network.url}/transactions/${result.hash}`,
    );
    // exactly what GET /transactions/{hash} renders
    const fetched = await (await fetch(`${network.url}/transactions/${result.hash}`)).json();
    expect(result).toEqual(fetched);
    // the SDK's parsed view of the result
    expect(result.paging_token).toBe((fetched as { paging_token: string }).paging_token);
  });

  it('answers an already-ingested transaction with its result at once', async () => {
    const tx = payment(await server.loadAccount(alice.publicKey()), '1');
    await submitAndClose(() => server.submitTransaction(tx));
    const again = await server.submitTransaction(tx);
    expect(again.hash).toBe(Buffer.from(tx.hash()).toString('hex'));
  });

  it('fails a transaction with a bad sequence number with tx_bad_seq in result_codes', async () => {
    const loaded = await server.loadAccount(alice.publicKey());
    // a sequence already used: the core refuses it before any ledger
    const stale = payment(new Account(alice.publicKey(), (BigInt(loaded.sequence) - 1n).toString()), '2');
    const error = await server.submitTransaction(stale).then(
      () => null,
      (e: unknown) => e as { response?: { status: number; data: { type: string; extras: Record<string, unknown> } } },
    );
    expect(error?.response?.status).toBe(400);
    const data = error!.response!.data;
    expect(data.type).toContain('transaction_failed');
    expect((data.extras.result_codes as { transaction: string }).transaction).toBe('tx_bad_seq');
    expect(data.extras.envelope_xdr).toBe(stale.toEnvelope().toXdr('base64'));
    expect(typeof data.extras.result_xdr).toBe('string');
  });

  it('answers a failed ingested transaction with its operation codes', async () => {
    const loaded = await server.loadAccount(alice.publicKey());
    const tooMuch = payment(loaded, '100000'); // more than alice holds: op_underfunded in a ledger
    const response = await submitAndClose(() =>
      fetch(`${network.url}/transactions`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ tx: tooMuch.toEnvelope().toXdr('base64') }),
      }),
    );
    expect(response.status).toBe(400);
    const body = (await response.json()) as { type: string; extras: { result_codes: { transaction: string; operations: string[] } } };
    expect(body.extras.result_codes).toEqual({ transaction: 'tx_failed', operations: ['op_underfunded'] });
  });

  it('answers a malformed envelope with transaction_malformed and a missing tx with a 400', async () => {
    const malformed = await fetch(`${network.url}/transactions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'tx=AAAAnotanenvelope',
    });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { type: string }).type).toContain('transaction_malformed');
    const missing = await fetch(`${network.url}/transactions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(missing.status).toBe(400);
  });

  it('feeds the txsub metrics', async () => {
    const snapshot = (await network.metrics.snapshot()) as Record<string, Record<string, number>>;
    expect(snapshot['txsub.total']?.count).toBeGreaterThanOrEqual(5);
    expect(snapshot['txsub.succeeded']?.count).toBeGreaterThanOrEqual(2);
    expect(snapshot['txsub.failed']?.count).toBeGreaterThanOrEqual(3);
    expect(snapshot['txsub.buffered']).toEqual({ value: 0 });
    expect(snapshot['txsub.open']).toEqual({ value: 0 });
  });
});

describe('POST /transactions_async', () => {
  it('answers PENDING through the SDK before any ledger, then DUPLICATE, and the transaction lands', async () => {
    const tx = payment(await server.loadAccount(alice.publicKey()), '3');
    const hash = Buffer.from(tx.hash()).toString('hex');
    expect(await server.submitAsyncTransaction(tx)).toEqual({ tx_status: 'PENDING', hash });
    // the core holds it: the same envelope again is a 409, which the SDK rejects with the body
    const again = await server.submitAsyncTransaction(tx).then(
      () => null,
      (e: unknown) => e as { response?: { status: number; data: unknown } },
    );
    expect(again?.response?.status).toBe(409);
    expect(again?.response?.data).toEqual({ tx_status: 'DUPLICATE', hash });
    await network.closeLedger();
    expect((await server.transactions().transaction(hash).call()).successful).toBe(true);
  });

  it("answers ERROR (400) with the core's result for a bad sequence number", async () => {
    const loaded = await server.loadAccount(alice.publicKey());
    const stale = payment(new Account(alice.publicKey(), (BigInt(loaded.sequence) - 1n).toString()), '2');
    const error = await server.submitAsyncTransaction(stale).then(
      () => null,
      (e: unknown) => e as { response?: { status: number; data: { tx_status: string; hash: string; error_result_xdr: string } } },
    );
    expect(error?.response?.status).toBe(400);
    const data = error!.response!.data;
    expect(data.tx_status).toBe('ERROR');
    expect(data.hash).toBe(Buffer.from(stale.hash()).toString('hex'));
    expect(transactionResultCodes(xdr.TransactionResult.fromXdr(data.error_result_xdr, 'base64')).transaction).toBe('tx_bad_seq');
  });
});
