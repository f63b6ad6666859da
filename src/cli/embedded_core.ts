// The embedded core as `zenith start` and `zenith core` run it, from the configuration.
import type { Config } from '../config.js';
import { createCore, type Core } from '../core/index.js';
import type { Logger } from '../logger.js';

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
