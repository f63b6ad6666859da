// What makes the API safe to expose, over real HTTP: CORS as Horizon's (preflights answered, no
// credentials), X-Forwarded-* believed only from --trusted-proxies, Horizon's 200 KB bound on
// bodies (a 413, never a reset), Horizon's per-IP rate limit with its headers, and the friendbot's
// own limits.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Keypair } from '@stellar/stellar-sdk/base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Funder } from '../../src/api/rest/friendbot.js';
import { createApiServer, type ServerProtection } from '../../src/api/server.js';
import { createLogger } from '../../src/logger.js';
import type { SubmissionSystem } from '../../src/txsub/index.js';
import { testServices } from '../support/api_server.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

let test: TestDatabase;
const servers: Server[] = [];

/** a submission system that calls every envelope malformed: these tests never reach a core */
const refusingTxsub = {
  submit: async () => ({ kind: 'malformed', reason: 'not decoded' }),
} as unknown as SubmissionSystem;

/** a friendbot whose every address is already funded: the limits come before it */
const fundedFriendbot: Funder = {
  fund: async () => ({ kind: 'already_funded' }),
  startingBalance: '10000.0000000',
};

const NO_LIMITS: ServerProtection = { trustedProxies: [], perHourRateLimit: 0, friendbotPerHourLimit: 0 };

