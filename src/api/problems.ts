// Errors as clients see them, for both front ends: REST answers Horizon's application/problem+json
// (type, title, status, detail, extras; RFC 7807), GraphQL carries the same `type` in
// `extensions.code` with the extras. Resolvers and route handlers throw ProblemError; anything
// else is a server_error without internals.
import { maxHeaderSize, STATUS_CODES, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { GraphQLError, type ASTNode } from 'graphql';
import type { Logger } from '../logger.js';
import { InvalidValueError } from '../stellar/invalid_value_error.js';

export interface Problem {
  /** Horizon's short code, e.g. not_found; rendered as a URL */
  type: string;
  title: string;
  status: number;
  detail: string;
  extras?: Record<string, unknown>;
}

const TYPE_BASE = 'https://stellar.org/horizon-errors/';

/** Thrown anywhere below a request handler or a resolver; rendered as the problem it carries. */
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
  /**
   * Horizon's answer to /accounts without exactly one filter (its type, title and detail); the
   * extras name the filters given (all four when none was).
   */
  invalidAccountsParams: (fields: readonly string[]): Problem => ({
    type: 'invalid_accounts_params',
    title: 'Invalid Accounts Parameters',
    status: 400,
    detail: 'Exactly one filter is required. Please ensure that you are including a signer, sponsor, asset, or liquidity pool filter.',
    extras: { invalid_field: fields.join(','), reason: 'exactly one of these filters is required' },
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
  unsupportedMediaType: (detail: string): Problem => ({
    type: 'unsupported_media_type',
    title: 'Unsupported Media Type',
    status: 415,
    detail,
  }),
  /** Horizon's answer over a limit of the client's IP (its detail); `detail` names another limit */
  rateLimitExceeded: (
    detail = "The rate limit for the requesting IP address is over its alloted limit.  The allowed limit and requests left per time period are communicated to clients via the http response headers 'X-RateLimit-*' headers.",
  ): Problem => ({
    type: 'rate_limit_exceeded',
    title: 'Rate Limit Exceeded',
    status: 429,
    detail,
  }),
  payloadTooLarge: (maxBytes: number): Problem => ({
    type: 'request_entity_too_large',
    title: 'Request Entity Too Large',
    status: 413,
    detail: `The request body is larger than ${maxBytes} bytes, the most this server reads.`,
  }),
  /** Horizon's answer for what lies before the history this server keeps (--history-retention-count) */
  beforeHistory: (): Problem => ({
    type: 'before_history',
    title: 'Data Requested Is Before Recorded History',
    status: 410,
    detail:
      "This horizon instance is configured to only track a portion of the stellar network's latest history. This request is asking for results prior to the recorded history known to this horizon instance.",
  }),
  /** what Node's HTTP parser refuses: a request line and headers over its bound */
  headersTooLarge: (): Problem => ({
    type: 'request_header_fields_too_large',
    title: 'Request Header Fields Too Large',
    status: 431,
    detail: `The request line and headers are larger than ${maxHeaderSize} bytes, the most this server reads.`,
  }),
  serverError: (): Problem => ({
    type: 'server_error',
    title: 'Internal Server Error',
    status: 500,
    detail:
      'An error occurred while processing this request.  This is usually due to a bug within the server software.  Trying this request again may succeed if the bug is transient. Otherwise, please contact the system administrator.',
  }),
  /** Horizon's hProblem.Timeout: its answer when a request's work did not finish (a path search over its budget) */
  timeout: (): Problem => ({
    type: 'timeout',
    title: 'Timeout',
    status: 504,
    detail: 'Your request timed out before completing.  Please try your request again.',
  }),
  serviceUnavailable: (detail = 'The request cannot be serviced at this time.'): Problem => ({
    type: 'service_unavailable',
    title: 'Service Unavailable',
    status: 503,
    detail,
  }),
};

/**
 * Runs a parser of src/stellar or src/market: a bad value (InvalidValueError) is a bad_request
 * naming the request field the parser names, else `field`.
 */
export function parsed<T>(parse: () => T, field = 'query'): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof InvalidValueError) throw new ProblemError(problems.badRequest(error.field ?? field, error.message));
    throw error;
  }
}

// REST

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

