// Horizon's internal/actions_data_test.go (TestDataActions_Show) as our test: its two data entries
// (one sponsored, with bytes that are not UTF-8; one whose name ends in a space), their JSON (value
// and sponsor only), their raw value for Accept: application/octet-stream, the missing and the
// overlong name; then the streams of /accounts/{id}/data/{key} and /accounts/{id}: sent at open and
// again after a ledger only when changed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Json, type TestApi, serveTestApi } from '../../support/api_server.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { seedAccount, seedLedger } from '../../support/seed.js';

const account = 'GAOQJGUAB7NI7K7I62ORBXMN3J4SSWQUQ7FOEPSDJ322W2HMCNWPHXFB';
const dataSponsor = 'GC3C4AKRBQLHOJ45U4XG35ESVWRDECWO5XLDGYADO6DPR3L7KIDVUMML';
const value1 = Buffer.from([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
const prefix = `/accounts/${account}`;

let t: TestDatabase;
let api: TestApi;

beforeAll(async () => {
  t = await createTestDatabase();
  await seedLedger(t.db, 100, []);
  await seedAccount(t.db, { id: account, balance: 100_000_000n });
  await t.db.prisma.dataEntry.createMany({
    data: [
      { accountId: account, name: 'name1', value: value1.toString('base64'), lastModifiedLedger: 100, sponsor: dataSponsor },
      { accountId: account, name: 'name ', value: Buffer.from('it got spaces!').toString('base64'), lastModifiedLedger: 100 },
    ],
  });
  api = await serveTestApi(t);
});

afterAll(async () => {
  await api?.close();
  await t?.drop();
});

const raw = { accept: 'application/octet-stream' };

describe('GET /accounts/{id}/data/{key} (TestDataActions_Show)', () => {
  it('JSON: the base64 value and the sponsor, nothing else', async () => {
    const response = await fetch(`${api.base}${prefix}/data/name1`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as Json;
    expect(body).toEqual({ value: value1.toString('base64'), sponsor: dataSponsor });
    expect(Buffer.from(String(body.value), 'base64')).toEqual(value1);
  });

  it('raw: the value’s bytes', async () => {
    const response = await fetch(`${api.base}${prefix}/data/name1`, { headers: raw });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    expect(Buffer.from(await response.arrayBuffer())).toEqual(value1);
  });

  it('a name with a space (regression stellar/horizon#325), without a sponsor', async () => {
    const response = await fetch(`${api.base}${prefix}/data/name%20`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as Json;
    expect(Buffer.from(String(body.value), 'base64').toString()).toBe('it got spaces!');
    expect(body).not.toHaveProperty('sponsor');
    const rawResponse = await fetch(`${api.base}${prefix}/data/name%20`, { headers: raw });
    expect(await rawResponse.text()).toBe('it got spaces!');
  });

  it('missing: 404 in both forms; too long: 400 naming key', async () => {
    expect((await fetch(`${api.base}${prefix}/data/missing`)).status).toBe(404);
    expect((await fetch(`${api.base}${prefix}/data/missing`, { headers: raw })).status).toBe(404);
    const long = await fetch(`${api.base}${prefix}/data/${'0123456789'.repeat(8)}`, { headers: raw });
    expect(long.status).toBe(400);
    expect(((await long.json()) as { extras: Json }).extras.invalid_field).toBe('key');
  });

  it('a control character in a name (a NUL byte) is a 400 naming key, and in GraphQL a bad_request naming name', async () => {
    for (const name of ['%00', 'a%0Ab']) {
      const response = await fetch(`${api.base}${prefix}/data/${name}`);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { extras: Json }).extras.invalid_field).toBe('key');
    }
    const response = await fetch(`${api.base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: `{ accountData(accountId: "${account}", name: "a\\u0000") { value } }` }),
    });
    const answer = (await response.json()) as { errors: { extensions: Json }[] };
    expect(answer.errors[0]?.extensions).toMatchObject({ code: 'bad_request', extras: { invalid_field: 'name' } });
  });

  it('GraphQL has the sponsor too', async () => {
    const response = await fetch(`${api.base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: `{ accountData(accountId: "${account}", name: "name1") { value sponsor } }` }),
    });
    expect(((await response.json()) as { data: Json }).data.accountData).toEqual({
      value: value1.toString('base64'),
      sponsor: dataSponsor,
    });
  });
});

/** Reads server-sent events' data lines until `count` are in. */
async function events(path: string, count: number, afterOpen: () => Promise<void>): Promise<Json[]> {
  const controller = new AbortController();
  const response = await fetch(api.base + path, { headers: { accept: 'text/event-stream' }, signal: controller.signal });
  expect(response.status).toBe(200);
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  const found = (): Json[] =>
    [...text.matchAll(/^data: (.*)$/gm)]
      .map((m) => m[1] ?? '')
      .filter((d) => d !== '"hello"')
      .map((d) => JSON.parse(d) as Json);
  let opened = false;
  while (found().length < count) {
    text += decoder.decode((await reader.read()).value);
    if (!opened && found().length > 0) {
      opened = true;
      await afterOpen();
    }
  }
  controller.abort();
  return found();
}

describe('resource streams', () => {
  it('/accounts/{id}/data/{key}: at open, then only when it changed', async () => {
    const seen = await events(`${prefix}/data/name1`, 2, async () => {
      // a ledger that changes nothing: no event; then one that changes the value
      await api.events.publish(101);
      await t.db.prisma.dataEntry.update({
        where: { accountId_name: { accountId: account, name: 'name1' } },
        data: { value: 'AQ==', lastModifiedLedger: 102 },
      });
      await api.events.publish(102);
    });
    expect(seen).toEqual([
      { value: value1.toString('base64'), sponsor: dataSponsor },
      { value: 'AQ==', sponsor: dataSponsor },
    ]);
  });

  it('/accounts/{id}: at open, then after a ledger that changed it', async () => {
    const seen = await events(prefix, 2, async () => {
      await t.db.prisma.account.update({ where: { id: account }, data: { balance: 200_000_000n, lastModifiedLedger: 103 } });
      await api.events.publish(103);
    });
    expect(seen.map((record) => [record.id, (record.balances as Json[])[0]?.balance])).toEqual([
      [account, '10.0000000'],
      [account, '20.0000000'],
    ]);
  });

  it('an unknown account is a 404 before a stream opens', async () => {
    const response = await fetch(`${api.base}/accounts/GDBAPLDCAEJV6LSEDFEAUDAVFYSNFRUYZ4X75YYJJMMX5KFVUOHX46SQ`, {
      headers: { accept: 'text/event-stream' },
    });
    expect(response.status).toBe(404);
  });
});
