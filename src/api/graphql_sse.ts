// GraphQL over SSE at /graphql/stream: graphql-sse's handler (the distinct-connections and the
// single-connection mode) over yoga's parse, validation and execution, as
// @graphql-yoga/plugin-graphql-sse wires it, with what that plugin leaves open closed: its
// onSubscribe lets a syntax error escape, which the server adapter answers as a 500 with the stack
// in text/plain, and graphql-sse reads a body of any size and repeats an invalid one in its error.
// Here a body is read up to the GraphQL limit (413 beyond it), a body that is not JSON is a 400
// that does not quote it, a document that does not parse or validate is a 400 with its coded
// errors, and anything unexpected is a coded server_error (logged at error level). An event stream
// (a distinct connection, or the reserved stream of the single-connection mode) is admitted as a
// stream (stream_limits.ts: 429 or 503 over the caps), and each operation of the single-connection
// mode is one more; the client leaving aborts the request graphql-sse sees, which ends its operations,
// and a reservation that never connects is dropped after --stream-drain-timeout. graphql-sse's
// own refusals and yoga's bodiless ones are answered as coded errors too (`codedRefusals`). A
// distinct connection's events are written to its socket here (`writeEvents`), each result encoded
// once for the subscriptions that share it; the single-connection mode's go through graphql-sse.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { getOperationAST, GraphQLError, type ExecutionResult } from 'graphql';
import type { Response as SSEResponse } from 'graphql-sse';
import { createHandler } from 'graphql-sse/lib/use/fetch';
import type { Plugin, YogaServerInstance } from 'graphql-yoga';
import type { Logger } from '../logger.js';
import { boundedMessage, ProblemError } from './problems.js';
import { EventBytes, EventWriter, open } from './event_writer.js';
import { type OpenStreams, type StreamTicket, streamRefusalError } from './stream_limits.js';

export const GRAPHQL_SSE_ENDPOINT = '/graphql/stream';

type ServerContext = Record<string, unknown> & { req?: IncomingMessage; res?: ServerResponse };
type HandlerResponse = [string, { status: number; statusText: string; headers: Record<string, string> }];

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  413: 'Payload Too Large',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};
/** graphql-sse's single-connection mode names its stream so (common.ts's TOKEN_HEADER_KEY, TOKEN_QUERY_KEY) */
const TOKEN_HEADER = 'x-graphql-event-stream-token';
const TOKEN_QUERY = 'token';

function errorsResponse(status: number, errors: readonly unknown[]): HandlerResponse {
  // a new headers object each time: the Response writes its content-length into it
  return [
    JSON.stringify({ errors }),
    { status, statusText: STATUS_TEXT[status] ?? '', headers: { 'content-type': 'application/json; charset=utf-8' } },
  ];
}

/**
 * A GraphQL error as the client sees it: its message, locations and code (`code` when it has
 * none); yoga's `http` directions and `originalError` stay here.
 */
function clientError(error: GraphQLError, code: string): GraphQLError {
  const { http: _http, originalError: _original, ...extensions } = error.extensions;
  return new GraphQLError(boundedMessage(error.message), {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    extensions: { ...extensions, code: typeof extensions.code === 'string' ? extensions.code : code },
  });
}

/** The body as text, or null past `maxBytes` (the rest is not read). */
async function readBoundedText(body: ReadableStream<Uint8Array>, maxBytes: number): Promise<string | null> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let size = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return null;
    }
    text += decoder.decode(value, { stream: true });
  }
}

/**
 * The one result of a query, or of an operation refused before it ran (a bad cursor, over the cost
 * budget): `{errors}` without `data` is no result to graphql-sse ("Unable to detect operation AST").
 */
function singleResult(result: ExecutionResult): ExecutionResult {
  const errors = result.errors?.map((error: GraphQLError) => clientError(error, 'server_error'));
  return { ...result, ...(errors ? { errors } : {}), data: result.data ?? null };
}

/** graphql-sse's keep-alive: a comment every 12 s (its handler's pinger) */
const PING_MS = 12_000;
const PING = ':\n\n';
const COMPLETE = 'event: complete\ndata:\n\n';
const nextEvents = new WeakMap<ExecutionResult, EventBytes>();

