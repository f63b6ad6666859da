// Horizon's internal/actions/offer_test.go as our test: its three offers (eurOffer, twoEurOffer,
// usdOffer), its ledger 3 with a close time, and its expectations for /offers/{id}, /offers with
// each filter and its errors, and /accounts/{id}/offers; then the same list in GraphQL, its stream
// and its subscription.
import { parse, subscribe, type ExecutionResult } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../../src/api/context.js';
import { LiveOrderBook } from '../../../src/api/live_order_book.js';
import { schema } from '../../../src/api/schema/index.js';
import { inProcessLedgerEvents } from '../../../src/events/ledger_events.js';
import { MetricsRegistry } from '../../../src/metrics/registry.js';
import { postGraphQL, type Json, type TestApi, serveTestApi, getJson } from '../../support/api_server.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { seedLedger } from '../../support/seed.js';

const issuer = 'GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H';
const seller = 'GA5WBPYA5Y4WAEHXWR2UKO2UO4BUGHUQ74EUPKON2QHV4WRHOIRNKKH2';
const sponsor = 'GCO26ZSBD63TKYX45H2C7D2WOFWOUSG5BMTNC3BG4QMXM3PAYI6WHKVZ';
const EUR = `EUR:${issuer}`;
const USD = `USD:${issuer}`;
const BAD_ACCOUNT = 'GCXEWJ6U4KPGTNTBY5HX4WQ2EEVPWV2QKXEYIQ32IDYIX';
const ACCOUNT_REASON = 'Account ID must start with `G` and contain 56 alphanum characters';

let t: TestDatabase;
let api: TestApi;
let ledger3ClosedAt = '';

const offer = (id: bigint, sellerId: string, selling: string, buying: string, n: number, d: number, ledger: number, by?: string) => ({
  id,
  sellerId,
  sellingAsset: selling,
  buyingAsset: buying,
  amount: 500n,
  priceN: n,
  priceD: d,
  price: n / d,
  flags: 1,
  lastModifiedLedger: ledger,
  sponsor: by ?? null,
});

beforeAll(async () => {
  t = await createTestDatabase();
  await seedLedger(t.db, 3, []);
  const ledger = await t.db.prisma.ledger.findUniqueOrThrow({ where: { sequence: 3 } });
  ledger3ClosedAt = ledger.closedAt.toISOString().replace('.000Z', 'Z');
  await t.db.prisma.offer.createMany({
    data: [
      offer(4n, issuer, 'native', EUR, 1, 1, 3),
      offer(5n, seller, 'native', EUR, 2, 1, 4, sponsor),
      offer(6n, issuer, EUR, USD, 1, 1, 4),
    ],
  });
  api = await serveTestApi(t);
});

afterAll(async () => {
  await api?.close();
  await t?.drop();
});

const get = (path: string, status = 200): Promise<Json> => getJson(api.base, path, status);

const records = async (path: string): Promise<Json[]> => ((await get(path))._embedded as { records: Json[] }).records;
const ids = async (path: string): Promise<string[]> => (await records(path)).map((r) => r.id as string);

async function badRequest(path: string, field: string, reason?: string): Promise<void> {
  const problem = await get(path, 400);
  expect(problem.type).toBe('https://stellar.org/horizon-errors/bad_request');
  expect((problem.extras as Json).invalid_field).toBe(field);
  if (reason !== undefined) expect((problem.extras as Json).reason).toBe(reason);
}

