// A galexie-style datastore folder: .config.json plus zstd LedgerCloseMetaBatch files named
// <hex(0xFFFFFFFF - first ledger)>--<first>[-<last>].xdr.zst, flat or in partition folders. The
// reader reads the folder once per call, in ledger order (`followIntervalMs` keeps polling for
// new files); the writer writes one ledger per file, the layout of the testnet fixture.
import fs from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { xdr } from '@stellar/stellar-sdk/base';
import { rawLedgerSequence } from './ledger_bytes.js';
import { skipXdrAt } from './xdr_scan.js';
import { ensureZstd, zstdCompress, zstdDecompress } from './zstd.js';

export interface DatastoreConfig {
  networkPassphrase: string;
  compression: string;
  ledgersPerBatch: number;
}

export class DatastoreError extends Error {
  override name = 'DatastoreError';
}

const FILE = /^[0-9A-Fa-f]{8}--(\d+)(?:-(\d+))?\.xdr\.zst$/;

export function readDatastoreConfig(folder: string): DatastoreConfig {
  const file = path.join(folder, '.config.json');
  if (!fs.existsSync(file)) throw new DatastoreError(`${folder} is not a datastore folder: it has no .config.json`);
  const config = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<DatastoreConfig>;
  if (typeof config.networkPassphrase !== 'string') {
    throw new DatastoreError(`${file} has no networkPassphrase`);
  }
  if ((config.compression ?? 'zstd') !== 'zstd') {
    throw new DatastoreError(`${file}: compression "${config.compression}" is not supported (only zstd)`);
  }
  return { networkPassphrase: config.networkPassphrase, compression: 'zstd', ledgersPerBatch: config.ledgersPerBatch ?? 1 };
}

export function datastoreFileName(ledgerSeq: number): string {
  const hex = (0xffffffff - ledgerSeq).toString(16).toUpperCase().padStart(8, '0');
  return `${hex}--${ledgerSeq}.xdr.zst`;
}

interface BatchFile {
  first: number;
  last: number;
  file: string;
}

async function listFiles(folder: string): Promise<BatchFile[]> {
  const out: BatchFile[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) await walk(path.join(dir, entry.name));
      const match = FILE.exec(entry.name);
      if (!match || !entry.isFile()) continue;
      const first = Number(match[1]);
      out.push({ first, last: match[2] ? Number(match[2]) : first, file: path.join(dir, entry.name) });
    }
  };
  await walk(folder);
  return out.sort((a, b) => a.first - b.first);
}

/** The ledgers a datastore folder holds, as its file names give them: ranges in order, adjacent ones merged. */
export async function datastoreLedgerRanges(folder: string): Promise<{ first: number; last: number }[]> {
  const ranges: { first: number; last: number }[] = [];
  for (const { first, last } of await listFiles(folder)) {
    const previous = ranges.at(-1);
    if (previous && first <= previous.last + 1) previous.last = Math.max(previous.last, last);
    else ranges.push({ first, last });
  }
  return ranges;
}

/** The LedgerCloseMeta XDR of each ledger of one batch file, in order. */
export async function readBatchLedgers(file: Buffer): Promise<Buffer[]> {
  const raw = await zstdDecompress(file);
  const count = raw.readUInt32BE(8);
  // LedgerCloseMetaBatch: startSequence, endSequence, then the array
  if (count === 1) return [raw.subarray(12)];
  const out: Buffer[] = [];
  let start = 12;
  for (let i = 0; i < count; i++) {
    // where each ends: read by the library's schema, without making its objects
    const end = skipXdrAt(xdr.LedgerCloseMeta, raw, start);
    out.push(raw.subarray(start, end));
    start = end;
  }
  return out;
}

/** Decodes one datastore file (a zstd LedgerCloseMetaBatch). */
export async function readDatastoreFile(data: Buffer): Promise<xdr.LedgerCloseMetaBatch> {
  return xdr.LedgerCloseMetaBatch.fromXdr(await zstdDecompress(data));
}

export interface DatastoreReadOptions {
  /** keep polling for new files after the last one (ms between polls); default: stop at the end */
  followIntervalMs?: number;
  /** stop after this ledger */
  toSequence?: number;
}

/** The LedgerCloseMeta bytes of a datastore folder's ledgers. */
export class DatastoreReader {
  private closed = false;

  constructor(
    readonly folder: string,
    private readonly options: DatastoreReadOptions = {},
  ) {}

  /** ledgers from `fromSequence` on (or from the first one the folder has, if later), in order */
  async *ledgers(fromSequence: number): AsyncGenerator<Buffer> {
    readDatastoreConfig(this.folder);
    let next = fromSequence;
    const to = this.options.toSequence ?? Number.POSITIVE_INFINITY;
    while (!this.closed && next <= to) {
      const files = (await listFiles(this.folder)).filter((f) => f.last >= next && f.first <= to);
      for (const f of files) {
        const ledgers = await readBatchLedgers(await readFile(f.file));
        // names give the range: a one-ledger file needs no look inside
        const sequences = f.first === f.last && ledgers.length === 1 ? [f.first] : ledgers.map(rawLedgerSequence);
        for (let i = 0; i < ledgers.length; i++) {
          const seq = sequences[i]!;
          if (seq < next || seq > to) continue;
          yield ledgers[i]!;
          next = seq + 1;
          if (this.closed) return;
        }
      }
      if (this.options.followIntervalMs === undefined) return;
      await new Promise((resolve) => setTimeout(resolve, this.options.followIntervalMs));
    }
  }

  async close(): Promise<void> {
    this.closed = true;
  }
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
    const data = zstdCompress(Buffer.concat([head, metaXdr]), 3);
    const file = path.join(this.dir, datastoreFileName(ledgerSeq));
    const tmp = `${file}.tmp`;
    fs.writeFileSync(tmp, data);
    fs.renameSync(tmp, file);
  }
}
