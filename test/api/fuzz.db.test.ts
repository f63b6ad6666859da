// No 5xx from any input (issue 19): fast-check sends generated bad requests over real HTTP to a
// server on seeded rows — every path and query parameter of every REST route (read from the route
// table, so a new route is fuzzed as soon as it exists), the bodies of the POST routes, and every
// argument of every field with arguments that GraphQL can reach (walked from the schema), inline
// and as variables. Each answer must be under 500, a problem (REST) or errors with
// `extensions.code` (GraphQL), and carry no internals; the server must answer normally afterwards.
// FUZZ_RUNS sets how many requests (default 10,000), FUZZ_SEED replays a run (fast-check prints
// the seed and the shrunk request of a failure).
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Account, Asset, Keypair, Networks, Operation, TransactionBuilder } from '@stellar/stellar-sdk/base';
import fc from 'fast-check';
import {
  type GraphQLArgument,
  type GraphQLField,
  GraphQLEnumType,
  GraphQLObjectType,
  getNamedType,
  isAbstractType,
  type GraphQLInputType,
  isCompositeType,
  isNonNullType,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Funder } from '../../src/api/rest/friendbot.js';
import { routes, takesJoin, type Route } from '../../src/api/rest/routes.js';
import { schema } from '../../src/api/schema/index.js';
import { createApiServer } from '../../src/api/server.js';
import { createLogger } from '../../src/logger.js';
import { prismaSubmissionStore } from '../../src/txsub/store.js';
import { SubmissionSystem } from '../../src/txsub/submission_system.js';
import { toid } from '../../src/stellar/toid.js';
import { testServices } from '../support/api_server.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { badText, badUrlText, badValue, urlEscape, jsonWithRaw, literal } from '../support/fuzz_values.js';
import { ALICE, BOB, ISSUER, seedScenario } from '../support/seed.js';
import { balanceId, linkHistory, seedClaimableBalance, seedPool } from '../support/seed_balances_pools.js';

/** requests in all, shared by REST, the POST bodies and GraphQL */
const REQUESTS = Number(process.env.FUZZ_RUNS ?? 10_000);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
/** requests in flight at once: one fast-check run sends a batch of this many */
const PARALLEL = 16;
/** how long an answer may take */
const ANSWER_MS = 20_000;
/**
 * How much larger than its request a refusal may be: GraphQL's errors of a document with many bad
 * arguments, each quoting 100 characters. Horizon's transaction_malformed echoes the envelope, so a
 * refusal as large as its request is no amplification.
 */
const MAX_REFUSAL = 64 * 1024;
/** how long an open GraphQL subscription is listened to */
const STREAM_MS = 2_000;

let test: TestDatabase;
let server: Server;
let base: string;
let sent = 0;
/** every answer's status, the parameters 400s named, and the largest refusal, for the summary */
const statuses = new Map<number, number>();
const named = new Map<string, number>();
let largestRefusal = 0;
let largestRefusalText = '';
/** what the server logged at error level */
const serverErrors: string[] = [];

/** the valid value of each path parameter, from the seeded rows; the fuzzer replaces some */
const valid: Record<string, string> = {};

const PASSPHRASE = 'test';

