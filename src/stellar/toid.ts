import { INT64_MAX, parseNonNegativeInt64 } from './int64.js';
import { InvalidValueError } from './invalid_value_error.js';

/**
 * TOID ("total order id"), as Horizon's services/horizon/internal/toid: one int64 that orders
 * ledgers, transactions and operations:
 *
 *     ledger sequence (32 bits) | transaction order (20 bits) | operation index (12 bits)
 *
 * Transaction order and operation index are 1-based for real transactions and operations, so
 * a ledger's id is toid(seq, 0, 0), a transaction's is toid(seq, txOrder, 0) and an operation's is
 * toid(seq, txOrder, opIndex >= 1). The sign bit is never set (ledger < 2^31), so ids sort the same
 * as signed SQL bigints.
 */
export interface Toid {
  readonly ledger: number;
  readonly txOrder: number;
  readonly opIndex: number;
}

/** Half-open interval [start, end) of ids. */
export interface ToidRange {
  readonly start: bigint;
  readonly end: bigint;
}

export const TOID_LEDGER_MAX = 2 ** 31 - 1;
export const TOID_TX_ORDER_MAX = 2 ** 20 - 1;
export const TOID_OP_INDEX_MAX = 2 ** 12 - 1;

const LEDGER_SHIFT = 32n;
const TX_SHIFT = 12n;
const TX_MASK = (1n << 20n) - 1n;
const OP_MASK = (1n << 12n) - 1n;

function checkPart(name: string, value: number, max: number): void {
  if (!Number.isInteger(value) || value < 0 || value > max) {
    throw new InvalidValueError(`${name} ${value} is out of range 0..${max}`);
  }
}

/** Packs (ledger, txOrder, opIndex) into a TOID; throws InvalidValueError if a part overflows its bits. */
export function toid(ledger: number, txOrder: number, opIndex: number): bigint {
  checkPart('ledger sequence', ledger, TOID_LEDGER_MAX);
  checkPart('transaction order', txOrder, TOID_TX_ORDER_MAX);
  checkPart('operation index', opIndex, TOID_OP_INDEX_MAX);
  return (BigInt(ledger) << LEDGER_SHIFT) | (BigInt(txOrder) << TX_SHIFT) | BigInt(opIndex);
}

/**
 * The sequence number of an account created in ledger `ledgerSeq` (stellar-core's
 * getStartingSequenceNumber): the ledger in the high 32 bits, as in the ledger's TOID, so that no
 * transaction signed for an earlier account of the same key can be replayed. Unchecked: it runs
 * for every transaction the core validates.
 */
export function startingSequenceNumber(ledgerSeq: number): bigint {
  return BigInt(ledgerSeq) << LEDGER_SHIFT;
}

/** Splits a TOID into its parts. Accepts 0..INT64_MAX. */
export function parseToid(id: bigint): Toid {
  if (id < 0n || id > INT64_MAX) {
    throw new InvalidValueError(`id ${id} is out of range 0..${INT64_MAX}`);
  }
  return {
    ledger: Number(id >> LEDGER_SHIFT),
    txOrder: Number((id >> TX_SHIFT) & TX_MASK),
    opIndex: Number(id & OP_MASK),
  };
}

// The range end for the very last ledger would be 2^63, which no bigint column can hold; capping at
// INT64_MAX only excludes toid(2^31-1, 2^20-1, 4095), an id no real operation can have.
function capEnd(end: bigint): bigint {
  return end > INT64_MAX ? INT64_MAX : end;
}

/** All ids (ledger, its transactions and operations) belonging to one ledger: [toid(l,0,0), toid(l+1,0,0)). */
export function ledgerToidRange(ledger: number): ToidRange {
  const start = toid(ledger, 0, 0);
  return { start, end: capEnd(start + (1n << LEDGER_SHIFT)) };
}

/**
 * The ledgers whose ids lie strictly between `gt` and `lt` (either may be absent), as bounds on
 * the ledger sequence: a ledger list paged by TOID queries its ledgers by sequence.
 */
export function ledgerSequenceBounds(range: { readonly gt?: bigint; readonly lt?: bigint }): { gt?: number; lt?: number } {
  const bounds: { gt?: number; lt?: number } = {};
  if (range.gt !== undefined) bounds.gt = Number(range.gt >> LEDGER_SHIFT);
  if (range.lt !== undefined) bounds.lt = Number((range.lt + (1n << LEDGER_SHIFT) - 1n) >> LEDGER_SHIFT);
  return bounds;
}

/**
 * All ids belonging to one transaction (the transaction and its operations), given the
 * transaction's id (any operation index in it is ignored). Unlike Horizon, which increments the
 * transaction order and would overflow at 2^20-1, the end simply rolls into the next ledger.
 */
export function transactionToidRange(txId: bigint): ToidRange {
  const { ledger, txOrder } = parseToid(txId);
  const start = toid(ledger, txOrder, 0);
  return { start, end: capEnd(start + (1n << TX_SHIFT)) };
}

/**
 * The id after everything a ledger holds: toid(ledger, max, max), Horizon's toid.AfterLedger, which
 * a `cursor=now` stands for (after the newest ledger of the history).
 */
export function afterLedger(ledger: number): bigint {
  return toid(ledger, TOID_TX_ORDER_MAX, TOID_OP_INDEX_MAX);
}

/**
 * Parses a TOID paging token (REST `cursor=`, GraphQL `after:`): a plain decimal integer in
 * 0..INT64_MAX. The special cursor "now" of streams is the API layer's business, not this one's.
 */
export function parsePagingToken(text: string): bigint {
  return parseNonNegativeInt64(text, 'cursor');
}

/** Renders a TOID paging token (its decimal form). */
export function formatPagingToken(id: bigint): string {
  return id.toString();
}

/** The `<operation_id>-<order>` paging token of effects and trades, parsed. */
export interface PairPagingToken {
  readonly operationId: bigint;
  readonly order: number;
}

/** Largest order in a pair token; Horizon clamps the second component of a cursor to it. */
export const PAIR_ORDER_MAX = 2 ** 31 - 1;

/**
 * Renders the paging token of an effect or trade: `<operation_id>-<order>`. Effects' order is
 * 1-based (Horizon's effects processor starts at 1); Horizon's trades use the 0-based index of the
 * claimed offer, so 0 is allowed here.
 */
export function formatPairPagingToken(operationId: bigint, order: number): string {
  if (operationId < 0n || operationId > INT64_MAX) {
    throw new InvalidValueError(`operation id ${operationId} is out of range 0..${INT64_MAX}`);
  }
  checkPart('order', order, PAIR_ORDER_MAX);
  return `${operationId}-${order}`;
}

/**
 * Parses an effects/trades cursor as Horizon's PageQuery.CursorInt64Pair does:
 * - `<op>-<order>`: both non-negative decimal int64s; an order above 2^31-1 is clamped to it
 *   (Horizon does the same before querying);
 * - a single number `<op>`: order = PAIR_ORDER_MAX, so the cursor skips every record of that
 *   operation id (e.g. a TOID ledger cursor skips every effect of that ledger).
 */
export function parsePairPagingToken(text: string): PairPagingToken {
  const dash = text.indexOf('-');
  if (dash === -1) {
    return { operationId: parseNonNegativeInt64(text, 'cursor'), order: PAIR_ORDER_MAX };
  }
  const operationId = parseNonNegativeInt64(text.slice(0, dash), 'cursor operation id');
  const order = parseNonNegativeInt64(text.slice(dash + 1), 'cursor order');
  return { operationId, order: order > BigInt(PAIR_ORDER_MAX) ? PAIR_ORDER_MAX : Number(order) };
}
