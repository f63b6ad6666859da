// GET or POST /friendbot?addr=G... (POST also takes addr from a form or JSON body; /friendbot/ is
// the spec's {funding_url}/?addr= form): the friendbot of src/friendbot/ funds the account. The
// answer is the funding transaction as GET /transactions/{hash} renders it, plus the friendbot's
// own fields; errors are the API's problems, those of a submission as POST /transactions gives them.
import type { IncomingMessage } from 'node:http';
import type { Friendbot, FundOutcome } from '../../friendbot/index.js';
import { ProblemError, problems, sendProblem, type Problem } from '../problems.js';
import { readBody } from '../request_body.js';
import { submissionProblem } from '../submission.js';
import { requestOrigin, sendJson } from './hal.js';
import type { RenderTransaction } from './resources.js';
import type { RequestHandler } from './router.js';

const PATHS = new Set(['/friendbot', '/friendbot/']);
const MAX_BODY_BYTES = 64 * 1024;

/** What the route needs of a friendbot. */
export type Funder = Pick<Friendbot, 'fund' | 'startingBalance'>;

export function createFriendbotHandler(friendbot: Funder, renderTransaction: RenderTransaction): RequestHandler {
  return async (req, res, url) => {
    if (!PATHS.has(url.pathname)) return false;
    if (req.method !== 'GET' && req.method !== 'POST') {
      sendProblem(res, problems.methodNotAllowed(['GET', 'POST']));
      return true;
    }
    const account = url.searchParams.get('addr') ?? (req.method === 'POST' ? await addrFromBody(req) : null);
    if (!account) throw new ProblemError(problems.badRequest('addr', 'addr is required'));
    const outcome = await friendbot.fund(account);
    if (outcome.kind !== 'funded') {
      sendProblem(res, fundingProblem(outcome, account));
      return true;
    }
    const { hash, resultXdr } = outcome.transaction;
    const resource = await renderTransaction(hash, requestOrigin(req));
    if (!resource) throw new Error(`transaction ${hash} was ingested but cannot be rendered`);
    sendJson(res, 200, {
      hash,
      result: 'received',
      submission_result: resultXdr,
      ...resource,
      created_account: account,
      starting_balance: friendbot.startingBalance,
    });
    return true;
  };
}

function fundingProblem(outcome: Exclude<FundOutcome, { kind: 'funded' }>, account: string): Problem {
  switch (outcome.kind) {
    case 'invalid':
      return problems.badRequest('addr', outcome.reason);
    case 'already_funded':
      return {
        ...problems.badRequest('addr', 'account already funded to starting balance'),
        detail: `account ${account} is already funded`,
      };
    case 'failed':
      return submissionProblem(outcome.submission, outcome.envelopeXdr);
  }
}

/** addr from a JSON body, or else from a form body */
async function addrFromBody(req: IncomingMessage): Promise<string | null> {
  const body = await readBody(req, { maxBytes: MAX_BODY_BYTES, field: 'addr' });
  if (!(req.headers['content-type'] ?? '').includes('application/json')) return new URLSearchParams(body).get('addr');
  try {
    const parsed = JSON.parse(body) as { addr?: unknown } | null;
    return typeof parsed?.addr === 'string' ? parsed.addr : null;
  } catch {
    return null;
  }
}
