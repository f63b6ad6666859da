// The later operation types through REST: their details (as the ingester writes them, with the
// values of stellar-horizon's processor tests) under Horizon's names, and the fields every
// operation has that come from the row or its details: source_account_muxed(_id) and sponsor
// (stellar-horizon resourceadapter/operations_test.go TestPopulateOperation_ClaimClaimableBalance_Muxed).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toid } from '../../../src/stellar/toid.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { seedLedger } from '../../support/seed.js';
import { serveTestApi, type TestApi } from '../../support/api_server.js';

const MUXED = 'MAQAA5L65LSYH7CQ3VTJ7F3HHLGCL3DSLAR2Y47263D56MNNGHSQSAAAAAAAAAAE2LP26';
const BASE = 'GAQAA5L65LSYH7CQ3VTJ7F3HHLGCL3DSLAR2Y47263D56MNNGHSQSTVY';
const SPONSOR = 'GDRW375MAYR46ODGF2WGANQC2RRZL7O246DYHHCGWTV2RE7IHE2QUQLD';
const USD = 'USD:GAUJETIZVEP2NRYLUESJ3LS66NVCEGMON4UDCBCSBEVPIID773P2W6AY';

let test: TestDatabase;
let api: TestApi;

// biome-ignore lint/suspicious/noExplicitAny: the tests read deep paths of answers they just checked
type Json = Record<string, any>;

beforeAll(async () => {
  test = await createTestDatabase();
  await seedLedger(test.db, 2, [
    {
      source: BASE,
      operations: [
        {
          type: 15,
          source: BASE,
          sourceMuxed: MUXED,
          participants: [],
          details: {
            claimant: BASE,
            claimant_muxed: MUXED,
            claimant_muxed_id: '1234',
            balance_id: '00000000da0d57da7d4850e7fc10d2a9d0ebc731f7afb40574c03395b17d49149b91f5be',
            sponsor: SPONSOR,
          },
        },
        {
          type: 22,
          source: BASE,
          participants: [],
          details: {
            liquidity_pool_id: 'cafebabe00000000000000000000000000000000000000000000000000000000',
            min_price: '16.6666667',
            min_price_r: { d: 3, n: 50 },
            max_price: '50.0000000',
            max_price_r: { d: 2, n: 100 },
            reserves_deposited: [
              { asset: USD, amount: '0.0000060' },
              { asset: 'native', amount: '0.0000050' },
            ],
            reserves_max: [
              { asset: USD, amount: '0.0000100' },
              { asset: 'native', amount: '0.0000200' },
            ],
            shares_received: '0.0000010',
          },
        },
        { type: 18, source: BASE, participants: [], details: { offer_id: '12', sponsor: SPONSOR } },
        {
          type: 24,
          source: BASE,
          participants: [],
          details: {
            function: 'HostFunctionTypeHostFunctionTypeInvokeContract',
            parameters: [{ type: 'Sym', value: 'AAAADwAAAANmb28A' }],
            asset_balance_changes: [{ type: 'mint', to: BASE, amount: '1.0000000', asset_type: 'native' }],
          },
        },
        { type: 25, source: BASE, participants: [], details: { extend_to: 1000 } },
      ],
    },
  ]);
  api = await serveTestApi(test);
});

afterAll(async () => {
  await api.close();
  await test.drop();
});

async function operation(index: number): Promise<Json> {
  const response = await fetch(`${api.base}/operations/${toid(2, 1, index)}`);
  expect(response.status).toBe(200);
  const { _links, ...fields } = (await response.json()) as Json;
  return fields;
}

describe('GET /operations/{id} of the later operation types', () => {
  it('claim_claimable_balance: the muxed source’s id, the claimant and the sponsor', async () => {
    expect(await operation(1)).toMatchObject({
      source_account: BASE,
      source_account_muxed: MUXED,
      source_account_muxed_id: '1234',
      type: 'claim_claimable_balance',
      type_i: 15,
      sponsor: SPONSOR,
      balance_id: '00000000da0d57da7d4850e7fc10d2a9d0ebc731f7afb40574c03395b17d49149b91f5be',
      claimant: BASE,
      claimant_muxed: MUXED,
      claimant_muxed_id: '1234',
    });
  });

  it('liquidity_pool_deposit: reserves, prices and shares', async () => {
    const op = await operation(2);
    expect(op).toMatchObject({
      type: 'liquidity_pool_deposit',
      liquidity_pool_id: 'cafebabe00000000000000000000000000000000000000000000000000000000',
      reserves_max: [
        { asset: USD, amount: '0.0000100' },
        { asset: 'native', amount: '0.0000200' },
      ],
      min_price: '16.6666667',
      min_price_r: { n: 50, d: 3 },
      max_price: '50.0000000',
      max_price_r: { n: 100, d: 2 },
      reserves_deposited: [
        { asset: USD, amount: '0.0000060' },
        { asset: 'native', amount: '0.0000050' },
      ],
      shares_received: '0.0000010',
    });
    expect(op).not.toHaveProperty('source_account_muxed_id');
    expect(op).not.toHaveProperty('sponsor');
  });

  it('revoke_sponsorship, invoke_host_function, extend_footprint_ttl', async () => {
    expect(await operation(3)).toMatchObject({ type: 'revoke_sponsorship', offer_id: '12', sponsor: SPONSOR });
    expect(await operation(4)).toMatchObject({
      type: 'invoke_host_function',
      function: 'HostFunctionTypeHostFunctionTypeInvokeContract',
      parameters: [{ type: 'Sym', value: 'AAAADwAAAANmb28A' }],
      asset_balance_changes: [{ type: 'mint', to: BASE, amount: '1.0000000', asset_type: 'native' }],
    });
    expect(await operation(5)).toMatchObject({ type: 'extend_footprint_ttl', extend_to: 1000 });
  });
});
