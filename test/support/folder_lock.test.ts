import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FolderInUseError, lockFolder } from '../../src/support/folder_lock.js';

const folder = mkdtempSync(join(tmpdir(), 'zenith-lock-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('lockFolder', () => {
  it('lets one holder in at a time, and releases', () => {
    // a live process other than this one: our parent
    writeFileSync(join(folder, 'zenith.lock'), String(process.ppid));
    expect(() => lockFolder(folder)).toThrow(FolderInUseError);
    rmSync(join(folder, 'zenith.lock'));
    const release = lockFolder(folder);
    release();
    lockFolder(folder)();
  });

  it('takes over the lock of a process that is gone', () => {
    writeFileSync(join(folder, 'zenith.lock'), '999999999');
    const release = lockFolder(folder);
    release();
  });
});
