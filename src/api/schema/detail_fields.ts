// Turns a details table entry (operation_details.ts, effect_details.ts) into typed GraphQL fields
// that read the row's `details` JSON. Every detail field is nullable: Horizon omits empty ones.
import { parseAmount } from '../../stellar/amount.js';
import { AssetRef, PriceRef, type AssetShape, type PriceShape } from './asset.js';
import type { BuilderTypes } from './builder.js';

type Kind = 'string' | 'amount' | 'int' | 'int64' | 'boolean' | 'strings' | 'ints' | 'price' | 'assets' | 'json';

export interface DetailField {
  /** Horizon's JSON name */
  key: string;
  kind: Kind;
}

const KINDS = new Set<string>(['string', 'amount', 'int', 'int64', 'boolean', 'strings', 'ints', 'price', 'assets', 'json']);

export function parseDetails(spec: string): DetailField[] {
  return spec
    .split(/\s+/)
    .filter(Boolean)
    .map((part) => {
      const [key = '', kind = 'string'] = part.split(':');
      if (!KINDS.has(kind)) throw new Error(`detail ${part}: unknown kind`);
      return { key, kind: kind as Kind };
    });
}

export function camelCase(snake: string): string {
  return snake.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

function detail(details: unknown, key: string): unknown {
  return details !== null && typeof details === 'object' && !Array.isArray(details) ? (details as Record<string, unknown>)[key] : undefined;
}

function asString(value: unknown): string | null {
  return typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : null;
}

function asInt(value: unknown): number | null {
  const n = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) ? n : null;
}

function asInt64(value: unknown): bigint | null {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return BigInt(value);
  return null;
}

// what formatAmount writes for 0 to 99,999,999,999.9999999: served as stored, without a round trip
const FORMATTED_AMOUNT = /^(?:0|[1-9]\d{0,10})\.\d{7}$/;

function asAmount(value: unknown): bigint | string | null {
  if (typeof value === 'string' && FORMATTED_AMOUNT.test(value)) return value;
  try {
    if (typeof value === 'string') return parseAmount(value);
    if (typeof value === 'number' && Number.isFinite(value)) return parseAmount(value.toFixed(7));
  } catch {
    return null;
  }
  return null;
}

function asPrice(value: unknown): PriceShape | null {
  const n = asInt(detail(value, 'n') ?? detail(value, 'N'));
  const d = asInt(detail(value, 'd') ?? detail(value, 'D'));
  return n === null || d === null ? null : { n, d };
}

function asAssets(value: unknown): AssetShape[] | null {
  if (!Array.isArray(value)) return null;
  return value.map((item) => ({
    assetType: asString(detail(item, 'asset_type')) ?? '',
    assetCode: asString(detail(item, 'asset_code')),
    assetIssuer: asString(detail(item, 'asset_issuer')),
  }));
}

type Row = { details: unknown };
type FieldBuilder = PothosSchemaTypes.ObjectFieldBuilder<BuilderTypes, Row>;

/** The GraphQL fields of a details table entry, keyed by camelCase name. */
export function detailFields(t: FieldBuilder, spec: string) {
  const fields: Record<string, ReturnType<FieldBuilder['string']>> = {};
  for (const { key, kind } of parseDetails(spec)) {
    const read = (row: Row) => detail(row.details, key);
    const name = camelCase(key);
    switch (kind) {
      case 'string':
        fields[name] = t.string({ nullable: true, resolve: (row) => asString(read(row)) }) as never;
        break;
      case 'amount':
        fields[name] = t.field({ type: 'Amount', nullable: true, resolve: (row) => asAmount(read(row)) }) as never;
        break;
      case 'int':
        fields[name] = t.int({ nullable: true, resolve: (row) => asInt(read(row)) }) as never;
        break;
      case 'int64':
        fields[name] = t.field({ type: 'Int64', nullable: true, resolve: (row) => asInt64(read(row)) }) as never;
        break;
      case 'boolean':
        fields[name] = t.boolean({
          nullable: true,
          resolve: (row) => (typeof read(row) === 'boolean' ? (read(row) as boolean) : null),
        }) as never;
        break;
      case 'strings':
        fields[name] = t.stringList({
          nullable: true,
          resolve: (row) => (Array.isArray(read(row)) ? (read(row) as unknown[]).map((v) => asString(v) ?? '') : null),
        }) as never;
        break;
      case 'ints':
        fields[name] = t.intList({
          nullable: true,
          resolve: (row) => (Array.isArray(read(row)) ? (read(row) as unknown[]).map((v) => asInt(v) ?? 0) : null),
        }) as never;
        break;
      case 'price':
        fields[name] = t.field({ type: PriceRef, nullable: true, resolve: (row) => asPrice(read(row)) }) as never;
        break;
      case 'assets':
        fields[name] = t.field({ type: [AssetRef], nullable: true, resolve: (row) => asAssets(read(row)) }) as never;
        break;
      case 'json':
        fields[name] = t.field({ type: 'JSON', nullable: true, resolve: (row) => read(row) ?? null }) as never;
        break;
    }
  }
  return fields;
}
