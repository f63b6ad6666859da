// Structured logs (pino): JSON lines, or readable colored lines when stdout is a terminal.
import pino from 'pino';
import pretty from 'pino-pretty';
import type { LogLevel } from './config.js';

export type Logger = pino.Logger;

export function createLogger(level: LogLevel, options: { pretty?: boolean } = {}): Logger {
  const usePretty = options.pretty ?? process.stdout.isTTY === true;
  if (!usePretty) return pino({ level });
  // A stream in this thread, not pino's worker transport: nothing is lost on a quick exit.
  return pino({ level }, pretty({ colorize: true, translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' }));
}
