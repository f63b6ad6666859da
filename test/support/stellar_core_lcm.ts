// The manifest of test/fixtures/stellar-core-lcm/ (written by scripts/stellar_core_lcm.ts): where each
// stellar-core test case's ledger meta lies in cases.bin.zst once decompressed; and the cases read
// back, as ledgers and as datastore folders.
import { readFileSync } from 'node:fs';
import { xdr } from '@stellar/stellar-sdk';
import type { Database } from '../../src/db/database.js';
import { datastoreSource, startIngester } from '../../src/ingest/index.js';
import { DatastoreWriter } from '../../src/meta/datastore.js';
import { zstdDecompress } from '../../src/meta/zstd.js';

export interface CoreLcmCase {
  /** the test suite's folder in stellar-core's test-lcm-current/ */
  suite: string;
  file: string;
  /** the test case, from the suite's index.json */
  name: string;
  offset: number;
  length: number;
}

export interface CoreLcmManifest {
  source: string;
  networkPassphrase: string;
  bytes: number;
  /** files the mirror the fixture was packed from did not hold */
  absent: string[];
  cases: CoreLcmCase[];
}

const FIXTURE = new URL('../fixtures/stellar-core-lcm/', import.meta.url);

export const coreLcmManifest = JSON.parse(readFileSync(new URL('manifest.json', FIXTURE), 'utf8')) as CoreLcmManifest;

let packed: Promise<Buffer> | undefined;

/** The record-marked LedgerCloseMeta frames of one case. */
export async function caseLedgers(c: CoreLcmCase): Promise<Buffer[]> {
  packed ??= zstdDecompress(readFileSync(new URL('cases.bin.zst', FIXTURE)));
  const bytes = (await packed).subarray(c.offset, c.offset + c.length);
  const out: Buffer[] = [];
  for (let at = 0; at < bytes.length; ) {
    const length = bytes.readUInt32BE(at) & 0x7fffffff;
    out.push(bytes.subarray(at + 4, at + 4 + length));
    at += 4 + length;
  }
  return out;
}

export const ledgerBody = (meta: xdr.LedgerCloseMeta) => (meta.type === 'v0' ? meta.v0 : meta.type === 'v1' ? meta.v1 : meta.v2);

/** Writes a case as a datastore folder (one ledger per file); its ledgers and their range. */
export async function writeCaseDatastore(
  c: CoreLcmCase,
  folder: string,
): Promise<{ ledgers: Buffer[]; metas: xdr.LedgerCloseMeta[]; first: number; last: number }> {
  const ledgers = await caseLedgers(c);
  const metas = ledgers.map((bytes) => xdr.LedgerCloseMeta.fromXdr(bytes));
  const writer = await DatastoreWriter.open(folder, coreLcmManifest.networkPassphrase);
  const sequences = metas.map((meta) => ledgerBody(meta).ledgerHeader.header.ledgerSeq);
  for (const [i, sequence] of sequences.entries()) writer.write(sequence, ledgers[i]!);
  return { ledgers, metas, first: sequences[0]!, last: sequences.at(-1)! };
}

export function coreLcmCase(name: string): CoreLcmCase {
  const found = coreLcmManifest.cases.find((c) => c.name === name);
  if (!found) throw new Error(`no stellar-core case ${name}`);
  return found;
}

/** A case's ledgers ingested from its datastore folder into a test database; fails unless every ledger is in. */
export async function ingestCase(db: Database, folder: string, last: number): Promise<void> {
  const ingester = await startIngester({ db, source: datastoreSource(folder), networkPassphrase: coreLcmManifest.networkPassphrase });
  if ((await ingester.done) !== null || ingester.lastLedger !== last) throw new Error(`the case's ledgers were not all ingested`);
}
