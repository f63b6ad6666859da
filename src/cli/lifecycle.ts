// Runs until SIGINT or SIGTERM, then stops the parts in the reverse order of their start: the
// server stops taking requests, workers finish their current database transaction, the database
// closes last. A second signal exits at once.
import type { Server } from 'node:http';
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

export function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const fail = (error: NodeJS.ErrnoException) =>
      reject(new Error(`cannot listen on ${host}:${port}: ${error.code === 'EADDRINUSE' ? 'the port is in use' : error.message}`));
    server.once('error', fail);
    server.listen(port, host, () => {
      server.off('error', fail);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
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