/**
 * A result as graphql-sse's `next` message (`print` in its common.ts), encoded once: the
 * subscriptions that share an execution (shared_subscriptions.ts) share the result, and so its bytes.
 */
function nextEvent(result: ExecutionResult): EventBytes {
  let event = nextEvents.get(result);
  if (event === undefined) {
    event = new EventBytes(Buffer.from(`event: next\ndata: ${JSON.stringify(result)}\n\n`));
    nextEvents.set(result, event);
  }
  return event;
}

/**
 * A distinct connection's events, written as graphql-sse writes them (the same headers, the first
 * empty message, the pings, `next` per result, `complete` at the end) but to the response itself,
 * as REST's streams write theirs (event_writer.ts): graphql-sse's fetch handler would queue every
 * message through a ReadableStream and the server adapter, and encode each result once per client.
 * The next result is taken once the socket has room; the client leaving ends the operation.
 */
async function writeEvents(
  res: ServerResponse,
  ticket: StreamTicket | undefined,
  results: AsyncIterable<ExecutionResult> | ExecutionResult,
): Promise<void> {
  res.writeHead(200, 'OK', {
    connection: 'keep-alive',
    'cache-control': 'no-cache',
    'content-encoding': 'none',
    'content-type': 'text/event-stream; charset=utf-8',
  });
  // an empty message first: some browsers take no header flush
  res.write(PING);
  const writer = new EventWriter(res, true, ticket);
  const iterator = Symbol.asyncIterator in results ? results[Symbol.asyncIterator]() : [results][Symbol.iterator]();
  const leave = () => void iterator.return?.();
  res.once('close', leave);
  const pinger = setInterval(() => {
    if (open(res) && !writer.full) res.write(PING);
  }, PING_MS);
  try {
    for (let next = await iterator.next(); !next.done && open(res); next = await iterator.next()) {
      if (!writer.write(nextEvent(next.value))) await writer.drained();
    }
    if (open(res)) res.end(COMPLETE);
  } finally {
    clearInterval(pinger);
    res.off('close', leave);
  }
}

/** the code of a refusal by graphql-sse itself, by its status */
const REFUSAL_CODES: Record<number, string> = { 404: 'NOT_FOUND', 405: 'METHOD_NOT_ALLOWED', 406: 'NOT_ACCEPTABLE', 409: 'CONFLICT' };

/**
 * graphql-sse's own refusals (a request whose query, variables or operationName is missing or of
 * the wrong type, a method or a stream token it does not take) carry no code, or are text: as
 * errors with a code, as every GraphQL error here. null: every error has its code already (the
 * answer is kept as it is, with its headers).
 */
async function codedRefusal(response: Response): Promise<HandlerResponse | null> {
  const text = await response.clone().text();
  const code = REFUSAL_CODES[response.status] ?? 'BAD_REQUEST';
  let errors: unknown;
  try {
    errors = (JSON.parse(text) as { errors?: unknown }).errors;
  } catch {
    errors = undefined;
  }
  const hasCode = (error: { extensions?: { code?: unknown } } | null) => typeof error?.extensions?.code === 'string';
  if (Array.isArray(errors) && errors.every(hasCode)) return null;
  const coded = Array.isArray(errors)
    ? errors.map((error: { message?: unknown; extensions?: Record<string, unknown> }) => ({
        ...error,
        extensions: { ...error.extensions, code: typeof error.extensions?.code === 'string' ? error.extensions.code : code },
      }))
    : [{ message: text || response.statusText || 'The request was refused.', extensions: { code } }];
  return errorsResponse(response.status, coded);
}

/**
 * Yoga's answers without a body (a 406 for a subscription asked without text/event-stream) as
 * coded errors, as graphql-sse's refusals are; GET parameters that are not JSON, a 400; validation
 * errors that quote a long value, cut (`boundedMessage`).
 */
