// Scalars: Int64 (exact 64-bit integers as strings), Amount (stroops as a 7-decimal string) and
// DateTime (ISO 8601 UTC).
import { Kind } from 'graphql';
import { formatAmount, parseAmount } from '../../stellar/amount.js';
import { INT64_MAX, INT64_MIN } from '../../stellar/int64.js';
import { InvalidValueError } from '../../stellar/invalid_value_error.js';
import { badRequestError } from '../problems.js';
import { builder } from './builder.js';
import { verbatim } from './verbatim.js';

function parseInt64(value: unknown): bigint {
  const text = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value;
  if (typeof text !== 'string' || !/^-?\d+$/.test(text)) {
    throw badRequestError('Int64 must be a whole number written as a string');
  }
  const parsed = BigInt(text);
  if (parsed < INT64_MIN || parsed > INT64_MAX) {
    throw badRequestError('Int64 is out of range');
  }
  return parsed;
}

builder.scalarType('Int64', {
  description: 'A signed 64-bit integer, as a decimal string so that no client loses precision.',
  serialize: (value) => String(value),
  parseValue: parseInt64,
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING && ast.kind !== Kind.INT) {
      throw badRequestError('Int64 must be a string or an integer literal');
    }
    return parseInt64(ast.value);
  },
});

// A page's records mostly share their ledger's close time: the last one written is kept.
let lastTime = Number.NaN;
let lastText = '';

function serializeDateTime(value: Date): string {
  const time = value.getTime();
  if (time !== lastTime) {
    const iso = value.toISOString();
    // "YYYY-MM-DDTHH:MM:SS.sssZ" loses its milliseconds; other years keep the general rule
    lastText = iso.length === 24 ? `${iso.slice(0, 19)}Z` : iso.replace(/\.\d{3}Z$/, 'Z');
    lastTime = time;
  }
  return lastText;
}

builder.scalarType('DateTime', {
  description: 'A point in time, as an ISO 8601 UTC string without fractional seconds (as Horizon).',
  serialize: serializeDateTime,
  parseValue: (value) => {
    const date = typeof value === 'string' ? new Date(value) : undefined;
    if (!date || Number.isNaN(date.getTime())) {
      throw badRequestError('DateTime must be an ISO 8601 string');
    }
    return date;
  },
});

function parseAmountValue(value: unknown): bigint {
  try {
    if (typeof value !== 'string') throw new InvalidValueError('an Amount is a decimal string such as "10.5"');
    return parseAmount(value);
  } catch (error) {
    if (error instanceof InvalidValueError) throw badRequestError(error.message);
    throw error;
  }
}

builder.scalarType('Amount', {
  description: 'An amount of an asset: a decimal string with 7 places ("10.0000000"); 1 stroop is "0.0000001".',
  // a string is an amount already written this way (operation and effect details store them so)
  serialize: (value) => (typeof value === 'string' ? value : formatAmount(value)),
  parseValue: parseAmountValue,
  parseLiteral: (ast) => parseAmountValue(ast.kind === Kind.STRING ? ast.value : undefined),
});

builder.scalarType('JSON', {
  description: "A JSON value in Horizon's own shape (snake_case keys), passed through unchanged.",
  // a shallow copy carries the mark, so a value a loader shares between requests is never marked itself
  serialize: (value) =>
    value === null || typeof value !== 'object' ? value : verbatim(Array.isArray(value) ? [...value] : { ...(value as object) }),
  parseValue: (value) => value,
});
