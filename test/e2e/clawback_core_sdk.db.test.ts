// End to end for clawback on the embedded core, through @stellar/stellar-sdk: an issuer enables
// clawback (with revocable, as set_options requires), a holder's new line inherits it, part of the
// holder's balance is clawed back, then the line is revoked with set_trust_line_flags. After each
// step the API's balances and flags equal the core's lines, and the operations and effects read
// back as Horizon's.
import { Asset, AuthClawbackEnabledFlag, AuthRevocableFlag, Horizon, Keypair, Operation, type xdr } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNetwork, type TestNetwork } from '../support/network.js';

let network: TestNetwork;
let server: Horizon.Server;
const issuer = Keypair.random();
const holder = Keypair.random();
const EUR = new Asset('EUR', issuer.publicKey());

async function submit(signer: Keypair, operations: xdr.Operation[]): Promise<void> {
  await network.submitOperations(signer, operations);
  const [last] = (await server.transactions().forAccount(signer.publicKey()).order('desc').limit(1).call()).records;
  expect(last?.successful).toBe(true);
}

/** The holder's EUR line as the API shows it, checked against the core's line. */
async function eurLine() {
  const account = await server.loadAccount(holder.publicKey());
  const api = account.balances.find((b) => b.asset_type === 'credit_alphanum4') as Horizon.HorizonApi.BalanceLineAsset;
  const core = [...network.core.entries()].find((e) => e.type === 'trustline' && e.accountId === holder.publicKey());
  if (core?.type !== 'trustline') throw new Error('no line in the core');
  expect(api.balance).toBe((Number(core.balance) / 1e7).toFixed(7));
  expect(api.is_authorized).toBe((core.flags & 1) !== 0);
  expect(api.is_clawback_enabled).toBe((core.flags & 4) !== 0);
  return api;
}

beforeAll(async () => {
  network = await startTestNetwork();
  server = new Horizon.Server(network.url, { allowHttp: true });
  await network.fund(issuer, holder);
}, 120_000);

afterAll(async () => {
  await network?.stop();
});

describe('clawback on the embedded core, through the SDK', () => {
  it('an issuer enables clawback; a new line inherits it', async () => {
    await submit(issuer, [Operation.setOptions({ setFlags: (AuthClawbackEnabledFlag | AuthRevocableFlag) as 10 })]);
    const flags = (await server.loadAccount(issuer.publicKey())).flags;
    expect(flags).toMatchObject({ auth_clawback_enabled: true, auth_revocable: true });
    await submit(holder, [Operation.changeTrust({ asset: EUR })]);
    await submit(issuer, [Operation.payment({ destination: holder.publicKey(), asset: EUR, amount: '100' })]);
    expect(await eurLine()).toMatchObject({ balance: '100.0000000', is_clawback_enabled: true, is_authorized: true });
  });

  it('part of the balance clawed back: burned, with Horizon effects', async () => {
    await submit(issuer, [Operation.clawback({ asset: EUR, from: holder.publicKey(), amount: '30' })]);
    expect((await eurLine()).balance).toBe('70.0000000');
    const [op] = (await server.operations().forAccount(issuer.publicKey()).order('desc').limit(1).call()).records;
    expect(op).toMatchObject({ type: 'clawback', from: holder.publicKey(), amount: '30.0000000', asset_code: 'EUR' });
    const effects = await server.effects().forOperation(op!.id).call();
    expect(effects.records.map((e) => e.type).sort()).toEqual(['account_credited', 'account_debited']);
    const asset = (await server.assets().forCode('EUR').forIssuer(issuer.publicKey()).call()).records[0]!;
    expect(asset.balances.authorized).toBe('70.0000000');
  });

  it('set_trust_line_flags revokes the line; what is left can still be clawed back', async () => {
    await submit(issuer, [Operation.setTrustLineFlags({ trustor: holder.publicKey(), asset: EUR, flags: { authorized: false } })]);
    const [op] = (await server.operations().forAccount(issuer.publicKey()).order('desc').limit(1).call()).records;
    expect(op).toMatchObject({ type: 'set_trust_line_flags', trustor: holder.publicKey(), clear_flags_s: ['authorized'] });
    // SPEC (Account): balances list a trust line only while it is authorized; the core still holds it
    const account = await server.loadAccount(holder.publicKey());
    expect(account.balances.map((b) => b.asset_type)).toEqual(['native']);
    const line = () => [...network.core.entries()].find((e) => e.type === 'trustline' && e.accountId === holder.publicKey());
    expect(line()).toMatchObject({ balance: 700_000_000n, flags: 4 });
    await submit(issuer, [Operation.clawback({ asset: EUR, from: holder.publicKey(), amount: '70' })]);
    expect(line()).toMatchObject({ balance: 0n });
    const asset = (await server.assets().forCode('EUR').forIssuer(issuer.publicKey()).call()).records[0]!;
    expect([asset.balances.authorized, asset.balances.unauthorized]).toEqual(['0.0000000', '0.0000000']);
  });
});
