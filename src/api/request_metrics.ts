// Every answer, when it is over (a stream's when it closes), in the JSON table (requests.*) and
// in Prometheus' latency histogram. The histogram's `route` label is the pattern of the route that
// answered (set by the router, `labelRoute`), never the raw path, so its series stay bounded; the
// server's own paths are their own labels, and an answer given before any route (a 404, a rate
// limit's 429, a preflight) is `unmatched`.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MetricsRegistry } from '../metrics/registry.js';
import { GRAPHQL_SSE_ENDPOINT } from './graphql_sse.js';

const SERVER_PATHS = new Set([
  '/graphql',
  GRAPHQL_SSE_ENDPOINT,
  '/friendbot',
  '/transactions',
  '/transactions_async',
  '/health',
  '/metrics',
]);

const labels = new WeakMap<ServerResponse, string>();

/** the route pattern this answer is counted under */
export function labelRoute(res: ServerResponse, pattern: string): void {
  labels.set(res, pattern);
}

/** what meters a request from its start (process.hrtime.bigint()) to the end of its answer */
export function requestMeters(metrics: MetricsRegistry): (req: IncomingMessage, res: ServerResponse, started: bigint) => void {
  const total = metrics.timer('requests.total');
  const succeeded = metrics.meter('requests.succeeded');
  const failed = metrics.meter('requests.failed');
  const nanoseconds = (started: bigint) => Number(process.hrtime.bigint() - started);
  return (req, res, started) => {
    // the JSON table as before: an answer once it is sent whole
    res.once('finish', () => {
      total.update(nanoseconds(started));
      if (res.statusCode >= 200 && res.statusCode < 400) succeeded.mark();
      else if (res.statusCode >= 400 && res.statusCode < 600) failed.mark();
    });
    // Prometheus: also a stream that the client left (it never finishes), as the access log does
    res.once('close', () =>
      metrics.prometheus.request(labels.get(res) ?? serverPath(req.url), req.method, res.statusCode, nanoseconds(started) / 1e9),
    );
  };
}

function serverPath(url: string | undefined): string {
  const path = (url ?? '/').split('?')[0]!.replace(/(.)\/$/, '$1');
  return SERVER_PATHS.has(path) ? path : 'unmatched';
}
