// Where `zenith ingest` and `zenith db reingest` read ledgers: --datastore (a galexie-style folder,
// which brings its own network passphrase) or --meta-stream (a framed XDR file or pipe). A missing
// or conflicting choice is bad usage, named by its flag. The network passphrase is
// --network-passphrase when given, else the datastore's own, else the default (the standalone
// network's, the embedded core's); a source whose transactions are not of it is refused as bad
// usage naming --network-passphrase, before anything is written when the source can be read twice.
import { existsSync, statSync } from 'node:fs';
import { ConfigError, type Config, type SettingName } from '../config.js';
import {
  checkSourceNetwork,
  datastoreSource,
  metaStreamSource,
  networkCheckedSource,
  type LedgerSource,
  type NetworkVerdict,
} from '../ingest/index.js';
import { readDatastoreConfig } from '../meta/index.js';

export interface ChosenSource {
  source: LedgerSource;
  description: string;
  /** the datastore's own passphrase, when it has one */
  networkPassphrase: string | null;
  /** the same ledgers from the start, without following, for a look ahead; null for a pipe */
  reopen(): LedgerSource | null;
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
      reopen: () => datastoreSource(datastore),
    };
  }
  if (metaStream && options.allowStream) {
    if (!existsSync(metaStream)) throw new ConfigError('meta-stream', `invalid meta-stream: ${metaStream} does not exist`);
    return {
      source: metaStreamSource(metaStream),
      description: `meta stream ${metaStream}`,
      networkPassphrase: null,
      reopen: () => (statSync(metaStream).isFile() ? metaStreamSource(metaStream) : null),
    };
  }
  throw new ConfigError(
    'datastore',
    options.allowStream ? 'no ledger source: give --datastore DIR or --meta-stream PATH' : 'no ledger source: give --datastore DIR',
  );
}

/** The network passphrase to read the source with: given, else the datastore's, else the default. */
export function sourcePassphrase(chosen: ChosenSource, config: Pick<Config, 'networkPassphrase'>, given: ReadonlySet<SettingName>): string {
  return given.has('networkPassphrase') ? config.networkPassphrase : (chosen.networkPassphrase ?? config.networkPassphrase);
}

/** ledgers this many, at most, are read ahead for a transaction whose hash tells the network */
const LOOK_AHEAD = 64;

/**
 * The chosen source, refused (a ConfigError naming --network-passphrase) when its transaction
 * hashes are not of `passphrase`'s network: looked at first from a second reader when the source
 * can be read twice (nothing is written then), and checked as its ledgers pass in any case (a
 * pipe, or a source whose first ledgers have no transactions).
 */
export async function networkCheckedLedgerSource(chosen: ChosenSource, passphrase: string): Promise<LedgerSource> {
  const mismatch = (sequence: number) =>
    new ConfigError(
      'network-passphrase',
      `the ${chosen.description} is not of the network "${passphrase}": the transaction hashes of its ledger ${sequence} ` +
        'are not those of that passphrase; give the network’s passphrase with --network-passphrase',
    );
  const ahead = chosen.reopen();
  if (ahead) {
    let verdict: NetworkVerdict;
    try {
      verdict = await checkSourceNetwork(ahead, passphrase, LOOK_AHEAD);
    } finally {
      await ahead.close?.();
    }
    if (verdict.matches === false && verdict.sequence !== null) {
      await chosen.source.close?.();
      throw mismatch(verdict.sequence);
    }
    // decided by the look ahead: the ledgers need no second look (and no decode) as they pass
    if (verdict.matches) return chosen.source;
  }
  return networkCheckedSource(chosen.source, passphrase, mismatch);
}