beforeAll(async () => {
  test = await createTestDatabase();
  const scenario = await seedScenario(test.db);
  const balance = balanceId(1);
  await seedClaimableBalance(test.db, { id: balance, account: BOB, ledger: 3, asset: `USD:${ISSUER}` });
  const pool = await seedPool(test.db, Asset.native(), 100n, new Asset('USD', ISSUER), 200n);
  await linkHistory(test.db, {
    operationId: toid(3, 3, 1),
    transactionId: toid(3, 3, 0),
    claimableBalanceId: balance,
    liquidityPoolId: pool,
  });
  Object.assign(valid, {
    account_id: BOB,
    key: 'helloWorld',
    tx_id: scenario.hashes[3]![0]!,
    ledger_id: '3',
    op_id: toid(3, 1, 1).toString(),
    offer_id: '7',
    claimable_balance_id: balance,
    liquidity_pool_id: pool,
  });
  // a real submission system on the database; its core refuses every transaction that reaches it
  const txsub = new SubmissionSystem({
    networkPassphrase: PASSPHRASE,
    core: { submit: async () => ({ status: 'ERROR', error: 'AAAAAAAAAGT////7AAAAAA==' }) },
    store: prismaSubmissionStore(test.db.prisma),
    timeoutMs: 2_000,
    sequenceWaitMs: 0,
  });
  // a friendbot that has funded every account: its parameter is checked before
  const friendbot: Funder = { fund: async () => ({ kind: 'already_funded' }), startingBalance: '10000.0000000' };
  server = createApiServer({
    services: {
      ...testServices(test.db, undefined, PASSPHRASE),
      txsub,
      coreInfo: async () => ({ version: 'fuzz', latestLedger: 3, protocolVersion: 22, synced: true }),
    },
    // a line at error level is an exception the server did not expect: each batch must leave none
    logger: createLogger('error', { pretty: false, destination: { write: (line: string) => serverErrors.push(line) } }),
    friendbot,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await test?.drop();
});

// What an answer must not show: a stack frame, a file, the database's or JavaScript's own errors.
const LEAKS = [
  /\n\s+at |\\n\s+at |\bat [\w.<>]+ \(|(?:\/[\w.-]+)+\.(?:ts|js|mjs|cjs)\b|node_modules|prisma|pglite|invalid input syntax|SQLSTATE|violates|duplicate key|out of range for type/i,
  /TypeError|ReferenceError|RangeError|SyntaxError|\bERROR: /,
];

interface Answer {
  status: number;
  type: string;
  text: string;
}

async function send(path: string, init: RequestInit = {}): Promise<Answer> {
  sent++;
  const controller = new AbortController();
  // a request the server never answers is a failure too
  const timer = setTimeout(() => controller.abort(new Error(`no answer in ${ANSWER_MS} ms`)), ANSWER_MS);
  try {
    const size = path.length + (typeof init.body === 'string' ? init.body.length : 0);
    return await answerOf(path, size, await fetch(base + path, { ...init, signal: controller.signal }), controller);
  } finally {
    clearTimeout(timer);
  }
}

async function answerOf(path: string, requestSize: number, response: Response, controller: AbortController): Promise<Answer> {
  statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
  const type = response.headers.get('content-type') ?? '';
  // a stream that opened is a good answer: its first event is not awaited
  if (type.startsWith('text/event-stream') && response.status === 200 && !path.startsWith('/graphql')) {
    controller.abort();
    return { status: response.status, type, text: '' };
  }
  const text = type.startsWith('text/event-stream') ? await eventsOf(response, controller) : await response.text();
  if (response.status >= 400 && text.length > requestSize + MAX_REFUSAL)
    throw new Error(`${path}: a refusal of ${text.length} bytes: ${text.slice(0, 300)}`);
  if (response.status >= 400 && text.length > largestRefusal) {
    largestRefusal = text.length;
    largestRefusalText = `${path} → ${text.slice(0, 400)}`;
  }
  return { status: response.status, type, text };
}

/**
 * The events of a GraphQL stream: a query's until graphql-sse's `complete`; a subscription waits
 * for a ledger that never comes, so what arrived in STREAM_MS is its answer.
 */
async function eventsOf(response: Response, controller: AbortController): Promise<string> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const timer = setTimeout(() => controller.abort(), STREAM_MS);
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return text;
      text += decoder.decode(value, { stream: true });
      if (/^event: complete$/m.test(text)) return text;
    }
  } catch {
    return text;
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}

function parse(answer: Answer, what: string): Record<string, unknown> {
  try {
    return JSON.parse(answer.text) as Record<string, unknown>;
  } catch {
    throw new Error(`${what}: not JSON (${answer.status} ${answer.type}): ${answer.text.slice(0, 300)}`);
  }
}

function expectNoLeak(answer: Answer, what: string, sentValues: string): void {
  const found = LEAKS.map((leak) => leak.exec(answer.text)).find((match) => match !== null);
  // what was sent may come back quoted in a message: a match inside it is no leak
  if (found && !sentValues.includes(found[0])) throw new Error(`${what}: the answer shows "${found[0]}": ${answer.text.slice(0, 500)}`);
}

/** a REST answer: under 500; an error is a problem, a 400 naming its parameter */
function checkProblem(answer: Answer, what: string, sentValues: string): void {
  if (answer.status >= 500) throw new Error(`${what}: ${answer.status} ${answer.text.slice(0, 500)}`);
  expectNoLeak(answer, what, sentValues);
  if (answer.status < 400) return;
  // /transactions_async answers the core's ERROR as Horizon does: its status, 400, with the result
  if (what.startsWith('POST /transactions_async') && parse(answer, what).tx_status === 'ERROR') return;
  if (!answer.type.startsWith('application/problem+json'))
    throw new Error(`${what}: a ${answer.status} that is no problem (${answer.type}): ${answer.text.slice(0, 300)}`);
  const problem = parse(answer, what);
  for (const key of ['type', 'title', 'status', 'detail']) {
    if (!(key in problem)) throw new Error(`${what}: the problem has no ${key}: ${answer.text.slice(0, 300)}`);
  }
  if (problem.status !== answer.status) throw new Error(`${what}: the problem says ${String(problem.status)}, the answer ${answer.status}`);
  const extras = problem.extras as { invalid_field?: unknown } | undefined;
  if (typeof extras?.invalid_field === 'string') named.set(extras.invalid_field, (named.get(extras.invalid_field) ?? 0) + 1);
  if (answer.status === 400 && String(problem.type).endsWith('/bad_request') && typeof extras?.invalid_field !== 'string') {
    throw new Error(`${what}: a bad_request that names no parameter: ${answer.text.slice(0, 300)}`);
  }
}

// REST

/** `{?a,b}` and `a={a}` of a link template */
function templateNames(template: string | undefined): string[] {
  if (!template) return [];
  const names = [...template.matchAll(/\{\?([^}]*)\}/g)].flatMap((match) => match[1]!.split(','));
  return [...names, ...[...template.matchAll(/[?&]([a-z_]+)=\{/g)].map((match) => match[1]!)];
}

/** the names a route's argument readers look up in the query (and the path), as they run */
function namesRead(route: Route): string[] {
  const names = new Set<string>();
  const recorder = (value: string | undefined) =>
    new Proxy({} as Record<string, string>, {
      get: (_target, name) => {
        if (typeof name === 'string') names.add(name);
        return value;
      },
    });
  for (const value of [undefined, '', 'x']) {
    for (const read of [route.args, route.kind === 'page' ? route.filters?.args : undefined]) {
      try {
        read?.({ origin: base, params: recorder(value), query: recorder(value) });
      } catch {
        // a reader stops at the first value it refuses: it ran with three
      }
    }
  }
  return [...names];
}

interface RouteParams {
  route: Route;
  pathParams: string[];
  queryParams: string[];
}

function routeParams(route: Route): RouteParams {
  const pathParams = [...route.path.matchAll(/:(\w+)/g)].map((match) => match[1]!);
  // a name no route reads, so that a route without parameters is fuzzed too
  const query = new Set<string>([...namesRead(route), 'unknown_param']);
  if (route.kind === 'page') {
    for (const name of ['cursor', 'limit', 'order']) query.add(name);
    if (route.includeFailed) query.add('include_failed');
    for (const name of route.filters?.params ?? []) query.add(name);
  }
  if (takesJoin(route)) query.add('join');
  for (const name of templateNames(route.rootLink?.template)) query.add(name);
  for (const name of pathParams) query.delete(name);
  return { route, pathParams, queryParams: [...query].sort() };
}

const restRoutes = routes.map(routeParams);

interface RestCase {
  route: string;
  path: string;
  accept: string;
  /** a stream's cursor as the header of a reconnecting EventSource */
  lastEventId: string | null;
  fuzzed: string[];
}

/** what a header can carry: printable ASCII */
const headerText = badText.filter((text) => /^[\x20-\x7e]{0,4000}$/.test(text));

const restCase: fc.Arbitrary<RestCase> = fc
  .constantFrom(...restRoutes)
  .chain(({ route, pathParams, queryParams }) => {
    const params = [...pathParams, ...queryParams];
    return fc.record({
      route: fc.constant(route.path),
      pathParams: fc.constant(pathParams),
      targets: fc.uniqueArray(fc.constantFrom(...params), { minLength: 1, maxLength: Math.min(3, params.length) }),
      values: fc.array(badUrlText, { minLength: 3, maxLength: 3 }),
      repeat: fc.constantFrom('none', 'before', 'after'),
      lastEventId: fc.option(headerText, { freq: 4 }),
      accept: fc.constantFrom(
        'application/json',
        'application/json',
        'application/json',
        'text/event-stream',
        'application/octet-stream',
        '*/*',
      ),
    });
  })
  .map(({ route, pathParams, targets, values, repeat, lastEventId, accept }) => {
    const given = new Map(targets.map((name, i) => [name, values[i]!]));
    const path = route.replace(/:(\w+)/g, (_match, name: string) => given.get(name) ?? urlEscape(valid[name] ?? ''));
    const query: string[] = [];
    for (const [name, value] of given) {
      if (pathParams.includes(name)) continue;
      // a repeated parameter: the first one is the one read
      if (repeat === 'before') query.push(`${name}=1`);
      query.push(`${name}=${value}`);
      if (repeat === 'after') query.push(`${name}=${value.slice(0, 100)}`);
    }
    const fuzzed = [...given.keys()];
    return { route, path: query.length > 0 ? `${path}?${query.join('&')}` : path, accept, lastEventId, fuzzed };
  });

async function sendRest(c: RestCase): Promise<void> {
  const headers: Record<string, string> = { Accept: c.accept };
  if (c.lastEventId !== null) headers['Last-Event-ID'] = c.lastEventId;
  const answer = await send(c.path, { headers });
  const what = `GET ${c.path.slice(0, 300)} (Accept: ${c.accept}, Last-Event-ID: ${c.lastEventId?.slice(0, 100)})`;
  checkProblem(answer, what, decodeSafe(c.path) + (c.lastEventId ?? ''));
}

function decodeSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

// POST bodies: /transactions, /transactions_async, /friendbot

const keypair = Keypair.fromRawEd25519Seed(Buffer.alloc(32, 7));
function envelope(passphrase: string, sequence: string): string {
  const tx = new TransactionBuilder(new Account(keypair.publicKey(), sequence), { fee: '100', networkPassphrase: passphrase })
    .addOperation(Operation.payment({ destination: ALICE, asset: Asset.native(), amount: '1' }))
    .setTimeout(0)
    .build();
  tx.sign(keypair);
  return tx.toEnvelope().toXdr('base64');
}
const GOOD_ENVELOPE = envelope(PASSPHRASE, '100');

const badEnvelope: fc.Arbitrary<string> = fc.oneof(
  badText,
  fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes).toString('base64')),
  fc.nat({ max: GOOD_ENVELOPE.length }).map((n) => GOOD_ENVELOPE.slice(0, n)),
  fc
    .tuple(fc.nat({ max: GOOD_ENVELOPE.length - 1 }), fc.constantFrom(...'AB+/=!'))
    .map(([n, c]) => GOOD_ENVELOPE.slice(0, n) + c + GOOD_ENVELOPE.slice(n + 1)),
  fc.constant(envelope(Networks.PUBLIC, '1')),
  fc.constant(GOOD_ENVELOPE),
  fc.bigInt({ min: 0n, max: 2n ** 63n - 2n }).map((sequence) => envelope(PASSPHRASE, sequence.toString())),
);

