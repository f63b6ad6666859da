// Load shedding (docs/security.md): at most --max-concurrent-requests requests are served at once,
// the others wait in a queue of at most --max-queued-requests for at most --max-request-wait ms;
// beyond either, the answer is a 503 problem with Retry-After at once, so a client under overload
// learns to come back instead of timing out. On PGlite the queries run on the main thread and
// resolve in microtasks only: a request, once started, runs to its end without yielding, and a
// burst used to be served whole within one turn of the event loop while the core's close timer, the
// ingester and /health waited. Here each admitted request starts on a turn of its own, so a turn
// holds a few requests at most. Not admitted here: /health and /metrics, streams (caps of their
// own) and submissions (they mostly wait for their ledger).
import type { ServerResponse } from 'node:http';
import PQueue from 'p-queue';
import type { Config } from '../config.js';
import { problems, sendProblem } from './problems.js';

export type AdmissionLimits = Pick<Config, 'maxConcurrentRequests' | 'maxQueuedRequests' | 'maxRequestWaitMs'>;

/** what a shed request is told to wait before it tries again, in seconds */
export const RETRY_AFTER_SECONDS = 1;

export interface Admission {
  /**
   * Runs `handle` once a slot is free, or answers 503 with Retry-After (the queue full, or the wait
   * over). A client that leaves while it waits is dropped from the queue.
   */
  run(res: ServerResponse, handle: () => Promise<void>): Promise<void>;
  /** requests being served */
  readonly running: number;
  /** requests waiting for their turn */
  readonly waiting: number;
}

export function createAdmission(limits: AdmissionLimits): Admission {
  const queue = new PQueue({ concurrency: limits.maxConcurrentRequests });
  const shed = (res: ServerResponse, detail: string): void => {
    res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
    sendProblem(res, problems.serviceUnavailable(detail));
  };
  return {
    get running() {
      return queue.pending;
    },
    get waiting() {
      return queue.size;
    },
    async run(res, handle) {
      if (queue.pending >= limits.maxConcurrentRequests && queue.size >= limits.maxQueuedRequests) {
        shed(res, 'The server is at its capacity and its queue of waiting requests is full. Try again after Retry-After seconds.');
        return;
      }
      // aborted only while the request waits: once it runs, it runs to its end in its slot
      const waiting = new AbortController();
      const timer = setTimeout(() => waiting.abort('timeout'), limits.maxRequestWaitMs);
      const left = (): void => waiting.abort('gone');
      res.once('close', left);
      const stopWaiting = (): void => {
        clearTimeout(timer);
        res.off('close', left);
      };
      try {
        await queue.add(
          async () => {
            stopWaiting();
            // PGlite's queries and Prisma's work resolve in microtasks only: without this turn of the
            // event loop a slot freed would start the next request at once, and a burst would run to
            // its end before any timer (a ledger close), the ingester or /health got a turn
            await new Promise(setImmediate);
            await handle();
          },
          { signal: waiting.signal },
        );
      } catch (error) {
        if (!waiting.signal.aborted) throw error;
        stopWaiting();
        if (waiting.signal.reason === 'timeout' && !res.headersSent) {
          shed(
            res,
            `The server is at its capacity: this request waited ${limits.maxRequestWaitMs} ms for its turn. Try again after Retry-After seconds.`,
          );
        }
      }
    },
  };
}
