// One node:http server for everything a client reaches: /graphql (GraphiQL in a browser), the
// REST routes, POST /transactions and /transactions_async, /health, /friendbot where the
// network has one, and the network explorer when it is built (/explorer, and / for a browser).
// Anything else is a 404 problem. Every request gets an id and one line in the access log
// (access_log.ts); a line at error level means the server is at fault (an unexpected
// exception), never a client's mistake. Before any route: CORS (cors.ts), the client's address
// (client_address.ts, proxies believed only from --trusted-proxies) and its rate limit
// (rate_limit.ts, one unit per request, a stream's start included; GraphQL's by its cost). Then
// /health and /metrics are answered at once; every other request but streams and submissions waits
// for its turn under the load-shedding bound (admission.ts), a 503 with Retry-After past it.
// Streams and subscriptions are admitted, bounded and charged per update by stream_limits.ts.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createYoga } from 'graphql-yoga';
import { type Config, defaultConfig } from '../config.js';
import type { Logger } from '../logger.js';
import { logAccess } from './access_log.js';
import { createAdmission, type Admission, type AdmissionLimits } from './admission.js';
import { identifyClient, TrustedProxies } from './client_address.js';
import { answerPreflight, setCorsHeaders } from './cors.js';
import { requestMeters } from './request_metrics.js';
import { chargeGraphQLCost, enforceRateLimit, rateLimiter } from './rate_limit.js';
import { refuseDeclaredOversize } from './request_body.js';
import { createContext, type ApiServices } from './context.js';
import { SharedReads } from './follow/index.js';
import { graphqlLimitsOf, graphqlLimitsPlugin, type GraphQLLimits } from './graphql_limits.js';
import { countSubscriptions } from './subscription_metrics.js';
import { graphqlLogging } from './graphql_logging.js';
import { OpenStreams, streamLimitsOf, streamLimitsPlugin, type StreamLimits } from './stream_limits.js';
import { codedRefusals, GRAPHQL_SSE_ENDPOINT, graphqlSSE } from './graphql_sse.js';
import { sharedSubscriptionExecution } from './shared_subscriptions.js';
import { graphiqlPage } from './graphiql.js';
import { createFriendbotHandler, friendbotLimiters, type Funder } from './rest/friendbot.js';
import { createRestHandler, type RequestHandler } from './rest/router.js';
import { createTransactionRenderer } from './rest/resources.js';
import { answerClientError, ProblemError, problems, sendProblem } from './problems.js';
import { createHealthHandler } from './rest/health.js';
import { createExplorerHandler, type ExplorerBundle } from './explorer.js';
import { createMetricsHandler } from './rest/metrics.js';
import { createSubmitTransactionAsyncHandler, createSubmitTransactionHandler } from './rest/submit_transaction.js';
import { registerServiceMetrics } from './service_metrics.js';
import { schema } from './schema/index.js';

/** What the server answers besides the REST routes, for the start banner of `zenith start` and `zenith serve`. */
export const SERVED_PATHS = `GraphQL at /graphql, subscriptions at ${GRAPHQL_SSE_ENDPOINT} (graphql-sse), server-sent events on every list, /order_book, /accounts/{id} and its data entries, health at /health`;

// the admin port answers the API's /health too (cli/admin_port.ts)
export { createHealthHandler };

export interface ApiServerOptions {
  services: ApiServices;
  logger: Logger;
  /** serves /friendbot (zenith start's private network funds new accounts) */
  friendbot?: Funder;
  /** the rate limits and the trusted proxies (config.ts has their defaults); absent: no limit, no proxy */
  protection?: ServerProtection;
  /** the load-shedding bounds (config.ts has their defaults); absent: every request is served at once */
  admission?: AdmissionLimits;
  /** what one GraphQL request may ask; the configuration's defaults without it */
  graphqlLimits?: GraphQLLimits;
  /** what open streams may cost; the configuration's defaults without it */
  streamLimits?: StreamLimits;
  /** the built explorer (explorer.ts `loadExplorer`), served at /explorer and at / for a browser; absent: not served */
  explorer?: ExplorerBundle | null;
}

export type ServerProtection = Pick<Config, 'trustedProxies' | 'perHourRateLimit' | 'friendbotPerHourLimit'>;

/** Horizon's MaxBurst of --per-hour-rate-limit */
const RATE_LIMIT_BURST = 100;