interface PostCase {
  path: string;
  contentType: string;
  body: string;
}

const postCase: fc.Arbitrary<PostCase> = fc.oneof(
  fc.record({
    path: fc.constantFrom('/transactions', '/transactions_async'),
    contentType: fc.constant('application/x-www-form-urlencoded'),
    body: fc.tuple(badEnvelope, fc.boolean()).map(([tx, twice]) => `tx=${urlEscape(tx)}${twice ? '&tx=x' : ''}`),
  }),
  fc.record({
    path: fc.constantFrom('/transactions', '/transactions_async', '/friendbot'),
    contentType: fc.constantFrom('application/json', 'application/x-www-form-urlencoded', 'text/plain', 'application/json; charset=latin1'),
    body: fc.oneof(
      fc
        .tuple(fc.constantFrom('tx', 'addr'), fc.oneof(badEnvelope, badValue(schema.getType('String') as GraphQLInputType)))
        .map(([key, value]) => jsonWithRaw({ [key]: value })),
      fc.constantFrom(
        '',
        '{',
        'null',
        '[]',
        '"tx"',
        '{"tx": null}',
        '{"tx": 5}',
        '{"tx": ["A"]}',
        '\u0000',
        'tx=%FF',
        'addr=%C3%28',
        '{"tx":"\\ud800"}',
      ),
      badText,
    ),
  }),
  fc.record({
    path: badUrlText.map((addr) => `/friendbot?addr=${addr}`),
    contentType: fc.constant('application/x-www-form-urlencoded'),
    body: fc.constant(''),
  }),
);

