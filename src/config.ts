// One typed configuration object, from command-line flags, environment variables and defaults
// (in that order of precedence). Every setting is declared once below: its flag, its variable,
// its default, how to read it and one line of help. A bad value is a ConfigError that names the
// setting; the CLI turns it into exit code 2.
import { isIP } from 'node:net';
import { DEFAULT_MAX_PATH_LENGTH, MAX_PATH_LENGTH } from './market/paths.js';

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'silent';

export interface Config {
  port: number;
  host: string;
  trustedProxies: readonly string[];
  perHourRateLimit: number;
  friendbotPerHourLimit: number;
  maxConcurrentRequests: number;
  maxQueuedRequests: number;
  maxRequestWaitMs: number;
  maxStreamsPerClient: number;
  maxStreams: number;
  streamMaxBufferedBytes: number;
  streamDrainTimeoutMs: number;
  dataDir: string;
  databaseUrl: string | null;
  databaseRoUrl: string | null;
  healthMaxLedgerAge: number;
  networkPassphrase: string;
  coreUrl: string | null;
  corePort: number;
  adminPort: number;
  adminHost: string;
  closeIntervalMs: number;
  manualClose: boolean;
  baseReserve: number;
  metaOutDir: string | null;
  datastore: string | null;
  metaStream: string | null;
  logLevel: LogLevel;
  yes: boolean;
  graphqlMaxDepth: number;
  graphqlMaxAliases: number;
  graphqlMaxRootFields: number;
  graphqlMaxTokens: number;
  graphqlMaxDirectives: number;
  graphqlMaxComplexity: number;
  graphqlMaxBodyBytes: number;
  maxPathLength: number;
  historyRetentionCount: number;
  historyRetentionReapCount: number;
  reapFrequency: number;
  parallelWorkers: number;
  parallelJobSize: number;
}

export type SettingName = keyof Config;

export class ConfigError extends Error {
  constructor(
    readonly setting: string,
    message: string,
  ) {
    super(message);
    this.name = 'ConfigError';
  }
}

interface Setting<K extends SettingName> {
  flag: string;
  env: string;
  /** a flag that takes no value: present means true */
  boolean?: true;
  valueName?: string;
  help: string;
  default: Config[K];
  parse: (text: string, setting: string) => Config[K];
}

type Settings = { [K in SettingName]: Setting<K> };

export const STANDALONE_PASSPHRASE = 'Standalone Network ; February 2017';

