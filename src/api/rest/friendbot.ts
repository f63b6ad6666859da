// GET or POST /friendbot?addr=G... (POST also takes addr from a form or JSON body; /friendbot/ is
// the spec's {funding_url}/?addr= form): the friendbot of src/friendbot/ funds the account. The
// answer is the funding transaction as GET /transactions/{hash} renders it, plus the friendbot's
// own fields; errors are the API's problems, those of a submission as POST /transactions gives them.
// Funding is limited per client IP and per address (friendbotLimiters), on top of the server's limit.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Friendbot, FundOutcome } from '../../friendbot/index.js';
import { ProblemError, problems, sendProblem, type Problem } from '../problems.js';
import { readBody } from '../request_body.js';
import { submissionProblem } from '../submission.js';
import { isAccountId } from '../../stellar/index.js';
import { clientIp, requestOrigin } from '../client_address.js';
import { RateLimiter } from '../rate_limit.js';
import { sendJson } from './hal.js';
import type { RenderTransaction } from './resources.js';
import type { RequestHandler } from './router.js';

const PATHS = new Set(['/friendbot', '/friendbot/']);

/** What the route needs of a friendbot. */
export type Funder = Pick<Friendbot, 'fund' | 'startingBalance'>;

/** an address is funded at most once in 10 minutes */
const ADDRESS_FUNDINGS_PER_HOUR = 6;

export interface FriendbotLimiters {
  perIp: RateLimiter;
  perAddress: RateLimiter;
}

/**
 * `perHour` fundings an hour for one IP, all of them at once at most; an address once in 10
 * minutes (a funded account is refused anyway: this stops the top-ups of one drained again and
 * again). null (perHour 0): no limit.
 */
export function friendbotLimiters(perHour: number): FriendbotLimiters | null {
  if (perHour === 0) return null;
  return {
    perIp: new RateLimiter({ perHour, maxBurst: perHour - 1 }),
    perAddress: new RateLimiter({ perHour: ADDRESS_FUNDINGS_PER_HOUR, maxBurst: 0 }),
  };
}

export function createFriendbotHandler(
  friendbot: Funder,
  renderTransaction: RenderTransaction,
  limiters: FriendbotLimiters | null = null,
): RequestHandler {
  return async (req, res, url) => {
    if (!PATHS.has(url.pathname)) return false;
    if (req.method !== 'GET' && req.method !== 'POST') {
      sendProblem(res, problems.methodNotAllowed(['GET', 'POST']));
      return true;
    }
    const account = url.searchParams.get('addr') ?? (req.method === 'POST' ? await addrFromBody(req, res) : null);
    if (!account) throw new ProblemError(problems.badRequest('addr', 'addr is required'));
    if (limiters) refuseOverLimit(limiters, clientIp(req), account, res);
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

/** a funding over a limit: 429 with Retry-After (the X-RateLimit-* headers stay the server's) */
function refuseOverLimit(limiters: FriendbotLimiters, ip: string, account: string, res: ServerResponse): void {
  const byIp = limiters.perIp.take(ip);
  // an invalid address is refused as such below, and takes no key of the per-address limit
  const byAddress = !byIp.limited && isAccountId(account) ? limiters.perAddress.take(account) : null;
  const refused = byIp.limited ? byIp : byAddress?.limited ? byAddress : null;
  if (!refused) return;
  res.setHeader('Retry-After', String(Math.ceil((refused.retryAfterMs ?? 0) / 1000)));
  throw new ProblemError(
    problems.rateLimitExceeded(
      refused === byIp
        ? `The friendbot funds at most ${refused.limit} accounts an hour for one IP address. Retry after the seconds in the Retry-After header.`
        : 'The friendbot funds one address at most once in 10 minutes. Retry after the seconds in the Retry-After header.',
    ),
  );
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
async function addrFromBody(req: IncomingMessage, res: ServerResponse): Promise<string | null> {
  const body = await readBody(req, res);
  if (!(req.headers['content-type'] ?? '').includes('application/json')) return new URLSearchParams(body).get('addr');
  try {
    const parsed = JSON.parse(body) as { addr?: unknown } | null;
    return typeof parsed?.addr === 'string' ? parsed.addr : null;
  } catch {
    return null;
  }
}