async function sendPost(c: PostCase): Promise<void> {
  const answer = await send(c.path, { method: 'POST', headers: { 'Content-Type': c.contentType }, body: c.body });
  checkProblem(answer, `POST ${c.path.slice(0, 200)} (${c.contentType}) ${c.body.slice(0, 200)}`, decodeSafe(c.body) + decodeSafe(c.path));
}

// GraphQL

interface ArgumentSite {
  /** the selection that reaches the field's parent, as `a(x: 1) { b {` … with its closing braces */
  open: string;
  close: string;
  field: GraphQLField<unknown, unknown>;
}

/**
 * The valid arguments of the fields with required ones, from the seeded rows: how the walk
 * reaches the types beneath them (a field whose required arguments are not here is still fuzzed,
 * but not walked through).
 */
function validArguments(): Record<string, string> {
  const asset = `{assetType: "credit_alphanum4", assetCode: "USD", assetIssuer: "${ISSUER}"}`;
  return {
    'Query.account': `id: "${BOB}"`,
    'Query.accountData': `accountId: "${BOB}", name: "helloWorld"`,
    'Query.claimableBalance': `id: "${valid.claimable_balance_id}"`,
    'Query.ledger': 'sequence: 3',
    'Query.liquidityPool': `id: "${valid.liquidity_pool_id}"`,
    'Query.offer': 'id: "7"',
    'Query.operation': `id: "${valid.op_id}"`,
    'Query.transaction': `hash: "${valid.tx_id}"`,
    'Query.orderBook': `selling: ${asset}, buying: {assetType: "native"}`,
  };
}

