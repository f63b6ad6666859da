// A database table as the writer fills it: its name and its columns in order, each with a kind
// that gives its SQL type, the value a row holds for it and (encode/copy_binary.ts) its COPY
// encoding. A table is declared once (rows.ts) and its row type derives from the declaration.
import type { Details, JsonValue } from './rows.js';

/** What a row holds for each kind of column. */
interface ColumnValues {
  integer: number;
  bigint: bigint;
  boolean: boolean;
  text: string;
  /** text known to be ASCII (hex, base64, StrKeys, type names): COPY writes it without UTF-8 encoding */
  ascii: string;
  /** ISO-8601 UTC, milliseconds */
  timestamp: string;
  jsonb: Details;
  /** jsonb holding a JSON array, not an object (a claimable balance's claimants) */
  jsonb_array: JsonValue[];
  'text[]': string[];
  double: number;
}

export type ColumnKind = keyof ColumnValues;

/** A column's kind, with `?` after it when the column takes NULL. */
export type ColumnSpec = ColumnKind | `${ColumnKind}?`;

type Value<S extends ColumnSpec> = S extends `${infer K extends ColumnKind}?` ? ColumnValues[K] | null : ColumnValues[S & ColumnKind];

const SQL_TYPES: Record<ColumnKind, string> = {
  integer: 'integer',
  bigint: 'bigint',
  boolean: 'boolean',
  text: 'text',
  ascii: 'text',
  timestamp: 'timestamp(3)',
  jsonb: 'jsonb',
  jsonb_array: 'jsonb',
  'text[]': 'text[]',
  double: 'double precision',
};

export interface Column {
  readonly name: string;
  readonly kind: ColumnKind;
  readonly sqlType: string;
}

export interface Table<Row extends object = object> {
  readonly name: string;
  readonly columns: readonly Column[];
  /** never set: carries the row type */
  readonly row?: Row;
}

/** The row of a table: one property per column, in the declaration's types. */
export type RowOf<T extends Table> = NonNullable<T['row']>;

/** Declares a table; the object's key order is the column order. */
export function table<const Spec extends Record<string, ColumnSpec>>(
  name: string,
  spec: Spec,
): Table<{ -readonly [Name in keyof Spec]: Value<Spec[Name]> }> {
  const columns = Object.entries(spec).map(([column, s]): Column => {
    const kind = s.replace(/\?$/, '') as ColumnKind;
    return { name: column, kind, sqlType: SQL_TYPES[kind] };
  });
  return { name, columns };
}