export const settings: Settings = {
  port: {
    flag: 'port',
    env: 'PORT',
    valueName: 'N',
    help: 'HTTP port of the API (REST, /graphql, /friendbot)',
    default: 8000,
    parse: parsePort,
  },
  host: {
    flag: 'host',
    env: 'HOST',
    valueName: 'ADDR',
    help: 'address the API listens on; 0.0.0.0 (or ::) exposes it beyond this machine',
    default: '127.0.0.1',
    parse: parseNonEmpty,
  },
  trustedProxies: {
    flag: 'trusted-proxies',
    env: 'TRUSTED_PROXIES',
    valueName: 'LIST',
    help: "comma-separated IPs and CIDR ranges of the proxies whose X-Forwarded-For, -Proto and -Host are believed; no one's by default",
    default: [],
    parse: parseAddressList,
  },
  perHourRateLimit: {
    flag: 'per-hour-rate-limit',
    env: 'PER_HOUR_RATE_LIMIT',
    valueName: 'N',
    help: "requests per hour for one client IP after a burst of 100, as Horizon's; 0 disables the limit",
    default: 3600,
    parse: (text, setting) => parseInteger(text, setting, 0, 1_000_000_000),
  },
  friendbotPerHourLimit: {
    flag: 'friendbot-per-hour-limit',
    env: 'FRIENDBOT_PER_HOUR_LIMIT',
    valueName: 'N',
    help: 'fundings per hour for one client IP (all of them at once, at most); an address is funded at most once in 10 minutes; 0 disables both',
    default: 60,
    parse: (text, setting) => parseInteger(text, setting, 0, 1_000_000_000),
  },
  // load shedding (src/api/admission.ts, docs/security.md)
  maxConcurrentRequests: {
    flag: 'max-concurrent-requests',
    env: 'MAX_CONCURRENT_REQUESTS',
    valueName: 'N',
    help: 'API requests served at once (streams, submissions and /health aside); the others wait in a queue',
    // measured with bench/load.ts: more requests at once add latency, not throughput (the work is
    // on one thread); under the PostgreSQL pool's 10 connections, the ingester always finds one
    default: 4,
    parse: (text, setting) => parseInteger(text, setting, 1, 100_000),
  },
  maxQueuedRequests: {
    flag: 'max-queued-requests',
    env: 'MAX_QUEUED_REQUESTS',
    valueName: 'N',
    help: 'API requests waiting for their turn; one more is answered 503 with Retry-After at once',
    default: 200,
    parse: (text, setting) => parseInteger(text, setting, 0, 1_000_000),
  },
  maxRequestWaitMs: {
    flag: 'max-request-wait',
    env: 'MAX_REQUEST_WAIT',
    valueName: 'MS',
    help: 'milliseconds an API request may wait for its turn before it is answered 503 with Retry-After',
    default: 1000,
    parse: (text, setting) => parseInteger(text, setting, 1, 600_000),
  },
  // what open streams may cost (src/api/stream_limits.ts, docs/security.md)
  maxStreamsPerClient: {
    flag: 'max-streams-per-client',
    env: 'MAX_STREAMS_PER_CLIENT',
    valueName: 'N',
    help: 'streams (server-sent events, GraphQL subscriptions) one client IP may have open at once (more: 429); 0: no cap',
    default: 20,
    parse: (text, setting) => parseInteger(text, setting, 0, 1_000_000),
  },
  maxStreams: {
    flag: 'max-streams',
    env: 'MAX_STREAMS',
    valueName: 'N',
    help: 'streams open at once in this process (more: 503 with Retry-After); 0: no cap',
    default: 1000,
    parse: (text, setting) => parseInteger(text, setting, 0, 10_000_000),
  },
  streamMaxBufferedBytes: {
    flag: 'stream-max-buffered-bytes',
    env: 'STREAM_MAX_BUFFERED_BYTES',
    valueName: 'BYTES',
    help: 'bytes a stream may hold unsent for a client that does not read before the client is disconnected',
    default: 1024 * 1024,
    parse: (text, setting) => parseInteger(text, setting, 16 * 1024, 1024 * 1024 * 1024),
  },
  streamDrainTimeoutMs: {
    flag: 'stream-drain-timeout',
    env: 'STREAM_DRAIN_TIMEOUT',
    valueName: 'MS',
    help: 'milliseconds a stream waits for a client that stopped reading to take what is sent before disconnecting it',
    default: 30_000,
    parse: (text, setting) => parseInteger(text, setting, 100, 3_600_000),
  },
  dataDir: {
    flag: 'data-dir',
    env: 'ZENITH_DATA_DIR',
    valueName: 'DIR',
    help: 'folder of the embedded database and the embedded core',
    default: './data',
    parse: parseNonEmpty,
  },
  databaseUrl: {
    flag: 'database-url',
    env: 'DATABASE_URL',
    valueName: 'URL',
    help: 'PostgreSQL connection string; without it the embedded database (PGlite) in the data folder is used',
    default: null,
    parse: parseDatabaseUrl,
  },
  databaseRoUrl: {
    flag: 'database-ro-url',
    env: 'DATABASE_RO_URL',
    valueName: 'URL',
    help: "a read replica of --database-url (Horizon's --ro-database-url): the API reads there, and a ledger reaches streams and submissions once the replica has it",
    default: null,
    parse: parseDatabaseUrl,
  },
  healthMaxLedgerAge: {
    flag: 'health-max-ledger-age',
    env: 'HEALTH_MAX_LEDGER_AGE',
    valueName: 'SECONDS',
    help: 'GET /health answers 503 once the last ingested ledger closed longer ago than this (a stopped ingester, a stalled network); 0: not checked, as Horizon',
    default: 0,
    parse: (text, setting) => parseInteger(text, setting, 0, 86_400),
  },
  networkPassphrase: {
    flag: 'network-passphrase',
    env: 'NETWORK_PASSPHRASE',
    valueName: 'TEXT',
    help: 'passphrase of the network',
    default: STANDALONE_PASSPHRASE,
    parse: parseNonEmpty,
  },
  coreUrl: {
    flag: 'core-url',
    env: 'CORE_URL',
    valueName: 'URL',
    help: 'HTTP address of a separate core (stellar-core or `zenith core`), for /tx and /info',
    default: null,
    parse: parseHttpUrl,
  },
  corePort: {
    flag: 'core-port',
    env: 'CORE_PORT',
    valueName: 'N',
    help: "port of the embedded core's stellar-core-style HTTP commands (/tx, /info, /manualclose)",
    default: 11626,
    parse: parsePort,
  },
  adminPort: {
    flag: 'admin-port',
    env: 'ADMIN_PORT',
    valueName: 'N',
    help: 'port of the admin server (Prometheus metrics at /metrics); 0 runs none',
    default: 0,
    parse: parsePort,
  },
  adminHost: {
    flag: 'admin-host',
    env: 'ADMIN_HOST',
    valueName: 'ADDR',
    help: 'address the admin server listens on; 0.0.0.0 (or ::) lets a scraper on another machine reach it',
    default: '127.0.0.1',
    parse: parseNonEmpty,
  },
  closeIntervalMs: {
    flag: 'close-interval',
    env: 'LEDGER_CLOSE_INTERVAL',
    valueName: 'MS',
    help: "milliseconds between ledger closes of the embedded core; a close time is whole seconds and always after the previous one, so under 1000 the ledgers' clock runs ahead of the wall clock and transactions with a near time bound (the SDK's setTimeout) fail with tx_too_late",
    default: 1000,
    parse: (text, setting) => parseInteger(text, setting, 1, 3_600_000),
  },
  manualClose: {
    flag: 'manual-close',
    env: 'MANUAL_CLOSE',
    boolean: true,
    help: 'close ledgers only on GET /manualclose of the core',
    default: false,
    parse: parseBoolean,
  },
  baseReserve: {
    flag: 'base-reserve',
    env: 'BASE_RESERVE',
    valueName: 'STROOPS',
    help: "the embedded core's base reserve in stroops",
    default: 5_000_000,
    parse: (text, setting) => parseInteger(text, setting, 1, 2 ** 32 - 1),
  },
  metaOutDir: {
    flag: 'meta-out',
    env: 'META_OUT_DIR',
    valueName: 'DIR',
    help: 'also write every closed ledger as a galexie-style datastore folder',
    default: null,
    parse: parseNonEmpty,
  },
  datastore: {
    flag: 'datastore',
    env: 'DATASTORE',
    valueName: 'DIR',
    help: 'a galexie-style datastore folder to ingest ledgers from',
    default: null,
    parse: parseNonEmpty,
  },
  metaStream: {
    flag: 'meta-stream',
    env: 'META_STREAM',
    valueName: 'PATH',
    help: "a framed XDR stream (stellar-core's --metadata-output-stream) to ingest ledgers from: a file or a pipe",
    default: null,
    parse: parseNonEmpty,
  },
  logLevel: {
    flag: 'log-level',
    env: 'LOG_LEVEL',
    valueName: 'LEVEL',
    help: 'trace, debug, info, warn, error, fatal or silent',
    default: 'info',
    parse: parseLogLevel,
  },
  yes: {
    flag: 'yes',
    env: 'ZENITH_YES',
    boolean: true,
    help: 'do not ask before destroying data (needed when stdin is not a terminal)',
    default: false,
    parse: parseBoolean,
  },
  // what one GraphQL request may ask (src/api/graphql_limits.ts, docs/security.md)
  graphqlMaxDepth: {
    flag: 'graphql-max-depth',
    env: 'GRAPHQL_MAX_DEPTH',
    valueName: 'N',
    help: 'GraphQL: deepest nesting of fields in a query',
    default: 12,
    parse: (text, setting) => parseInteger(text, setting, 1, 1000),
  },
  graphqlMaxAliases: {
    flag: 'graphql-max-aliases',
    env: 'GRAPHQL_MAX_ALIASES',
    valueName: 'N',
    help: 'GraphQL: aliased fields in one operation',
    default: 30,
    parse: (text, setting) => parseInteger(text, setting, 0, 100_000),
  },
  graphqlMaxRootFields: {
    flag: 'graphql-max-root-fields',
    env: 'GRAPHQL_MAX_ROOT_FIELDS',
    valueName: 'N',
    help: 'GraphQL: fields selected at the root of one operation',
    default: 20,
    parse: (text, setting) => parseInteger(text, setting, 1, 100_000),
  },
  graphqlMaxTokens: {
    flag: 'graphql-max-tokens',
    env: 'GRAPHQL_MAX_TOKENS',
    valueName: 'N',
    help: 'GraphQL: lexical tokens in a document (counted while it is parsed)',
    default: 5000,
    parse: (text, setting) => parseInteger(text, setting, 1, 10_000_000),
  },
  graphqlMaxDirectives: {
    flag: 'graphql-max-directives',
    env: 'GRAPHQL_MAX_DIRECTIVES',
    valueName: 'N',
    help: 'GraphQL: directives in a document',
    default: 20,
    parse: (text, setting) => parseInteger(text, setting, 0, 100_000),
  },
  graphqlMaxComplexity: {
    flag: 'graphql-max-complexity',
    env: 'GRAPHQL_MAX_COMPLEXITY',
    valueName: 'N',
    help: "GraphQL: an operation's cost budget (a field costs 1; what lies beneath a list counts once per item its first/last/limit asks for)",
    default: 50_000,
    parse: (text, setting) => parseInteger(text, setting, 1, 1_000_000_000),
  },
  graphqlMaxBodyBytes: {
    flag: 'graphql-max-body-bytes',
    env: 'GRAPHQL_MAX_BODY_BYTES',
    valueName: 'BYTES',
    help: 'GraphQL: largest request body of /graphql and /graphql/stream (larger: 413); at most the 200 KB bound of every route',
    // the bound of every route (api/request_body.ts, Horizon's) refuses a larger declared body first
    default: 200 * 1024,
    parse: (text, setting) => parseInteger(text, setting, 1024, 200 * 1024),
  },
  // path finding (src/market/paths.ts, docs/market.md)
  maxPathLength: {
    flag: 'max-path-length',
    env: 'MAX_PATH_LENGTH',
    valueName: 'N',
    help: `/paths: most books a payment path crosses (N - 1 assets in between), 1 to ${MAX_PATH_LENGTH}, as Horizon's --max-path-length`,
    // Horizon's default; every hop more multiplies the paths to weigh by the number of assets
    default: DEFAULT_MAX_PATH_LENGTH,
    parse: (text, setting) => parseInteger(text, setting, 1, MAX_PATH_LENGTH),
  },
  historyRetentionCount: {
    flag: 'history-retention-count',
    env: 'HISTORY_RETENTION_COUNT',
    valueName: 'N',
    help: "ledgers of history kept (the last N; older ones are deleted as new ones come, as Horizon's); 0 keeps everything",
    default: 0,
    parse: (text, setting) => parseInteger(text, setting, 0, 2 ** 32 - 1),
  },
  historyRetentionReapCount: {
    flag: 'history-retention-reap-count',
    env: 'HISTORY_RETENTION_REAP_COUNT',
    valueName: 'N',
    help: 'ledgers whose history one reaping transaction deletes (smaller: shorter pauses of ingestion on PGlite)',
    // Horizon's 50,000 assumes a database of many connections; on PGlite a batch holds the one connection
    default: 1000,
    parse: (text, setting) => parseInteger(text, setting, 1, 500_000),
  },
  reapFrequency: {
    flag: 'reap-frequency',
    env: 'REAP_FREQUENCY',
    valueName: 'N',
    help: 'reap the history every N ingested ledgers (1: after every ledger)',
    default: 720,
    parse: (text, setting) => parseInteger(text, setting, 1, 1_000_000_000),
  },
  parallelWorkers: {
    flag: 'parallel-workers',
    env: 'PARALLEL_WORKERS',
    valueName: 'N',
    help: "reingest jobs run at once (Horizon's --parallel-workers), 1 to 10 (a PostgreSQL connection each); on PGlite they share its one connection",
    default: 1,
    // the pool of a process holds 10 connections (db/database.ts)
    parse: (text, setting) => parseInteger(text, setting, 1, 10),
  },
  parallelJobSize: {
    flag: 'parallel-job-size',
    env: 'PARALLEL_JOB_SIZE',
    valueName: 'N',
    help: 'ledgers of one reingest job, rounded down to a multiple of 64 (at least 64, at most 12800); 0: the range over the workers',
    default: 0,
    parse: (text, setting) => {
      const size = parseInteger(text, setting, 0, 2 ** 32 - 1);
      if (size > 0 && size < 64)
        throw new ConfigError(setting, `invalid ${setting}: ${size} is under 64, a history checkpoint (0 picks one)`);
      return size;
    },
  },
};

