// The shape of a database schema (tables, columns with type/nullability/default, indexes), read
// two ways: what schema.prisma says Prisma would create, and what a live database has. The
// schema-match test diffs the two, since the Prisma schema engine that would do it is unavailable.
import { getDMMF } from '@prisma/get-dmmf';
import type { SqlSession } from '../../src/db/database.js';
import { MIGRATIONS_TABLE } from '../../src/db/migrate.js';

export interface ColumnShape {
  type: string;
  nullable: boolean;
  default: string | null;
}

export interface IndexShape {
  kind: 'primary' | 'unique' | 'index';
  columns: string[];
  /** the access method: btree, brin, … */
  method: string;
  /** a partial index's predicate, without quotes and outer parentheses */
  where: string | null;
}

export interface TableShape {
  columns: Record<string, ColumnShape>;
  /** keyed by kind, columns, method and predicate, e.g. "unique(type,code,issuer)", "index(id) using brin" */
  indexes: Record<string, IndexShape>;
}

export type SchemaShape = Record<string, TableShape>;

const indexKey = (index: IndexShape) =>
  `${index.kind}(${index.columns.join(',')})${index.method === 'btree' ? '' : ` using ${index.method}`}${index.where ? ` where ${index.where}` : ''}`;

const normalPredicate = (text: string): string =>
  text
    .replace(/"/g, '')
    .replace(/^\((.*)\)$/s, '$1')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * The predicates of partial indexes (`@@index([a, b], where: raw("…"))`), by model and fields: the
 * DMMF leaves them out.
 */
function partialPredicates(datamodel: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const model of datamodel.matchAll(/^model\s+(\w+)\s*\{([^}]*)\}/gm)) {
    for (const index of model[2]!.matchAll(/@@index\(\[([^\]]*)\][^\n]*?where:\s*raw\("([^"]*)"\)/g)) {
      const fields = index[1]!.split(',').map((f) => f.trim());
      found.set(`${model[1]}:${fields.join(',')}`, normalPredicate(index[2]!));
    }
  }
  return found;
}

// Prisma's PostgreSQL types for scalar fields without a native type attribute.
const DEFAULT_TYPES: Record<string, string> = {
  String: 'text',
  Int: 'integer',
  BigInt: 'bigint',
  Boolean: 'boolean',
  DateTime: 'timestamp(3) without time zone',
  Json: 'jsonb',
  Float: 'double precision',
  Bytes: 'bytea',
  Decimal: 'numeric(65,30)',
};

const NATIVE_TYPES: Record<string, (args: string[]) => string> = {
  VarChar: ([n]) => `character varying(${n})`,
  Char: ([n]) => `character(${n})`,
  SmallInt: () => 'smallint',
  Text: () => 'text',
  Timestamptz: ([p]) => `timestamp(${p ?? 3}) with time zone`,
  Timestamp: ([p]) => `timestamp(${p ?? 3}) without time zone`,
};

/** What Prisma would create for this schema.prisma text. */
export async function expectedShape(datamodel: string): Promise<SchemaShape> {
  const document = getDMMF({ datamodel });
  if ('reason' in document) throw new Error(`schema.prisma does not parse: ${document.reason}`);
  const dm = document.datamodel;
  const predicates = partialPredicates(datamodel);
  const shape: SchemaShape = {};
  for (const model of dm.models) {
    const table = model.dbName ?? model.name;
    const dbNames = new Map<string, string>();
    const columns: Record<string, ColumnShape> = {};
    for (const field of model.fields) {
      if (field.kind !== 'scalar' && field.kind !== 'enum') continue;
      const column = field.dbName ?? field.name;
      dbNames.set(field.name, column);
      columns[column] = {
        type: columnType(field.type, field.nativeType, field.isList),
        // Prisma creates list columns without NOT NULL
        nullable: !field.isRequired || field.isList,
        default: columnDefault(table, column, field.type, field.default),
      };
    }
    const indexes: Record<string, IndexShape> = {};
    for (const index of dm.indexes.filter((i) => i.model === model.name)) {
      const kind = index.type === 'id' ? 'primary' : index.type === 'unique' ? 'unique' : 'index';
      const shapeOfIndex: IndexShape = {
        kind,
        columns: index.fields.map((f) => dbNames.get(f.name) ?? f.name),
        method: (index as { algorithm?: string }).algorithm?.toLowerCase() ?? 'btree',
        where: predicates.get(`${model.name}:${index.fields.map((f) => f.name).join(',')}`) ?? null,
      };
      indexes[indexKey(shapeOfIndex)] = shapeOfIndex;
    }
    shape[table] = { columns, indexes };
  }
  return shape;
}

function columnType(type: string, nativeType: unknown, isList: boolean): string {
  let sqlType: string | undefined;
  if (Array.isArray(nativeType)) {
    const [name, args] = nativeType as [string, string[]];
    sqlType = NATIVE_TYPES[name]?.(args);
    if (!sqlType) throw new Error(`schema_shape: add native type @db.${name}`);
  } else {
    sqlType = DEFAULT_TYPES[type];
    if (!sqlType) throw new Error(`schema_shape: add Prisma type ${type}`);
  }
  return isList ? `${sqlType}[]` : sqlType;
}

