// The ingest cursor: the last ledger whose rows are committed, written in the same transaction.
import type { SqlSession } from '../db/database.js';

export interface Cursor {
  sequence: number;
  hash: string;
}

export class CursorMovedError extends Error {
  override name = 'CursorMovedError';
}

export async function readCursor(sql: SqlSession): Promise<Cursor | null> {
  const rows = await sql.query<{ ledger_sequence: number; ledger_hash: string }>(
    'SELECT ledger_sequence, ledger_hash FROM ingest_cursor WHERE id = 1',
  );
  const row = rows[0];
  return row ? { sequence: Number(row.ledger_sequence), hash: row.ledger_hash } : null;
}

/**
 * Moves the cursor from `expected` (null: no cursor yet) to `next`. The row is locked first, so a
 * second ingester on the same database fails here instead of writing a ledger twice.
 */
export async function advanceCursor(sql: SqlSession, expected: Cursor | null, next: Cursor): Promise<void> {
  const rows = await sql.query<{ ledger_sequence: number }>('SELECT ledger_sequence FROM ingest_cursor WHERE id = 1 FOR UPDATE');
  const current = rows[0] ? Number(rows[0].ledger_sequence) : null;
  if (current !== (expected?.sequence ?? null)) {
    throw new CursorMovedError(
      `the ingest cursor is at ledger ${current ?? 'none'}, expected ${expected?.sequence ?? 'none'}: another ingester is writing to this database`,
    );
  }
  await sql.query(
    `INSERT INTO ingest_cursor (id, ledger_sequence, ledger_hash, updated_at) VALUES (1, $1, $2, now())
     ON CONFLICT (id) DO UPDATE SET ledger_sequence = EXCLUDED.ledger_sequence, ledger_hash = EXCLUDED.ledger_hash, updated_at = now()`,
    [next.sequence, next.hash],
  );
}
