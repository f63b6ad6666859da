// End to end: the state lists through @stellar/stellar-sdk unchanged. On data the embedded core
// produced: server.offers().forAccount()/.seller()/.selling()/.buying(), server.accounts()
// .forSigner()/.forAsset(), an account's data (data_attr, its data link, the raw value). Sponsors
// come from stellar-core's own ledgers (its "add sponsored entry before adding first sponsored
// signer" test, ingested): server.accounts().sponsor(). The core makes no liquidity pools and no
// sponsored offers, and the golden ledgers have none: forLiquidityPool() and offers().sponsor() read
// rows shaped as the ingester writes them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Account, Asset, Horizon, Keypair, Operation, TransactionBuilder, type xdr } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApi, serveTestApi } from '../support/api_server.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { NETWORK_PASSPHRASE, startTestNetwork, type TestNetwork } from '../support/network.js';
import { poolShareLine, seedAccount } from '../support/seed.js';
import { coreLcmCase, coreLcmManifest, ingestCase, writeCaseDatastore } from '../support/stellar_core_lcm.js';

describe('on the embedded core', () => {
  let network: TestNetwork;
  let server: Horizon.Server;
  const issuer = Keypair.random();
  const alice = Keypair.random();
  const bob = Keypair.random();
  let usd: Asset;
  let offerId = '';

  async function submit(signer: Keypair, operations: xdr.Operation[]): Promise<void> {
    const source = await server.loadAccount(signer.publicKey());
    const builder = new TransactionBuilder(new Account(signer.publicKey(), source.sequence), {
      fee: '100',
      networkPassphrase: NETWORK_PASSPHRASE,
    }).setTimeout(0);
    for (const op of operations) builder.addOperation(op);
    const tx = builder.build();
    tx.sign(signer);
    await network.submit(tx);
  }

  beforeAll(async () => {
    network = await startTestNetwork();
    server = new Horizon.Server(network.url, { allowHttp: true });
    usd = new Asset('USD', issuer.publicKey());
    await network.fund(issuer, alice, bob);
    await submit(bob, [Operation.changeTrust({ asset: usd })]);
    await submit(alice, [
      Operation.manageData({ name: 'hello', value: 'world' }),
      Operation.setOptions({ signer: { ed25519PublicKey: bob.publicKey(), weight: 1 } }),
    ]);
    await submit(bob, [Operation.manageSellOffer({ selling: Asset.native(), buying: usd, amount: '10', price: '2' })]);
    const offers = await server.offers().forAccount(bob.publicKey()).call();
    offerId = String(offers.records[0]?.id ?? '');
  }, 120_000);

  afterAll(async () => {
    await network?.stop();
  });

  it('offers().forAccount(), .seller(), .selling(), .buying()', async () => {
    const mine = await server.offers().forAccount(bob.publicKey()).call();
    expect(mine.records).toHaveLength(1);
    expect(mine.records[0]).toMatchObject({
      id: offerId,
      paging_token: offerId,
      seller: bob.publicKey(),
      selling: { asset_type: 'native' },
      buying: { asset_type: 'credit_alphanum4', asset_code: 'USD', asset_issuer: issuer.publicKey() },
      amount: '10.0000000',
      price_r: { n: 2, d: 1 },
      price: '2.0000000',
    });
    expect(mine.records[0]?.last_modified_time).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect((await server.offers().seller(bob.publicKey()).call()).records.map((r) => r.id)).toEqual([offerId]);
    expect((await server.offers().selling(Asset.native()).call()).records.map((r) => r.id)).toEqual([offerId]);
    expect((await server.offers().buying(usd).call()).records.map((r) => r.id)).toEqual([offerId]);
    expect((await server.offers().selling(usd).call()).records).toEqual([]);
    expect((await server.offers().forAccount(alice.publicKey()).call()).records).toEqual([]);
    expect((await server.offers().offer(offerId).call()).seller).toBe(bob.publicKey());
  });

  it('accounts().forSigner(): the accounts a key signs for, its own among them', async () => {
    const page = await server.accounts().forSigner(bob.publicKey()).call();
    expect(page.records.map((r) => r.account_id).sort()).toEqual([alice.publicKey(), bob.publicKey()].sort());
    expect((await server.accounts().forSigner(issuer.publicKey()).call()).records.map((r) => r.id)).toEqual([issuer.publicKey()]);
  });

  it('accounts().forAsset(): the accounts trusting it', async () => {
    const page = await server.accounts().forAsset(usd).call();
    expect(page.records.map((r) => r.id)).toEqual([bob.publicKey()]);
    expect(page.records[0]?.balances.find((b) => b.asset_type === 'credit_alphanum4')).toMatchObject({ asset_code: 'USD' });
  });

  it('an account’s data: data_attr, its data link, the raw value', async () => {
    const account = await server.loadAccount(alice.publicKey());
    expect(account.data_attr).toEqual({ hello: Buffer.from('world').toString('base64') });
    const record = await server.accounts().accountId(alice.publicKey()).call();
    const data = record.data as unknown as (options: { key: string }) => Promise<{ value: string }>;
    expect(await data({ key: 'hello' })).toMatchObject({ value: Buffer.from('world').toString('base64') });
    const raw = await fetch(`${network.url}/accounts/${alice.publicKey()}/data/hello`, { headers: { accept: 'application/octet-stream' } });
    expect(await raw.text()).toBe('world');
  });

  it('two filters at once: Horizon’s invalid_accounts_params', async () => {
    await expect(server.accounts().forSigner(bob.publicKey()).forAsset(usd).call()).rejects.toMatchObject({ response: { status: 400 } });
    const url = `${network.url}/accounts?signer=${bob.publicKey()}&asset=${encodeURIComponent(usd.toString())}`;
    const problem = (await (await fetch(url)).json()) as { type: string };
    expect(problem.type).toBe('https://stellar.org/horizon-errors/invalid_accounts_params');
  });
});

