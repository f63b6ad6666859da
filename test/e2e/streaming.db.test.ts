// End to end: streams and subscriptions on a live network. The SDK's payments stream (eventsource)
// and a graphql-sse client in both modes receive a payment sent after they opened; REST streams
// replay from the start, a cursor, now or Last-Event-ID and refuse bad input with a problem; a
// client that leaves unsubscribes at once; an account streams as Horizon's streamable object;
// submitTransaction is a GraphQL mutation too.
import { Account, Asset, Horizon, Keypair, Operation, TransactionBuilder, type TransactionSource } from '@stellar/stellar-sdk';
import { createClient } from 'graphql-sse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LedgerEvents } from '../../src/events/ledger_events.js';
import { NETWORK_PASSPHRASE, startTestNetwork, type TestNetwork } from '../support/network.js';

let network: TestNetwork;
let server: Horizon.Server;
const alice = Keypair.random();
const bob = Keypair.random();
let listeners = 0;

function payment(source: TransactionSource, amount: string, destination = bob.publicKey()) {
  const tx = new TransactionBuilder(source, { fee: '100', networkPassphrase: NETWORK_PASSPHRASE })
    .addOperation(Operation.payment({ destination, asset: Asset.native(), amount }))
    .setTimeout(0)
    .build();
  tx.sign(alice);
  return tx;
}

async function pay(amount: string) {
  const tx = payment(await server.loadAccount(alice.publicKey()), amount);
  await network.submit(tx);
  return Buffer.from(tx.hash()).toString('hex');
}

/** counts the ledger-signal subscriptions that are open (streams and subscriptions) */
function countListeners(events: LedgerEvents): void {
  const subscribe = events.subscribe.bind(events);
  events.subscribe = (listener) => {
    listeners++;
    const unsubscribe = subscribe(listener);
    return () => {
      listeners--;
      unsubscribe();
    };
  };
}

async function eventually(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** a raw SSE client: the events as {id, event, data} blocks */
async function openStream(path: string, headers: Record<string, string> = {}) {
  const controller = new AbortController();
  const response = await fetch(`${network.url}${path}`, {
    headers: { accept: 'text/event-stream', ...headers },
    signal: controller.signal,
  });
  const reader = response.body!.getReader();
  let buffer = '';
  return {
    response,
    close: () => controller.abort(),
    async take(count: number): Promise<Array<Record<string, string>>> {
      for (;;) {
        const blocks = buffer.split('\n\n').filter((block) => !block.startsWith(':'));
        if (blocks.length > count) {
          buffer = buffer
            .split('\n\n')
            .filter((block) => !block.startsWith(':'))
            .slice(count)
            .join('\n\n');
          return blocks
            .slice(0, count)
            .map((block) =>
              Object.fromEntries(block.split('\n').map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)])),
            );
        }
        const { value, done } = await reader.read();
        if (done) throw new Error('the stream ended');
        buffer += new TextDecoder().decode(value);
      }
    },
  };
}

beforeAll(async () => {
  network = await startTestNetwork();
  countListeners(network.events);
  server = new Horizon.Server(network.url, { allowHttp: true });
  await network.fund(alice, bob);
}, 60_000);

afterAll(async () => {
  await network?.stop();
});

