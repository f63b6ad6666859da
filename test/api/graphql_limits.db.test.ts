// What one GraphQL request may ask, over HTTP: bombs of aliases, cost, depth, root fields and
// `nodes` ids are refused with their codes before anything runs (and fast, while a normal request
// beside them is answered), bodies are bounded (413), an invalid body is never repeated, and
// neither /graphql nor /graphql/stream answers a stack trace, in development or production mode.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { graphqlLimitsOf } from '../../src/api/graphql_limits.js';
import { createApiServer } from '../../src/api/server.js';
import { defaultConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { testServices, postGraphQL, type Json } from '../support/api_server.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { seedLedger } from '../support/seed.js';

let test: TestDatabase;
const servers: Server[] = [];

async function serve(options: { maxTokens?: number } = {}): Promise<string> {
  const server = createApiServer({
    services: testServices(test.db),
    logger: createLogger('silent', { pretty: false }),
    graphqlLimits: { ...graphqlLimitsOf(defaultConfig()), ...(options.maxTokens ? { maxTokens: options.maxTokens } : {}) },
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

let base: string;
/** a server whose token limit lets a 5,000-alias document reach the alias limit */
let manyTokens: string;

beforeAll(async () => {
  test = await createTestDatabase();
  await seedLedger(test.db, 3, []);
  base = await serve();
  manyTokens = await serve({ maxTokens: 100_000 });
});

afterAll(async () => {
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
  await test.drop();
});

const aliases = (n: number): string => `{ ${Array.from({ length: n }, (_, i) => `a${i}: feeStats { lastLedger }`).join(' ')} }`;
const codes = (answer: Json): string[] => (answer.errors ?? []).map((error: Json) => error.extensions?.code);
const NORMAL = '{ ledgers(first: 5) { edges { node { sequence hash } } } feeStats { lastLedger } }';

describe('GraphQL query limits', () => {
  // No timing here (a loaded CI machine makes any bound flaky): the codes show where each bomb is
  // stopped, while it is parsed or at validation, before anything is executed.
  it('refuses the 5,000-alias bomb before executing it, while a normal request beside it is answered', async () => {
    const bomb = aliases(5000);
    const [tokens, alias, normal] = await Promise.all([postGraphQL(base, bomb), postGraphQL(manyTokens, bomb), postGraphQL(base, NORMAL)]);
    // the default token limit stops it while it is parsed; past it, the alias limit
    expect(codes(tokens)).toEqual(['GRAPHQL_TOKEN_LIMIT']);
    expect(tokens.data).toBeUndefined();
    expect(codes(alias)).toContain('GRAPHQL_ALIAS_LIMIT');
    expect(alias.data).toBeUndefined();
    expect(normal.errors).toBeUndefined();
    expect(normal.data.ledgers.edges[0].node.sequence).toBe(3);
  });

  it('refuses more aliases than the limit, and takes as many as it', async () => {
    expect(codes(await postGraphQL(base, aliases(31)))).toContain('GRAPHQL_ALIAS_LIMIT');
    const fields = `{ ledger(sequence: 3) { ${Array.from({ length: 30 }, (_, i) => `a${i}: sequence`).join(' ')} } }`;
    const answer = await postGraphQL(base, fields);
    expect(answer.errors).toBeUndefined();
    expect(answer.data.ledger.a29).toBe(3);
  });

  it('refuses a query over its cost budget, with the page sizes of its literals and of its variables', async () => {
    const bomb =
      '{ ledgers(first: 200) { edges { node { transactions(first: 200) { edges { node { hash operations(first: 200) { edges { node { id } } } } } } } } } }';
    const [refused, normal] = await Promise.all([postGraphQL(base, bomb), postGraphQL(base, NORMAL)]);
    expect(codes(refused)).toEqual(['GRAPHQL_COMPLEXITY_LIMIT']);
    expect(refused.errors[0].message).toMatch(/costs \d+, more than the limit of 50000/);
    expect(refused.data).toBeUndefined();
    expect(normal.errors).toBeUndefined();

    const byVariables = 'query($n: Int) { ledgers(first: $n) { edges { node { transactions(first: $n) { edges { node { hash } } } } } } }';
    expect(codes(await postGraphQL(base, byVariables, { n: 200 }))).toEqual(['GRAPHQL_COMPLEXITY_LIMIT']);
    const small = await postGraphQL(base, byVariables, { n: 5 });
    expect(small.errors).toBeUndefined();
    expect(small.data.ledgers.edges).toHaveLength(1);
  });

  it('refuses a query deeper than the limit', async () => {
    const deep =
      '{ ledger(sequence: 3) { transactions { edges { node { operations { edges { node { transaction { ledger { transactions { edges { node { hash } } } } } } } } } } } } }';
    const answer = await postGraphQL(base, deep);
    expect(codes(answer)).toEqual(['GRAPHQL_DEPTH_LIMIT']);
    expect(answer.errors[0].message).toMatch(/depth limit of 12 exceeded, found 13/);
  });

  it('refuses more root fields than the limit, counted through fragments', async () => {
    const answer = await postGraphQL(base, `{ ...F ${'__typename '.repeat(11)} } fragment F on Query { ${'__typename '.repeat(10)} }`);
    expect(codes(answer)).toEqual(['GRAPHQL_ROOT_FIELD_LIMIT']);
    expect((await postGraphQL(base, `{ ${'__typename '.repeat(20)} }`)).errors).toBeUndefined();
  });

  it('refuses more directives than the limit', async () => {
    const answer = await postGraphQL(base, `{ feeStats { lastLedger ${'@include(if: true) '.repeat(21)} } }`);
    expect(codes(answer)).toContain('GRAPHQL_DIRECTIVE_LIMIT');
  });

  it('takes nodes(ids:) with 200 ids and refuses 201', async () => {
    const id = Buffer.from('Ledger:3').toString('base64');
    const query = 'query($ids: [ID!]!) { nodes(ids: $ids) { id ... on Ledger { sequence } } }';
    const refused = await postGraphQL(base, query, { ids: Array.from({ length: 201 }, () => id) });
    expect(codes(refused)).toEqual(['bad_request']);
    expect(refused.errors[0].extensions.extras).toEqual({ invalid_field: 'ids', reason: 'at most 200 ids, not 201' });
    const answered = await postGraphQL(base, query, { ids: Array.from({ length: 200 }, () => id) });
    expect(answered.errors).toBeUndefined();
    expect(answered.data.nodes).toHaveLength(200);
    expect(answered.data.nodes[199].sequence).toBe(3);
  });
});

describe('GraphQL bodies and errors', () => {
  const twentyMegabytes = JSON.stringify({ query: NORMAL, variables: { padding: 'x'.repeat(20_000_000) } });

  it('answers a 20 MB body with 413 at /graphql and /graphql/stream', async () => {
    for (const path of ['/graphql', '/graphql/stream']) {
      const response = await fetch(base + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: path.endsWith('stream') ? 'text/event-stream' : 'application/json' },
        body: twentyMegabytes,
      });
      expect(response.status, path).toBe(413);
      // the bound of every route answers a declared length (a problem); a chunked body, GraphQL's own
      const answer = (await response.json()) as Json;
      expect(answer.type ?? codes(answer)[0], path).toMatch(/request_entity_too_large$|^REQUEST_ENTITY_TOO_LARGE$/);
    }
    // the connection pool still works after it
    expect((await postGraphQL(base, NORMAL)).errors).toBeUndefined();
  });

  it('answers a chunked body over the GraphQL bound with 413 at /graphql and /graphql/stream, while it is still sent (no reset)', async () => {
    for (const path of ['/graphql', '/graphql/stream']) {
      // 4 MB in 64 KB chunks without a Content-Length: the answer comes at the first byte over 200 KB
      let left = 64;
      const chunk = new TextEncoder().encode(`{"query": "{ __typename }", "variables": {"padding": "${'x'.repeat(64 * 1024)}`);
      const body = new ReadableStream({
        pull(controller) {
          if (left-- > 0) controller.enqueue(chunk);
          else controller.close();
        },
      });
      const response = await fetch(base + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: path.endsWith('stream') ? 'text/event-stream' : 'application/json' },
        body,
        duplex: 'half',
      } as RequestInit);
      expect(response.status, path).toBe(413);
      expect(codes((await response.json()) as Json), path).toEqual(['REQUEST_ENTITY_TOO_LARGE']);
    }
  });

  for (const nodeEnv of ['development', 'production']) {
    describe(`in ${nodeEnv} mode`, () => {
      let server: string;
      // yoga and envelop read NODE_ENV as they start and as they answer
      beforeAll(async () => {
        vi.stubEnv('NODE_ENV', nodeEnv);
        server = await serve();
      });
      afterAll(() => {
        vi.unstubAllEnvs();
      });

      it('never repeats an invalid body', async () => {
        const secret = `SECRET-${'s'.repeat(200)}`;
        for (const path of ['/graphql', '/graphql/stream']) {
          const response = await fetch(server + path, {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: path.endsWith('stream') ? 'text/event-stream' : 'application/json' },
            body: `{"query": "${secret}`,
          });
          expect(response.status, path).toBe(400);
          const text = await response.text();
          expect(text, path).not.toContain('SECRET');
          expect(codes(JSON.parse(text) as Json), path).toEqual(['BAD_REQUEST']);
        }
      });

      it('answers a syntax error at /graphql/stream as a coded JSON error without a stack', async () => {
        const requests: (RequestInit & { method: string })[] = [
          {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
            body: JSON.stringify({ query: '{ ledgers {' }),
          },
          { method: 'GET', headers: { accept: 'text/event-stream' } },
        ];
        for (const init of requests) {
          const response = await fetch(`${server}/graphql/stream${init.method === 'GET' ? '?query=%7B%20ledgers%20%7B' : ''}`, init);
          expect(response.status, init.method).toBe(400);
          expect(response.headers.get('content-type'), init.method).toMatch(/^application\/json/);
          const text = await response.text();
          expect(text, init.method).not.toMatch(/\bat \S+ \(|node_modules|\.js:\d+/);
          const answer = JSON.parse(text) as Json;
          expect(codes(answer), init.method).toEqual(['GRAPHQL_PARSE_FAILED']);
          expect(answer.errors[0].message).toBe('Syntax Error: Expected Name, found <EOF>.');
        }
      });

      it('answers a refusal over /graphql/stream as a coded event', async () => {
        const response = await fetch(`${server}/graphql/stream`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
          body: JSON.stringify({
            query:
              'subscription { ledgers { transactions(first: 200) { edges { node { operations(first: 200) { edges { node { id } } } } } } } }',
          }),
        });
        expect(response.status).toBe(200);
        const text = await response.text();
        const next = text.split('\n').find((line) => line.startsWith('data: {'));
        const event = JSON.parse(next!.slice('data: '.length)) as Json;
        expect(event.data).toBeNull();
        expect(codes(event)).toEqual(['GRAPHQL_COMPLEXITY_LIMIT']);
        // yoga's directions for its HTTP status are not the client's
        expect(event.errors[0].extensions.http).toBeUndefined();
      });
    });
  }
});