/** Every field with arguments reachable from Query, each by the shortest selection from the root. */
function argumentSites(): ArgumentSite[] {
  const query = schema.getQueryType()!;
  const validArgs = validArguments();
  const sites: ArgumentSite[] = [];
  const reached = new Map<string, { open: string; close: string }>([[query.name, { open: '', close: '' }]]);
  const queue: GraphQLObjectType[] = [query];
  while (queue.length > 0) {
    const type = queue.shift()!;
    const at = reached.get(type.name)!;
    for (const field of Object.values(type.getFields())) {
      if (field.args.length > 0) sites.push({ ...at, field });
      const target = getNamedType(field.type);
      if (!isAbstractType(target) && !(target instanceof GraphQLObjectType)) continue;
      const required = field.args.filter((arg) => isNonNullType(arg.type) && arg.defaultValue === undefined);
      const args = required.length > 0 ? validArgs[`${type.name}.${field.name}`] : '';
      if (args === undefined) continue;
      const open = `${at.open}${field.name}${args ? `(${args})` : ''} { `;
      // an interface's or union's types, each through its fragment
      const reachable = isAbstractType(target)
        ? schema.getPossibleTypes(target).map((object) => [object, `... on ${object.name} { `] as const)
        : [[target, ''] as const];
      for (const [object, fragment] of reachable) {
        if (reached.has(object.name)) continue;
        reached.set(object.name, { open: open + fragment, close: `${fragment ? ' }' : ''} }${at.close}` });
        queue.push(object);
      }
    }
  }
  return sites;
}

let sites: ArgumentSite[] = [];

interface GraphQLCase {
  endpoint: '/graphql' | '/graphql/stream';
  body: string;
  /** sent as GET /graphql?query=…&variables=… instead (yoga's GET for queries) */
  get?: string;
  accept?: string;
  /** what was sent, for the failure's message */
  shown: string;
}

function argumentCase(site: ArgumentSite): fc.Arbitrary<GraphQLCase> {
  const args = site.field.args;
  const modes = args.map((arg) =>
    fc.constantFrom(
      ...(isNonNullType(arg.type) ? ['inline', 'variable', 'wrong-declared'] : ['omit', 'omit', 'inline', 'variable', 'wrong-declared']),
    ),
  );
  return fc
    .record({
      modes: fc.tuple(...modes),
      values: fc.tuple(...args.map((arg) => badValue(arg.type))),
      wrongType: fc.constantFrom('String', 'Int', 'Boolean', '[String!]!', 'Int64', 'Unknown', 'ID!'),
      endpoint: fc.constantFrom<GraphQLCase['endpoint']>('/graphql', '/graphql', '/graphql', '/graphql/stream'),
      get: fc.constantFrom(false, false, false, true),
      accept: fc.constantFrom(
        'application/json',
        'application/graphql-response+json',
        'application/graphql-response+json, application/json',
      ),
    })
    .filter(({ modes }) => modes.some((mode) => mode !== 'omit'))
    .map(({ modes, values, wrongType, endpoint, get, accept }) => {
      const declared: string[] = [];
      const given: string[] = [];
      const variables: Record<string, unknown> = {};
      args.forEach((arg: GraphQLArgument, i) => {
        const mode = modes[i];
        const value = values[i];
        if (mode === 'omit') return;
        if (mode === 'inline') given.push(`${arg.name}: ${literal(value, getNamedType(arg.type) instanceof GraphQLEnumType)}`);
        else {
          declared.push(`$v${i}: ${mode === 'variable' ? String(arg.type) : wrongType}`);
          given.push(`${arg.name}: $v${i}`);
          if (value !== undefined) variables[`v${i}`] = value;
        }
      });
      const selection = isCompositeType(getNamedType(site.field.type)) ? ' { __typename }' : '';
      const document = `query Fuzz${declared.length > 0 ? `(${declared.join(', ')})` : ''} { ${site.open}${site.field.name}(${given.join(', ')})${selection}${site.close} }`;
      const body = jsonWithRaw({ query: document, variables });
      const search = get && endpoint === '/graphql' ? new URLSearchParams({ query: document, variables: jsonWithRaw(variables) }) : null;
      return {
        endpoint,
        body,
        accept,
        ...(search ? { get: `/graphql?${search.toString()}` } : {}),
        shown: body.length > 600 ? `${body.slice(0, 600)}…` : body,
      };
    });
}