export function codedRefusals(): Plugin {
  return {
    // yoga's GET parser reads `variables` and `extensions` with a bare JSON.parse: its SyntaxError
    // would be a server_error
    onRequestParse({ requestParser, setRequestParser }) {
      if (!requestParser) return;
      setRequestParser(async (request) => {
        try {
          return await requestParser(request);
        } catch (error) {
          if (!(error instanceof SyntaxError)) throw error;
          throw new GraphQLError('The variables or extensions are not JSON.', {
            extensions: { code: 'BAD_REQUEST', http: { status: 400 } },
          });
        }
      });
    },
    onValidate:
      () =>
      ({ result, setResult }) => {
        if (!result.some((error) => boundedMessage(error.message) !== error.message)) return;
        setResult(
          result.map((error) =>
            boundedMessage(error.message) === error.message
              ? error
              : new GraphQLError(boundedMessage(error.message), { nodes: error.nodes, extensions: error.extensions }),
          ),
        );
      },
    async onResponse({ response, setResponse, fetchAPI }) {
      // only what has no body of its own (a refusal sent as events, a stream's cap, says it already)
      if (response.status < 400 || response.headers.has('content-type')) return;
      const coded = await codedRefusal(response);
      if (coded) setResponse(new fetchAPI.Response(...coded));
    },
  };
}