describe('REST streams', () => {
  it('js-stellar-sdk: payments().forAccount(a).cursor("now").stream() receives a payment sent after it opened', async () => {
    await pay('1'); // before the stream: not sent
    const received: Array<{ transaction_hash: string; amount: string }> = [];
    const errors: unknown[] = [];
    const close = server
      .payments()
      .forAccount(bob.publicKey())
      .cursor('now')
      .stream({ onmessage: (record) => void received.push(record as never), onerror: (error) => void errors.push(error) });
    try {
      await eventually(() => listeners > 0, 'the stream to open');
      const hash = await pay('2');
      await eventually(() => received.length > 0, 'the payment');
      expect(received.map((r) => r.transaction_hash)).toEqual([hash]);
      expect(received[0]!.amount).toBe('2.0000000');
    } finally {
      close();
    }
    await eventually(() => listeners === 0, 'the stream to unsubscribe');
  });

  it('js-stellar-sdk: accounts().accountId(b).stream() sends the account, then again when a ledger changed it', async () => {
    const received: Array<{ balances: { asset_type: string; balance: string }[] }> = [];
    const close = server
      .accounts()
      .accountId(bob.publicKey())
      .stream({ onmessage: (record) => void received.push(record as never) });
    const native = (index: number) => received[index]!.balances.find((b) => b.asset_type === 'native')!.balance;
    try {
      await eventually(() => received.length === 1, 'the account at open');
      const before = Number(native(0));
      await pay('3');
      await eventually(() => received.length === 2, 'the changed account');
      expect(Number(native(1))).toBe(before + 3);
    } finally {
      close();
    }
  });

  it('replays from the earliest record, a cursor or Last-Event-ID, then sends new ledgers', async () => {
    const all = await openStream('/ledgers');
    expect(all.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const [open, first, second] = await all.take(3);
    expect(open).toEqual({ retry: '1000', event: 'open', data: '"hello"' });
    expect(JSON.parse(first!.data!).sequence).toBe(1);
    expect(first!.id).toBe(JSON.parse(first!.data!).paging_token);
    expect(JSON.parse(second!.data!).sequence).toBe(2);
    all.close();

    const fromCursor = await openStream(`/ledgers?cursor=${second!.id}`);
    expect(JSON.parse((await fromCursor.take(2))[1]!.data!).sequence).toBe(3);
    fromCursor.close();

    const resumed = await openStream(`/ledgers?cursor=${first!.id}`, { 'last-event-id': second!.id! });
    expect(JSON.parse((await resumed.take(2))[1]!.data!).sequence).toBe(3);
    resumed.close();

    const live = await openStream('/transactions?cursor=now');
    await live.take(1);
    const hash = await pay('3');
    const [event] = await live.take(1);
    expect(JSON.parse(event!.data!)).toMatchObject({
      hash,
      successful: true,
      _links: { self: { href: `${network.url}/transactions/${hash}` } },
    });
    // the record as the page renders it
    const page = (await (await fetch(`${network.url}/transactions?order=desc&limit=1`)).json()) as { _embedded: { records: unknown[] } };
    expect(JSON.parse(event!.data!)).toEqual(page._embedded.records[0]);
    live.close();
    await eventually(() => listeners === 0, 'every stream to unsubscribe');
  });

  it('answers bad stream requests with problems before the stream opens', async () => {
    const bad = await fetch(`${network.url}/ledgers?cursor=banana`, { headers: { accept: 'text/event-stream' } });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toMatch(/problem\+json/);
    const missing = await fetch(`${network.url}/accounts/${Keypair.random().publicKey()}/operations`, {
      headers: { accept: 'text/event-stream' },
    });
    expect(missing.status).toBe(404);
    const badLimit = await fetch(`${network.url}/operations?order=sideways`, { headers: { accept: 'text/event-stream' } });
    expect(badLimit.status).toBe(400);
    expect(listeners).toBe(0);
  });
});

describe('GraphQL', () => {
  for (const singleConnection of [false, true]) {
    it(`graphql-sse (${singleConnection ? 'single connection' : 'distinct connections'}) receives a payment sent after it subscribed`, async () => {
      const client = createClient({ url: `${network.url}/graphql/stream`, singleConnection, retryAttempts: 0 });
      const received: Array<{ transactionHash: string; amount: string }> = [];
      let failure: unknown = null;
      const unsubscribe = client.subscribe<{ payments: { transactionHash: string; amount: string } }>(
        {
          query: `subscription($a: String!) { payments(forAccount: $a, cursor: "now") { transactionHash ... on PaymentOperation { amount } } }`,
          variables: { a: bob.publicKey() },
        },
        {
          next: (result) => {
            if (result.data) received.push(result.data.payments);
            if (result.errors) failure = result.errors;
          },
          error: (error) => void (failure = error),
          complete: () => {},
        },
      );
      try {
        await eventually(() => listeners > 0 || failure !== null, 'the subscription to start');
        expect(failure).toBeNull();
        const hash = await pay('4');
        await eventually(() => received.length > 0 || failure !== null, 'the payment');
        expect(failure).toBeNull();
        expect(received).toEqual([{ transactionHash: hash, amount: '4.0000000' }]);
      } finally {
        unsubscribe();
        client.dispose();
      }
      await eventually(() => listeners === 0, 'the subscription to end');
    });
  }

  it('replays ledgers from a cursor and refuses a bad one with a coded error', async () => {
    const client = createClient({ url: `${network.url}/graphql/stream`, retryAttempts: 0 });
    const sequences: number[] = [];
    const unsubscribe = client.subscribe<{ ledgers: { sequence: number } }>(
      { query: `subscription { ledgers(cursor: "${2n << 32n}") { sequence } }` },
      { next: (result) => void (result.data && sequences.push(result.data.ledgers.sequence)), error: () => {}, complete: () => {} },
    );
    await eventually(() => sequences.length >= 2, 'the replay');
    expect(sequences.slice(0, 2)).toEqual([3, 4]);
    unsubscribe();

    const errors = await new Promise<unknown>((resolve) => {
      client.subscribe(
        { query: 'subscription { ledgers(cursor: "banana") { sequence } }' },
        {
          next: (result) => resolve(result.errors),
          error: resolve,
          complete: () => {},
        },
      );
    });
    expect(errors).toMatchObject([{ extensions: { code: 'bad_request' } }]);
    client.dispose();
  });

  it('submitTransaction: the ingested transaction, or a coded error with the result codes', async () => {
    const graphql = (query: string, variables: Record<string, unknown>) =>
      fetch(`${network.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query, variables }),
      }).then(
        (r) =>
          r.json() as Promise<{
            data?: { submitTransaction: { hash: string; successful: boolean; ledger: { sequence: number } } };
            errors?: unknown[];
          }>,
      );
    const mutation = 'mutation($tx: String!) { submitTransaction(tx: $tx) { hash successful ledger { sequence } } }';
    const loaded = await server.loadAccount(alice.publicKey());
    const used = loaded.sequence; // building increments the account's sequence
    const tx = payment(loaded, '5');
    const answer = graphql(mutation, { tx: tx.toEnvelope().toXdr('base64') });
    await network.forwarded();
    const sequence = await network.closeLedger();
    expect((await answer).data?.submitTransaction).toEqual({
      hash: Buffer.from(tx.hash()).toString('hex'),
      successful: true,
      ledger: { sequence },
    });

    const stale = payment(new Account(alice.publicKey(), used), '6'); // the sequence just used
    const failed = await graphql(mutation, { tx: stale.toEnvelope().toXdr('base64') });
    expect(failed.errors).toMatchObject([
      { extensions: { code: 'transaction_failed', extras: { result_codes: { transaction: 'tx_bad_seq' } } } },
    ]);
    const malformed = await graphql(mutation, { tx: 'AAAA' });
    expect(malformed.errors).toMatchObject([{ extensions: { code: 'transaction_malformed' } }]);
  });
});
