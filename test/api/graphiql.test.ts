// The GraphiQL page's answer (test/e2e/graphiql_browser.test.ts runs it in a browser): its example
// tabs are valid against the schema, its policy names nothing outside the server, and it is sent
// gzipped or not, revalidated by its ETag, only to a browser.
import { gunzipSync } from 'node:zlib';
import { parse, validate } from 'graphql';
import { createYoga } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import { graphiqlPage, graphiqlTabs } from '../../src/api/graphiql.js';
import { schema } from '../../src/api/schema/index.js';

const PASSPHRASE = 'Test SDF Network ; September 2015';
/** the testnet's root account (stellar-core's genesis: the seed is the network id) */
const TESTNET_ROOT = 'GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H';

const yoga = createYoga({ schema, graphiql: false, logging: false, plugins: [graphiqlPage(PASSPHRASE)] });
const get = (headers: Record<string, string>) => yoga.fetch('http://localhost/graphql', { headers });

describe('GraphiQL', () => {
  it('has example tabs that are valid against the schema, about the root account', () => {
    const tabs = graphiqlTabs(PASSPHRASE);
    expect(tabs.map((tab) => /^(query|subscription) (\w+)/m.exec(tab.query)?.slice(1))).toEqual([
      ['query', 'Account'],
      ['query', 'LatestLedgers'],
      ['subscription', 'Payments'],
    ]);
    for (const tab of tabs) expect(validate(schema, parse(tab.query)), tab.query).toEqual([]);
    expect(tabs[0]?.query).toContain(`account(id: "${TESTNET_ROOT}")`);
  });

  it('is sent gzipped to a browser, with a policy that names nothing outside the server', async () => {
    const plain = await get({ accept: 'text/html' });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-encoding')).toBeNull();
    const html = await plain.text();
    expect(html).toContain('<title>Zenith GraphiQL</title>');
    // the page's code is inlined: no script, style or worker is loaded from elsewhere
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=["']?https?:/);
    expect(html).toContain('"subscriptionsProtocol":"GRAPHQL_SSE","subscriptionsEndpoint":"/graphql/stream"');

    const gzipped = await get({ accept: 'text/html', 'accept-encoding': 'gzip, deflate, br' });
    expect(gzipped.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gzipped.arrayBuffer())).toString()).toBe(html);

    const policy = plain.headers.get('content-security-policy') ?? '';
    expect(gzipped.headers.get('content-security-policy')).toBe(policy);
    const directives = Object.fromEntries(policy.split('; ').map((directive) => [directive.split(' ')[0], directive.split(' ').slice(1)]));
    expect(directives).toEqual({
      'default-src': ["'none'"],
      'script-src': [expect.stringMatching(/^'sha256-[A-Za-z0-9+/]{43}='$/)],
      'style-src': ["'unsafe-inline'"],
      'font-src': ['data:'],
      'img-src': ['data:'],
      'worker-src': ['blob:'],
      'connect-src': ["'self'"],
      'base-uri': ["'none'"],
      'form-action': ["'none'"],
      'frame-ancestors': ["'self'"],
    });
  });

  it('is revalidated by its ETag', async () => {
    for (const encoding of ['identity', 'gzip']) {
      const first = await get({ accept: 'text/html', 'accept-encoding': encoding });
      const etag = first.headers.get('etag');
      expect(etag).toMatch(/^"[\w-]+"$/);
      expect(first.headers.get('cache-control')).toBe('no-cache');
      const again = await get({ accept: 'text/html', 'accept-encoding': encoding, 'if-none-match': etag! });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');
    }
    const other = await get({ accept: 'text/html', 'if-none-match': '"another"' });
    expect(other.status).toBe(200);
  });

  it('is not what a GraphQL client gets', async () => {
    const response = await get({ accept: 'application/json' });
    expect(response.headers.get('content-type')).not.toMatch(/html/);
  });
});
