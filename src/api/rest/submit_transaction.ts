// POST /transactions: takes `tx` from a form (what js-stellar-sdk sends) or a JSON body, hands it
// to the submission system and answers as Horizon does: the transaction resource once ingested,
// or a problem (transaction_failed with result codes, transaction_malformed, timeout, busy).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { xdr } from '@stellar/stellar-base';
import { transactionResultCodes } from '../../stellar/result_codes.js';
import { readBody } from '../request_body.js';
import type { SubmissionOutcome, SubmissionSystem } from '../../txsub/submission_system.js';
import { requestOrigin } from './hal.js';
import { ProblemError, problems, sendProblem, type Problem } from './problem.js';

/** the transaction as GET /transactions/{hash} renders it, or null when it is not in the history */
export type RenderTransaction = (hash: string, origin: string) => Promise<Record<string, unknown> | null>;

const MAX_BODY_BYTES = 256 * 1024;

export function createSubmitTransactionHandler(txsub: SubmissionSystem, renderTransaction: RenderTransaction) {
  return async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> => {
    if (req.method !== 'POST' || url.pathname.replace(/\/$/, '') !== '/transactions') return false;
    try {
      const tx = await readTx(req);
      const outcome = await txsub.submit(tx);
      if (outcome.kind === 'ingested' && outcome.transaction.successful) {
        const resource = await renderTransaction(outcome.hash, requestOrigin(req));
        if (!resource) throw new Error(`transaction ${outcome.hash} was ingested but cannot be rendered`);
        const body = JSON.stringify(resource, null, 2);
        res.writeHead(200, { 'Content-Type': 'application/hal+json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
        res.end(body);
      } else {
        sendProblem(res, submissionProblem(outcome, tx));
      }
    } catch (error) {
      if (error instanceof ProblemError) sendProblem(res, error.problem);
      else throw error;
    }
    return true;
  };
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
    resultCodes = transactionResultCodes(xdr.TransactionResult.fromXDR(resultXdr, 'base64'), hash);
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

async function readTx(req: IncomingMessage): Promise<string> {
  const type = (req.headers['content-type'] ?? 'application/x-www-form-urlencoded').split(';')[0]!.trim().toLowerCase();
  const body = await readBody(req, { maxBytes: MAX_BODY_BYTES, field: 'tx' });
  let tx: unknown;
  if (type === 'application/x-www-form-urlencoded') {
    tx = new URLSearchParams(body).get('tx');
  } else if (type === 'application/json') {
    try {
      tx = (JSON.parse(body) as { tx?: unknown } | null)?.tx;
    } catch {
      throw new ProblemError(problems.badRequest('tx', 'the body is not JSON'));
    }
  } else {
    throw new ProblemError({
      type: 'unsupported_media_type',
      title: 'Unsupported Media Type',
      status: 415,
      detail:
        'The request has an unsupported content type. Send application/x-www-form-urlencoded (tx=...) or application/json ({"tx": ...}).',
    });
  }
  if (typeof tx !== 'string' || tx === '') {
    throw new ProblemError(problems.badRequest('tx', 'tx is required: a base64 TransactionEnvelope'));
  }
  return tx;
}
