// GraphQL results become Horizon JSON: camelCase keys turn into snake_case, null fields are left
// out (Horizon's `omitempty`), JSON-scalar values pass through untouched, nothing else changes
// (scalars were already serialized by their GraphQL types).
import { isVerbatim } from '../schema/verbatim.js';

/**
 * Where a GraphQL field's REST name is not its snake_case form: `Type.field` → REST name. The
 * GraphQL name differs because the REST name is taken by a relation in GraphQL (an effect's
 * `account` is the Account; its id is `accountId`). selection.ts applies these as aliases, so the
 * rendered key is already right; an interface's entry holds for every type implementing it.
 */
export const REST_RENAMES: Readonly<Record<string, string>> = {
  'Transaction.ledgerSequence': 'ledger',
  // Horizon's transaction names its muxed source account_muxed (operations: source_account_muxed)
  'Transaction.sourceAccountMuxed': 'accountMuxed',
  'Transaction.sourceAccountMuxedId': 'accountMuxedId',
  'Effect.accountId': 'account',
  'Trade.baseAccountId': 'baseAccount',
  'Trade.counterAccountId': 'counterAccount',
  // GraphQL's `id` is the Relay global id; `sponsor` is the Account
  'ClaimableBalance.balanceId': 'id',
  'ClaimableBalance.sponsorId': 'sponsor',
  'LiquidityPool.liquidityPoolId': 'id',
};

// field names are few and rendered again and again: convert each once
const snakeNames = new Map<string, string>();

export function snakeCase(name: string): string {
  let snake = snakeNames.get(name);
  if (snake === undefined) {
    snake = name
      .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
      .replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
      .toLowerCase();
    snakeNames.set(name, snake);
  }
  return snake;
}

export function toRestJson(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || isVerbatim(value)) return value;
  if (Array.isArray(value)) return value.map(toRestJson);
  const out: Record<string, unknown> = {};
  renderFields(value, out);
  return out;
}

/** Fields rendered aside rather than into the target: by REST name, into `into`. */
export interface Aside {
  readonly names: ReadonlySet<string>;
  readonly into: Record<string, unknown>;
}

/**
 * Writes an object's rendered fields into `target`, so that a caller can put keys of its own first
 * (a resource's `_links` and `id`) without copying the record again: a page renders ~3,000 fields.
 * The fields `aside` names go to it instead: a record never has a key deleted, which would turn it
 * into a dictionary, slower to read and to stringify.
 */
export function renderFields(value: object, target: Record<string, unknown>, aside?: Aside): void {
  const fields = value as Record<string, unknown>;
  // for…in rather than Object.entries: no [key, value] array per field
  for (const key in fields) {
    const inner = fields[key];
    if (key === '__typename' || inner === null || inner === undefined) continue;
    const name = snakeCase(key);
    const rendered = typeof inner === 'object' ? toRestJson(inner) : inner;
    if (aside?.names.has(name)) aside.into[name] = rendered;
    else target[name] = rendered;
  }
}

/** renderFields of a value already in REST's shape (the planned executor's, executor.ts): a shallow copy */
export function copyRenderedFields(value: object, target: Record<string, unknown>, aside?: Aside): void {
  const fields = value as Record<string, unknown>;
  for (const key in fields) {
    const inner = fields[key];
    // (a field that resolved late to null kept an undefined placeholder)
    if (inner === undefined) continue;
    if (aside?.names.has(key)) aside.into[key] = inner;
    else target[key] = inner;
  }
}
