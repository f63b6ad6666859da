// Runs until SIGINT or SIGTERM, then stops the parts in the reverse order of their start: the
// server stops taking requests, workers finish their current database transaction, the database
// closes last. A second signal exits at once.
import type { Server } from 'node:http';
import { isIP } from 'node:net';
import { ConfigError } from '../config.js';
import type { Logger } from '../logger.js';

export type Stopper = () => Promise<void>;

const CLOSE_GRACE_MS = 1000;

export function waitForShutdownSignal(logger: Logger): Promise<void> {
  return new Promise((resolve) => {
    const onSignal = (signal: NodeJS.Signals) => {
      logger.info({ signal }, 'shutting down');
      process.once('SIGINT', () => process.exit(130));
      process.once('SIGTERM', () => process.exit(143));
      resolve();
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  });
}

export async function stopAll(stoppers: Stopper[], logger: Logger): Promise<void> {
  for (const stop of [...stoppers].reverse()) {
    try {
      await stop();
    } catch (error) {
      logger.error({ err: error }, 'error while shutting down');
    }
  }
}

/** Where a server listens, and the settings that chose it (named when it cannot listen there). */
export interface ListenAt {
  port: number;
  host: string;
  /** the setting of the port, e.g. "port" or "core-port" */
  portSetting: string;
  /** the setting of the address, when it is configurable */
  hostSetting?: string;
}

/** Listens on the API's --host and --port (or the settings named); resolves with the bound port (for port 0). */
export function listen(
  server: Server,
  port: number,
  host: string,
  named: Pick<ListenAt, 'portSetting' | 'hostSetting'> = { portSetting: 'port', hostSetting: 'host' },
): Promise<number> {
  return new Promise((resolve, reject) => {
    const fail = (error: NodeJS.ErrnoException) => reject(listenError(error, { port, host, ...named }));
    server.once('error', fail);
    server.listen(port, host, () => {
      server.off('error', fail);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

/**
 * A failed listen as the one who configured it should read it: a port that is taken or forbidden,
 * or an address that is not this machine's, is a ConfigError naming the setting (exit code 2).
 */
export function listenError(error: unknown, at: ListenAt): unknown {
  const { port, host, portSetting, hostSetting } = at;
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code === 'EADDRINUSE') {
    return new ConfigError(
      portSetting,
      `--${portSetting} ${port}: the port is in use on ${host}; stop what listens there or choose another port`,
    );
  }
  if (code === 'EACCES') {
    return new ConfigError(portSetting, `--${portSetting} ${port}: no permission to listen on ${host}:${port}; choose a port above 1023`);
  }
  if (hostSetting && (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN')) {
    return new ConfigError(hostSetting, `--${hostSetting} ${host}: cannot listen on that address (${code})`);
  }
  return error;
}

/** --host names this machine alone (a loopback address) */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || (isIP(host) === 4 && host.startsWith('127.'));
}

/** The address to open in a browser for a server on `host` (localhost for a wildcard address). */
export function serverUrl(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' ? 'localhost' : isIP(host) === 6 ? `[${host}]` : host;
  return `http://${name}:${port}/`;
}

export function closeServer(server: Server): Stopper {
  return () =>
    new Promise((resolve) => {
      server.close(() => resolve());
      // keep-alive sockets would hold close() open; requests in flight still finish
      server.closeIdleConnections();
      // event streams never finish by themselves: cut what is still open after a grace period
      setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS).unref();
    });
}
