// GET /metrics: the registry's snapshot (not a GraphQL field: it describes this process, not the
// network) with Horizon's `_links.self`.
import type { MetricsRegistry } from '../../metrics/registry.js';
import { requestOrigin } from '../client_address.js';
import { link, sendJson } from './hal.js';
import type { RequestHandler } from './router.js';
import { problems, sendProblem } from '../problems.js';

export function createMetricsHandler(metrics: MetricsRegistry): RequestHandler {
  return async (req, res, url) => {
    if (url.pathname.replace(/\/$/, '') !== '/metrics') return false;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendProblem(res, problems.methodNotAllowed(['GET']));
      return true;
    }
    const snapshot = await metrics.snapshot();
    sendJson(res, 200, { _links: { self: link(`${requestOrigin(req)}/metrics`) }, ...snapshot });
    return true;
  };
}
