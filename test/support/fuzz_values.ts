// What the fuzz test (test/api/fuzz.db.test.ts) sends: bad values for a REST parameter (as the raw
// text of a URL, percent-escapes included) and for a GraphQL argument of any input type (a JS
// value for the variables, or a literal; `RawNumber` is a number token neither JSON nor JS can
// hold, such as 1e400 or 2^63, written as it is in both).
import fc from 'fast-check';
import { type GraphQLInputType, GraphQLEnumType, GraphQLInputObjectType, GraphQLList, GraphQLNonNull, GraphQLScalarType } from 'graphql';

export class RawNumber {
  constructor(readonly text: string) {}
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const base32 = (length: number) => fc.stringOf(fc.constantFrom(...BASE32), { minLength: length, maxLength: length });
const hex = (min: number, max: number) => fc.stringOf(fc.constantFrom(...'0123456789abcdefABCDEFg'), { minLength: min, maxLength: max });

/** numbers no parameter takes: beyond int32, uint32, int64, uint64, negative, not written as whole numbers */
const BAD_NUMBERS = [
  '2147483647',
  '2147483648',
  '4294967295',
  '4294967296',
  '9223372036854775807',
  '9223372036854775808',
  '18446744073709551615',
  '18446744073709551616',
  '-1',
  '-2147483649',
  '-9223372036854775808',
  '-9223372036854775809',
  '1e400',
  '-1e400',
  '1e3',
  '1.5',
  '0.0000001',
  '-0',
  '+1',
  '01',
  '0x10',
  'NaN',
  'Infinity',
  '1_000',
  ' 1',
  '1 ',
  '9'.repeat(40),
  '9'.repeat(400),
  '9'.repeat(5000),
];

/** texts shaped like what parameters take, but wrong */
const BAD_WORDS = [
  '',
  ' ',
  'now',
  'native',
  'native:',
  ':',
  'USD:',
  'XLM',
  'credit_alphanum4',
  'credit_alphanum12',
  'liquidity_pool_shares',
  'asc',
  'desc',
  'DESC',
  'true',
  'false',
  'maybe',
  'null',
  'undefined',
  '[]',
  '{}',
  '{"$gt":""}',
  "' OR 1=1 --",
  '"; DROP TABLE ledgers; --',
  '../../etc/passwd',
  '\\',
  '1-2-3',
  '0-0',
  '-1-1',
  '12884905985-99999999999',
  'a\u0000b',
  '\u0000',
  'GA\u0000',
  '\n',
  '\r\n',
  '\t',
  '\u007f',
  '\u202e',
  '\ufeff',
  'ü',
  '😀',
  '𝕏'.repeat(40),
  'a'.repeat(65),
  'a'.repeat(8000),
  'a'.repeat(100_000),
];

/** an account id, hash, balance or pool id, asset or cursor gone wrong */
const wrongIds: fc.Arbitrary<string> = fc.oneof(
  base32(55).map((s) => `G${s}`),
  base32(56).map((s) => `G${s}`),
  base32(55).map((s) => `S${s}`),
  base32(68).map((s) => `M${s}`),
  base32(55).map((s) => `C${s}`),
  base32(57).map((s) => `G${s}`),
  hex(63, 65),
  hex(72, 72),
  hex(64, 64).map((s) => `00000001${s}`),
  hex(64, 64).map((s) => `00000000${s}`),
  fc
    .tuple(
      fc.string({ maxLength: 14 }),
      fc.oneof(
        base32(55).map((s) => `G${s}`),
        fc.string({ maxLength: 60 }),
      ),
    )
    .map(([code, issuer]) => `${code}:${issuer}`),
  fc.tuple(fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }), fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n })).map(([a, b]) => `${a}-${b}`),
);

/** A bad value for a parameter, as a decoded text. */
export const badText: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...BAD_NUMBERS) },
  { weight: 3, arbitrary: fc.constantFrom(...BAD_WORDS) },
  { weight: 3, arbitrary: wrongIds },
  { weight: 1, arbitrary: fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map(String) },
  { weight: 1, arbitrary: fc.double().map(String) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.fullUnicodeString({ maxLength: 30 }) },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.constantFrom(...BAD_WORDS.slice(0, 20)), fc.fullUnicodeString({ maxLength: 4 })).map(([a, b]) => a + b),
  },
);

/** percent-escapes that are no UTF-8 (or a NUL), and escapes that are not escapes */
const RAW_ESCAPES = [
  '%00',
  'a%00b',
  '%C3%28',
  '%FF',
  '%FE%FF',
  '%E0%80%80',
  '%ED%A0%80',
  '%F0%9F%98',
  '%C0%AF',
  '%',
  '%zz',
  '%%',
  '%2',
  '%u0041',
  '%2F',
  '%3F',
  '%23',
  '%2E%2E',
];

/** A bad value as the raw text of a URL (already escaped) */
export const badUrlText: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: badText.map(urlEscape) },
  { weight: 2, arbitrary: fc.constantFrom(...RAW_ESCAPES) },
  {
    weight: 1,
    arbitrary: fc.tuple(badText.map(urlEscape), fc.constantFrom(...RAW_ESCAPES)).map(([text, raw]) => `${text.slice(0, 60)}${raw}`),
  },
);

