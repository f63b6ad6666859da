// The meta source of `zenith ingest` and `zenith db reingest`. Until config.ts has --datastore and
// --meta-stream, they come from the environment: DATASTORE (a datastore folder) or META_STREAM (a
// framed XDR file or pipe). The CLI reports a missing or conflicting choice with exit code 2.
import { existsSync } from 'node:fs';
import type { LedgerSource } from './ledger_source.js';
import { datastoreSource, readDatastoreConfig } from './sources/datastore.js';
import { metaStreamSource } from './sources/meta_stream.js';

export class SourceChoiceError extends Error {
  override name = 'SourceChoiceError';
}

export interface ChosenSource {
  source: LedgerSource;
  description: string;
  /** the datastore's own passphrase, when it has one */
  networkPassphrase: string | null;
}

export function chooseSource(env: NodeJS.ProcessEnv, options: { follow: boolean; allowStream: boolean }): ChosenSource {
  const datastore = env.DATASTORE?.trim() || null;
  const stream = env.META_STREAM?.trim() || null;
  if (datastore && stream) throw new SourceChoiceError('set only one of DATASTORE and META_STREAM');
  if (datastore) {
    if (!existsSync(datastore)) throw new SourceChoiceError(`DATASTORE: folder ${datastore} does not exist`);
    const config = readDatastoreConfig(datastore);
    return {
      source: datastoreSource(datastore, options.follow ? { followIntervalMs: 1000 } : {}),
      description: `datastore ${datastore}`,
      networkPassphrase: config.networkPassphrase,
    };
  }
  if (stream && options.allowStream) {
    if (!existsSync(stream)) throw new SourceChoiceError(`META_STREAM: ${stream} does not exist`);
    return { source: metaStreamSource(stream), description: `meta stream ${stream}`, networkPassphrase: null };
  }
  throw new SourceChoiceError(
    options.allowStream
      ? 'no ledger source: set DATASTORE=<datastore folder> or META_STREAM=<framed XDR file or pipe>'
      : 'no ledger source: set DATASTORE=<datastore folder>',
  );
}
