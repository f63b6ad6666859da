// The funding facility of a private network: creates accounts with 10000 XLM from the root account.
// It is a client of the submission system like any other (Stellar's friendbot is a client of
// Horizon): it holds the root key and counts the root account's sequence number itself, read from
// the history once and again after a tx_bad_seq. txsub forwards one transaction per account at a
// time, so requests that arrive while a funding transaction is in flight are batched into the
// next one, one create_account per new address.
import { type Keypair, Operation, Transaction, xdr } from '@stellar/stellar-sdk/base';
import { rootKeypair } from '../stellar/index.js';
import type { LedgerEvents } from '../events/ledger_events.js';
import type { Transaction as TransactionRow } from '../generated/prisma/client.js';
import { isAccountId } from '../stellar/account_id.js';
import { STROOPS_PER_UNIT, formatAmount } from '../stellar/amount.js';
import { transactionResultCodes } from '../stellar/result_codes.js';
import type { SubmissionStore } from '../txsub/store.js';
import type { SubmissionOutcome, SubmissionSystem } from '../txsub/submission_system.js';

export const FRIENDBOT_STARTING_BALANCE = 10_000n * STROOPS_PER_UNIT;

/** operations in one funding transaction (a transaction holds at most 100) */
const MAX_BATCH = 100;

/** tx_bad_seq answers a request lives through (the sequence is read again after each) */
const MAX_BAD_SEQUENCES = 3;

export type FundOutcome =
  /** the funding transaction, as ingested; it may have funded other accounts too */
  | { kind: 'funded'; transaction: TransactionRow }
  | { kind: 'invalid'; reason: string }
  | { kind: 'already_funded' }
  /** txsub's answer when it is not a success; envelopeXdr is empty when nothing was submitted */
  | { kind: 'failed'; submission: SubmissionOutcome; envelopeXdr: string };

export interface FriendbotOptions {
  networkPassphrase: string;
  txsub: Pick<SubmissionSystem, 'submit'>;
  /** the history database: which accounts exist, and the root account's sequence number */
  store: SubmissionStore;
  /** "a ledger was ingested": the history may now know what it did not */
  events: Pick<LedgerEvents, 'subscribe'>;
  /** stroops per operation (default 100) */
  baseFee?: number;
  /** stroops (default 10000 XLM) */
  startingBalance?: bigint;
  /** how long a request waits for the root account to reach the history (default 30 s) */
  timeoutMs?: number;
}

interface Request {
  account: string;
  answer: Promise<FundOutcome>;
  resolve(outcome: FundOutcome): void;
  reject(error: unknown): void;
  badSequences: number;
}

export class Friendbot {
  /** the starting balance as an amount string ("10000.0000000") */
  readonly startingBalance: string;
  private readonly root: Keypair;
  private readonly baseFee: number;
  private readonly timeoutMs: number;
  /** every request not answered yet, by account: waiting or in the transaction in flight */
  private readonly requests = new Map<string, Request>();
  private waiting: Request[] = [];
  private draining = false;
  /** the root account's sequence number as the friendbot counts it; null: read it from the history */
  private rootSequence: bigint | null = null;
  /** after a tx_bad_seq, the history is read again only once a new ledger is in */
  private readAfterLedger = false;
  private ledgers = 0;
  private readonly wakers = new Set<() => void>();
  private readonly unsubscribe: () => void;
  private closed = false;

  constructor(private readonly options: FriendbotOptions) {
    this.root = rootKeypair(options.networkPassphrase);
    this.baseFee = options.baseFee ?? 100;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.startingBalance = formatAmount(options.startingBalance ?? FRIENDBOT_STARTING_BALANCE);
    this.unsubscribe = options.events.subscribe(() => {
      this.ledgers++;
      for (const wake of [...this.wakers]) wake();
    });
  }

  /** requests waiting for the next funding transaction */
  get queued(): number {
    return this.waiting.length;
  }

  /** requests not answered yet: queued, or in the transaction in flight */
  get pending(): number {
    return this.requests.size;
  }

  /** Funds `account`; resolves once its funding transaction is in the history. */
  async fund(account: string): Promise<FundOutcome> {
    if (!isAccountId(account)) return { kind: 'invalid', reason: 'addr must be a valid account id (G...)' };
    if ((await this.options.store.sequences([account])).has(account)) return { kind: 'already_funded' };
    if (this.closed) return unavailable('the service is shutting down');
    const queued = this.requests.get(account);
    // a second request for an account on its way is answered with the first: by then it exists
    if (queued) return queued.answer.then((outcome) => (outcome.kind === 'funded' ? { kind: 'already_funded' } : outcome));
    let settle!: Pick<Request, 'resolve' | 'reject'>;
    const answer = new Promise<FundOutcome>((resolve, reject) => {
      settle = { resolve, reject };
    });
    const request: Request = { account, answer, ...settle, badSequences: 0 };
    this.requests.set(account, request);
    this.waiting.push(request);
    this.drain();
    return answer;
  }

  /** Answers every waiting request: the service is going away (txsub answers the one in flight). */
  close(): void {
    this.closed = true;
    this.unsubscribe();
    for (const wake of [...this.wakers]) wake();
    for (const request of this.waiting.splice(0)) this.answer(request, unavailable('the service is shutting down'));
  }

