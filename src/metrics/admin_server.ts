// The admin port (--admin-port, as Horizon's): GET /metrics in the Prometheus text format, for a
// scraper on the operators' network. It is a server of its own, apart from the API, so it has
// neither the API's rate limits nor its CORS, and a busy API does not hide its own figures.
import { createServer, type Server } from 'node:http';
import type { PrometheusMetrics } from './prometheus.js';

/** `onError`: a collector failed (a bug of ours): the scraper gets a 500, the log the error */
export function createAdminServer(metrics: PrometheusMetrics, onError: (error: unknown) => void): Server {
  return createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('not found: the admin port serves /metrics\n');
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
