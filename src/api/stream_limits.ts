// What an open stream may cost, for REST's server-sent events and GraphQL's subscriptions alike
// (docs/security.md): streams open at once per client IP (429) and in total (503 with
// Retry-After); what a stream's response may hold unsent, and how long a client that stopped
// reading has to drain it, past which it is disconnected; and Horizon's rate limit counted per
// update a stream sends, which ends the stream once spent. Streams write only when their socket
// has room (the follow engine is pulled), so the bound on unsent bytes catches what writes
// regardless (keep-alives, a library's queue); the drain timeout is what frees a reader that stopped.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Writable } from 'node:stream';
import { type ExecutionResult, GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Config } from '../config.js';
import type { LedgerEvents } from '../events/ledger_events.js';
import type { Logger } from '../logger.js';
import type { MetricsRegistry } from '../metrics/registry.js';
import { clientIp } from './client_address.js';
import { ProblemError, problems, type Problem } from './problems.js';
import type { RateLimiter } from './rate_limit.js';

export interface StreamLimits {
  /** streams one client IP may have open at once; 0: no cap */
  perClient: number;
  /** streams open at once in this process; 0: no cap */
  total: number;
  /** bytes a stream's response may hold unsent before its client is disconnected */
  maxBufferedBytes: number;
  /** ms a stream's client has to take what is waiting for it once the socket is full */
  drainTimeoutMs: number;
}

export function streamLimitsOf(
  config: Pick<Config, 'maxStreamsPerClient' | 'maxStreams' | 'streamMaxBufferedBytes' | 'streamDrainTimeoutMs'>,
): StreamLimits {
  return {
    perClient: config.maxStreamsPerClient,
    total: config.maxStreams,
    maxBufferedBytes: config.streamMaxBufferedBytes,
    drainTimeoutMs: config.streamDrainTimeoutMs,
  };
}

/**
 * Records a stream sends in one ledger for one unit of the rate limit: Horizon counts an update of
 * a stream (a page of at most 200 records, read after a ledger or while catching up) as a request.
 */
export const STREAM_EVENTS_PER_UNIT = 200;
/** when a stream refused for the total cap may be tried again */
export const STREAMS_RETRY_AFTER_S = 10;

/** One open stream: counted against the caps until released (its response closed, or it ended). */
export interface StreamTicket {
  /** counts one event about to be sent; false once the client's rate limit is spent (the stream ends) */
  charge(): boolean;
  /** resolves when the response carrying the events has room again, or is gone */
  room(): Promise<void>;
  /** the response is gone */
  readonly closed: boolean;
  /** reports a write made to the response's socket itself (not through `res.write`): the same bounds apply */
  wrote(room: boolean): void;
  release(): void;
}

export class OpenStreams {
  private readonly perIp = new Map<string, number>();
  private count = 0;
  /** ledgers heard: a stream's rate-limit unit covers one ledger's updates */
  private ledgers = 0;
  /** each guarded response's check */
  private readonly guarded = new WeakMap<ServerResponse, (room: boolean) => void>();
  private readonly unsubscribe: () => void;
  private readonly refused;
  private readonly disconnected;

  constructor(
    readonly limits: StreamLimits,
    private readonly options: { events: LedgerEvents; limiter: RateLimiter | null; logger: Logger; metrics: MetricsRegistry },
  ) {
    this.unsubscribe = options.events.subscribe(() => this.ledgers++);
    this.refused = options.metrics.meter('streams.refused');
    this.disconnected = options.metrics.meter('streams.slow_disconnected');
    options.metrics.gauge('streams.open', () => this.count);
  }

  get open(): number {
    return this.count;
  }

