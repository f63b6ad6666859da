// Transaction submission: per source account, a queue ordered by sequence number. A transaction is
// forwarded to the core when its sequence is next for the account (or it has waited long enough
// that the core should judge it); one transaction per account is in flight at a time, as a
// protocol-19+ stellar-core accepts. The answer comes from the history database once the
// transaction's ledger is ingested: every ingested ledger is a tick (onLedger).
import { FeeBumpTransaction, TransactionBuilder } from '@stellar/stellar-sdk/base';
import type { Transaction as TransactionRow } from '../generated/prisma/client.js';
import type { Logger } from '../logger.js';
import { baseAccountId } from '../stellar/account_id.js';
import { CoreAnswerError, CoreUnavailableError, type CoreClient, type CoreSubmitStatus } from './core_client.js';
import type { SubmissionStore } from './store.js';

export type SubmissionOutcome =
  /** the transaction is in the history (successful or failed) */
  | { kind: 'ingested'; hash: string; transaction: TransactionRow }
  /** the core refused it before any ledger: base64 TransactionResult */
  | { kind: 'rejected'; hash: string; envelopeXdr: string; resultXdr: string }
  | { kind: 'malformed'; reason: string }
  | { kind: 'timeout'; hash: string }
  /** the queue is full, or the core asked to try again later */
  | { kind: 'busy'; reason: string };

/**
 * A transaction handed to the core without waiting for its ledger (Horizon's /transactions_async):
 * the core's status, or why there is none.
 */
export type AsyncSubmissionOutcome =
  | { kind: 'status'; hash: string; status: CoreSubmitStatus }
  | { kind: 'malformed'; reason: string }
  /** the core does not follow the network: it would judge against a stale state */
  | { kind: 'stale' }
  /** the core did not answer, answered an exception, or a status it should not send */
  | { kind: 'core_failed' | 'core_exception' | 'core_invalid_status'; error: string }
  | { kind: 'busy'; reason: string };

/** A transaction in the history that succeeded: what a submitter counts as a success. */
export type AcceptedSubmission = Extract<SubmissionOutcome, { kind: 'ingested' }>;

export function isAccepted(outcome: SubmissionOutcome): outcome is AcceptedSubmission {
  return outcome.kind === 'ingested' && outcome.transaction.successful;
}

export interface SubmissionOptions {
  networkPassphrase: string;
  core: CoreClient;
  store: SubmissionStore;
  /** how long a submitter waits for its result (default 30 s) */
  timeoutMs?: number;
  /** how many submissions may wait at once (default 1024) */
  maxPending?: number;
  /** how long a transaction whose sequence is not next waits before the core judges it (default 10 s) */
  sequenceWaitMs?: number;
  /** told of every final answer: metrics */
  onOutcome?: (outcome: SubmissionOutcome) => void;
  /** where a failure of the history database is logged: the submitter is told only that it failed */
  logger?: Pick<Logger, 'error'>;
}

interface Pending {
  hash: string;
  account: string;
  sequence: bigint;
  envelopeXdr: string;
  forwardAfter: number;
  answer: Array<(outcome: SubmissionOutcome) => void>;
  timer: NodeJS.Timeout;
}

interface AccountQueue {
  waiting: Pending[];
  inFlight: Pending | null;
  /** pumps of one account run one after the other */
  pumping: Promise<void>;
}

export class SubmissionSystem {
  private readonly timeoutMs: number;
  private readonly maxPending: number;
  private readonly sequenceWaitMs: number;
  private readonly byHash = new Map<string, Pending>();
  private readonly queues = new Map<string, AccountQueue>();
  private closed = false;

  constructor(private readonly options: SubmissionOptions) {
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.maxPending = options.maxPending ?? 1024;
    this.sequenceWaitMs = options.sequenceWaitMs ?? 10_000;
  }

  /** submissions waiting for their turn, not yet forwarded to the core */
  get buffered(): number {
    let count = 0;
    for (const queue of this.queues.values()) count += queue.waiting.length;
    return count;
  }

