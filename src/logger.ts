// Structured logs (pino): JSON lines, or readable colored lines when stdout is a terminal.
import pino from 'pino';
import pretty from 'pino-pretty';
import type { LogLevel } from './config.js';
import { markLog } from './metrics/log_meters.js';

export type Logger = pino.Logger;

export interface LoggerOptions {
  /** readable lines; by default when stdout is a terminal (and no destination is given) */
  pretty?: boolean;
  /** where the lines go instead of stdout (tests read them back) */
  destination?: pino.DestinationStream;
}

export function createLogger(level: LogLevel, options: LoggerOptions = {}): Logger {
  const usePretty = options.pretty ?? (options.destination === undefined && process.stdout.isTTY === true);
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
  if (!usePretty) return options.destination ? pino(loggerOptions, options.destination) : pino(loggerOptions);
  // A stream in this thread, not pino's worker transport: nothing is lost on a quick exit.
  return pino(
    loggerOptions,
    // one line per record (an error's stack still follows it): the access log's line per request stays one line
    pretty({
      colorize: true,
      translateTime: 'HH:MM:ss.l',
      ignore: 'pid,hostname',
      singleLine: true,
      ...(options.destination ? { destination: options.destination } : {}),
    }),
  );
}
