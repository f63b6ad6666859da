// Where `zenith ingest` and `zenith db reingest` read ledgers: --datastore (a galexie-style folder,
// which brings its own network passphrase) or --meta-stream (a framed XDR file or pipe). A missing
// or conflicting choice is bad usage, named by its flag.
import { existsSync } from 'node:fs';
import { ConfigError, type Config } from '../config.js';
import { datastoreSource, metaStreamSource, type LedgerSource } from '../ingest/index.js';
import { readDatastoreConfig } from '../meta/index.js';

export interface ChosenSource {
  source: LedgerSource;
  description: string;
  /** the datastore's own passphrase, when it has one */
  networkPassphrase: string | null;
}

export function chooseLedgerSource(
  config: Pick<Config, 'datastore' | 'metaStream'>,
  options: { follow: boolean; allowStream: boolean },
): ChosenSource {
  const { datastore, metaStream } = config;
  if (datastore && metaStream) throw new ConfigError('datastore', 'give only one of --datastore and --meta-stream');
  if (datastore) {
    if (!existsSync(datastore)) throw new ConfigError('datastore', `invalid datastore: folder ${datastore} does not exist`);
    return {
      source: datastoreSource(datastore, options.follow ? { followIntervalMs: 1000 } : {}),
      description: `datastore ${datastore}`,
      networkPassphrase: readDatastoreConfig(datastore).networkPassphrase,
    };
  }
  if (metaStream && options.allowStream) {
    if (!existsSync(metaStream)) throw new ConfigError('meta-stream', `invalid meta-stream: ${metaStream} does not exist`);
    return { source: metaStreamSource(metaStream), description: `meta stream ${metaStream}`, networkPassphrase: null };
  }
  throw new ConfigError(
    'datastore',
    options.allowStream ? 'no ledger source: give --datastore DIR or --meta-stream PATH' : 'no ledger source: give --datastore DIR',
  );
}