/** History retention, settings of every command that ingests. */
export const RETENTION_SETTINGS = [
  'historyRetentionCount',
  'historyRetentionReapCount',
  'reapFrequency',
] as const satisfies readonly SettingName[];

/** Load shedding, settings of every command that serves the API. */
export const ADMISSION_SETTINGS = [
  'maxConcurrentRequests',
  'maxQueuedRequests',
  'maxRequestWaitMs',
] as const satisfies readonly SettingName[];

/** The admin server (Prometheus metrics), a setting of every long-running process. */
export const ADMIN_SETTINGS = ['adminPort', 'adminHost'] as const satisfies readonly SettingName[];

/** The GraphQL limits, settings of every command that serves the API. */
export const GRAPHQL_LIMIT_SETTINGS = [
  'graphqlMaxDepth',
  'graphqlMaxAliases',
  'graphqlMaxRootFields',
  'graphqlMaxTokens',
  'graphqlMaxDirectives',
  'graphqlMaxComplexity',
  'graphqlMaxBodyBytes',
] as const satisfies readonly SettingName[];

/** Path finding, a setting of every command that serves the API. */
export const PATH_SETTINGS = ['maxPathLength'] as const satisfies readonly SettingName[];

/** What open streams may cost, settings of every command that serves the API. */
export const STREAM_LIMIT_SETTINGS = [
  'maxStreamsPerClient',
  'maxStreams',
  'streamMaxBufferedBytes',
  'streamDrainTimeoutMs',
] as const satisfies readonly SettingName[];

