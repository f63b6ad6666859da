// A transaction submitted as the API's clients submit it (POST /transactions, the submitTransaction
// mutation): through txsub, answered once its ledger is ingested. Every other outcome is the problem
// Horizon answers: transaction_failed with the result codes, transaction_malformed, timeout, or
// service_unavailable (the queue is full, or no core takes transactions here).
import { xdr } from '@stellar/stellar-sdk/base';
import { transactionResultCodes } from '../stellar/result_codes.js';
import { isAccepted, type AcceptedSubmission, type SubmissionOutcome, type SubmissionSystem } from '../txsub/index.js';
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

export function submissionProblem(outcome: SubmissionOutcome, envelopeXdr: string): Problem {
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
        extras: { envelope_xdr: envelopeXdr, reason: outcome.reason },
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