/** bodies that are no GraphQL request: not JSON, wrong types, documents that do not parse */
const malformedGraphQL: fc.Arbitrary<GraphQLCase> = fc
  .record({
    endpoint: fc.constantFrom<GraphQLCase['endpoint']>('/graphql', '/graphql/stream'),
    body: fc.oneof(
      fc.constantFrom(
        '',
        '{',
        'null',
        '[]',
        '[{"query":"{ __typename }"}]',
        '{"query": 5}',
        '{"query": "{ __typename }", "variables": "x"}',
        '{"query": "{ __typename }", "variables": [1]}',
        '{"query": "{ __typename }", "operationName": 7}',
        '{"query":"{ ledger(sequence: 3) { sequence } }","extensions":"x"}',
        '{"query": "\\u0000"}',
        '{"query": "{ ledger(sequence: 1e400) { sequence } }"}',
        '{"query": "subscription { ledgers { sequence } }"}',
        '{"query": "mutation { x }"}',
        '{"query":"{ __typename }"}\u0000',
      ),
      badText.map((text) => JSON.stringify({ query: text })),
      badText,
      fc.string({ maxLength: 200 }).map((text) => JSON.stringify({ query: `{ ${text} }` })),
    ),
  })
  .map(({ endpoint, body }) => ({ endpoint, body, shown: body.slice(0, 300) }));

async function sendGraphQL(c: GraphQLCase): Promise<void> {
  const stream = c.endpoint === '/graphql/stream';
  const accept = stream ? 'text/event-stream' : (c.accept ?? 'application/graphql-response+json, application/json');
  const answer = c.get
    ? await send(c.get, { headers: { Accept: accept } })
    : await send(c.endpoint, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: accept }, body: c.body });
  const what = `${c.get ? 'GET' : 'POST'} ${c.endpoint} ${c.shown}`;
  if (answer.status >= 500) throw new Error(`${what}: ${answer.status} ${answer.text.slice(0, 500)}`);
  expectNoLeak(answer, what, c.body);
  // a body declared over the bound of every route is refused before GraphQL, as a problem
  if (answer.type.startsWith('application/problem+json')) {
    checkProblem(answer, what, c.body);
    return;
  }
  // the SSE endpoint answers a query as events: each carries a result
  const results = answer.type.startsWith('text/event-stream')
    ? [...answer.text.matchAll(/^data: (.+)\n/gm)].map((match) => JSON.parse(match[1]!) as Record<string, unknown>)
    : [parse(answer, what)];
  for (const result of results) {
    const errors = result.errors as { extensions?: { code?: unknown } }[] | undefined;
    if (answer.status >= 400 && !errors) throw new Error(`${what}: a ${answer.status} without errors: ${answer.text.slice(0, 300)}`);
    for (const error of errors ?? []) {
      if (typeof error.extensions?.code !== 'string')
        throw new Error(`${what}: an error without a code: ${JSON.stringify(error).slice(0, 300)}`);
      // the server's own failure, not the client's error
      if (error.extensions.code === 'server_error') throw new Error(`${what}: ${JSON.stringify(error).slice(0, 300)}`);
    }
  }
}

// the runs

