// Galexie-style datastore folder: .config.json plus one zstd-compressed LedgerCloseMetaBatch per
// ledger, named <hex of 0xFFFFFFFF - ledger>--<ledger>.xdr.zst (the layout of the testnet fixture).
import fs from 'node:fs';
import path from 'node:path';
import { compress, decompress, init } from '@bokuweb/zstd-wasm';
import { xdr } from '@stellar/stellar-base';

// Kept in the global symbol registry, so that two copies of this module in one process (the
// built code and the TypeScript sources, as bench/ingest.ts loads them) still initialize once.
const ZSTD_READY = Symbol.for('zenith.zstd-wasm.ready');

/** Initializes zstd-wasm once per process (initializing it again breaks later decompression). */
export function ensureZstd(): Promise<void> {
  const registry = globalThis as { [ZSTD_READY]?: Promise<void> };
  registry[ZSTD_READY] ??= init();
  return registry[ZSTD_READY];
}

/** Decodes one datastore file (a zstd LedgerCloseMetaBatch). */
export async function readDatastoreFile(data: Buffer): Promise<xdr.LedgerCloseMetaBatch> {
  await ensureZstd();
  return xdr.LedgerCloseMetaBatch.fromXDR(Buffer.from(decompress(data)));
}

export function datastoreFileName(ledgerSeq: number): string {
  const hex = (0xffffffff - ledgerSeq).toString(16).toUpperCase().padStart(8, '0');
  return `${hex}--${ledgerSeq}.xdr.zst`;
}

export class DatastoreWriter {
  private constructor(readonly dir: string) {}

  static async open(dir: string, networkPassphrase: string): Promise<DatastoreWriter> {
    await ensureZstd();
    fs.mkdirSync(dir, { recursive: true });
    const configPath = path.join(dir, '.config.json');
    if (fs.existsSync(configPath)) {
      const cfg = JSON.parse(fs.readFileSync(configPath, 'utf8')) as { networkPassphrase?: string };
      if (cfg.networkPassphrase !== networkPassphrase) {
        throw new Error(`datastore ${dir} belongs to network "${cfg.networkPassphrase ?? ''}"`);
      }
    } else {
      const config = { networkPassphrase, version: '1.0', compression: 'zstd', ledgersPerBatch: 1, batchesPerPartition: 64000 };
      fs.writeFileSync(configPath, `${JSON.stringify(config, null, 2)}\n`);
    }
    return new DatastoreWriter(dir);
  }

  has(ledgerSeq: number): boolean {
    return fs.existsSync(path.join(this.dir, datastoreFileName(ledgerSeq)));
  }

  /** Writes one ledger; `metaXdr` is the LedgerCloseMeta's XDR. */
  write(ledgerSeq: number, metaXdr: Buffer): void {
    // LedgerCloseMetaBatch: startSequence, endSequence, then a one-element LedgerCloseMeta array
    const head = Buffer.alloc(12);
    head.writeUInt32BE(ledgerSeq, 0);
    head.writeUInt32BE(ledgerSeq, 4);
    head.writeUInt32BE(1, 8);
    const data = Buffer.from(compress(Buffer.concat([head, metaXdr]), 3));
    const file = path.join(this.dir, datastoreFileName(ledgerSeq));
    const tmp = `${file}.tmp`;
    fs.writeFileSync(tmp, data);
    fs.renameSync(tmp, file);
  }
}
