// Errors as Horizon renders them: application/problem+json with type, title, status, detail and
// extras (RFC 7807). The same `type` travels in GraphQL errors as extensions.code.
import type { ServerResponse } from 'node:http';

export interface Problem {
  /** Horizon's short code, e.g. not_found; rendered as a URL */
  type: string;
  title: string;
  status: number;
  detail: string;
  extras?: Record<string, unknown>;
}

const TYPE_BASE = 'https://stellar.org/horizon-errors/';

/** Thrown anywhere below a request handler; rendered as the problem it carries. */
export class ProblemError extends Error {
  constructor(readonly problem: Problem) {
    super(`${problem.type}: ${problem.detail}`);
    this.name = 'ProblemError';
  }
}

export const problems = {
  notFound: (
    detail = 'The resource at the url requested was not found.  This usually occurs for one of two reasons:  The url requested is not valid, or no data in our database could be found with the parameters provided.',
  ): Problem => ({
    type: 'not_found',
    title: 'Resource Missing',
    status: 404,
    detail,
  }),
  badRequest: (field: string, reason: string): Problem => ({
    type: 'bad_request',
    title: 'Bad Request',
    status: 400,
    detail: 'The request you sent was invalid in some way.',
    extras: { invalid_field: field, reason },
  }),
  methodNotAllowed: (allowed: readonly string[]): Problem => ({
    type: 'method_not_allowed',
    title: 'Method Not Allowed',
    status: 405,
    detail: `This resource answers ${allowed.join(', ')} only.`,
  }),
  notAcceptable: (): Problem => ({
    type: 'not_acceptable',
    title: 'An acceptable response content-type could not be provided for this request',
    status: 406,
    detail: 'This resource is available as application/hal+json (application/json) and, where it streams, text/event-stream.',
  }),
  serverError: (): Problem => ({
    type: 'server_error',
    title: 'Internal Server Error',
    status: 500,
    detail:
      'An error occurred while processing this request.  This is usually due to a bug within the server software.  Trying this request again may succeed if the bug is transient. Otherwise, please contact the system administrator.',
  }),
  serviceUnavailable: (detail = 'The request cannot be serviced at this time.'): Problem => ({
    type: 'service_unavailable',
    title: 'Service Unavailable',
    status: 503,
    detail,
  }),
};

export function problemBody(problem: Problem): Record<string, unknown> {
  const { type, title, status, detail, extras } = problem;
  return { type: TYPE_BASE + type, title, status, detail, ...(extras ? { extras } : {}) };
}

export function sendProblem(res: ServerResponse, problem: Problem): void {
  const body = JSON.stringify(problemBody(problem), null, 2);
  res.writeHead(problem.status, {
    'Content-Type': 'application/problem+json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}
