// The embedded core as `zenith start` and `zenith core` run it, from the configuration.
import type { Config } from '../config.js';
import { createCore, type Core } from '../core/index.js';
import type { Logger } from '../logger.js';
import { listenError } from './lifecycle.js';

export function openEmbeddedCore(config: Config, logger: Logger): Promise<Core> {
  warnIfFastClose(config, logger);
  return createCore({
    dataDir: config.dataDir,
    networkPassphrase: config.networkPassphrase,
    baseReserve: config.baseReserve,
    closeIntervalMs: config.closeIntervalMs,
    manualClose: config.manualClose,
    ...(config.metaOutDir ? { metaOutDir: config.metaOutDir } : {}),
    logger,
  });
}

/** Serves the core's commands on 127.0.0.1:--core-port; a port in use is a ConfigError naming it. */
export async function listenEmbeddedCore(core: Core, port: number): Promise<{ port: number; host: string }> {
  const host = '127.0.0.1';
  try {
    return await core.listen(port, host);
  } catch (error) {
    throw listenError(error, { port, host, portSetting: 'core-port' });
  }
}

/**
 * Like stellar-core, the core gives each ledger a close time in whole seconds, later than the
 * previous one: max(now, previous + 1 s). Closing more than once a second therefore moves the
 * ledgers' clock ahead of the wall clock, and transactions whose time bounds end soon after now
 * (the SDK's `setTimeout(30)`) come too late.
 */
function warnIfFastClose(config: Config, logger: Logger): void {
  const interval = config.closeIntervalMs;
  if (config.manualClose || interval >= 1000) return;
  const gain = Math.round((1000 / interval - 1) * 10) / 10;
  logger.warn(
    { closeIntervalMs: interval },
    `--close-interval ${interval} is under 1000 ms: every ledger's close time is at least 1 s after the previous one, ` +
      `so the ledgers' clock gains about ${gain} s on the wall clock each second, and transactions with a near ` +
      "upper time bound (the SDK's setTimeout(30)) soon fail with tx_too_late",
  );
}
