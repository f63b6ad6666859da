// The planned executor answers exactly as graphql-js executing the same documents:
// the same bytes on every kind of route (resources, pages of the Operation and Effect interfaces,
// nested lists, the order book) and the same problems, and the same GraphQL errors underneath.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse, type ExecutionResult } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identifyClient, TrustedProxies } from '../../../src/api/client_address.js';
import { createContext, type ApiServices } from '../../../src/api/context.js';
import { LiveOrderBook } from '../../../src/api/live_order_book.js';
import { compileDocument, compileRestDocument, interpretDocument, type CompileDocument } from '../../../src/api/rest/executor.js';
import { createRestHandler } from '../../../src/api/rest/router.js';
import { schema } from '../../../src/api/schema/index.js';
import { inProcessLedgerEvents } from '../../../src/events/ledger_events.js';
import { createLogger } from '../../../src/logger.js';
import { MetricsRegistry } from '../../../src/metrics/registry.js';
import { toid } from '../../../src/stellar/toid.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { ALICE, BOB, ISSUER, seedScenario, type Scenario } from '../../support/seed.js';

const MISSING = 'GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ';

let test: TestDatabase;
let scenario: Scenario;
let services: ApiServices;
const servers: Server[] = [];
const bases: Record<'compiled' | 'interpreted', string> = { compiled: '', interpreted: '' };

const localProxy = new TrustedProxies(['127.0.0.1']);

async function serve(compile: CompileDocument): Promise<string> {
  const handle = createRestHandler(schema, services, createLogger('silent', { pretty: false }), { compile });
  const server = createServer(async (req, res) => {
    // both answer on one public host: the proxy's, believed from this test's own address
    identifyClient(req, localProxy);
    if (!(await handle(req, res, new URL(req.url ?? '/', 'http://localhost')))) res.writeHead(404).end();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  test = await createTestDatabase();
  scenario = await seedScenario(test.db);
  const events = inProcessLedgerEvents();
  services = {
    db: test.db,
    config: { networkPassphrase: 'test' },
    coreInfo: async () => null,
    events,
    txsub: null,
    metrics: new MetricsRegistry(),
    orderBook: new LiveOrderBook(test.db, events),
  };
  // the routes' own: the plan writing REST's shape
  bases.compiled = await serve(compileRestDocument);
  bases.interpreted = await serve(interpretDocument);
});

afterAll(async () => {
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
  await test.drop();
});

/** status, type and body as sent, on the same public host for both servers */
async function answer(base: string, path: string): Promise<{ status: number; type: string | null; body: string }> {
  const response = await fetch(base + path, { headers: { 'x-forwarded-host': 'zenith.test' } });
  return { status: response.status, type: response.headers.get('content-type'), body: await response.text() };
}

describe('REST routes: planned documents against graphql-js', () => {
  const paths = (): string[] => {
    const [createHash = '', paymentHash = '', failedHash = ''] = [...(scenario.hashes[2] ?? []).slice(0, 1), ...(scenario.hashes[3] ?? [])];
    return [
      '/',
      `/accounts/${BOB}`,
      `/accounts/${BOB}/data/helloWorld`,
      `/accounts/${ALICE}/payments?limit=200&include_failed=true`,
      `/accounts/${BOB}/operations?order=desc`,
      `/accounts/${BOB}/effects`,
      `/accounts/${BOB}/offers`,
      `/accounts/${BOB}/trades`,
      `/transactions?include_failed=true&limit=200`,
      `/transactions/${createHash}`,
      `/transactions/${paymentHash}/operations`,
      `/transactions/${failedHash}/payments?include_failed=true`,
      '/ledgers',
      '/ledgers/3/effects?limit=200',
      '/operations?include_failed=true&limit=200',
      `/operations/${toid(3, 3, 1)}`,
      `/operations/${toid(2, 1, 1)}/effects`,
      '/payments?order=desc',
      '/effects?limit=200',
      '/offers/7',
      '/offers/7/trades',
      '/fee_stats',
      `/order_book?selling_asset_type=credit_alphanum4&selling_asset_code=USD&selling_asset_issuer=${ISSUER}&buying_asset_type=native`,
      // problems: a missing resource, a missing parent, one before the history (Horizon's 410), a cursor the resolver refuses, a bad argument
      `/accounts/${MISSING}`,
      `/accounts/${MISSING}/operations`,
      `/operations/${toid(3, 9, 1)}`,
      '/operations/123',
      '/effects?cursor=bad',
      '/operations?limit=0',
      '/order_book?selling_asset_type=bogus',
    ];
  };

  it('answers every route with the same status and the same bytes', async () => {
    const compared = paths();
    for (const path of compared) {
      const [compiled, interpreted] = await Promise.all([answer(bases.compiled, path), answer(bases.interpreted, path)]);
      expect(compiled, path).toEqual(interpreted);
    }
    const statuses = await Promise.all(compared.map(async (path) => (await answer(bases.compiled, path)).status));
    expect(new Set(statuses)).toEqual(new Set([200, 400, 404, 410]));
  });
});

describe('the planned executor against graphql-js', () => {
  /** what REST reads of a result: the data and each error's message, path, code and cause */
  const outcome = (result: ExecutionResult) => ({
    data: result.data,
    errors: result.errors?.map((error) => ({
      message: error.message,
      path: error.path,
      code: error.extensions?.code,
      cause: error.originalError?.constructor.name,
    })),
  });

  const both = async (text: string, variables: Record<string, unknown>) => {
    const document = parse(text);
    const compiled = await compileDocument(schema, document)(createContext(services), variables);
    const interpreted = await interpretDocument(schema, document)(createContext(services), variables);
    return { compiled: outcome(compiled), interpreted: outcome(interpreted) };
  };

  it('resolves the Operation and Effect interfaces to the same types and fields', async () => {
    const { compiled, interpreted } = await both(
      `query($a: String) {
        operations(forAccount: $a, includeFailed: true, first: 50) { edges { cursor node {
          __typename pagingToken type ... on PaymentOperation { amount from to } ... on CreateAccountOperation { startingBalance }
          transaction { hash ledger { sequence } } effects { edges { node { __typename pagingToken ... on AccountCreditedEffect { amount } } } } } } }
      }`,
      { a: BOB },
    );
    expect(compiled).toEqual(interpreted);
    expect(JSON.stringify(compiled.data)).toContain('PaymentOperation');
  });

  it('reports a resolver’s problem, and a variable its scalar refuses, in graphql-js’s words', async () => {
    const cursor = await both('query { effects(after: "bad") { edges { node { pagingToken } } } }', {});
    expect(cursor.compiled).toEqual(cursor.interpreted);
    expect(cursor.compiled.errors?.[0]?.cause).toBe('ProblemError');

    const variable = await both('query($id: Int64!) { operation(id: $id) { pagingToken } }', { id: 'x' });
    expect(variable.compiled).toEqual(variable.interpreted);
    expect(variable.compiled.errors?.[0]?.code).toBe('bad_request');
  });
});
