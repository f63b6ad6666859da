// PGlite runs PostgreSQL as one backend, which never checkpoints by itself: without the
// checkpoints openDatabase adds after commits, pg_wal would keep every byte ever written.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** writes ~`mb` MB of WAL in transactions of ~1 MB, then returns the checkpoint's redo position and pg_wal's segments */
async function writeWal(walBytes: number, mb: number) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'zenith-checkpoints-'));
  dirs.push(dataDir);
  const db = await openDatabase({ kind: 'pglite', dataDir }, { pgliteCheckpointWalBytes: walBytes });
  try {
    const redo = async () =>
      (await db.session((s) => s.query<{ redo: string }>('SELECT redo_lsn::text AS redo FROM pg_control_checkpoint()')))[0]!.redo;
    await db.session((s) => s.exec('CREATE TABLE filler (id int, payload text)'));
    const before = await redo();
    for (let i = 0; i < mb; i++) {
      await db.transaction((s) => s.query('INSERT INTO filler SELECT g, repeat(md5(g::text), 8) FROM generate_series(1, 3000) g'));
    }
    return {
      before,
      after: await redo(),
      segments: readdirSync(path.join(dataDir, 'pg_wal')).filter((f) => /^[0-9A-F]{24}$/.test(f)).length,
    };
  } finally {
    await db.close();
  }
}

describe('PGlite checkpoints', () => {
  it('checkpoints once the WAL written since the last one passes the bound, and recycles pg_wal', async () => {
    const checked = await writeWal(8 * 2 ** 20, 120);
    expect(checked.after).not.toBe(checked.before);
    // PGlite alone: no checkpoint at all, every segment kept
    const alone = await writeWal(Number.POSITIVE_INFINITY, 120);
    expect(alone.after).toBe(alone.before);
    expect(checked.segments).toBeLessThan(alone.segments);
  }, 300_000);
});
