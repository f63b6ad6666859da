// A galexie-style datastore folder: .config.json plus zstd LedgerCloseMetaBatch files named
// <hex(0xFFFFFFFF - first ledger)>--<first>[-<last>].xdr.zst, flat or in partition folders.
// The folder is read once per call, in ledger order; `follow` keeps polling for new files.
import { existsSync, readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { decompress } from '@bokuweb/zstd-wasm';
import { cereal, xdr } from '@stellar/stellar-base';
// the core's one zstd initialization (a second init() breaks decompression)
import { ensureZstd } from '../../core/ledger/datastore.js';
import { rawLedgerSequence } from '../ledger_bytes.js';
import type { LedgerSource } from '../ledger_source.js';

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
  if (!existsSync(file)) throw new DatastoreError(`${folder} is not a datastore folder: it has no .config.json`);
  const config = JSON.parse(readFileSync(file, 'utf8')) as Partial<DatastoreConfig>;
  if (typeof config.networkPassphrase !== 'string') {
    throw new DatastoreError(`${file} has no networkPassphrase`);
  }
  if ((config.compression ?? 'zstd') !== 'zstd') {
    throw new DatastoreError(`${file}: compression "${config.compression}" is not supported (only zstd)`);
  }
  return { networkPassphrase: config.networkPassphrase, compression: 'zstd', ledgersPerBatch: config.ledgersPerBatch ?? 1 };
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

export interface DatastoreSourceOptions {
  /** keep polling for new files after the last one (ms between polls); default: stop at the end */
  followIntervalMs?: number;
  /** stop after this ledger */
  toSequence?: number;
}

/** The LedgerCloseMeta XDR of each ledger of one batch file, in order. */
export async function readBatchLedgers(file: Buffer): Promise<Buffer[]> {
  await ensureZstd();
  const raw = Buffer.from(decompress(file));
  const count = raw.readUInt32BE(8);
  // LedgerCloseMetaBatch: startSequence, endSequence, then the array
  if (count === 1) return [raw.subarray(12)];
  const reader = new cereal.XdrReader(raw);
  reader.advance(12);
  const out: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const start = reader.advance(0);
    xdr.LedgerCloseMeta.read(reader as unknown as Buffer);
    out.push(raw.subarray(start, reader.advance(0)));
  }
  return out;
}

export function datastoreSource(folder: string, options: DatastoreSourceOptions = {}): LedgerSource {
  let closed = false;
  async function* raw(fromSequence: number): AsyncGenerator<Buffer> {
    readDatastoreConfig(folder);
    let next = fromSequence;
    const to = options.toSequence ?? Number.POSITIVE_INFINITY;
    while (!closed && next <= to) {
      const files = (await listFiles(folder)).filter((f) => f.last >= next && f.first <= to);
      for (const f of files) {
        const ledgers = await readBatchLedgers(await readFile(f.file));
        // names give the range: a one-ledger file needs no look inside
        const sequences = f.first === f.last && ledgers.length === 1 ? [f.first] : ledgers.map(rawLedgerSequence);
        for (let i = 0; i < ledgers.length; i++) {
          const seq = sequences[i]!;
          if (seq < next || seq > to) continue;
          yield ledgers[i]!;
          next = seq + 1;
          if (closed) return;
        }
      }
      if (options.followIntervalMs === undefined) return;
      await new Promise((resolve) => setTimeout(resolve, options.followIntervalMs));
    }
  }
  return {
    rawLedgers: raw,
    async *ledgers(fromSequence: number): AsyncGenerator<xdr.LedgerCloseMeta> {
      for await (const bytes of raw(fromSequence)) yield xdr.LedgerCloseMeta.fromXDR(bytes);
    },
    async close() {
      closed = true;
    },
  };
}
