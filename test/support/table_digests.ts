// Every table's rows as one digest: a row count and the md5 of all rows as text, in text order,
// so two databases hold the same rows exactly when their digests match (the bookkeeping tables
// that name when or by whom something ran are left out).
import type { Database } from '../../src/db/database.js';

const BOOKKEEPING = new Set(['zenith_migrations', 'key_value_store', 'ingest_cursor']);

export async function tableDigests(db: Database): Promise<Record<string, string>> {
  return db.session(async (sql) => {
    const tables = await sql.query<{ name: string }>(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name",
    );
    const digests: Record<string, string> = {};
    for (const { name } of tables) {
      if (BOOKKEEPING.has(name)) continue;
      const [row] = await sql.query<{ rows: string; digest: string | null }>(
        `SELECT count(*)::text AS rows, md5(string_agg(t::text, E'\\n' ORDER BY t::text)) AS digest FROM "${name}" t`,
      );
      digests[name] = `${row?.rows ?? 0} rows ${row?.digest ?? '-'}`;
    }
    return digests;
  });
}
