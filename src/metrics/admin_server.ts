// The admin port (--admin-port, as Horizon's): GET /metrics in the Prometheus text format, for a
// scraper on the operators' network, and, for a process that serves the API, its GET /health. It is a server of its own, apart from the API, so it has
// neither the API's rate limits nor its CORS, and a busy API does not hide its own figures.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { PrometheusMetrics } from './prometheus.js';

/** The API's own health check, answered on the admin port as on the API's */
export type HealthCheck = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean>;

/** `onError`: a collector failed (a bug of ours): the scraper gets a 500, the log the error */
export function createAdminServer(metrics: PrometheusMetrics, onError: (error: unknown) => void, health?: HealthCheck): Server {
  return createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://admin');
    if (health && url.pathname.replace(/\/$/, '') === '/health') {
      void health(req, res, url);
      return;
    }
    if (url.pathname !== '/metrics') {
      res
        .writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' })
        .end(`not found: the admin port serves /metrics${health ? ' and /health' : ''}\n`);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' }).end('method not allowed\n');
      return;
    }
    metrics.registry.metrics().then(
      (text) => {
        res.writeHead(200, { 'Content-Type': metrics.registry.contentType });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      (error: unknown) => {
        res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end('metrics could not be collected\n');
        onError(error);
      },
    );
  });
}