  /** submissions forwarded to the core whose result is not known yet */
  get open(): number {
    let count = 0;
    for (const queue of this.queues.values()) if (queue.inFlight) count++;
    return count;
  }

  async submit(envelopeXdr: string): Promise<SubmissionOutcome> {
    if (this.closed) return { kind: 'busy', reason: 'the service is shutting down' };
    let decoded: { hash: string; account: string; sequence: bigint };
    try {
      decoded = decode(envelopeXdr, this.options.networkPassphrase);
    } catch (error) {
      return this.finish(null, { kind: 'malformed', reason: (error as Error).message });
    }
    const { hash } = decoded;
    const joined = this.byHash.get(hash);
    if (joined) return new Promise((resolve) => joined.answer.push(resolve));
    if (this.byHash.size >= this.maxPending) {
      return this.finish(null, { kind: 'busy', reason: `${this.maxPending} submissions are already waiting` });
    }

    return new Promise((resolve) => {
      const pending: Pending = {
        ...decoded,
        envelopeXdr,
        forwardAfter: Date.now() + this.sequenceWaitMs,
        answer: [resolve],
        timer: setTimeout(() => this.finish(pending, { kind: 'timeout', hash }), this.timeoutMs),
      };
      // registered before any await, so that the same transaction submitted again joins this one
      this.byHash.set(hash, pending);
      void this.admit(pending).catch((error: unknown) => {
        // the database's message is the server's to read, not the client's
        this.options.logger?.error({ err: error, hash }, 'submission could not read the history database');
        this.finish(pending, { kind: 'busy', reason: 'the history database cannot be read' });
      });
    });
  }

  /**
   * Forwards the transaction to the core at once and answers the core's status, as Horizon's
   * asynchronous submission does: no queue (the core judges the sequence) and no wait for a ledger.
   * `coreSynced` is asked once the envelope is decoded, as Horizon checks the core's state.
   */
  async submitAsync(envelopeXdr: string, coreSynced: () => Promise<boolean>): Promise<AsyncSubmissionOutcome> {
    if (this.closed) return { kind: 'busy', reason: 'the service is shutting down' };
    let hash: string;
    try {
      hash = decode(envelopeXdr, this.options.networkPassphrase).hash;
    } catch (error) {
      return { kind: 'malformed', reason: (error as Error).message };
    }
    if (!(await coreSynced())) return { kind: 'stale' };
    try {
      return { kind: 'status', hash, status: await this.options.core.submit(envelopeXdr) };
    } catch (error) {
      if (error instanceof CoreAnswerError) {
        return { kind: error.kind === 'exception' ? 'core_exception' : 'core_invalid_status', error: error.detail };
      }
      if (error instanceof CoreUnavailableError) return { kind: 'core_failed', error: error.message };
      throw error;
    }
  }

  private async admit(pending: Pending): Promise<void> {
    const [known] = await this.options.store.findTransactions([pending.hash]);
    if (known) {
      this.finish(pending, { kind: 'ingested', hash: pending.hash, transaction: known });
      return;
    }
    if (this.byHash.get(pending.hash) !== pending) return; // answered meanwhile
    const queue = this.queueOf(pending.account);
    queue.waiting.push(pending);
    queue.waiting.sort((a, b) => (a.sequence < b.sequence ? -1 : a.sequence > b.sequence ? 1 : 0));
    // a transaction whose turn never comes is forwarded anyway, for the core to judge
    setTimeout(() => this.pump(pending.account), this.sequenceWaitMs + 1).unref();
    this.pump(pending.account);
  }

