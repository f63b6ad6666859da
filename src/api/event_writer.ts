// The writes of an event stream, REST's (rest/sse.ts) and GraphQL's (graphql_sse.ts): an event's
// bytes are encoded once for every stream that sends it, and go to the socket itself when they can.
import type { ServerResponse } from 'node:http';
import type { Writable } from 'node:stream';
import { drained, type StreamTicket } from './stream_limits.js';

/**
 * One event's bytes: encoded once, and framed as an HTTP chunk once, however many streams send it
 * (streams that share a read share its records, and so their events).
 */
export class EventBytes {
  private framed: Buffer | null = null;

  constructor(readonly bytes: Buffer) {}

  /** the bytes as one chunk of a chunked response */
  get chunk(): Buffer {
    this.framed ??= Buffer.concat([Buffer.from(`${this.bytes.length.toString(16)}\r\n`, 'latin1'), this.bytes, CRLF]);
    return this.framed;
  }
}

const CRLF = Buffer.from('\r\n', 'latin1');

/**
 * Writes a stream's events. Once the response owns its socket and has nothing of its own unsent,
 * an event goes to the socket itself, as the chunk every stream sending it shares: one write
 * without the cork, the tick and the four pieces of `res.write`, which with a thousand streams on
 * one ledger were most of the work between the read and the clients. Otherwise (a HEAD, a
 * response queued behind another on its connection) through `res.write`.
 */
export class EventWriter {
  /** where the last event went, and so where room is awaited */
  private sink: Writable;

  constructor(
    private readonly res: ServerResponse,
    private readonly direct: boolean,
    private readonly ticket: StreamTicket | undefined,
  ) {
    this.sink = res;
  }

  /** false: wait for room before the next one */
  write(event: EventBytes): boolean {
    const { res } = this;
    const socket = res.socket;
    if (!this.direct || socket === null || res.writableLength !== socket.writableLength) {
      this.sink = res;
      return res.write(event.bytes);
    }
    this.sink = socket;
    const room = socket.write(res.chunkedEncoding ? event.chunk : event.bytes);
    this.ticket?.wrote(room);
    return room;
  }

  get full(): boolean {
    return this.sink.writableNeedDrain;
  }

  drained(withinMs?: number): Promise<boolean> {
    return drained(this.sink, withinMs);
  }
}

/** the response can still be written to (not ended, its client still there) */
export function open(res: ServerResponse): boolean {
  return !res.writableEnded && !res.destroyed;
}
