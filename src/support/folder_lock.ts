// A data folder belongs to one process at a time: PGlite has no lock of its own, the core writes
// one chain of ledgers, and two writers would corrupt either. The lock is a file holding the
// owner's pid; a lock whose process is gone (a crash, a kill -9) is taken over.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export class FolderInUseError extends Error {
  override name = 'FolderInUseError';
}

/** Takes the folder's lock; returns the function that releases it. */
export function lockFolder(folder: string): () => void {
  const file = join(folder, 'zenith.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      return () => rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(readFileSync(file, 'utf8').trim());
      if (owner !== process.pid && isAlive(owner)) {
        throw new FolderInUseError(`${folder} is in use by another Zenith process (pid ${owner})`);
      }
      rmSync(file, { force: true });
    }
  }
  throw new FolderInUseError(`${folder}: could not take its lock`);
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