  /**
   * Admits a stream of the request's client whose events `res` carries, or throws the problem
   * that refuses it (429 over the client's cap, 503 with Retry-After over the total). The stream
   * is released when `res` closes or by `release()`.
   */
  admit(req: IncomingMessage, res: ServerResponse): StreamTicket {
    const ip = clientIp(req);
    const mine = this.perIp.get(ip) ?? 0;
    const { perClient, total } = this.limits;
    if (perClient > 0 && mine >= perClient) {
      this.refused.mark();
      throw new ProblemError(
        problems.rateLimitExceeded(
          `This client has ${mine} streams open, the most one client may have at once (--max-streams-per-client). Close one before opening another.`,
        ),
      );
    }
    if (total > 0 && this.count >= total) {
      this.refused.mark();
      if (!res.headersSent) res.setHeader('Retry-After', String(STREAMS_RETRY_AFTER_S));
      throw new ProblemError(
        problems.serviceUnavailable(
          `This server has ${this.count} streams open, the most it serves at once (--max-streams). Try again later.`,
        ),
      );
    }
    this.perIp.set(ip, mine + 1);
    this.count++;
    const wrote = this.guard(res, ip);
    return this.ticket(ip, res, wrote);
  }

  /** stops hearing ledgers (the server closed) */
  close(): void {
    this.unsubscribe();
  }

  private ticket(ip: string, res: ServerResponse, wrote: (room: boolean) => void): StreamTicket {
    const { limiter } = this.options;
    let released = false;
    // the first updates ride on the request that opened the stream, which was counted
    let ledger = this.ledgers;
    let sent = 0;
    const release = () => {
      if (released) return;
      released = true;
      res.off('close', release);
      this.count--;
      const left = (this.perIp.get(ip) ?? 1) - 1;
      if (left > 0) this.perIp.set(ip, left);
      else this.perIp.delete(ip);
    };
    res.once('close', release);
    return {
      charge: () => {
        if (!limiter) return true;
        if (ledger === this.ledgers && sent < STREAM_EVENTS_PER_UNIT) {
          sent++;
          return true;
        }
        ledger = this.ledgers;
        sent = 1;
        return !limiter.take(ip).limited;
      },
      room: async () => {
        await drained(res);
      },
      get closed() {
        return res.destroyed || res.writableEnded;
      },
      wrote,
      release,
    };
  }

  /**
   * Disconnects the client of `res` once its unsent bytes pass the bound, or once it has not drained
   * in time. Returns the check to run after a write that did not go through `res.write`.
   */
  private guard(res: ServerResponse, ip: string): (room: boolean) => void {
    const guarded = this.guarded.get(res);
    if (guarded) return guarded;
    const { maxBufferedBytes, drainTimeoutMs } = this.limits;
    let timer: NodeJS.Timeout | null = null;
    // a write to the socket itself drains there: the response hears nothing of it
    let socket: Socket | null = null;
    const stopTimer = () => {
      if (timer) clearTimeout(timer);
      timer = null;
      socket?.off('drain', stopTimer);
      socket = null;
    };
    const disconnect = (reason: string) => {
      stopTimer();
      if (res.destroyed) return;
      this.disconnected.mark();
      this.options.logger.info({ ip, unsent: res.writableLength, reason }, 'stream client disconnected: it does not read what it is sent');
      res.destroy();
    };
    // unsent bytes: the response's own and its socket's
    const check = (room: boolean) => {
      if (res.writableLength > maxBufferedBytes) disconnect(`over ${maxBufferedBytes} bytes unsent`);
      else if (!room && timer === null && !res.destroyed) {
        timer = setTimeout(() => disconnect(`not drained in ${drainTimeoutMs} ms`), drainTimeoutMs);
        socket = res.socket;
        socket?.once('drain', stopTimer);
      }
    };
    this.guarded.set(res, check);
    res.on('drain', stopTimer);
    res.once('close', stopTimer);
    const write = res.write;
    res.write = ((...args: Parameters<ServerResponse['write']>) => {
      const room = write.apply(res, args);
      check(room);
      return room;
    }) as ServerResponse['write'];
    return check;
  }
}

/**
 * Resolves when `res` (a response, or the socket a stream wrote to) has taken what was written (or
 * is gone), so a client that does not read is not read for: true then, false if `withinMs` passed first.
 */
