// POST /transactions: takes `tx` from a form (what js-stellar-sdk sends) or a JSON body, submits it
// (../submission.ts) and answers as Horizon does: the transaction resource once ingested, or the
// submission's problem. POST /transactions_async reads the body alike and answers the core's status
// at once (201 PENDING, 409 DUPLICATE, 400 ERROR with error_result_xdr, 503 TRY_AGAIN_LATER).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SubmissionSystem } from '../../txsub/index.js';
import type { ApiServices } from '../context.js';
import { ProblemError, problems, sendProblem } from '../problems.js';
import { readBody } from '../request_body.js';
import { ASYNC_SUBMISSION_STATUS, submissionSystem, submitTransaction, submitTransactionAsync } from '../submission.js';
import { requestOrigin } from '../client_address.js';
import { sendJson } from './hal.js';
import type { RenderTransaction } from './resources.js';

/** `txsub` null: a server without a core, which answers 503 before reading the body */
export function createSubmitTransactionHandler(txsub: SubmissionSystem | null, renderTransaction: RenderTransaction) {
  return async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> => {
    if (req.method !== 'POST' || url.pathname.replace(/\/$/, '') !== '/transactions') return false;
    try {
      const submitter = submissionSystem(txsub);
      const { hash } = await submitTransaction(submitter, await readTx(req, res));
      const resource = await renderTransaction(hash, requestOrigin(req));
      if (!resource) throw new Error(`transaction ${hash} was ingested but cannot be rendered`);
      sendJson(res, 200, resource);
    } catch (error) {
      if (error instanceof ProblemError) sendProblem(res, error.problem);
      else throw error;
    }
    return true;
  };
}

/** POST /transactions_async; without a core, the 503 of POST /transactions */
export function createSubmitTransactionAsyncHandler(services: Pick<ApiServices, 'txsub' | 'coreInfo'>) {
  return async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> => {
    if (url.pathname.replace(/\/$/, '') !== '/transactions_async') return false;
    try {
      if (req.method !== 'POST') throw new ProblemError(problems.methodNotAllowed(['POST']));
      const submitter = submissionSystem(services.txsub);
      const answer = await submitTransactionAsync(submitter, services.coreInfo, await readTx(req, res));
      sendJson(res, ASYNC_SUBMISSION_STATUS[answer.tx_status], answer);
    } catch (error) {
      if (error instanceof ProblemError) sendProblem(res, error.problem);
      else throw error;
    }
    return true;
  };
}

async function readTx(req: IncomingMessage, res: ServerResponse): Promise<string> {
  const type = (req.headers['content-type'] ?? 'application/x-www-form-urlencoded').split(';')[0]!.trim().toLowerCase();
  const body = await readBody(req, res);
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
    throw new ProblemError(
      problems.unsupportedMediaType(
        'The request has an unsupported content type. Send application/x-www-form-urlencoded (tx=...) or application/json ({"tx": ...}).',
      ),
    );
  }
  if (typeof tx !== 'string' || tx === '') {
    throw new ProblemError(problems.badRequest('tx', 'tx is required: a base64 TransactionEnvelope'));
  }
  return tx;
}