/** A flag's value as given on the command line: a string, or true for a bare boolean flag. */
export type FlagValues = Map<string, string | true>;

/**
 * Builds the configuration of a command from its flags and the environment. Only the settings the
 * command accepts are read; the others keep their defaults.
 */
export function loadConfig(accepted: readonly SettingName[], flags: FlagValues, env: NodeJS.ProcessEnv = process.env): Config {
  const config = defaultConfig();
  const known = new Set(accepted.map((name) => settings[name].flag));
  for (const flag of flags.keys()) {
    if (!known.has(flag)) throw new ConfigError(flag, `unknown option --${flag}`);
  }
  for (const name of accepted) assign(config, name, flags, env);
  return config;
}

/** The settings of `accepted` that the flags or the environment give (the others hold their defaults). */
export function givenSettings(accepted: readonly SettingName[], flags: FlagValues, env: NodeJS.ProcessEnv = process.env): Set<SettingName> {
  return new Set(
    accepted.filter((name) => {
      const setting = settings[name];
      const fromEnv = env[setting.env];
      return flags.has(setting.flag) || (fromEnv !== undefined && fromEnv !== '');
    }),
  );
}

export function defaultConfig(): Config {
  const config = {} as Record<SettingName, unknown>;
  for (const name of Object.keys(settings) as SettingName[]) config[name] = settings[name].default;
  return config as unknown as Config;
}

