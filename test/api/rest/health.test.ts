// GET /health as Horizon's health_test.go: each state of the database and the core gives its JSON
// and 200 or 503, and an answer is reused within the cache's TTL, then checked again.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiServices, CoreInfo } from '../../../src/api/context.js';
import { createHealthHandler } from '../../../src/api/rest/health.js';

const synced: CoreInfo = { version: 'core', latestLedger: 3, protocolVersion: 22, synced: true };
const notSynced: CoreInfo = { ...synced, synced: false };

interface Fake {
  pingError: boolean;
  core: CoreInfo | null;
  pings: number;
  infos: number;
}

function fakeServices(fake: Fake): Pick<ApiServices, 'db' | 'coreInfo' | 'config'> {
  const prisma = {
    $queryRaw: () => {
      fake.pings++;
      return fake.pingError ? Promise.reject(new Error('database is down')) : Promise.resolve([{ '?column?': 1 }]);
    },
  };
  return {
    db: { prisma } as unknown as ApiServices['db'],
    config: { networkPassphrase: 'Standalone Network ; February 2017' },
    coreInfo: async () => {
      fake.infos++;
      return fake.core;
    },
  };
}

let server: Server | undefined;

async function serve(handler: ReturnType<typeof createHealthHandler>): Promise<string> {
  server = createServer((req, res) => void handler(req, res, new URL(req.url ?? '/', 'http://localhost')));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/health`;
}

afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

describe('GET /health', () => {
  it.each([
    ['healthy', false, synced, 200, { database_connected: true, core_up: true, core_synced: true }],
    ['db down', true, synced, 503, { database_connected: false, core_up: true, core_synced: true }],
    ['stellar core not synced', false, notSynced, 503, { database_connected: true, core_up: true, core_synced: false }],
    ['stellar core down', false, null, 503, { database_connected: true, core_up: false, core_synced: false }],
    ['stellar core and db down', true, null, 503, { database_connected: false, core_up: false, core_synced: false }],
    ['stellar core not synced and db down', true, notSynced, 503, { database_connected: false, core_up: true, core_synced: false }],
  ] as const)('%s', async (_name, pingError, core, status, expected) => {
    const fake: Fake = { pingError, core, pings: 0, infos: 0 };
    const url = await serve(createHealthHandler(fakeServices(fake)));
    const response = await fetch(url);
    expect(response.status).toBe(status);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual(expected);
    // Go's json.Encoder: the keys in Horizon's order, one line
    expect(Object.keys(JSON.parse(text))).toEqual(['database_connected', 'core_up', 'core_synced']);
    expect(text.endsWith('}\n')).toBe(true);
    expect([fake.pings, fake.infos]).toEqual([1, 1]);
  });

  it('reuses an answer within the TTL, then checks again', async () => {
    let clock = 0;
    const fake: Fake = { pingError: true, core: synced, pings: 0, infos: 0 };
    const url = await serve(createHealthHandler(fakeServices(fake), { ttlMs: 5000, now: () => clock }));
    const read = async () => {
      const response = await fetch(url);
      return [response.status, await response.json()];
    };
    const cached = { database_connected: false, core_up: true, core_synced: true };
    for (const at of [0, 1000, 4000]) {
      clock = at;
      expect(await read()).toEqual([503, cached]);
    }
    expect([fake.pings, fake.infos]).toEqual([1, 1]);
    fake.pingError = false;
    fake.core = null;
    const updated = { database_connected: true, core_up: false, core_synced: false };
    for (const at of [6000, 7000]) {
      clock = at;
      expect(await read()).toEqual([503, updated]);
    }
    expect([fake.pings, fake.infos]).toEqual([2, 2]);
  });

  it('answers 405 to another method and leaves other paths to other handlers', async () => {
    const fake: Fake = { pingError: false, core: synced, pings: 0, infos: 0 };
    const handler = createHealthHandler(fakeServices(fake));
    const url = await serve(handler);
    expect((await fetch(url, { method: 'POST' })).status).toBe(405);
    expect(await handler({} as never, {} as never, new URL('http://localhost/healthz'))).toBe(false);
  });
});