  /** A ledger was ingested: answer what it settled and forward what is now next. */
  async onLedger(): Promise<void> {
    const inFlight = [...this.queues.values()].flatMap((queue) => (queue.inFlight ? [queue.inFlight] : []));
    if (inFlight.length > 0) {
      const rows = await this.options.store.findTransactions(inFlight.map((p) => p.hash));
      const found = new Map<string, TransactionRow>();
      for (const row of rows) {
        found.set(row.hash, row);
        if (row.innerTransactionHash) found.set(row.innerTransactionHash, row);
      }
      for (const pending of inFlight) {
        const transaction = found.get(pending.hash);
        if (transaction) this.finish(pending, { kind: 'ingested', hash: pending.hash, transaction });
      }
    }
    for (const account of this.queues.keys()) this.pump(account);
  }

  /** Answers everything still waiting: the service is going away. */
  close(): void {
    this.closed = true;
    for (const pending of [...this.byHash.values()]) {
      this.finish(pending, { kind: 'busy', reason: 'the service is shutting down' });
    }
  }

  private queueOf(account: string): AccountQueue {
    let queue = this.queues.get(account);
    if (!queue) {
      queue = { waiting: [], inFlight: null, pumping: Promise.resolve() };
      this.queues.set(account, queue);
    }
    return queue;
  }

  private pump(account: string): void {
    const queue = this.queues.get(account);
    if (!queue) return;
    queue.pumping = queue.pumping.then(() => this.forwardNext(account, queue)).catch(() => {});
  }

  private async forwardNext(account: string, queue: AccountQueue): Promise<void> {
    const head = queue.waiting[0];
    if (queue.inFlight || !head) return;
    const current = (await this.options.store.sequences([account])).get(account);
    const isNext = current === undefined || head.sequence <= current + 1n;
    if (!isNext && Date.now() < head.forwardAfter) return;
    if (queue.waiting[0] !== head || queue.inFlight) return; // answered meanwhile (timeout)
    queue.waiting.shift();
    queue.inFlight = head;
    try {
      const status = await this.options.core.submit(head.envelopeXdr);
      if (status.status === 'ERROR') {
        this.finish(head, { kind: 'rejected', hash: head.hash, envelopeXdr: head.envelopeXdr, resultXdr: status.error });
      } else if (status.status === 'TRY_AGAIN_LATER') {
        this.finish(head, { kind: 'busy', reason: 'the core is busy: try again later' });
      }
      // PENDING and DUPLICATE stay in flight until a ledger brings their result
    } catch (error) {
      if (!(error instanceof CoreUnavailableError)) throw error;
      this.finish(head, { kind: 'busy', reason: error.message });
    }
  }

  private finish(pending: Pending | null, outcome: SubmissionOutcome): SubmissionOutcome {
    if (pending) {
      if (this.byHash.get(pending.hash) !== pending) return outcome; // already answered
      clearTimeout(pending.timer);
      this.byHash.delete(pending.hash);
      const queue = this.queues.get(pending.account);
      if (queue) {
        if (queue.inFlight === pending) queue.inFlight = null;
        queue.waiting = queue.waiting.filter((p) => p !== pending);
        if (!queue.inFlight && queue.waiting.length === 0) this.queues.delete(pending.account);
        else this.pump(pending.account);
      }
      for (const answer of pending.answer) answer(outcome);
    }
    this.options.onOutcome?.(outcome);
    return outcome;
  }
}

/** The hash, and the account and sequence whose turn it takes (a fee bump's inner ones). */
function decode(envelopeXdr: string, networkPassphrase: string): { hash: string; account: string; sequence: bigint } {
  if (typeof envelopeXdr !== 'string' || envelopeXdr.trim() === '') throw new Error('tx is missing');
  let tx: ReturnType<typeof TransactionBuilder.fromXdr>;
  try {
    tx = TransactionBuilder.fromXdr(envelopeXdr, networkPassphrase);
  } catch (error) {
    throw new Error(`tx is not a base64 TransactionEnvelope: ${(error as Error).message}`);
  }
  const inner = tx instanceof FeeBumpTransaction ? tx.innerTransaction : tx;
  return { hash: Buffer.from(tx.hash()).toString('hex'), account: baseAccountId(inner.source), sequence: BigInt(inner.sequence) };
}
