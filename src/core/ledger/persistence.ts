// Core state on disk, under <dataDir>/core/: the meta log (every closed ledger) and a periodic
// snapshot of all entries written atomically (temp file + rename). Restart = snapshot + the ledger
// entry changes of every later meta in the log, so no closed ledger is ever lost.
import fs from 'node:fs';
import path from 'node:path';
import { xdr } from '@stellar/stellar-sdk/base';
import { entryFromXdr, entryKey, keyFromLedgerKey } from './entries.js';
import { encodeEntry } from './entry_codec.js';
import { headerFromXdr, headerToXdr } from './header.js';
import type { LedgerHeaderRec } from './header.js';
import type { RootState } from './ledger_txn.js';

interface SnapshotFile {
  version: 1;
  networkPassphrase: string;
  header: string;
  entries: string[];
}

export function coreDir(dataDir: string): string {
  return path.join(dataDir, 'core');
}

export function writeSnapshot(dir: string, passphrase: string, header: LedgerHeaderRec, root: RootState): void {
  const body: SnapshotFile = {
    version: 1,
    networkPassphrase: passphrase,
    header: headerToXdr(header).toXdr('base64'),
    entries: [...root.entries.values()].map((e) => encodeEntry(e).toString('base64')),
  };
  const file = path.join(dir, 'snapshot.json');
  const tmp = `${file}.tmp`;
  const fd = fs.openSync(tmp, 'w');
  fs.writeSync(fd, JSON.stringify(body));
  fs.fsyncSync(fd);
  fs.closeSync(fd);
  fs.renameSync(tmp, file);
}

export function readSnapshot(dir: string, passphrase: string, root: RootState): LedgerHeaderRec | null {
  const file = path.join(dir, 'snapshot.json');
  if (!fs.existsSync(file)) return null;
  const body = JSON.parse(fs.readFileSync(file, 'utf8')) as SnapshotFile;
  if (body.networkPassphrase !== passphrase) {
    throw new Error(`core data in ${dir} belongs to network "${body.networkPassphrase}"`);
  }
  for (const b64 of body.entries) {
    const e = entryFromXdr(xdr.LedgerEntry.fromXdr(b64, 'base64'));
    root.write(entryKey(e), e);
  }
  const header = headerFromXdr(xdr.LedgerHeader.fromXdr(body.header, 'base64'));
  root.idPool = header.idPool;
  return header;
}

function applyChanges(root: RootState, changes: xdr.LedgerEntryChange[]): void {
  for (const c of changes) {
    switch (c.type) {
      case 'ledgerEntryRemoved':
        root.write(keyFromLedgerKey(c.removed), null);
        break;
      case 'ledgerEntryCreated':
      case 'ledgerEntryUpdated':
      case 'ledgerEntryRestored': {
        const e = entryFromXdr(c.value);
        root.write(entryKey(e), e);
        break;
      }
    }
  }
}

/** Re-applies a closed ledger's entry changes to the state (restart path); returns its header. */
export function replayMeta(root: RootState, meta: xdr.LedgerCloseMeta): LedgerHeaderRec {
  if (meta.type !== 'v1') throw new Error(`core meta log holds a LedgerCloseMeta ${meta.type}, not v1`);
  const v1 = meta.v1;
  for (const p of v1.txProcessing) {
    applyChanges(root, p.feeProcessing);
    const tm = p.txApplyProcessing;
    if (tm.type !== 'v3') throw new Error(`core meta log holds a TransactionMeta ${tm.type}, not v3`);
    const v3 = tm.v3;
    applyChanges(root, v3.txChangesBefore);
    for (const op of v3.operations) applyChanges(root, op.changes);
    applyChanges(root, v3.txChangesAfter);
  }
  for (const u of v1.upgradesProcessing) applyChanges(root, u.changes);
  const header = headerFromXdr(v1.ledgerHeader.header);
  root.idPool = header.idPool;
  return header;
}
