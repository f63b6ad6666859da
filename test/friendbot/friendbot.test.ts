// The friendbot against a scripted submission system and history: what it submits, when it reads
// the root account's sequence number, and how it answers what txsub answers.
import { Keypair, type Transaction, TransactionBuilder, xdr } from '@stellar/stellar-sdk/base';
import { describe, expect, it } from 'vitest';
import { rootKeypair } from '../../src/stellar/index.js';
import { inProcessLedgerEvents, type LedgerEvents } from '../../src/events/ledger_events.js';
import { Friendbot, type FundOutcome } from '../../src/friendbot/index.js';
import type { Transaction as TransactionRow } from '../../src/generated/prisma/client.js';
import type { SubmissionOutcome } from '../../src/txsub/index.js';

const PASSPHRASE = 'Friendbot Unit Test Network';
const root = rootKeypair(PASSPHRASE).publicKey();

function txResult(code: 'txSuccess' | 'txBadSeq'): string {
  const result = code === 'txSuccess' ? xdr.TransactionResultResult.txSuccess([]) : xdr.TransactionResultResult.txBadSeq();
  return new xdr.TransactionResult({ feeCharged: 0n, result, ext: xdr.TransactionResultExt.v0() }).toXdr('base64');
}

/** a friendbot whose history holds `accounts` and whose txsub answers with `submit` */
function setup(
  accounts: Map<string, bigint>,
  submit: (envelopeXdr: string) => Promise<SubmissionOutcome>,
  events: LedgerEvents = inProcessLedgerEvents(),
) {
  const submitted: string[] = [];
  const friendbot = new Friendbot({
    networkPassphrase: PASSPHRASE,
    events,
    timeoutMs: 2000,
    store: {
      findTransactions: async () => [],
      sequences: async (ids) => new Map(ids.flatMap((id) => (accounts.has(id) ? [[id, accounts.get(id)!] as const] : []))),
    },
    txsub: {
      submit: (envelopeXdr) => {
        submitted.push((TransactionBuilder.fromXdr(envelopeXdr, PASSPHRASE) as Transaction).sequence);
        return submit(envelopeXdr);
      },
    },
  });
  return { friendbot, events, submitted };
}

const ingested = async (envelopeXdr: string): Promise<SubmissionOutcome> => ({
  kind: 'ingested',
  hash: 'h',
  transaction: { hash: 'h', successful: true, resultXdr: txResult('txSuccess'), envelopeXdr } as TransactionRow,
});

const shuttingDown: FundOutcome = { kind: 'failed', submission: { kind: 'busy', reason: 'the service is shutting down' }, envelopeXdr: '' };

describe('Friendbot', () => {
  it('waits for the root account to reach the history, then counts its sequence number itself', async () => {
    const accounts = new Map<string, bigint>();
    const { friendbot, events, submitted } = setup(accounts, ingested);
    const first = friendbot.fund(Keypair.random().publicKey());
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(submitted).toEqual([]);
    accounts.set(root, 7n);
    await events.publish(1);
    expect((await first).kind).toBe('funded');
    await friendbot.fund(Keypair.random().publicKey());
    expect(submitted).toEqual(['8', '9']);
    friendbot.close();
  });

  it('answers busy when the root account does not reach the history in time', async () => {
    const { friendbot } = setup(new Map(), ingested);
    const outcome = await friendbot.fund(Keypair.random().publicKey());
    expect(outcome).toEqual({
      kind: 'failed',
      submission: { kind: 'busy', reason: 'the root account is not in the history yet' },
      envelopeXdr: '',
    });
    friendbot.close();
  });

  it('reads the sequence number again once a ledger is in after each tx_bad_seq, and gives up after three', async () => {
    const accounts = new Map([[root, 1n]]);
    const events = inProcessLedgerEvents();
    let attempts = 0;
    const { friendbot, submitted } = setup(
      accounts,
      async (envelopeXdr) => {
        attempts++;
        // the history moves on a little later, with a ledger
        setTimeout(() => {
          accounts.set(root, BigInt(attempts * 4 + 1));
          void events.publish(attempts);
        }, 10);
        return { kind: 'rejected', hash: 'h', envelopeXdr, resultXdr: txResult('txBadSeq') };
      },
      events,
    );
    const outcome = await friendbot.fund(Keypair.random().publicKey());
    expect(outcome).toMatchObject({ kind: 'failed', submission: { kind: 'rejected' } });
    expect(submitted).toEqual(['2', '6', '10']);
    friendbot.close();
  });

  it('answers the requests still waiting when it closes', async () => {
    let release: (outcome: SubmissionOutcome) => void = () => {};
    const { friendbot } = setup(
      new Map([[root, 1n]]),
      () =>
        new Promise((resolve) => {
          release = resolve;
        }),
    );
    const inFlight = friendbot.fund(Keypair.random().publicKey());
    const queued = friendbot.fund(Keypair.random().publicKey());
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(friendbot.queued).toBe(1);
    friendbot.close();
    expect(await queued).toEqual(shuttingDown);
    expect(await friendbot.fund(Keypair.random().publicKey())).toEqual(shuttingDown);
    // txsub answers the one in flight when it closes
    release({ kind: 'busy', reason: 'the service is shutting down' });
    expect(await inFlight).toMatchObject({ kind: 'failed', submission: { kind: 'busy' } });
  });
});