describe('GET /offers/{id} (TestGetOfferByIDHandler)', () => {
  it('an invalid id is a bad_request naming offer_id; an unknown one is 404', async () => {
    await badRequest('/offers/invalid', 'offer_id');
    await get('/offers/1234567', 404);
  });

  it('with the ledger close time', async () => {
    const record = await get('/offers/4');
    expect(record).toMatchObject({
      id: '4',
      seller: issuer,
      selling: { asset_type: 'native' },
      buying: { asset_type: 'credit_alphanum4', asset_code: 'EUR', asset_issuer: issuer },
      last_modified_ledger: 3,
      last_modified_time: ledger3ClosedAt,
    });
    expect(record).not.toHaveProperty('sponsor');
  });

  it('without the ledger close time (its ledger is not in the history)', async () => {
    const record = await get('/offers/6');
    expect(record).toMatchObject({
      id: '6',
      seller: issuer,
      selling: { asset_type: 'credit_alphanum4', asset_code: 'EUR', asset_issuer: issuer },
      buying: { asset_type: 'credit_alphanum4', asset_code: 'USD', asset_issuer: issuer },
      last_modified_ledger: 4,
    });
    expect(record).not.toHaveProperty('last_modified_time');
  });
});

describe('GET /offers (TestGetOffersHandler)', () => {
  it('no filter: every offer in id order', async () => {
    const page = await records('/offers');
    expect(page.map((r) => r.id)).toEqual(['4', '5', '6']);
    expect(page[0]).toMatchObject({ selling: { asset_type: 'native' }, seller: issuer, last_modified_time: ledger3ClosedAt });
    expect(page[1]?.sponsor).toBe(sponsor);
  });

  it('by seller; a malformed seller is a bad_request', async () => {
    expect(await ids(`/offers?seller=${issuer}`)).toEqual(['4', '6']);
    await badRequest(`/offers?seller=${BAD_ACCOUNT}`, 'seller', ACCOUNT_REASON);
  });

  it('by sponsor; a malformed sponsor is a bad_request', async () => {
    expect(await ids(`/offers?sponsor=${sponsor}`)).toEqual(['5']);
    await badRequest(`/offers?sponsor=${BAD_ACCOUNT}`, 'sponsor', ACCOUNT_REASON);
  });

  it('by selling asset, in either form', async () => {
    expect(await ids('/offers?selling_asset_type=native')).toEqual(['4', '5']);
    expect(await ids(`/offers?selling_asset_type=credit_alphanum4&selling_asset_code=EUR&selling_asset_issuer=${issuer}`)).toEqual(['6']);
    expect(await ids(`/offers?selling=${EUR}`)).toEqual(['6']);
    expect(await ids('/offers?selling=native')).toEqual(['4', '5']);
  });

  it('by buying asset, in either form', async () => {
    expect(await ids(`/offers?buying_asset_type=credit_alphanum4&buying_asset_code=EUR&buying_asset_issuer=${issuer}`)).toEqual(['4', '5']);
    expect(await ids(`/offers?buying_asset_type=credit_alphanum4&buying_asset_code=USD&buying_asset_issuer=${issuer}`)).toEqual(['6']);
    expect(await ids(`/offers?buying=${USD}`)).toEqual(['6']);
  });

  it('filters together, paged by offer id, the links keeping the filters', async () => {
    expect(await ids(`/offers?seller=${issuer}&selling=native`)).toEqual(['4']);
    const page = await get(`/offers?selling=native&limit=1`);
    const next = (page._links as Record<string, { href: string }>).next?.href ?? '';
    expect(next).toBe(`${api.base}/offers?cursor=4&limit=1&order=asc&selling=native`);
    expect(await ids(next.slice(api.base.length))).toEqual(['5']);
    expect(await ids('/offers?order=desc&cursor=6')).toEqual(['5', '4']);
  });

  it('a wrong buying parameter is a bad_request naming buying', async () => {
    await badRequest(
      `/offers?buying=${encodeURIComponent('native\\u0026cursor=\\u0026limit=10\\u0026order=asc\\u0026selling=BTC:GAEDZ7BHMDYEMU6IJT3CTTGDUSLZWS5CQWZHGP4XUOIDG5ISH3AFAEK2')}`,
      'buying',
    );
    await badRequest('/offers?selling=USD', 'selling');
    await badRequest(`/offers?selling=USD:${BAD_ACCOUNT}`, 'selling');
    await badRequest(`/offers?selling=native&selling_asset_type=native`, 'selling_asset_type');
    await badRequest(`/offers?buying_asset_type=credit_alphanum4&buying_asset_issuer=${issuer}`, 'buying_asset_code');
    await badRequest('/offers?buying_asset_type=fish', 'buying_asset_type');
  });
});

