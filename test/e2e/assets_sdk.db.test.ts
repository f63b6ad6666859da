// End to end for /assets: on a fresh private network an issuer with a home domain and
// auth-required, auth-revocable flags authorizes one holder fully, one to maintain liabilities
// only, and leaves a third unauthorized; the stats the triggers keep from the ingested trust
// lines are read back through @stellar/stellar-sdk's assets() call builder, unchanged.
import { Asset, AuthRequiredFlag, AuthRevocableFlag, Horizon, Keypair, Operation, type xdr } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNetwork, type TestNetwork } from '../support/network.js';

let network: TestNetwork;
let server: Horizon.Server;
const issuer = Keypair.random();
const alice = Keypair.random();
const bob = Keypair.random();
const carol = Keypair.random();
const USD = new Asset('USD', issuer.publicKey());
const LONG = new Asset('LONGASSET', issuer.publicKey());

const submit = (signer: Keypair, operations: xdr.Operation[]) => network.submitOperations(signer, operations);

beforeAll(async () => {
  network = await startTestNetwork();
  server = new Horizon.Server(network.url, { allowHttp: true });
  await network.fund(issuer, alice, bob, carol);
  await submit(issuer, [Operation.setOptions({ homeDomain: 'example.com', setFlags: (AuthRequiredFlag | AuthRevocableFlag) as 3 })]);
  await submit(alice, [Operation.changeTrust({ asset: USD })]);
  await submit(bob, [Operation.changeTrust({ asset: USD })]);
  await submit(carol, [Operation.changeTrust({ asset: USD }), Operation.changeTrust({ asset: LONG })]);
  await submit(issuer, [
    Operation.allowTrust({ trustor: alice.publicKey(), assetCode: 'USD', authorize: 1 }),
    Operation.allowTrust({ trustor: bob.publicKey(), assetCode: 'USD', authorize: 1 }),
    Operation.payment({ destination: alice.publicKey(), asset: USD, amount: '100' }),
    Operation.payment({ destination: bob.publicKey(), asset: USD, amount: '2.5' }),
  ]);
  // bob keeps his balance but may only maintain liabilities
  await submit(issuer, [Operation.allowTrust({ trustor: bob.publicKey(), assetCode: 'USD', authorize: 2 })]);
}, 120_000);

afterAll(async () => {
  await network?.stop();
});

describe('@stellar/stellar-sdk assets() against Zenith', () => {
  it('assets().forCode().forIssuer() gives the stats by authorization, the issuer’s flags and toml', async () => {
    const page = await server.assets().forCode('USD').forIssuer(issuer.publicKey()).call();
    expect(page.records).toHaveLength(1);
    const [usd] = page.records;
    expect(usd).toMatchObject({
      asset_type: 'credit_alphanum4',
      asset_code: 'USD',
      asset_issuer: issuer.publicKey(),
      paging_token: `USD_${issuer.publicKey()}_credit_alphanum4`,
      accounts: { authorized: 1, authorized_to_maintain_liabilities: 1, unauthorized: 1 },
      balances: { authorized: '100.0000000', authorized_to_maintain_liabilities: '2.5000000', unauthorized: '0.0000000' },
      num_claimable_balances: 0,
      claimable_balances_amount: '0.0000000',
      num_liquidity_pools: 0,
      liquidity_pools_amount: '0.0000000',
      num_contracts: 0,
      contracts_amount: '0.0000000',
      flags: { auth_required: true, auth_revocable: true, auth_immutable: false, auth_clawback_enabled: false },
    });
    // the SDK's record type names only `self`; Horizon's asset has `toml` alone
    expect((usd?._links as unknown as { toml: { href: string } } | undefined)?.toml.href).toBe(
      'https://example.com/.well-known/stellar.toml',
    );
  });

  it('assets() pages by code then issuer, and forIssuer() lists an issuer’s assets', async () => {
    const first = await server.assets().forIssuer(issuer.publicKey()).limit(1).call();
    expect(first.records.map((r) => r.asset_code)).toEqual(['LONGASSET']);
    expect(first.records[0]).toMatchObject({ asset_type: 'credit_alphanum12', accounts: { authorized: 0, unauthorized: 1 } });
    const next = await first.next();
    expect(next.records.map((r) => r.asset_code)).toEqual(['USD']);
    expect((await next.next()).records).toEqual([]);
  });

  it('drops an asset with its last trust line', async () => {
    await submit(carol, [Operation.changeTrust({ asset: LONG, limit: '0' })]);
    expect((await server.assets().forCode('LONGASSET').call()).records).toEqual([]);
    const usd = (await server.assets().forCode('USD').call()).records[0];
    expect(usd?.accounts.unauthorized).toBe(1);
  });
});