/** fast-check's run of `count` requests, PARALLEL at a time */
async function fuzz<T>(arbitrary: fc.Arbitrary<T>, count: number, sendOne: (c: T) => Promise<void>): Promise<void> {
  const before = sent;
  await fc.assert(
    fc.asyncProperty(fc.array(arbitrary, { minLength: PARALLEL, maxLength: PARALLEL }), async (batch) => {
      serverErrors.length = 0;
      await Promise.all(batch.map(sendOne));
      if (serverErrors.length > 0) throw new Error(`the server logged an error: ${serverErrors[0]!.slice(0, 1000)}`);
    }),
    { numRuns: Math.ceil(count / PARALLEL), ...(SEED === undefined ? {} : { seed: SEED }), verbose: 0 },
  );
  expect(sent - before).toBeGreaterThanOrEqual(count);
}

describe('no 5xx from any input', () => {
  beforeAll(() => {
    sites = argumentSites();
  });

  it('knows every route and parameter, and reaches every GraphQL field with arguments', () => {
    for (const { route, pathParams, queryParams } of restRoutes) {
      for (const name of pathParams) expect(valid[name], `a valid ${name} for ${route.path}`).toBeDefined();
      if (route.kind === 'page') expect(queryParams).toContain('cursor');
    }
    expect(restRoutes.find((r) => r.route.path === '/trade_aggregations')?.queryParams).toEqual(
      expect.arrayContaining(['resolution', 'start_time', 'end_time', 'offset', 'limit', 'order', 'base_asset_type']),
    );
    // every object type whose fields take arguments is reached from Query
    const withArgs = Object.values(schema.getTypeMap()).filter(
      (type): type is GraphQLObjectType =>
        type instanceof GraphQLObjectType &&
        !type.name.startsWith('__') &&
        type !== schema.getSubscriptionType() &&
        type !== schema.getMutationType() &&
        Object.values(type.getFields()).some((field) => field.args.length > 0),
    );
    const reached = new Set(sites.map((site) => site.field));
    for (const type of withArgs) {
      for (const field of Object.values(type.getFields())) {
        if (field.args.length > 0) expect(reached.has(field), `${type.name}.${field.name} is fuzzed`).toBe(true);
      }
    }
  });

  it('REST: every path and query parameter of every route', { timeout: 600_000 }, async () => {
    await fuzz(restCase, Math.ceil(REQUESTS * 0.45), sendRest);
  });

  it('POST bodies: /transactions, /transactions_async, /friendbot', { timeout: 600_000 }, async () => {
    await fuzz(postCase, Math.ceil(REQUESTS * 0.1), sendPost);
  });

  it('GraphQL: every argument of every field, inline and as variables, and bodies that are no request', { timeout: 600_000 }, async () => {
    const cases = fc.oneof(
      { weight: 9, arbitrary: fc.constantFrom(...sites).chain(argumentCase) },
      { weight: 1, arbitrary: malformedGraphQL },
    );
    await fuzz(cases, Math.ceil(REQUESTS * 0.45), sendGraphQL);
  });

  it('sent them all, and the server still answers', async () => {
    expect(sent).toBeGreaterThanOrEqual(REQUESTS);
    const root = await fetch(`${base}/ledgers/3`);
    expect(root.status).toBe(200);
    const graphql = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: '{ ledger(sequence: 3) { sequence } }' }),
    });
    expect(await graphql.json()).toEqual({ data: { ledger: { sequence: 3 } } });
    const sorted = (map: Map<string | number, number>) => JSON.stringify(Object.fromEntries([...map].sort(([a], [b]) => (a < b ? -1 : 1))));
    console.log(`fuzz: ${sent} requests; statuses ${sorted(statuses)}; the largest refusal ${largestRefusal} bytes`);
    console.log(`fuzz: the largest refusal: ${largestRefusalText}`);
    console.log(`fuzz: the parameters bad_request named ${sorted(named)}`);
  });
});