describe('on stellar-core’s ledgers with sponsorships', () => {
  const CASE = 'sponsor_future_reserves-protocol_version_27-add_sponsored_entry_before_adding_first_sponsored_signer';
  const scratch = mkdtempSync(join(tmpdir(), 'zenith-state-sdk-'));
  let t: TestDatabase;
  let api: TestApi;

  beforeAll(async () => {
    const { last } = await writeCaseDatastore(coreLcmCase(CASE), scratch);
    t = await createTestDatabase();
    await ingestCase(t.db, scratch, last);
    api = await serveTestApi(t, coreLcmManifest.networkPassphrase);
  });

  afterAll(async () => {
    await api?.close();
    await t?.drop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('accounts().sponsor(): the account whose trust line and signer the sponsor sponsors', async () => {
    const server = new Horizon.Server(api.base, { allowHttp: true });
    // the sponsor: the one account sponsoring others (num_sponsoring), read from the account rows
    const sponsoring = await t.db.prisma.account.findMany({ where: { numSponsoring: { gt: 0 } } });
    expect(sponsoring).toHaveLength(1);
    const sponsor = sponsoring[0]?.id ?? '';
    const page = await server.accounts().sponsor(sponsor).call();
    expect(page.records).toHaveLength(1);
    const sponsored = page.records[0];
    expect(sponsored?.num_sponsored).toBe(2);
    const signers = sponsored?.signers as unknown as { key: string; sponsor?: string }[];
    expect(signers.find((s) => s.key !== sponsored?.id)?.sponsor).toBe(sponsor);
  });
});

describe('on rows shaped as the ingester writes them', () => {
  const POOL = 'cafebabedeadbeef000000000000000000000000000000000000000000000000';
  const holder = Keypair.random().publicKey();
  const seller = Keypair.random().publicKey();
  const sponsor = Keypair.random().publicKey();
  let t: TestDatabase;
  let api: TestApi;

  beforeAll(async () => {
    t = await createTestDatabase();
    await seedAccount(t.db, { id: holder, balance: 100_000_000n });
    await t.db.prisma.trustLine.create({ data: poolShareLine(holder, POOL, 3) });
    await t.db.prisma.offer.create({
      data: {
        id: 9n,
        sellerId: seller,
        sellingAsset: 'native',
        buyingAsset: `USD:${holder}`,
        amount: 500n,
        priceN: 1,
        priceD: 1,
        price: 1,
        flags: 0,
        lastModifiedLedger: 3,
        sponsor,
      },
    });
    api = await serveTestApi(t);
  });

  afterAll(async () => {
    await api?.close();
    await t?.drop();
  });

  it('accounts().forLiquidityPool() and offers().sponsor()', async () => {
    const server = new Horizon.Server(api.base, { allowHttp: true });
    const holders = await server.accounts().forLiquidityPool(POOL).call();
    expect(holders.records.map((r) => r.id)).toEqual([holder]);
    expect(holders.records[0]?.balances[0]).toMatchObject({
      asset_type: 'liquidity_pool_shares',
      liquidity_pool_id: POOL,
      balance: '0.0000010',
    });
    const offers = await server.offers().sponsor(sponsor).call();
    expect(offers.records.map((r) => [r.id, r.sponsor])).toEqual([['9', sponsor]]);
  });
});