async function serve(protection: ServerProtection): Promise<string> {
  const server = createApiServer({
    services: { ...testServices(test.db), txsub: refusingTxsub },
    logger: createLogger('silent', { pretty: false }),
    friendbot: fundedFriendbot,
    protection,
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  test = await createTestDatabase();
});

afterAll(async () => {
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
  await test.drop();
});

describe('CORS', () => {
  let base: string;
  beforeAll(async () => {
    base = await serve(NO_LIMITS);
  });

  const preflight = (path: string, method: string) =>
    fetch(base + path, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://wallet.example',
        'Access-Control-Request-Method': method,
        'Access-Control-Request-Headers': 'x-client-name, x-client-version, content-type, x-custom-thing',
      },
    });

  it.each([
    ['/ledgers', 'GET'],
    ['/accounts/GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7', 'GET'],
    ['/transactions', 'POST'],
    ['/transactions_async', 'POST'],
    ['/friendbot', 'GET'],
    ['/graphql', 'POST'],
    ['/graphql/stream', 'POST'],
  ])('answers the preflight of %s (%s) with 204, any origin, its methods and headers, no credentials', async (path, method) => {
    const response = await preflight(path, method);
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    expect(response.headers.get('access-control-allow-methods')?.split(', ')).toEqual(expect.arrayContaining(['GET', 'POST']));
    const allowed = (response.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/\s*,\s*/);
    expect(allowed).toEqual(
      expect.arrayContaining(['x-client-name', 'x-client-version', 'x-app-name', 'x-app-version', 'content-type', 'x-custom-thing']),
    );
    expect(await response.text()).toBe('');
  });

  it('answers /graphql to any origin with *, never the Origin reflected with credentials', async () => {
    const response = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { Origin: 'https://evil.example', 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    await response.arrayBuffer();
  });

  it('lets a page read the rate limit headers besides Date and Latest-Ledger', async () => {
    const response = await fetch(`${base}/ledgers`, { headers: { Origin: 'https://wallet.example' } });
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-expose-headers')?.split(', ')).toEqual(
      expect.arrayContaining(['Date', 'Latest-Ledger', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']),
    );
    await response.arrayBuffer();
  });
});

describe('X-Forwarded-*', () => {
  const forwarded = { 'X-Forwarded-Host': 'attacker.example', 'X-Forwarded-Proto': 'https' };
  const selfLink = async (base: string, headers: Record<string, string>) =>
    ((await (await fetch(`${base}/`, { headers })).json()) as { _links: { self: { href: string } } })._links.self.href;

  it('are ignored from an address that is not a trusted proxy: links use the Host of the request', async () => {
    const base = await serve({ ...NO_LIMITS, trustedProxies: ['10.0.0.0/8', '::1'] });
    expect(await selfLink(base, forwarded)).toBe(`${base}/`);
  });

  it("are honoured from a trusted proxy's address", async () => {
    const base = await serve({ ...NO_LIMITS, trustedProxies: ['127.0.0.0/8'] });
    expect(await selfLink(base, forwarded)).toBe('https://attacker.example/');
    // a Host that is no host name is not put in a link
    expect(await selfLink(base, { 'X-Forwarded-Host': 'a.example/"><script>' })).toBe(`${base}/`);
  });

  it("count a trusted proxy's clients apart, and an untrusted sender as itself", async () => {
    const trusted = await serve({ trustedProxies: ['127.0.0.1'], perHourRateLimit: 1, friendbotPerHourLimit: 0 });
    const remaining = async (base: string, client: string) =>
      (await fetch(`${base}/nowhere`, { headers: { 'X-Forwarded-For': client } })).headers.get('x-ratelimit-remaining');
    expect(await remaining(trusted, '203.0.113.1')).toBe('100');
    expect(await remaining(trusted, '203.0.113.1')).toBe('99');
    expect(await remaining(trusted, '203.0.113.2, 127.0.0.1')).toBe('100');
    const untrusted = await serve({ trustedProxies: [], perHourRateLimit: 1, friendbotPerHourLimit: 0 });
    expect(await remaining(untrusted, '203.0.113.1')).toBe('100');
    expect(await remaining(untrusted, '203.0.113.2')).toBe('99');
  });
});

describe('request bodies', () => {
  let base: string;
  beforeAll(async () => {
    base = await serve(NO_LIMITS);
  });

  const form = (bytes: number) => `tx=${'A'.repeat(bytes)}`;

  it.each(['/transactions', '/transactions_async', '/friendbot'])(
    'answers a 300 KB body to POST %s with a 413 problem that echoes none of it, never a reset',
    async (path) => {
      const response = await fetch(base + path, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: form(300 * 1024),
      });
      expect(response.status).toBe(413);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      const problem = (await response.json()) as Record<string, unknown>;
      expect(problem).toMatchObject({ type: 'https://stellar.org/horizon-errors/request_entity_too_large', status: 413 });
      expect(JSON.stringify(problem)).not.toContain('AAAA');
    },
  );

  it('answers a 300 KB GraphQL request with a 413 problem', async () => {
    const response = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: `{ __typename }${' '.repeat(300 * 1024)}` }),
    });
    expect(response.status).toBe(413);
    expect(((await response.json()) as { type: string }).type).toBe('https://stellar.org/horizon-errors/request_entity_too_large');
  });

  it('answers a body far over the bound with a 413 too, and closes the connection', async () => {
    const response = await fetch(`${base}/transactions`, { method: 'POST', body: form(3 * 1024 * 1024) });
    expect(response.status).toBe(413);
    expect(response.headers.get('connection')).toBe('close');
    await response.arrayBuffer();
  });

  it('still reads a body within the bound (199 KB)', async () => {
    const response = await fetch(`${base}/transactions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: form(199 * 1024),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { type: string }).type).toBe('https://stellar.org/horizon-errors/transaction_malformed');
  });
});

describe('rate limit', () => {
  it("counts every request of a client IP as Horizon's GCRA does: 101 at once, then 429 with Retry-After", async () => {
    // 1 an hour: one emission interval is an hour, so nothing comes back during the test
    const base = await serve({ ...NO_LIMITS, perHourRateLimit: 1 });
    const first = await fetch(`${base}/nowhere`);
    expect(first.status).toBe(404);
    expect(first.headers.get('x-ratelimit-limit')).toBe('101');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('100');
    expect(first.headers.get('x-ratelimit-reset')).toBe('3600');
    await first.arrayBuffer();
    // GraphQL counts as well
    const graphql = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(graphql.headers.get('x-ratelimit-remaining')).toBe('99');
    await graphql.arrayBuffer();
    for (let i = 0; i < 99; i++) await (await fetch(`${base}/nowhere`)).arrayBuffer();
    const refused = await fetch(`${base}/ledgers`);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3500);
    expect(await refused.json()).toMatchObject({
      type: 'https://stellar.org/horizon-errors/rate_limit_exceeded',
      title: 'Rate Limit Exceeded',
      status: 429,
    });
    const refusedGraphql = await fetch(`${base}/graphql?query=${encodeURIComponent('{ __typename }')}`);
    expect(refusedGraphql.status).toBe(429);
    await refusedGraphql.arrayBuffer();
    // a preflight is not counted, and still answered
    expect((await fetch(`${base}/ledgers`, { method: 'OPTIONS' })).status).toBe(204);
  });

  it("counts GraphQL by cost: one request per started 1,000 of an operation's cost, a 429 coded rate_limit_exceeded past the burst", async () => {
    const base = await serve({ ...NO_LIMITS, perHourRateLimit: 1 });
    const post = (query: string) =>
      fetch(`${base}/graphql`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ query }) });
    const cheap = await post('{ __typename }');
    expect(cheap.headers.get('x-ratelimit-remaining')).toBe('100');
    await cheap.arrayBuffer();
    // 200 ledgers of 11 fields under a connection: 1 + 200 × (edges, node, cursor and 9 fields beneath) ≈ 2,400, three requests' worth
    const page =
      '{ ledgers(first: 200) { edges { cursor node { sequence hash prevHash closedAt successfulTransactionCount failedTransactionCount operationCount txSetOperationCount baseFeeInStroops } } } }';
    const costly = await post(page);
    expect(costly.status).toBe(200);
    expect(costly.headers.get('x-ratelimit-remaining')).toBe('97');
    await costly.arrayBuffer();
    // near the 50,000 budget (200 ledgers × 70 transactions): more than 40 requests; the third such query is over the burst
    const budget = '{ ledgers(first: 200) { edges { node { sequence transactions(first: 70) { edges { node { hash } } } } } } }';
    const first = await post(budget);
    expect(first.status).toBe(200);
    const charged = 97 - Number(first.headers.get('x-ratelimit-remaining'));
    expect(charged).toBeGreaterThan(40);
    await first.arrayBuffer();
    const second = await post(budget);
    expect(second.status).toBe(200);
    const remaining = Number(second.headers.get('x-ratelimit-remaining'));
    expect(remaining).toBe(97 - 2 * charged);
    await second.arrayBuffer();
    const refused = await post(budget);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3500);
    const body = (await refused.json()) as { data?: unknown; errors: { extensions: { code: string } }[] };
    expect(body.data).toBeUndefined();
    expect(body.errors[0]?.extensions.code).toBe('rate_limit_exceeded');
    // the refused query counted as the one request it was, not its cost: a cheap query still passes
    const after = await post('{ __typename }');
    expect(after.status).toBe(200);
    expect(Number(after.headers.get('x-ratelimit-remaining'))).toBe(remaining - 2);
    await after.arrayBuffer();
  });

  it('is off at 0, as the test servers build it', async () => {
    const base = await serve(NO_LIMITS);
    const response = await fetch(`${base}/nowhere`);
    expect(response.headers.get('x-ratelimit-limit')).toBeNull();
    await response.arrayBuffer();
  });
});

describe('friendbot limits', () => {
  it('funds one address at most once in 10 minutes', async () => {
    const base = await serve({ ...NO_LIMITS, friendbotPerHourLimit: 60 });
    const address = Keypair.random().publicKey();
    const once = await fetch(`${base}/friendbot?addr=${address}`);
    expect(once.status).toBe(400);
    await once.arrayBuffer();
    const again = await fetch(`${base}/friendbot?addr=${address}`);
    expect(again.status).toBe(429);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(590);
    expect(await again.json()).toMatchObject({ type: 'https://stellar.org/horizon-errors/rate_limit_exceeded', status: 429 });
    // another address still goes through
    const other = await fetch(`${base}/friendbot?addr=${Keypair.random().publicKey()}`);
    expect(other.status).toBe(400);
    await other.arrayBuffer();
  });

  it('funds at most the hourly limit for one IP', async () => {
    const base = await serve({ ...NO_LIMITS, friendbotPerHourLimit: 3 });
    for (let i = 0; i < 3; i++) {
      const response = await fetch(`${base}/friendbot?addr=${Keypair.random().publicKey()}`);
      expect(response.status).toBe(400);
      await response.arrayBuffer();
    }
    const refused = await fetch(`${base}/friendbot?addr=${Keypair.random().publicKey()}`);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(1100);
    await refused.arrayBuffer();
  });
});