export function drained(res: Writable, withinMs?: number): Promise<boolean> {
  return new Promise((resolve) => {
    if (!res.writableNeedDrain || res.destroyed) {
      resolve(true);
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    const finish = (done: boolean) => {
      clearTimeout(timer);
      res.off('drain', onDone);
      res.off('close', onDone);
      resolve(done);
    };
    const onDone = () => finish(true);
    res.on('drain', onDone);
    res.on('close', onDone);
    if (withinMs !== undefined) timer = setTimeout(() => finish(false), withinMs);
  });
}

/** Horizon's words when a stream's updates spent the client's rate limit */
export const STREAM_RATE_LIMITED = 'Rate limit exceeded';

/** a refusal of the caps as a GraphQL error: the problem's type as its code, its status for the HTTP answer */
export function streamRefusalError(problem: Problem): GraphQLError {
  const headers: Record<string, string> = problem.status === 503 ? { 'Retry-After': String(STREAMS_RETRY_AFTER_S) } : {};
  return new GraphQLError(problem.detail, { extensions: { code: problem.type, http: { status: problem.status, headers } } });
}

interface StreamServerContext {
  req?: IncomingMessage;
  res?: ServerResponse;
  /** graphql-sse's single-connection mode: the response of the reserved stream that carries this operation's events */
  streamResponse?: ServerResponse;
  /** graphql-sse's distinct connections: the stream admitted with the request */
  streamTicket?: StreamTicket;
}

/**
 * Every GraphQL subscription (yoga's at /graphql, graphql-sse's at /graphql/stream in both modes)
 * is a stream: admitted against the caps, pulled only when its response has room, and charged
 * per update; over the rate limit it sends a coded error and completes.
 */
export function streamLimitsPlugin(streams: OpenStreams): Plugin {
  return {
    onSubscribe({ args, setResultAndStopExecution }) {
      const context = args.contextValue as StreamServerContext;
      const { req } = context;
      const res = context.streamResponse ?? context.res;
      if (!req || !res) return;
      let ticket = context.streamTicket;
      if (!ticket) {
        try {
          ticket = streams.admit(req, res);
        } catch (error) {
          if (!(error instanceof ProblemError)) throw error;
          setResultAndStopExecution({ errors: [streamRefusalError(error.problem)] });
          return;
        }
      }
      const admitted = ticket;
      return {
        onSubscribeResult({ result, setResult }) {
          if (Symbol.asyncIterator in result) setResult(new GuardedSubscription(result, admitted));
          else admitted.release();
        },
      };
    },
  };
}

/**
 * A subscription's results, taken from the source only when the response has room, each charged
 * to the client; `return()` (the client left) stops the source at once, even while it waits.
 */
class GuardedSubscription implements AsyncIterableIterator<ExecutionResult> {
  private readonly source: AsyncIterator<ExecutionResult>;
  private ended = false;

  constructor(
    source: AsyncIterable<ExecutionResult>,
    private readonly ticket: StreamTicket,
  ) {
    this.source = source[Symbol.asyncIterator]();
  }

  async next(): Promise<IteratorResult<ExecutionResult>> {
    if (this.ended) return { done: true, value: undefined };
    await this.ticket.room();
    if (this.ticket.closed) return this.return();
    const next = await this.source.next();
    if (next.done || this.ended) return this.return();
    if (this.ticket.charge()) return next;
    await this.return();
    const { type } = problems.rateLimitExceeded();
    return { done: false, value: { errors: [new GraphQLError(STREAM_RATE_LIMITED, { extensions: { code: type } })] } };
  }

  async return(): Promise<IteratorReturnResult<undefined>> {
    if (!this.ended) {
      this.ended = true;
      this.ticket.release();
      await this.source.return?.();
    }
    return { done: true, value: undefined };
  }

  async throw(error: unknown): Promise<IteratorReturnResult<undefined>> {
    await this.return();
    throw error;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
