// The embedded core as `zenith start` and `zenith core` run it, from the configuration.
import type { Config } from '../config.js';
import { createCore, type Core } from '../core/index.js';
import type { Logger } from '../logger.js';
import { listenError } from './lifecycle.js';

export function openEmbeddedCore(config: Config, logger: Logger): Promise<Core> {
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
