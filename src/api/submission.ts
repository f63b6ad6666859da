// A transaction submitted as the API's clients submit it (POST /transactions, the submitTransaction
// mutation): through txsub, answered once its ledger is ingested. Every other outcome is the problem
// Horizon answers: transaction_failed with the result codes, transaction_malformed, timeout, or
// service_unavailable (the queue is full, or no core takes transactions here).
import { xdr } from '@stellar/stellar-sdk/base';
import { transactionResultCodes } from '../stellar/result_codes.js';
import {
  isAccepted,
  type AcceptedSubmission,
  type AsyncSubmissionOutcome,
  type SubmissionOutcome,
  type SubmissionSystem,
} from '../txsub/index.js';
import type { CoreInfo } from './context.js';
import { ProblemError, problems, type Problem } from './problems.js';

/** the submission system, or the 503 of a server that is not connected to a core */
export function submissionSystem(txsub: SubmissionSystem | null): SubmissionSystem {
  if (!txsub) throw new ProblemError(problems.serviceUnavailable('This server is not connected to a core: it does not take transactions.'));
  return txsub;
}

/** Submits and waits for the transaction in the history; a failure is thrown as its problem. */
export async function submitTransaction(txsub: SubmissionSystem, envelopeXdr: string): Promise<AcceptedSubmission> {
  const outcome = await txsub.submit(envelopeXdr);
  if (!isAccepted(outcome)) throw new ProblemError(submissionProblem(outcome, envelopeXdr));
  return outcome;
}

/** Horizon's AsyncTransactionSubmissionResponse: error_result_xdr only with ERROR */
export interface AsyncSubmissionAnswer {
  error_result_xdr?: string;
  tx_status: 'PENDING' | 'DUPLICATE' | 'TRY_AGAIN_LATER' | 'ERROR';
  hash: string;
}

/** The HTTP status of each core status (stellar-go's coreStatusToHTTPStatus). */
export const ASYNC_SUBMISSION_STATUS = { PENDING: 201, DUPLICATE: 409, TRY_AGAIN_LATER: 503, ERROR: 400 } as const;

/**
 * Hands the transaction to the core and answers its status without waiting for a ledger (Horizon's
 * AsyncSubmitTransactionHandler): a core that is not synced is Horizon's stale_history, a core that
 * fails to answer one of Horizon's transaction_submission_* problems.
 */
export async function submitTransactionAsync(
  txsub: SubmissionSystem,
  coreInfo: () => Promise<CoreInfo | null>,
  envelopeXdr: string,
): Promise<AsyncSubmissionAnswer> {
  const outcome = await txsub.submitAsync(envelopeXdr, async () => (await coreInfo())?.synced === true);
  if (outcome.kind !== 'status') throw new ProblemError(asyncSubmissionProblem(outcome, envelopeXdr));
  const { status } = outcome;
  return status.status === 'ERROR'
    ? { error_result_xdr: status.error, tx_status: status.status, hash: outcome.hash }
    : { tx_status: status.status, hash: outcome.hash };
}

function asyncSubmissionProblem(outcome: Exclude<AsyncSubmissionOutcome, { kind: 'status' }>, envelopeXdr: string): Problem {
  switch (outcome.kind) {
    case 'malformed':
      return submissionProblem(outcome, envelopeXdr);
    case 'busy':
      return problems.serviceUnavailable(`The transaction was not submitted: ${outcome.reason}.`);
    case 'stale':
      return {
        type: 'stale_history',
        title: 'Historical DB Is Too Stale',
        status: 503,
        detail:
          "This horizon instance is configured to reject client requests when it can determine that the history database is lagging too far behind the connected instance of Stellar-Core or read replica. It's also possible that Stellar-Core is out of sync. Please try again later.",
      };
    default: {
      // Horizon's three problems of a core that did not give a status: their type, title, first sentence
      const [type, title, said] = CORE_FAILURES[outcome.kind];
      return {
        type,
        title,
        status: 500,
        detail: `${said}The \`extras.error\` field on this response contains further details.  Descriptions of each code can be found at: https://developers.stellar.org/api/errors/http-status-codes/horizon-specific/transaction-submission-async/${type}`,
        extras: { envelope_xdr: envelopeXdr, error: outcome.error },
      };
    }
  }
}

const CORE_FAILURES = {
  core_failed: ['transaction_submission_failed', 'Transaction Submission Failed', 'Could not submit transaction to stellar-core. '],
  // Horizon's own texts: no space after the full stop in these two
  core_exception: ['transaction_submission_exception', 'Transaction Submission Exception', 'Received exception from stellar-core.'],
  core_invalid_status: [
    'transaction_submission_invalid_status',
    'Transaction Submission Invalid Status',
    'Received invalid status from stellar-core.',
  ],
} as const;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export function submissionProblem(
  outcome: SubmissionOutcome | Extract<AsyncSubmissionOutcome, { kind: 'malformed' }>,
  envelopeXdr: string,
): Problem {
  switch (outcome.kind) {
    case 'ingested':
      return transactionFailed(outcome.hash, envelopeXdr, outcome.transaction.resultXdr);
    case 'rejected':
      return transactionFailed(outcome.hash, envelopeXdr, outcome.resultXdr);
    case 'malformed':
      return {
        type: 'transaction_malformed',
        title: 'Transaction Malformed',
        status: 400,
        detail:
          'Horizon could not decode the transaction envelope in this request. A transaction should be an XDR TransactionEnvelope struct encoded using base64.  The envelope read from this request is echoed in the `extras.envelope_xdr` field of this response for your convenience.',
        // Horizon echoes the envelope; only one that could be base64 is, never arbitrary text
        extras: { envelope_xdr: BASE64.test(envelopeXdr) ? envelopeXdr : '', error: outcome.reason },
      };
    case 'timeout':
      return {
        type: 'timeout',
        title: 'Timeout',
        status: 504,
        detail:
          'Your transaction submission request has timed out. This does not necessarily mean the submission has failed. Before resubmitting, use the transaction hash in `extras.hash` to poll GET /transactions/{hash} for a while and check whether it was included in a ledger.',
        extras: { hash: outcome.hash, envelope_xdr: envelopeXdr },
      };
    case 'busy':
      return problems.serviceUnavailable(`The transaction was not submitted: ${outcome.reason}.`);
  }
}

function transactionFailed(hash: string, envelopeXdr: string, resultXdr: string): Problem {
  let resultCodes: unknown;
  try {
    resultCodes = transactionResultCodes(xdr.TransactionResult.fromXdr(resultXdr, 'base64'), hash);
  } catch {
    resultCodes = undefined;
  }
  return {
    type: 'transaction_failed',
    title: 'Transaction Failed',
    status: 400,
    detail:
      'The transaction failed when submitted to the stellar network. The `extras.result_codes` field on this response contains further details.  Descriptions of each code can be found at: https://developers.stellar.org/api/errors/http-status-codes/horizon-specific/transaction-failed/',
    extras: { hash, envelope_xdr: envelopeXdr, result_xdr: resultXdr, ...(resultCodes ? { result_codes: resultCodes } : {}) },
  };
}