describe('a submission whose history database fails', () => {
  it('answers 503 without the database’s message, which goes to the log', async () => {
    const broken = await createTestDatabase();
    const lines: string[] = [];
    const logger = createLogger('info', { pretty: false, destination: { write: (line: string) => lines.push(line) } });
    const txsub = new SubmissionSystem({
      networkPassphrase: PASSPHRASE,
      core: { submit: async () => ({ status: 'PENDING' }) },
      store: prismaSubmissionStore(broken.db.prisma),
      logger,
    });
    // closed (and on PostgreSQL dropped): every query of the store now fails
    await broken.drop();
    const failing = createApiServer({ services: { ...testServices(test.db, undefined, PASSPHRASE), txsub }, logger });
    await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
    try {
      const response = await fetch(`http://127.0.0.1:${(failing.address() as AddressInfo).port}/transactions`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: `tx=${urlEscape(GOOD_ENVELOPE)}`,
      });
      const answer: Answer = { status: response.status, type: response.headers.get('content-type') ?? '', text: await response.text() };
      expect(answer.status).toBe(503);
      expect(JSON.parse(answer.text).detail).toBe('The transaction was not submitted: the history database cannot be read.');
      expectNoLeak(answer, 'POST /transactions', '');
      const logged = lines.map((line) => JSON.parse(line) as { level: number; msg: string; err?: { message?: string } });
      const error = logged.find((line) => line.msg === 'submission could not read the history database');
      expect(error?.level).toBe(50);
      expect(error?.err?.message).toBeTruthy();
    } finally {
      failing.closeAllConnections();
      await new Promise((resolve) => failing.close(resolve));
    }
  });
});

describe('what the fuzzer found, request by request', () => {
  it('answers a ledger above int32 (a uint32 no table holds) as a missing ledger, its lists too', async () => {
    for (const path of ['/ledgers/2147483648', '/ledgers/4294967295/effects', '/ledgers/4294967295/transactions']) {
      const answer = await send(path);
      expect(answer.status, path).toBe(404);
      checkProblem(answer, path, path);
    }
  });

  const graphql = async (body: unknown, accept = 'application/json') => {
    const answer = await send('/graphql', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: accept },
      body: JSON.stringify(body),
    });
    return JSON.parse(answer.text) as { data?: unknown; errors?: { message: string; extensions: { code: string } }[] };
  };

  it('answers a variable its type cannot take with bad_request, not server_error', async () => {
    for (const [query, v] of [
      ['query($v: Int) { ledgers(first: $v) { __typename } }', 'aaa'],
      ['query($v: Int!) { ledger(sequence: $v) { __typename } }', 2 ** 31],
      ['query($v: String!) { account(id: $v) { __typename } }', 5],
    ] as const) {
      const { errors } = await graphql({ query, variables: { v } });
      expect(
        errors?.map((error) => error.extensions.code),
        query,
      ).toEqual(['bad_request']);
    }
    expect(serverErrors).toEqual([]);
  });

  it('pages an offer’s trades from a cursor (a bigint in the page’s key was a server_error)', async () => {
    const answer = await graphql({
      query: 'query($v: String) { offer(id: "7") { trades(before: $v) { __typename } } }',
      variables: { v: '2147483647' },
    });
    expect(answer).toEqual({ data: { offer: { trades: { __typename: 'OfferTradesConnection' } } } });
  });

  it('answers GET /graphql whose variables are not JSON with a coded 400', async () => {
    const answer = await send(
      `/graphql?query=${urlEscape('query($v: Int) { ledgers(first: $v) { __typename } }')}&variables=%7B%22v%22%3A01%7D`,
      {
        headers: { Accept: 'application/graphql-response+json' },
      },
    );
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text).errors[0].extensions.code).toBe('BAD_REQUEST');
  });

  it('quotes a refused 100 KB value in 100 characters', async () => {
    const { errors } = await graphql({ query: `{ ledgers(first: "${'a'.repeat(100_000)}") { __typename } }` });
    expect(errors?.[0]?.extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(errors?.[0]?.message).toBe(`Int cannot represent non-integer value: "${'a'.repeat(100)}…"`);
  });

  it('answers a URL over Node’s header bound with a 431 problem', async () => {
    const answer = await send(`/ledgers?cursor=${'a'.repeat(100_000)}`);
    expect(answer.status).toBe(431);
    checkProblem(answer, 'GET /ledgers?cursor=a…', '');
  });

  it('answers a subscription asked as JSON, and a body graphql-sse refuses, with coded errors', async () => {
    const subscription = await send('/graphql', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ query: 'subscription { ledgers { sequence } }' }),
    });
    expect(subscription.status).toBe(406);
    expect(JSON.parse(subscription.text).errors[0].extensions.code).toBe('NOT_ACCEPTABLE');
    for (const body of ['[]', '{"query": 5}', '{"query": "{ __typename }", "variables": "x"}']) {
      const refused = await send('/graphql/stream', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
        body,
      });
      expect(refused.status, body).toBe(400);
      expect(JSON.parse(refused.text).errors[0].extensions.code, body).toBe('BAD_REQUEST');
    }
  });
});