function assign<K extends SettingName>(config: Config, name: K, flags: FlagValues, env: NodeJS.ProcessEnv): void {
  const setting: Setting<K> = settings[name];
  const fromFlag = flags.get(setting.flag);
  const fromEnv = env[setting.env];
  if (fromFlag === true) {
    if (!setting.boolean) throw new ConfigError(setting.flag, `--${setting.flag} needs a value`);
    config[name] = true as Config[K];
  } else if (fromFlag !== undefined) {
    config[name] = setting.parse(fromFlag, setting.flag);
  } else if (fromEnv !== undefined && fromEnv !== '') {
    config[name] = setting.parse(fromEnv, setting.flag);
  }
}

function parsePort(text: string, setting: string): number {
  return parseInteger(text, setting, 0, 65535);
}

function parseInteger(text: string, setting: string, min: number, max: number): number {
  if (!/^\d+$/.test(text.trim())) {
    throw new ConfigError(setting, `invalid ${setting}: "${text}" is not a whole number`);
  }
  const value = Number(text.trim());
  if (value < min || value > max) {
    throw new ConfigError(setting, `invalid ${setting}: ${value} is not between ${min} and ${max}`);
  }
  return value;
}

function parseBoolean(text: string, setting: string): boolean {
  const value = text.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(value)) return true;
  if (['0', 'false', 'no', 'off'].includes(value)) return false;
  throw new ConfigError(setting, `invalid ${setting}: "${text}" is not true or false`);
}

