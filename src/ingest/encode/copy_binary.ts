// Rows as PostgreSQL's binary COPY input, written straight into bytes. In a payment-heavy reingest
// most of the bytes are base64 XDR: the text format made the server scan every one of them for
// delimiters and escapes and parse every number and timestamp, the binary format hands it each
// value with its length (a third less server CPU for the transactions table). A reingest builds
// the bytes on a worker thread and moves the buffer to the main thread, which passes it to the
// socket as it is.

import type { ColumnKind, Table } from '../table.js';
import type { BufferPool } from './buffer_pool.js';

/** the stream's header: signature, flags, header extension length */
export const COPY_HEADER = Uint8Array.from([...Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), 0, 0, 0, 0, 0, 0, 0, 0]);
/** the stream's trailer: a tuple of -1 fields */
export const COPY_TRAILER = Uint8Array.from([0xff, 0xff]);

const TEXT_OID = 25;
const TWO_32 = 2 ** 32;
/** PostgreSQL timestamps count microseconds from 2000-01-01 */
const POSTGRES_EPOCH_MS = Date.UTC(2000, 0, 1);

/** a growing byte buffer of COPY tuples */
export class CopyBinary {
  private buffer: Buffer<ArrayBuffer>;
  private end = 0;
  // the last timestamp parsed: a ledger's rows all carry its close time
  private lastIso = '';
  private lastMicros = 0;

  /** `spare`: where buffers come from and, when outgrown, go back to */
  constructor(
    capacity = 1 << 16,
    private readonly spare?: BufferPool,
  ) {
    this.buffer = this.allocate(capacity);
  }

  // its own ArrayBuffer (never Node's shared pool), so it can be transferred to another thread
  private allocate(bytes: number): Buffer<ArrayBuffer> {
    return this.spare ? Buffer.from(this.spare.take(bytes)) : Buffer.allocUnsafeSlow(bytes);
  }

  get length(): number {
    return this.end;
  }

  /** the bytes written so far: a view of the buffer as it is now, not a copy */
  view(): Uint8Array<ArrayBuffer> {
    return this.buffer.subarray(0, this.end);
  }

  private reserve(bytes: number): void {
    if (this.end + bytes <= this.buffer.length) return;
    const grown = this.allocate(Math.max(this.buffer.length * 2, this.end + bytes));
    this.buffer.copy(grown, 0, 0, this.end);
    this.spare?.give(this.buffer.buffer);
    this.buffer = grown;
  }

  fieldCount(count: number): void {
    this.reserve(2);
    this.end = this.buffer.writeInt16BE(count, this.end);
  }

  null(): void {
    this.reserve(4);
    this.end = this.buffer.writeInt32BE(-1, this.end);
  }

  boolean(value: boolean): void {
    this.reserve(5);
    this.end = this.buffer.writeInt32BE(1, this.end);
    this.buffer[this.end++] = value ? 1 : 0;
  }

  int4(value: number): void {
    this.reserve(8);
    this.end = this.buffer.writeInt32BE(4, this.end);
    this.end = this.buffer.writeInt32BE(value, this.end);
  }

  int8(value: number | bigint): void {
    this.reserve(12);
    this.end = this.buffer.writeInt32BE(8, this.end);
    if (typeof value === 'bigint') {
      this.end = this.buffer.writeBigInt64BE(value, this.end);
    } else {
      if (!Number.isSafeInteger(value)) throw new RangeError(`${value} is not an int64`);
      const high = Math.floor(value / TWO_32);
      this.end = this.buffer.writeInt32BE(high, this.end);
      this.end = this.buffer.writeUInt32BE(value - high * TWO_32, this.end);
    }
  }

  /** text known to be ASCII (hex, base64, StrKeys): its length is its byte count */
  ascii(text: string): void {
    this.reserve(4 + text.length);
    this.end = this.buffer.writeInt32BE(text.length, this.end);
    this.end += this.buffer.write(text, this.end, 'latin1');
  }