export function graphqlSSE(options: { maxBodyBytes: number; logger: Logger; streams: OpenStreams }): Plugin {
  const { maxBodyBytes, logger, streams } = options;
  /** the responses of the single-connection mode's open streams, by token */
  const reserved = new Map<string, ServerResponse>();
  /** tokens reserved (PUT) whose stream has not connected yet */
  const unconnected = new Set<string>();
  const serverContexts = new WeakMap<Request, ServerContext>();
  /** the results of a distinct connection's operation, by its request */
  const distinctResults = new WeakMap<Request, AsyncIterable<ExecutionResult> | ExecutionResult>();
  const tooLarge = (): HandlerResponse =>
    errorsResponse(413, [{ message: 'Request body too large', extensions: { code: 'REQUEST_ENTITY_TOO_LARGE' } }]);
  let yogaServer: YogaServerInstance<Record<string, unknown>, Record<string, unknown>> | undefined;
  let handle: ((request: Request) => Promise<Response>) | undefined;

  function handlerOf(yoga: YogaServerInstance<Record<string, unknown>, Record<string, unknown>>) {
    return createHandler(
      {
        async onSubscribe(req, params) {
          const enveloped = yoga.getEnveloped({ ...serverContexts.get(req.raw), request: req.raw, params });
          let document: ReturnType<typeof enveloped.parse>;
          try {
            document = enveloped.parse(params.query);
          } catch (error) {
            if (!(error instanceof GraphQLError)) throw error;
            return errorsResponse(400, [clientError(error, 'GRAPHQL_PARSE_FAILED')]) satisfies SSEResponse;
          }
          const invalid: readonly GraphQLError[] = enveloped.validate(enveloped.schema, document);
          if (invalid.length > 0) {
            return errorsResponse(
              400,
              invalid.map((error) => clientError(error, 'GRAPHQL_VALIDATION_FAILED')),
            );
          }
          const contextValue = await enveloped.contextFactory();
          const args = {
            schema: enveloped.schema,
            document,
            contextValue,
            variableValues: params.variables,
            operationName: params.operationName,
          };
          const operation = getOperationAST(document, params.operationName);
          const result = (await (operation?.operation === 'subscription' ? enveloped.subscribe(args) : enveloped.execute(args))) as
            | ExecutionResult
            | AsyncIterable<ExecutionResult>;
          const results = Symbol.asyncIterator in result ? result : singleResult(result);
          if (req.headers.get('accept') === 'text/event-stream' && serverContexts.get(req.raw)?.res) {
            // a distinct connection: `answer` writes its events (`writeEvents`), graphql-sse does not
            distinctResults.set(req.raw, results);
            return [null, { status: 200, statusText: 'OK' }];
          }
          return results;
        },
      },
      yoga.fetchAPI,
    );
  }

  /** The server context of a request: an event stream is admitted (or refused), an operation of a reserved stream names that stream's response. */
  function streamContext(request: Request, serverContext: ServerContext): ServerContext | HandlerResponse {
    const { req, res } = serverContext;
    if (!req || !res) return serverContext;
    const token = request.headers.get(TOKEN_HEADER) ?? new URL(request.url).searchParams.get(TOKEN_QUERY);
    if (request.headers.get('accept') !== 'text/event-stream') {
      const streamResponse = token === null ? undefined : reserved.get(token);
      return streamResponse ? { ...serverContext, streamResponse } : serverContext;
    }
    try {
      const streamTicket = streams.admit(req, res);
      if (token !== null && !reserved.has(token)) {
        unconnected.delete(token);
        reserved.set(token, res);
        res.once('close', () => reserved.get(token) === res && reserved.delete(token));
      }
      return { ...serverContext, streamTicket };
    } catch (error) {
      if (!(error instanceof ProblemError)) throw error;
      return errorsResponse(error.problem.status, [streamRefusalError(error.problem)]);
    }
  }

  /**
   * graphql-sse keeps a reserved stream until it has connected and closed: one never connected is
   * dropped after the drain timeout, by connecting to it with a request already aborted.
   */
  function expireReservation(token: string): void {
    unconnected.add(token);
    const timer = setTimeout(() => {
      if (!unconnected.delete(token) || !yogaServer || !handle) return;
      const url = `http://localhost${GRAPHQL_SSE_ENDPOINT}?${TOKEN_QUERY}=${encodeURIComponent(token)}`;
      const aborted = new AbortController();
      aborted.abort();
      const request = new yogaServer.fetchAPI.Request(url, { headers: { accept: 'text/event-stream' }, signal: aborted.signal });
      handle(request).then(
        (response) => response.body?.cancel(),
        (error: unknown) => logger.error({ err: error }, 'graphql-sse reservation not dropped'),
      );
    }, streams.limits.drainTimeoutMs);
    timer.unref();
  }

  async function answer(request: Request, serverContext: ServerContext): Promise<Response> {
    if (!yogaServer || !handle) throw new Error('graphql-sse is not initialised');
    const { fetchAPI } = yogaServer;
    const respond = ([body, init]: HandlerResponse): Response => new fetchAPI.Response(body, init);
    try {
      const context = streamContext(request, serverContext);
      if (Array.isArray(context)) return respond(context);
      let req = request;
      if (request.body) {
        const length = Number(request.headers.get('content-length') ?? 0);
        if (length > maxBodyBytes) return respond(tooLarge());
        const text = await readBoundedText(request.body, maxBodyBytes);
        if (text === null) return respond(tooLarge());
        if (request.headers.get('content-type')?.includes('application/json')) {
          try {
            JSON.parse(text);
          } catch {
            return respond(errorsResponse(400, [{ message: 'POST body sent invalid JSON.', extensions: { code: 'BAD_REQUEST' } }]));
          }
        }
        // with the request's signal: the client leaving ends the operation
        req = new fetchAPI.Request(request.url, { method: request.method, headers: request.headers, body: text, signal: request.signal });
      }
      serverContexts.set(req, context);
      const response = await handle(req);
      const results = distinctResults.get(req);
      if (results !== undefined && context.res) {
        const { res } = context;
        await writeEvents(res, context.streamTicket as StreamTicket | undefined, results).catch((error: unknown) => {
          // an event source that failed: nothing can be answered once the events began
          logger.error({ err: error }, 'graphql-sse stream failed');
          res.destroy();
        });
        // the events are written and the response ended: the server adapter sends nothing of this
        return new fetchAPI.Response(null, { status: 200 });
      }
      if (request.method === 'PUT' && response.status === 201) expireReservation(await response.clone().text());
      const coded = response.status >= 400 ? await codedRefusal(response) : null;
      return coded ? respond(coded) : response;
    } catch (error) {
      logger.error({ err: error }, 'graphql-sse request failed');
      return respond(
        errorsResponse(500, [{ message: 'An error occurred while processing this request.', extensions: { code: 'server_error' } }]),
      );
    }
  }

  return {
    onYogaInit({ yoga }) {
      yogaServer = yoga as YogaServerInstance<Record<string, unknown>, Record<string, unknown>>;
      handle = handlerOf(yogaServer);
    },
    onRequest({ request, endResponse, serverContext }) {
      const [path] = request.url.split('?');
      if (!path?.endsWith(GRAPHQL_SSE_ENDPOINT)) return;
      return answer(request, serverContext as ServerContext).then(endResponse);
    },
  };
}
