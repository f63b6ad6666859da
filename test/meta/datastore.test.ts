// --meta-out: a galexie-style datastore folder in the layout of the testnet fixture.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { xdr } from '@stellar/stellar-sdk/base';
import { datastoreFileName, datastoreLedgerRanges, readDatastoreFile } from '../../src/meta/index.js';
import { Harness, PASSPHRASE } from '../core/support/harness.js';
import { FIXTURES } from '../core/support/scenario.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

// reads through the core's helper: zstd-wasm must be initialized once per process
async function readFolder(dir: string): Promise<{ config: Record<string, unknown>; ledgers: Map<number, xdr.LedgerCloseMeta> }> {
  const config = JSON.parse(fs.readFileSync(path.join(dir, '.config.json'), 'utf8')) as Record<string, unknown>;
  const ledgers = new Map<number, xdr.LedgerCloseMeta>();
  for (const f of fs.readdirSync(dir)) {
    const m = /^([0-9A-F]{8})--(\d+)\.xdr\.zst$/.exec(f);
    if (!m) continue;
    const seq = Number(m[2]);
    expect(parseInt(m[1]!, 16)).toBe(0xffffffff - seq);
    const batch = await readDatastoreFile(fs.readFileSync(path.join(dir, f)));
    expect(batch.startSequence).toBe(seq);
    expect(batch.endSequence).toBe(seq);
    ledgers.set(seq, batch.ledgerCloseMetas[0]!);
  }
  return { config, ledgers };
}

describe('datastore writer', () => {
  it('names files like the fixture', () => {
    expect(datastoreFileName(999)).toBe('FFFFFC18--999.xdr.zst');
    expect(datastoreFileName(997)).toBe('FFFFFC1A--997.xdr.zst');
  });

  it('the reader used here understands the testnet fixture', async () => {
    const { config, ledgers } = await readFolder(path.join(FIXTURES, 'ledger-meta', 'testnet-datastore'));
    expect(config.networkPassphrase).toBe('Test SDF Network ; September 2015');
    expect([...ledgers.keys()].sort()).toEqual([997, 998, 999]);
  });

  it('writes every closed ledger, readable back as the same LedgerCloseMeta', async () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'zenith-meta-'));
    dirs.push(out);
    const h = await Harness.create({ metaOutDir: out });
    await h.fund(50, 3);
    await h.close();
    const { config, ledgers } = await readFolder(out);
    const fixtureConfig = JSON.parse(
      fs.readFileSync(path.join(FIXTURES, 'ledger-meta', 'testnet-datastore', '.config.json'), 'utf8'),
    ) as Record<string, unknown>;
    expect(Object.keys(config).sort()).toEqual(Object.keys(fixtureConfig).sort());
    expect(config.networkPassphrase).toBe(PASSPHRASE);
    const last = h.core.latestLedger().sequence;
    expect([...ledgers.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: last }, (_, i) => i + 1));
    for (const [seq, meta] of ledgers) expect(Buffer.from(meta.toXdr()).equals(h.core.ledgerMetaXdr(seq)!)).toBe(true);
    const two = xdr.expectUnionVariant(ledgers.get(2)!, 'v1').v1;
    expect(two.txProcessing).toHaveLength(1);
    expect(two.txProcessing[0]!.txApplyProcessing.type).toBe('v3');
    await h.core.stop();
  });
});

describe('datastoreLedgerRanges', () => {
  it('gives the ledgers the file names hold, adjacent files and partitions merged, gaps kept', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zenith-ranges-'));
    dirs.push(dir);
    expect(await datastoreLedgerRanges(dir)).toEqual([]);
    const partition = path.join(dir, 'FFFFFFFF--0-63999');
    fs.mkdirSync(partition);
    for (const seq of [2, 3, 4, 10]) fs.writeFileSync(path.join(partition, datastoreFileName(seq)), '');
    fs.writeFileSync(path.join(partition, 'FFFFFFF4--11-20.xdr.zst'), '');
    fs.writeFileSync(path.join(dir, 'notes.txt'), '');
    expect(await datastoreLedgerRanges(dir)).toEqual([
      { first: 2, last: 4 },
      { first: 10, last: 20 },
    ]);
  });
});