  text(text: string, prefix?: number): void {
    const extra = prefix === undefined ? 0 : 1;
    this.reserve(4 + extra + text.length * 3);
    const start = this.end;
    this.end += 4;
    if (prefix !== undefined) this.buffer[this.end++] = prefix;
    this.end += this.buffer.write(text, this.end, 'utf8');
    this.buffer.writeInt32BE(this.end - start - 4, start);
  }

  /** jsonb: a format version byte, then the JSON text */
  jsonb(json: string): void {
    this.text(json, 1);
  }

  /** a timestamp without time zone from an ISO-8601 UTC text */
  timestamp(iso: string): void {
    if (iso !== this.lastIso) {
      const ms = Date.parse(iso);
      if (!iso.endsWith('Z') || Number.isNaN(ms)) throw new RangeError(`${iso} is not a UTC timestamp`);
      this.lastIso = iso;
      this.lastMicros = (ms - POSTGRES_EPOCH_MS) * 1000;
    }
    this.int8(this.lastMicros);
  }

  /** a one-dimensional text[] */
  textArray(values: readonly string[]): void {
    this.reserve(24);
    const start = this.end;
    this.end += 4;
    this.end = this.buffer.writeInt32BE(values.length === 0 ? 0 : 1, this.end); // dimensions
    this.end = this.buffer.writeInt32BE(0, this.end); // no nulls
    this.end = this.buffer.writeInt32BE(TEXT_OID, this.end);
    if (values.length > 0) {
      this.end = this.buffer.writeInt32BE(values.length, this.end);
      this.end = this.buffer.writeInt32BE(1, this.end); // lower bound
    }
    for (const value of values) this.text(value);
    this.buffer.writeInt32BE(this.end - start - 4, start);
  }
}

type Encoder = (out: CopyBinary, value: unknown) => void;

const nullable =
  <T>(encode: (out: CopyBinary, value: T) => void): Encoder =>
  (out, value) =>
    value === null || value === undefined ? out.null() : encode(out, value as T);

// double precision has none: its only table (offers) is upserted, never copied
const ENCODERS: Partial<Record<ColumnKind, Encoder>> = {
  integer: nullable((out, value: number) => out.int4(value)),
  bigint: nullable((out, value: number | bigint) => out.int8(value)),
  boolean: nullable((out, value: boolean) => out.boolean(value)),
  text: nullable((out, value: string) => out.text(value)),
  ascii: nullable((out, value: string) => out.ascii(value)),
  timestamp: nullable((out, value: string) => out.timestamp(value)),
  jsonb: nullable((out, value: unknown) => out.jsonb(typeof value === 'string' ? value : JSON.stringify(value))),
  jsonb_array: nullable((out, value: unknown) => out.jsonb(JSON.stringify(value))),
  'text[]': nullable((out, value: readonly string[]) => out.textArray(value)),
};

export type RowWriter<Row extends object> = (out: CopyBinary, rows: readonly Row[]) => void;

/** A function that appends rows of `table` to a CopyBinary as COPY tuples (no header or trailer). */
export function rowWriter<Row extends object>(table: Table<Row>): RowWriter<Row> {
  const names = table.columns.map(({ name }) => name);
  const encoders = table.columns.map(({ name, kind, sqlType }) => {
    const encoder = ENCODERS[kind];
    if (!encoder) throw new Error(`no binary COPY encoding for column ${name} of type ${sqlType}`);
    return encoder;
  });
  return (out, rows) => {
    for (const row of rows as readonly object[] as readonly Record<string, unknown>[]) {
      out.fieldCount(names.length);
      for (let j = 0; j < names.length; j++) encoders[j]!(out, row[names[j]!]);
    }
  };
}

export const copyStatement = (table: Table): string =>
  `COPY "${table.name}" (${table.columns.map(({ name }) => `"${name}"`).join(', ')}) FROM STDIN WITH (FORMAT binary)`;
