// Starts the admin server of a process when --admin-port is given (metrics/admin_server.ts).
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { createAdminServer, type HealthCheck } from '../metrics/admin_server.js';
import type { PrometheusMetrics } from '../metrics/prometheus.js';
import { closeServer, listen, serverUrl, type Stopper } from './lifecycle.js';

export async function startAdminServer(
  config: Pick<Config, 'adminPort' | 'adminHost'>,
  metrics: PrometheusMetrics,
  logger: Logger,
  stoppers: Stopper[],
  /** a process that serves the API answers its /health here too, for a balancer on the admin network */
  health?: HealthCheck,
): Promise<void> {
  if (config.adminPort === 0) return;
  const server = createAdminServer(metrics, (error) => logger.error({ err: error }, 'the metrics could not be collected'), health);
  const port = await listen(server, config.adminPort, config.adminHost, { portSetting: 'admin-port', hostSetting: 'admin-host' });
  stoppers.push(closeServer(server));
  logger.info({ adminPort: port }, `admin server on ${serverUrl(config.adminHost, port)}metrics (Prometheus)`);
}
