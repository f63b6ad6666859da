// Structured logs (pino): JSON lines, or readable colored lines when stdout is a terminal.
import pino from 'pino';
import pretty from 'pino-pretty';
import type { LogLevel } from './config.js';
import { markLog } from './metrics/log_meters.js';

export type Logger = pino.Logger;

export function createLogger(level: LogLevel, options: { pretty?: boolean } = {}): Logger {
  const usePretty = options.pretty ?? process.stdout.isTTY === true;
  // every emitted line marks its logging.<level> meter (GET /metrics)
  const loggerOptions: pino.LoggerOptions = {
    level,
    hooks: {
      logMethod(args, method, levelNumber) {
        markLog(levelNumber);
        method.apply(this, args);
      },
    },
  };
  if (!usePretty) return pino(loggerOptions);
  // A stream in this thread, not pino's worker transport: nothing is lost on a quick exit.
  return pino(loggerOptions, pretty({ colorize: true, translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' }));
}
