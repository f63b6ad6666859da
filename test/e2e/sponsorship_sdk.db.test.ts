// End to end through @stellar/stellar-sdk, on what the embedded core applied: a sponsored account
// creation with a sponsored trust line (begin/end sandwich), then the line's sponsorship revoked.
// After each step the API's sponsors and counts equal the core's state, and the operations and
// effects read back as Horizon's.
import { Account, Asset, Horizon, Keypair, Operation, TransactionBuilder, type xdr } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccountAsCore } from '../support/core_accounts.js';
import { NETWORK_PASSPHRASE, startTestNetwork, type TestNetwork } from '../support/network.js';

describe('sponsorship on the embedded core, read through the SDK', () => {
  let network: TestNetwork;
  let server: Horizon.Server;
  const sponsor = Keypair.random();
  const issuer = Keypair.random();
  const alice = Keypair.random();
  let usd: Asset;

  async function submit(source: Keypair, operations: xdr.Operation[], signers: Keypair[]): Promise<void> {
    const state = network.core.account(source.publicKey())!;
    const builder = new TransactionBuilder(new Account(source.publicKey(), state.seqNum.toString()), {
      fee: '100',
      networkPassphrase: NETWORK_PASSPHRASE,
    }).setTimeout(0);
    for (const op of operations) builder.addOperation(op);
    const tx = builder.build();
    tx.sign(...signers);
    await network.submit(tx);
  }

  beforeAll(async () => {
    network = await startTestNetwork();
    server = new Horizon.Server(network.url, { allowHttp: true });
    usd = new Asset('USD', issuer.publicKey());
    await network.fund(sponsor, issuer);
  }, 120_000);

  afterAll(async () => {
    await network?.stop();
  });

  it('a sponsored account and trust line: the sponsor pays all three reserves', async () => {
    await submit(
      sponsor,
      [
        Operation.beginSponsoringFutureReserves({ sponsoredId: alice.publicKey() }),
        Operation.createAccount({ destination: alice.publicKey(), startingBalance: '0' }),
        Operation.changeTrust({ asset: usd, source: alice.publicKey() }),
        Operation.endSponsoringFutureReserves({ source: alice.publicKey() }),
      ],
      [sponsor, alice],
    );
    const a = await expectAccountAsCore(network, server, alice);
    expect([a.sponsor, a.num_sponsored, a.subentry_count]).toEqual([sponsor.publicKey(), 3, 1]);
    const line = a.balances.find((b) => b.asset_type === 'credit_alphanum4') as Horizon.HorizonApi.BalanceLineAsset;
    expect(line.sponsor).toBe(sponsor.publicKey());
    const s = await expectAccountAsCore(network, server, sponsor);
    expect(s.num_sponsoring).toBe(3);
    const sponsored = await server.accounts().sponsor(sponsor.publicKey()).call();
    expect(sponsored.records.map((r) => r.id)).toEqual([alice.publicKey()]);
    const ops = await server.operations().forAccount(alice.publicKey()).call();
    expect(ops.records.map((o) => o.type)).toEqual([
      'begin_sponsoring_future_reserves',
      'create_account',
      'change_trust',
      'end_sponsoring_future_reserves',
    ]);
    // Horizon files sponsorship effects under the sponsored entry's account
    const effects = await server.effects().forAccount(alice.publicKey()).call();
    const created = effects.records.filter((e) => e.type.endsWith('_sponsorship_created')) as unknown as {
      type: string;
      sponsor: string;
    }[];
    expect(created.map((e) => [e.type, e.sponsor])).toEqual([
      ['account_sponsorship_created', sponsor.publicKey()],
      ['trustline_sponsorship_created', sponsor.publicKey()],
    ]);
  });

  it('the trust line sponsorship revoked: its reserve moves back to the owner', async () => {
    // alice holds nothing of her own yet: revoking would leave her below her reserve
    await submit(sponsor, [Operation.payment({ destination: alice.publicKey(), asset: Asset.native(), amount: '10' })], [sponsor]);
    await submit(sponsor, [Operation.revokeTrustlineSponsorship({ account: alice.publicKey(), asset: usd })], [sponsor]);
    const a = await expectAccountAsCore(network, server, alice);
    expect([a.sponsor, a.num_sponsored]).toEqual([sponsor.publicKey(), 2]);
    const line = a.balances.find((b) => b.asset_type === 'credit_alphanum4') as Horizon.HorizonApi.BalanceLineAsset;
    expect(line.sponsor).toBeUndefined();
    expect((await expectAccountAsCore(network, server, sponsor)).num_sponsoring).toBe(2);
    const last = (await server.operations().forAccount(sponsor.publicKey()).order('desc').limit(1).call()).records[0]!;
    expect(last.type).toBe('revoke_sponsorship');
    const effects = await server.effects().forOperation(last.id).call();
    expect(effects.records.map((e) => e.type)).toContain('trustline_sponsorship_removed');
  });
});