  /** Submits batches one after the other while requests wait. */
  private drain(): void {
    if (this.draining) return;
    this.draining = true;
    void (async () => {
      while (this.waiting.length > 0 && !this.closed) {
        const batch = this.waiting.splice(0, MAX_BATCH);
        try {
          await this.submit(batch);
        } catch (error) {
          for (const request of batch) this.fail(request, error);
        }
      }
      this.draining = false;
    })();
  }

  private async submit(batch: Request[]): Promise<void> {
    const sequence = await this.nextSequence();
    if (sequence === null) {
      for (const request of batch) this.answer(request, unavailable('the root account is not in the history yet'));
      return;
    }
    const envelopeXdr = this.envelope(sequence, batch);
    const submission = await this.options.txsub.submit(envelopeXdr);
    if (submission.kind === 'ingested') {
      // the sequence number is used whether the transaction succeeded or failed
      this.rootSequence = sequence;
      const { transaction } = submission;
      if (transaction.successful) {
        for (const request of batch) this.answer(request, { kind: 'funded', transaction });
        return;
      }
      // accounts created since their request was checked fail the batch: they are answered, the rest go again
      const codes = transactionResultCodes(xdr.TransactionResult.fromXdr(transaction.resultXdr, 'base64')).operations ?? [];
      const existing = batch.filter((_, i) => codes[i] === 'op_already_exists');
      if (existing.length > 0) {
        for (const request of existing) this.answer(request, { kind: 'already_funded' });
        this.retry(batch.filter((request) => !existing.includes(request)));
        return;
      }
    } else {
      // not used, or not known to be (a timeout): read it again
      this.rootSequence = null;
      if (submission.kind === 'rejected' && resultCode(submission.resultXdr) === 'tx_bad_seq') {
        this.readAfterLedger = true;
        const again = batch.filter((request) => ++request.badSequences < MAX_BAD_SEQUENCES);
        for (const request of batch) if (!again.includes(request)) this.answer(request, { kind: 'failed', submission, envelopeXdr });
        this.retry(again);
        return;
      }
    }
    for (const request of batch) this.answer(request, { kind: 'failed', submission, envelopeXdr });
  }

  /** The sequence number of the next funding transaction; null when the history has no root account in time. */
  private async nextSequence(): Promise<bigint | null> {
    if (this.rootSequence !== null) return this.rootSequence + 1n;
    const deadline = Date.now() + this.timeoutMs;
    if (this.readAfterLedger) {
      await this.ledgerAfter(this.ledgers, deadline);
      this.readAfterLedger = false;
    }
    const root = this.root.publicKey();
    for (;;) {
      const seen = this.ledgers;
      const current = (await this.options.store.sequences([root])).get(root);
      if (current !== undefined) {
        this.rootSequence = current;
        return current + 1n;
      }
      // a history that starts empty has the root account once the genesis ledger is ingested
      if (!(await this.ledgerAfter(seen, deadline))) return null;
    }
  }

  /** Resolves true once more than `seen` ledgers were heard of, false at the deadline or on close. */
  private ledgerAfter(seen: number, deadline: number): Promise<boolean> {
    if (this.ledgers > seen) return Promise.resolve(true);
    if (this.closed) return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.wakers.delete(done);
        resolve(this.ledgers > seen);
      };
      const timer = setTimeout(done, Math.max(0, deadline - Date.now()));
      this.wakers.add(done);
    });
  }

  /** A transaction from the root account creating the batch's accounts, signed. */
  private envelope(sequence: bigint, batch: Request[]): string {
    const tx = new xdr.Transaction({
      sourceAccount: xdr.MuxedAccount.keyTypeEd25519(this.root.rawPublicKey()),
      fee: this.baseFee * batch.length,
      seqNum: sequence,
      cond: xdr.Preconditions.precondNone(),
      memo: xdr.Memo.memoNone(),
      operations: batch.map(({ account }) => Operation.createAccount({ destination: account, startingBalance: this.startingBalance })),
      ext: xdr.TransactionExt.v0(),
    });
    const envelope = xdr.TransactionEnvelope.envelopeTypeTx(new xdr.TransactionV1Envelope({ tx, signatures: [] }));
    const transaction = new Transaction(envelope, this.options.networkPassphrase);
    transaction.sign(this.root);
    return transaction.toXdr();
  }

  /** Puts requests back at the head of the queue, for the next transaction. */
  private retry(requests: Request[]): void {
    if (this.closed) for (const request of requests) this.answer(request, unavailable('the service is shutting down'));
    else this.waiting.unshift(...requests);
  }

  private answer(request: Request, outcome: FundOutcome): void {
    if (this.requests.get(request.account) !== request) return;
    this.requests.delete(request.account);
    request.resolve(outcome);
  }

  private fail(request: Request, error: unknown): void {
    if (this.requests.get(request.account) !== request) return;
    this.requests.delete(request.account);
    request.reject(error);
  }
}

function unavailable(reason: string): FundOutcome {
  return { kind: 'failed', submission: { kind: 'busy', reason }, envelopeXdr: '' };
}

function resultCode(resultXdr: string): string {
  return transactionResultCodes(xdr.TransactionResult.fromXdr(resultXdr, 'base64')).transaction;
}