/**
 * The answer to what Node's HTTP parser refuses before any handler sees it (the server's
 * `clientError`): a URL or headers over its bound (431), a request that is no HTTP (400), one too
 * slow to arrive (408). Node's own answer has no body; this one is a problem, as every answer.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  const answered = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
  if (!socket.writable || answered || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const problem =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? problems.headersTooLarge()
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? { type: 'timeout', title: 'Request Timeout', status: 408, detail: 'The request did not arrive in time.' }
        : problems.badRequest('request', 'the request is not valid HTTP');
  const body = JSON.stringify(problemBody(problem), null, 2);
  socket.end(
    `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status]}\r\n` +
      'Content-Type: application/problem+json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Access-Control-Allow-Origin: *\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n' +
      body,
  );
}

/** What a REST request answers for an error of a document it ran (rest/documents.ts). */
export function problemOfGraphQLError(error: GraphQLError): unknown {
  if (error.originalError instanceof ProblemError) return error.originalError;
  // a variable refused by its scalar: graphql-js's error, coded by the scalar
  if (error.extensions?.code === 'bad_request') return new ProblemError(problems.badRequest('query', error.message));
  return error.originalError ?? error;
}

// GraphQL

/** the longest value a message quotes whole */
const QUOTED_MAX = 100;

/**
 * graphql-js quotes a refused value whole in its message ("Int cannot represent non-integer value:
 * \"aaa…\""): a 100 KB argument would come back as a 100 KB answer. Quoted strings are cut.
 */
export function boundedMessage(message: string): string {
  if (message.length <= 2 * QUOTED_MAX) return message;
  return message.replace(/"((?:[^"\\]|\\.)*)"/g, (quoted, inner: string) =>
    inner.length > QUOTED_MAX ? `"${inner.slice(0, QUOTED_MAX)}…"` : quoted,
  );
}

/** A bad_request for what graphql-js reports in its own words (a scalar's input, a validation rule). */
export function badRequestError(message: string, node?: ASTNode): GraphQLError {
  return new GraphQLError(message, { ...(node ? { nodes: [node] } : {}), extensions: { code: 'bad_request' } });
}

/**
 * GraphQL errors as clients see them (yoga's maskError): a problem's type in extensions.code with
 * its extras, an error already coded as it is, anything unexpected a server_error without internals.
 * A client's error is logged at debug; only the unexpected one, the server's fault, at error.
 */
export function maskGraphQLError(error: unknown, logger: Logger): Error {
  const original = error instanceof GraphQLError ? (error.originalError ?? error) : error;
  if (original instanceof ProblemError) {
    const { type, detail, extras } = original.problem;
    const reason = typeof extras?.reason === 'string' ? `${extras.reason}` : detail;
    logger.debug({ code: type }, `graphql request refused: ${reason}`);
    return new GraphQLError(reason, {
      ...(error instanceof GraphQLError ? { nodes: error.nodes, path: error.path } : {}),
      extensions: { code: type, ...(extras ? { extras } : {}) },
    });
  }
  if (original instanceof GraphQLError && typeof original.extensions.code === 'string') {
    const message = boundedMessage(original.message);
    if (!('originalError' in original.extensions)) {
      return message === original.message
        ? original
        : new GraphQLError(message, { nodes: original.nodes, path: original.path, extensions: original.extensions });
    }
    // yoga's originalError (its JSON parser's message, which quotes the body) is no client's
    // business; yoga answered 400 for it, which `spec: false` keeps (else application/json is 200)
    const { originalError: _internal, http, ...extensions } = original.extensions;
    return new GraphQLError(message, {
      nodes: original.nodes,
      path: original.path,
      extensions: { ...extensions, http: { ...(typeof http === 'object' ? http : {}), spec: false } },
    });
  }
  // graphql-js's own refusal of the request, before any resolver (a variable its type cannot
  // take, as the built-in scalars say): the client's error, though graphql-js gives it no code
  if (original instanceof GraphQLError && original.path === undefined && original.originalError === undefined) {
    logger.debug({ code: 'bad_request' }, `graphql request refused: ${original.message}`);
    return new GraphQLError(boundedMessage(original.message), {
      nodes: original.nodes,
      extensions: { code: 'bad_request' },
    });
  }
  logger.error({ err: original }, 'graphql resolver failed');
  return new GraphQLError('An error occurred while processing this request.', {
    ...(error instanceof GraphQLError ? { path: error.path } : {}),
    extensions: { code: 'server_error' },
  });
}
