// The submission queue with a fake core and a fake history: ordering by sequence, one transaction
// in flight per account, answers from ingested ledgers, and every way a submission can end.
import { Account, Keypair, Networks, Operation, TransactionBuilder, Asset } from '@stellar/stellar-sdk/base';
import { describe, expect, it } from 'vitest';
import type { Transaction as TransactionRow } from '../../src/generated/prisma/client.js';
import type { CoreClient, CoreSubmitStatus } from '../../src/txsub/core_client.js';
import type { SubmissionStore } from '../../src/txsub/store.js';
import { SubmissionSystem, type SubmissionOutcome } from '../../src/txsub/submission_system.js';

const passphrase = Networks.STANDALONE;
const source = Keypair.random();
const destination = Keypair.random().publicKey();

function envelope(sequence: bigint, signer = source): { xdr: string; hash: string } {
  const tx = new TransactionBuilder(new Account(signer.publicKey(), String(sequence - 1n)), {
    fee: '100',
    networkPassphrase: passphrase,
  })
    .addOperation(Operation.payment({ destination, asset: Asset.native(), amount: '1' }))
    .setTimeout(0)
    .build();
  tx.sign(signer);
  return { xdr: tx.toEnvelope().toXdr('base64'), hash: Buffer.from(tx.hash()).toString('hex') };
}

/** A history of ingested transactions and account sequences, and a core that "applies" in order. */
class FakeNetwork implements CoreClient, SubmissionStore {
  readonly forwarded: string[] = [];
  readonly ingested = new Map<string, TransactionRow>();
  readonly accountSequence = new Map<string, bigint>([[source.publicKey(), 100n]]);
  answer: (xdr: string) => CoreSubmitStatus = () => ({ status: 'PENDING' });

  async submit(xdr: string) {
    this.forwarded.push(xdr);
    return this.answer(xdr);
  }
  async findTransactions(hashes: readonly string[]) {
    return hashes.flatMap((h) => (this.ingested.has(h) ? [this.ingested.get(h)!] : []));
  }
  async sequences(accounts: readonly string[]) {
    return new Map(accounts.flatMap((a) => (this.accountSequence.has(a) ? [[a, this.accountSequence.get(a)!] as const] : [])));
  }
  /** closes a ledger with these transactions (as the ingester would record them) */
  ingest(...txs: Array<{ hash: string; sequence: bigint }>) {
    for (const tx of txs) {
      this.ingested.set(tx.hash, { hash: tx.hash, successful: true } as TransactionRow);
      this.accountSequence.set(source.publicKey(), tx.sequence);
    }
  }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

function system(network: FakeNetwork, options: Partial<ConstructorParameters<typeof SubmissionSystem>[0]> = {}) {
  return new SubmissionSystem({ networkPassphrase: passphrase, core: network, store: network, ...options });
}

describe('SubmissionSystem', () => {
  it('forwards the next sequence at once and answers when its ledger is ingested', async () => {
    const network = new FakeNetwork();
    const txsub = system(network);
    const tx = envelope(101n);
    const answer = txsub.submit(tx.xdr);
    await tick();
    expect(network.forwarded).toEqual([tx.xdr]);
    expect(txsub.open).toBe(1);
    network.ingest({ hash: tx.hash, sequence: 101n });
    await txsub.onLedger();
    expect(await answer).toMatchObject({ kind: 'ingested', hash: tx.hash });
    expect(txsub.open).toBe(0);
  });

  it('holds a later sequence until the earlier one is ingested, whatever the arrival order', async () => {
    const network = new FakeNetwork();
    const txsub = system(network);
    const second = envelope(102n);
    const first = envelope(101n);
    const secondAnswer = txsub.submit(second.xdr);
    await tick();
    expect(network.forwarded).toEqual([]);
    expect(txsub.buffered).toBe(1);
    const firstAnswer = txsub.submit(first.xdr);
    await tick();
    expect(network.forwarded).toEqual([first.xdr]);
    expect(txsub.buffered).toBe(1);

    network.ingest({ hash: first.hash, sequence: 101n });
    await txsub.onLedger();
    await tick();
    expect(network.forwarded).toEqual([first.xdr, second.xdr]);
    network.ingest({ hash: second.hash, sequence: 102n });
    await txsub.onLedger();
    expect((await firstAnswer).kind).toBe('ingested');
    expect((await secondAnswer).kind).toBe('ingested');
  });

  it('answers an ingested transaction at once, without the core', async () => {
    const network = new FakeNetwork();
    const tx = envelope(101n);
    network.ingest({ hash: tx.hash, sequence: 101n });
    expect(await system(network).submit(tx.xdr)).toMatchObject({ kind: 'ingested', hash: tx.hash });
    expect(network.forwarded).toEqual([]);
  });

  it('passes on the core’s refusal with its result', async () => {
    const network = new FakeNetwork();
    network.answer = () => ({ status: 'ERROR', error: 'AAAAAAAAAGT////7AAAAAA==' });
    const stale = envelope(100n);
    expect(await system(network).submit(stale.xdr)).toEqual({
      kind: 'rejected',
      hash: stale.hash,
      envelopeXdr: stale.xdr,
      resultXdr: 'AAAAAAAAAGT////7AAAAAA==',
    });
  });

  it('lets the core judge a sequence whose turn does not come', async () => {
    const network = new FakeNetwork();
    network.answer = () => ({ status: 'ERROR', error: 'bad-seq' });
    const far = envelope(150n);
    const outcome = await system(network, { sequenceWaitMs: 30 }).submit(far.xdr);
    expect(outcome).toMatchObject({ kind: 'rejected', resultXdr: 'bad-seq' });
  });

  it('times out when no ledger brings the result', async () => {
    const network = new FakeNetwork();
    const txsub = system(network, { timeoutMs: 40 });
    const tx = envelope(101n);
    expect(await txsub.submit(tx.xdr)).toEqual({ kind: 'timeout', hash: tx.hash });
    expect(txsub.open).toBe(0);
  });

  it('refuses what does not decode, and more than the queue holds', async () => {
    const network = new FakeNetwork();
    const outcomes: SubmissionOutcome[] = [];
    const txsub = system(network, { maxPending: 1, onOutcome: (o) => outcomes.push(o) });
    expect((await txsub.submit('not xdr')).kind).toBe('malformed');
    expect((await txsub.submit('')).kind).toBe('malformed');
    void txsub.submit(envelope(101n).xdr);
    await tick();
    expect(await txsub.submit(envelope(102n).xdr)).toMatchObject({ kind: 'busy' });
    expect(outcomes.map((o) => o.kind)).toEqual(['malformed', 'malformed', 'busy']);
    txsub.close();
  });

  it('answers a transaction submitted twice once, forwarding it once', async () => {
    const network = new FakeNetwork();
    const txsub = system(network);
    const tx = envelope(101n);
    const answers = [txsub.submit(tx.xdr), txsub.submit(tx.xdr)];
    await tick();
    network.ingest({ hash: tx.hash, sequence: 101n });
    await txsub.onLedger();
    expect((await Promise.all(answers)).map((a) => a.kind)).toEqual(['ingested', 'ingested']);
    expect(network.forwarded).toHaveLength(1);
  });

  it('answers busy when the core asks to try again later', async () => {
    const network = new FakeNetwork();
    network.answer = () => ({ status: 'TRY_AGAIN_LATER' });
    expect(await system(network).submit(envelope(101n).xdr)).toMatchObject({ kind: 'busy' });
  });
});
