// The binary COPY encoder's number and timestamp layouts, byte for byte (the database round trip
// is in writer_copy.db.test.ts).
import { describe, expect, it } from 'vitest';
import { CopyBinary } from '../../../src/ingest/encode/copy_binary.js';

const bytes = (write: (out: CopyBinary) => void): Buffer => {
  const out = new CopyBinary(4);
  write(out);
  return Buffer.from(out.view());
};

const int8Field = (value: bigint): Buffer => {
  const field = Buffer.alloc(12);
  field.writeInt32BE(8, 0);
  field.writeBigInt64BE(value, 4);
  return field;
};

describe('CopyBinary', () => {
  it('writes a JS number into an int8 field as its two-complement bigint would be', () => {
    for (const n of [0, 1, -1, 2 ** 32, -(2 ** 32), 2 ** 32 + 5, -(2 ** 32) - 5, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]) {
      expect(
        bytes((out) => out.int8(n)),
        String(n),
      ).toEqual(int8Field(BigInt(n)));
    }
    expect(() => bytes((out) => out.int8(2 ** 60))).toThrow(RangeError);
  });

  it('counts timestamps in microseconds from 2000-01-01 and refuses a time without its zone', () => {
    expect(bytes((out) => out.timestamp('2000-01-01T00:00:00.001Z'))).toEqual(int8Field(1000n));
    expect(bytes((out) => out.timestamp('1999-12-31T23:59:59.000Z'))).toEqual(int8Field(-1_000_000n));
    expect(() => bytes((out) => out.timestamp('2024-01-02T03:04:05'))).toThrow(RangeError);
  });

  it('grows its buffer and keeps what it wrote', () => {
    const long = 'x'.repeat(100_000);
    const written = bytes((out) => {
      out.ascii('ab');
      out.text(long);
    });
    expect(written.length).toBe(4 + 2 + 4 + long.length);
    expect(written.subarray(10).toString('latin1')).toBe(long);
  });
});