describe('GET /accounts/{id}/offers (TestGetAccountOffersHandler)', () => {
  it('the offers of a seller, whether or not the account exists', async () => {
    const page = await records(`/accounts/${issuer}/offers`);
    expect(page.map((r) => r.id)).toEqual(['4', '6']);
    for (const record of page) expect(record.seller).toBe(issuer);
  });

  it('an unknown account: an empty page; a malformed one: a bad_request', async () => {
    expect(await records('/accounts/GDBAPLDCAEJV6LSEDFEAUDAVFYSNFRUYZ4X75YYJJMMX5KFVUOHX46SQ/offers')).toEqual([]);
    await badRequest('/accounts/GBAD/offers', 'account_id', ACCOUNT_REASON);
  });
});

const graphql = (query: string) => postGraphQL(api.base, query);

describe('offers in GraphQL', () => {
  it('filters as typed arguments, with the sponsor and the close time', async () => {
    const { data } = await graphql(
      `{ offers(buying: "${EUR}", first: 5) { edges { cursor node { pagingToken seller sponsor lastModifiedTime trades(first: 1) { edges { cursor } } } } } }`,
    );
    const edges = (data?.offers as { edges: { cursor: string; node: Json }[] } | undefined)?.edges ?? [];
    expect(edges.map((e) => e.cursor)).toEqual(['4', '5']);
    expect(edges[0]?.node).toMatchObject({ seller: issuer, sponsor: null, lastModifiedTime: ledger3ClosedAt, trades: { edges: [] } });
    expect(edges[1]?.node).toMatchObject({ seller, sponsor, lastModifiedTime: null });
  });

  it('a bad filter is a coded error naming the argument', async () => {
    const { errors } = await graphql('{ offers(selling: "EUR") { edges { cursor } } }');
    expect(errors?.[0]?.extensions).toMatchObject({ code: 'bad_request', extras: { invalid_field: 'selling' } });
  });
});

describe('offers streamed', () => {
  it('GET /offers as server-sent events: the offers after the cursor', async () => {
    const controller = new AbortController();
    const response = await fetch(`${api.base}/offers?selling=native`, {
      headers: { accept: 'text/event-stream' },
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    let text = '';
    while (!text.includes('id: 5')) text += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    expect(text).toContain('id: 4');
    expect(text).not.toContain('id: 6');
  });
});

describe('the offers subscription', () => {
  it('replays the offers after the cursor, then sends each new one after its ledger', async () => {
    const events = inProcessLedgerEvents();
    const contextValue = createContext({
      db: t.db,
      config: { networkPassphrase: 'test' },
      coreInfo: async () => null,
      events,
      txsub: null,
      metrics: new MetricsRegistry(),
      orderBook: new LiveOrderBook(t.db, events),
    });
    const document = parse(`subscription { offers(selling: "native", cursor: "4") { pagingToken sponsor } }`);
    const stream = (await subscribe({ schema, document, contextValue })) as AsyncGenerator<ExecutionResult>;
    expect((await stream.next()).value.data).toEqual({ offers: { pagingToken: '5', sponsor } });
    const following = stream.next();
    await t.db.prisma.offer.createMany({ data: [offer(8n, seller, EUR, 'native', 1, 1, 5), offer(9n, seller, 'native', USD, 1, 1, 5)] });
    await events.publish(5);
    expect((await following).value.data).toEqual({ offers: { pagingToken: '9', sponsor: null } });
    await stream.return(undefined);
    await t.db.prisma.offer.deleteMany({ where: { id: { in: [8n, 9n] } } });
  });
});