export function createApiServer(options: ApiServerOptions): Server {
  const { services, logger, protection } = options;
  const trustedProxies = new TrustedProxies(protection?.trustedProxies);
  const limiter = rateLimiter({ perHour: protection?.perHourRateLimit ?? 0, maxBurst: RATE_LIMIT_BURST });
  const admission: Admission | null = options.admission ? createAdmission(options.admission) : null;
  registerServiceMetrics(services);
  const requestMetered = requestMeters(services.metrics);
  const { logging, maskError } = graphqlLogging(logger);
  const limits = options.graphqlLimits ?? graphqlLimitsOf(defaultConfig());
  const streams = new OpenStreams(options.streamLimits ?? streamLimitsOf(defaultConfig()), {
    events: services.events,
    limiter,
    logger,
    metrics: services.metrics,
  });
  // one read answers the streams and subscriptions that ask the same after a ledger
  const followReads = new SharedReads(services.events);
  const yoga = createYoga<{ req: IncomingMessage; res: ServerResponse }>({
    schema,
    graphqlEndpoint: '/graphql',
    context: () => createContext(services, followReads),
    logging,
    landingPage: false,
    // cors.ts answers for every route: yoga's own would reflect the Origin with credentials
    cors: false,
    // GraphiQL is graphiqlPage's, from the installed package (yoga's loads it from unpkg.com)
    graphiql: false,
    // GraphQL over SSE at /graphql/stream: distinct connections and the single-connection mode
    // (yoga itself answers subscriptions at /graphql in the distinct connections mode)
    plugins: [
      graphiqlPage(services.config.networkPassphrase),
      graphqlLimitsPlugin(
        limits,
        chargeGraphQLCost(limiter, (req) => identifyClient(req, trustedProxies).ip),
      ),
      graphqlSSE({ maxBodyBytes: limits.maxBodyBytes, logger, streams }),
      sharedSubscriptionExecution(),
      countSubscriptions(services.metrics.prometheus),
      streamLimitsPlugin(streams),
      codedRefusals(),
    ],
    maskedErrors: { maskError },
    maxRequestBodySize: limits.maxBodyBytes,
  });
  // answered before the load-shedding queue: a probe must not wait behind the API's database work
  const unqueued: RequestHandler[] = [createMetricsHandler(services.metrics), createHealthHandler(services)];
  const renderTransaction = createTransactionRenderer(schema, services);
  const handlers: RequestHandler[] = [
    // before REST's root document, which it answers in a browser's place
    ...(options.explorer
      ? [
          createExplorerHandler(options.explorer, {
            friendbot: options.friendbot !== undefined,
            networkPassphrase: services.config.networkPassphrase,
          }),
        ]
      : []),
    ...(options.friendbot
      ? [createFriendbotHandler(options.friendbot, renderTransaction, friendbotLimiters(protection?.friendbotPerHourLimit ?? 0))]
      : []),
    createSubmitTransactionHandler(services.txsub, renderTransaction),
    createSubmitTransactionAsyncHandler(services),
    createRestHandler(schema, services, logger, { friendbot: options.friendbot !== undefined, streams, followReads }),
  ];

  const server = createServer(async (req, res) => {
    setCorsHeaders(res);
    // an answer is what its Content-Type says: a browser never runs an echoed value as a page
    res.setHeader('X-Content-Type-Options', 'nosniff');
    // measured when the answer is sent, so the status class is known (a stream counts when it ends)
    const started = process.hrtime.bigint();
    const requestId = logAccess(logger, req, res, started);
    requestMetered(req, res, started);
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://localhost');
    } catch {
      sendProblem(res, problems.badRequest('url', 'the request URL cannot be parsed'));
      return;
    }
    try {
      if (answerPreflight(req, res)) return;
      const client = identifyClient(req, trustedProxies);
      enforceRateLimit(limiter, client.ip, res);
      await refuseDeclaredOversize(req, res);
      const graphql = url.pathname === '/graphql' || url.pathname.startsWith('/graphql/');
      // Horizon's middleware: no answer of the REST API is to be cached (a stream says no-cache itself)
      if (!graphql) res.setHeader('Cache-Control', 'no-cache, no-store, max-age=0');
      for (const handle of graphql ? [] : unqueued) {
        if (await handle(req, res, url)) return;
      }
      const serve = async (): Promise<void> => {
        if (graphql) {
          await yoga.requestListener(req, res);
          return;
        }
        for (const handle of handlers) {
          if (await handle(req, res, url)) return;
        }
        sendProblem(res, problems.notFound());
      };
      if (admission && !longLived(req, url)) await admission.run(res, serve);
      else await serve();
    } catch (error) {
      if (res.headersSent) {
        if (!(error instanceof ProblemError))
          logger.error({ err: error, requestId, path: url.pathname }, 'request failed after its answer began');
        res.destroy();
      } else if (error instanceof ProblemError) {
        sendProblem(res, error.problem);
      } else {
        logger.error({ err: error, requestId, path: url.pathname }, 'request failed');
        sendProblem(res, problems.serverError());
      }
    }
  });
  server.once('close', () => {
    streams.close();
    followReads.close();
  });
  server.on('clientError', answerClientError);
  return server;
}

/**
 * A stream (REST or GraphQL over SSE) or a submission: not admitted by the load-shedding queue,
 * where it would hold a slot for as long as it lasts (streams have caps of their own).
 */
function longLived(req: IncomingMessage, url: URL): boolean {
  if (req.headers.accept?.includes('text/event-stream') || url.pathname.startsWith('/graphql/')) return true;
  const path = url.pathname.replace(/\/$/, '');
  return path === '/friendbot' || (req.method === 'POST' && (path === '/transactions' || path === '/transactions_async'));
}