function columnDefault(table: string, column: string, type: string, value: unknown): string | null {
  if (value === undefined || value === null) return null;
  // DMMF gives BigInt defaults as strings
  if (typeof value === 'number' || typeof value === 'bigint' || type === 'BigInt') return String(value);
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return `'${value.replaceAll("'", "''")}'::text`;
  const fn = value as { name: string };
  if (fn.name === 'autoincrement') return `nextval('${table}_${column}_seq'::regclass)`;
  if (fn.name === 'now') return 'CURRENT_TIMESTAMP';
  throw new Error(`schema_shape: add default ${JSON.stringify(value)}`);
}

/** What a live database has in its public schema (the migrations table aside). */
export async function actualShape(sql: SqlSession): Promise<SchemaShape> {
  const columns = await sql.query<{
    table_name: string;
    column_name: string;
    type: string;
    not_null: boolean;
    column_default: string | null;
  }>(`
    SELECT c.relname AS table_name, a.attname AS column_name,
           format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS not_null,
           pg_get_expr(d.adbin, d.adrelid) AS column_default
    FROM pg_attribute a
    JOIN pg_class c ON c.oid = a.attrelid AND c.relkind = 'r'
    JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
    LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
    WHERE a.attnum > 0 AND NOT a.attisdropped
    ORDER BY c.relname, a.attnum`);
  const indexes = await sql.query<{
    table_name: string;
    is_primary: boolean;
    is_unique: boolean;
    columns: string[] | string;
    method: string;
    predicate: string | null;
  }>(`
    SELECT t.relname AS table_name, i.indisprimary AS is_primary, i.indisunique AS is_unique,
           am.amname AS method, pg_get_expr(i.indpred, i.indrelid) AS predicate,
           array(SELECT a.attname FROM unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord)
                 JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
                 ORDER BY k.ord)::text[] AS columns
    FROM pg_index i
    JOIN pg_class t ON t.oid = i.indrelid
    JOIN pg_class ic ON ic.oid = i.indexrelid
    JOIN pg_am am ON am.oid = ic.relam
    JOIN pg_namespace n ON n.oid = t.relnamespace AND n.nspname = 'public'`);

  const shape: SchemaShape = {};
  const tableOf = (name: string) => (shape[name] ??= { columns: {}, indexes: {} });
  for (const row of columns) {
    if (row.table_name === MIGRATIONS_TABLE) continue;
    tableOf(row.table_name).columns[row.column_name] = {
      type: row.type,
      nullable: !row.not_null,
      default: row.column_default,
    };
  }
  for (const row of indexes) {
    if (row.table_name === MIGRATIONS_TABLE) continue;
    const index: IndexShape = {
      kind: row.is_primary ? 'primary' : row.is_unique ? 'unique' : 'index',
      columns: parseTextArray(row.columns),
      method: row.method,
      where: row.predicate === null ? null : normalPredicate(row.predicate),
    };
    tableOf(row.table_name).indexes[indexKey(index)] = index;
  }
  return shape;
}

// node-postgres parses text[] into an array; PGlite may hand back the literal "{a,b}".
function parseTextArray(value: string[] | string): string[] {
  if (Array.isArray(value)) return value;
  return value
    .replace(/^\{|\}$/g, '')
    .split(',')
    .filter(Boolean)
    .map((s) => s.replace(/^"|"$/g, ''));
}

/** Every difference, as sentences; empty when the shapes agree. */
export function diffShapes(expected: SchemaShape, actual: SchemaShape): string[] {
  const problems: string[] = [];
  for (const [table, want] of Object.entries(expected)) {
    const have = actual[table];
    if (!have) {
      problems.push(`table ${table} is missing from the database`);
      continue;
    }
    for (const [column, wantColumn] of Object.entries(want.columns)) {
      const haveColumn = have.columns[column];
      if (!haveColumn) problems.push(`column ${table}.${column} is missing from the database`);
      else {
        for (const key of ['type', 'nullable', 'default'] as const) {
          if (haveColumn[key] !== wantColumn[key]) {
            problems.push(
              `column ${table}.${column}: ${key} is ${JSON.stringify(haveColumn[key])} in the database, ` +
                `${JSON.stringify(wantColumn[key])} in schema.prisma`,
            );
          }
        }
      }
    }
    for (const column of Object.keys(have.columns)) {
      if (!want.columns[column]) problems.push(`column ${table}.${column} is not in schema.prisma`);
    }
    for (const key of Object.keys(want.indexes)) {
      if (!have.indexes[key]) problems.push(`index ${table} ${key} is missing from the database`);
    }
    for (const key of Object.keys(have.indexes)) {
      if (!want.indexes[key]) problems.push(`index ${table} ${key} is not in schema.prisma`);
    }
  }
  for (const table of Object.keys(actual)) {
    if (!expected[table]) problems.push(`table ${table} is not in schema.prisma`);
  }
  return problems;
}
