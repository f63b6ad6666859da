// logging.<level> meters. The pino hook is fixed when the logger is made (src/cli/program.ts), before the
// services' registry exists, so the hook marks whichever registry was attached last.
import type { MetricsRegistry } from './registry.js';

export const LOG_METERS = ['logging.debug', 'logging.info', 'logging.warning', 'logging.error', 'logging.panic'] as const;

let attached: MetricsRegistry | null = null;

/** makes the five meters (zero until something is logged) and feeds them from now on */
export function attachLogMeters(registry: MetricsRegistry): void {
  for (const name of LOG_METERS) registry.meter(name);
  attached = registry;
}

/** pino's numeric level → its meter; trace is not one of the spec's levels, fatal is its panic */
export function markLog(level: number): void {
  if (!attached) return;
  const name =
    level >= 60
      ? 'logging.panic'
      : level >= 50
        ? 'logging.error'
        : level >= 40
          ? 'logging.warning'
          : level >= 30
            ? 'logging.info'
            : level >= 20
              ? 'logging.debug'
              : null;
  if (name) attached.meter(name).mark();
}