function parseNonEmpty(text: string, setting: string): string {
  if (text.trim() === '') throw new ConfigError(setting, `invalid ${setting}: empty value`);
  return text;
}

/** IPs and CIDR ranges (a.b.c.d/n, x::y/n), separated by commas */
function parseAddressList(text: string, setting: string): string[] {
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  for (const entry of entries) {
    const [address = '', prefix, extra] = entry.split('/');
    const version = isIP(address);
    const bits = version === 6 ? 128 : 32;
    const validPrefix = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= bits);
    if (version === 0 || !validPrefix || extra !== undefined) {
      throw new ConfigError(setting, `invalid ${setting}: "${entry}" is not an IP address or a CIDR range`);
    }
  }
  return entries;
}

function parseDatabaseUrl(text: string, setting: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(setting, `invalid ${setting}: not a URL`);
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new ConfigError(setting, `invalid ${setting}: must start with postgres:// or postgresql://`);
  }
  return text;
}

function parseHttpUrl(text: string, setting: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(setting, `invalid ${setting}: "${text}" is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(setting, `invalid ${setting}: must be an http:// or https:// URL`);
  }
  return text.replace(/\/+$/, '');
}

const LOG_LEVELS: readonly LogLevel[] = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];

function parseLogLevel(text: string, setting: string): LogLevel {
  const level = text.trim().toLowerCase();
  const found = LOG_LEVELS.find((candidate) => candidate === level);
  if (!found) throw new ConfigError(setting, `invalid ${setting}: "${text}" is not one of ${LOG_LEVELS.join(', ')}`);
  return found;
}
