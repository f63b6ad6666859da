import { describe, expect, it } from 'vitest';
import { ConfigError, defaultConfig, givenSettings, loadConfig, STANDALONE_PASSPHRASE, type FlagValues } from '../src/config.js';

const flags = (entries: Record<string, string | true>): FlagValues => new Map(Object.entries(entries));
const all = Object.keys(defaultConfig()) as (keyof ReturnType<typeof defaultConfig>)[];

describe('config', () => {
  it('has the documented defaults', () => {
    expect(loadConfig(all, flags({}), {})).toMatchObject({
      port: 8000,
      // this machine alone unless --host says otherwise: the private network's root key is public
      host: '127.0.0.1',
      trustedProxies: [],
      perHourRateLimit: 3600,
      friendbotPerHourLimit: 60,
      dataDir: './data',
      databaseUrl: null,
      networkPassphrase: STANDALONE_PASSPHRASE,
      coreUrl: null,
      corePort: 11626,
      closeIntervalMs: 1000,
      manualClose: false,
      baseReserve: 5_000_000,
      logLevel: 'info',
      yes: false,
      // Horizon's --max-path-length default
      maxPathLength: 3,
    });
  });

  it('prefers a flag to its environment variable, and the variable to the default', () => {
    expect(loadConfig(all, flags({}), { PORT: '9000' }).port).toBe(9000);
    expect(loadConfig(all, flags({ port: '9100' }), { PORT: '9000' }).port).toBe(9100);
    expect(loadConfig(all, flags({ 'manual-close': true }), {}).manualClose).toBe(true);
    expect(loadConfig(all, flags({}), { MANUAL_CLOSE: 'true' }).manualClose).toBe(true);
    expect(loadConfig(all, flags({ 'manual-close': 'false' }), { MANUAL_CLOSE: 'true' }).manualClose).toBe(false);
    expect(loadConfig(all, flags({}), { DATABASE_URL: 'postgres://u@h/db' }).databaseUrl).toBe('postgres://u@h/db');
    expect(loadConfig(all, flags({ 'core-url': 'http://core:11626/' }), {}).coreUrl).toBe('http://core:11626');
  });

  it('tells the settings given by a flag or a variable from defaults', () => {
    const accepted = ['networkPassphrase', 'port'] as const;
    expect([...givenSettings(accepted, flags({}), {})]).toEqual([]);
    expect([...givenSettings(accepted, flags({ 'network-passphrase': 'x' }), {})]).toEqual(['networkPassphrase']);
    expect([...givenSettings(accepted, flags({}), { NETWORK_PASSPHRASE: 'x', PORT: '' })]).toEqual(['networkPassphrase']);
    expect([...givenSettings(['port'], flags({}), { NETWORK_PASSPHRASE: 'x' })]).toEqual([]);
  });

  it.each([
    [{ port: 'abc' }, {}, 'port'],
    [{ port: '70000' }, {}, 'port'],
    [{}, { PORT: '-1' }, 'port'],
    [{ 'close-interval': '0' }, {}, 'close-interval'],
    [{}, { LOG_LEVEL: 'loud' }, 'log-level'],
    [{ 'database-url': 'mysql://x' }, {}, 'database-url'],
    [{ 'core-url': 'ftp://x' }, {}, 'core-url'],
    [{ 'manual-close': 'maybe' }, {}, 'manual-close'],
    [{ 'data-dir': ' ' }, {}, 'data-dir'],
    [{ port: true }, {}, 'port'],
    [{ 'max-path-length': '0' }, {}, 'max-path-length'],
    [{ 'max-path-length': '6' }, {}, 'max-path-length'],
    [{}, { MAX_PATH_LENGTH: 'three' }, 'max-path-length'],
    [{ colour: 'red' }, {}, 'colour'],
    [{ 'trusted-proxies': '10.0.0.1,proxy.example' }, {}, 'trusted-proxies'],
    [{ 'trusted-proxies': '10.0.0.0/33' }, {}, 'trusted-proxies'],
    [{}, { TRUSTED_PROXIES: '::1/129' }, 'trusted-proxies'],
    [{ 'per-hour-rate-limit': '-5' }, {}, 'per-hour-rate-limit'],
  ] as const)('rejects %j %j naming %s', (given, env, setting) => {
    const attempt = () => loadConfig(all, flags(given), env);
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      expect((error as ConfigError).setting).toBe(setting);
      expect((error as ConfigError).message).toContain(setting);
    }
  });

  it('reads --trusted-proxies as a list of IPs and CIDR ranges', () => {
    expect(loadConfig(all, flags({ 'trusted-proxies': ' 10.0.0.0/8, 192.168.1.7,fd00::/8 ,' }), {}).trustedProxies).toEqual([
      '10.0.0.0/8',
      '192.168.1.7',
      'fd00::/8',
    ]);
  });

  it('refuses flags the command does not take', () => {
    expect(() => loadConfig(['port'], flags({ 'core-port': '1' }), {})).toThrow(/unknown option --core-port/);
  });
});