/** percent-encodes a text for a URL (a lone surrogate cannot be encoded: it is sent as %ED%A0%80) */
export function urlEscape(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return '%ED%A0%80';
  }
}

// GraphQL

const badInts: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...BAD_NUMBERS.filter((n) => /^-?\d+$/.test(n) || /e/.test(n)).map((n) => new RawNumber(n))),
  fc.constantFrom(-1, 0, 201, 1000, 2 ** 31, -(2 ** 31) - 1, 2 ** 53, 1.5, Number.MAX_VALUE),
  fc.integer().map((n) => n),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** A string argument's bad values: the REST texts (NUL, huge, ids gone wrong), and lone surrogates */
const badStrings: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 8, arbitrary: badText },
  { weight: 1, arbitrary: fc.constantFrom('\ud800', 'a\udfff', '\\u0000', '\\') },
);

/** a value of another type */
const wrongType: fc.Arbitrary<unknown> = fc.constantFrom(
  null,
  true,
  5,
  -1,
  1.5,
  'text',
  [],
  [1, 'a'],
  {},
  { a: 1 },
  new RawNumber('1e400'),
);

/** Bad values for an argument of this type (and sometimes, on purpose, a good one of another type). */
export function badValue(type: GraphQLInputType, depth = 0): fc.Arbitrary<unknown> {
  if (type instanceof GraphQLNonNull)
    return fc.oneof({ weight: 9, arbitrary: badValue(type.ofType, depth) }, { weight: 1, arbitrary: fc.constant(null) });
  if (type instanceof GraphQLList) {
    const item = badValue(type.ofType, depth + 1);
    return fc.oneof(
      fc.array(item, { maxLength: 4 }),
      item,
      fc.constant(null),
      // far more than any list takes (nodes' 200 ids)
      fc.tuple(item, fc.integer({ min: 201, max: 3000 })).map(([value, count]) => Array.from({ length: count }, () => value)),
    );
  }
  if (type instanceof GraphQLInputObjectType) {
    const fields = Object.values(type.getFields());
    if (depth > 2) return wrongType;
    const record = fc.record(
      Object.fromEntries(fields.map((field) => [field.name, fc.oneof(badValue(field.type, depth + 1), fc.constant(undefined))])),
      { requiredKeys: [] },
    );
    return fc.oneof(
      { weight: 6, arbitrary: record },
      { weight: 1, arbitrary: record.map((value) => ({ ...value, unknownField: 'x' })) },
      { weight: 1, arbitrary: wrongType },
    );
  }
  if (type instanceof GraphQLEnumType) {
    const names = type.getValues().map((value) => value.name);
    return fc.oneof(
      fc.constantFrom(...names.map((name) => name.toUpperCase()), 'sideways', 'ASC', 'DESC'),
      fc.string({ maxLength: 10 }),
      wrongType,
    );
  }
  if (type instanceof GraphQLScalarType) {
    switch (type.name) {
      case 'Int':
      case 'Float':
        return fc.oneof({ weight: 4, arbitrary: badInts }, { weight: 1, arbitrary: badStrings }, { weight: 1, arbitrary: wrongType });
      case 'Boolean':
        return fc.oneof(fc.constantFrom('true', 'false', 1, 0, 'yes'), wrongType);
      default:
        // String, ID and the custom scalars (Int64, Amount, DateTime, JSON), all read from text
        return fc.oneof(
          { weight: 6, arbitrary: badStrings },
          { weight: 1, arbitrary: badInts },
          { weight: 1, arbitrary: wrongType },
          { weight: 1, arbitrary: fc.string({ maxLength: 30 }).map((s) => Buffer.from(s).toString('base64')) },
        );
    }
  }
  return wrongType;
}

/** The value as a GraphQL literal: strings quoted (JSON's escapes are GraphQL's), enum-like names bare where the type is an enum. */
export function literal(value: unknown, enumType: boolean): string {
  if (value instanceof RawNumber) return value.text;
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return enumType && /^[_A-Za-z][_0-9A-Za-z]*$/.test(value) ? value : JSON.stringify(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '1e400';
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map((item) => literal(item, enumType)).join(', ')}]`;
  const entries = Object.entries(value as object).filter(([, item]) => item !== undefined);
  return `{${entries.map(([key, item]) => `${key}: ${literal(item, false)}`).join(', ')}}`;
}

/** JSON with RawNumbers written as their token (JSON.parse on the server reads 1e400 as Infinity, 2^63 as a rounded double) */
export function jsonWithRaw(value: unknown): string {
  const tokens: string[] = [];
  const text = JSON.stringify(value, (_key, item: unknown) => {
    if (item instanceof RawNumber) {
      tokens.push(item.text);
      return `\u0001raw${tokens.length - 1}\u0001`;
    }
    return item;
  });
  return text.replace(/"\\u0001raw(\d+)\\u0001"/g, (_match, index: string) => tokens[Number(index)]!);
}
