// End to end for claimable balances made by the embedded core: @stellar/stellar-sdk builds the
// operations and computes each balance's id itself (Transaction.getClaimableBalanceId), the core
// applies them, the ingester follows, and the SDK's call builders read the balances back: created
// with a relative predicate (shown absolute) and clawback enabled, then claimed and clawed back.
import {
  Asset,
  AuthClawbackEnabledFlag,
  AuthRevocableFlag,
  Claimant,
  Horizon,
  Keypair,
  NotFoundError,
  Operation,
  TransactionBuilder,
  Account,
} from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NETWORK_PASSPHRASE, startTestNetwork, type TestNetwork } from '../support/network.js';

let network: TestNetwork;
let server: Horizon.Server;
const alice = Keypair.random();
const bob = Keypair.random();
const gateway = Keypair.random();
const IDR = new Asset('IDR', gateway.publicKey());
let nativeId: string;
let idrId: string;
let createdLedger: number;

const submit = async (signer: Keypair, operations: ReturnType<typeof Operation.payment>[]) => {
  const sequence = await network.submitOperations(signer, operations);
  // submitOperations does not look at the result: the last transaction of the signer must have succeeded
  const [last] = (await server.transactions().forAccount(signer.publicKey()).order('desc').limit(1).call()).records;
  expect(last?.successful).toBe(true);
  return sequence;
};

beforeAll(async () => {
  network = await startTestNetwork();
  server = new Horizon.Server(network.url, { allowHttp: true });
  await network.fund(alice, bob, gateway);
  await submit(gateway, [Operation.setOptions({ setFlags: (AuthClawbackEnabledFlag | AuthRevocableFlag) as 10 })]);
  await submit(alice, [Operation.changeTrust({ asset: IDR })]);
  await submit(gateway, [Operation.payment({ destination: alice.publicKey(), asset: IDR, amount: '100' })]);

  // both balances in one transaction: the SDK's ids from its source, sequence number and index
  const state = network.core.account(alice.publicKey())!;
  const tx = new TransactionBuilder(new Account(alice.publicKey(), state.seqNum.toString()), {
    fee: '100',
    networkPassphrase: NETWORK_PASSPHRASE,
  })
    .addOperation(
      Operation.createClaimableBalance({
        asset: Asset.native(),
        amount: '10',
        claimants: [new Claimant(bob.publicKey(), Claimant.predicateBeforeRelativeTime('3600')), new Claimant(gateway.publicKey())],
      }),
    )
    .addOperation(Operation.createClaimableBalance({ asset: IDR, amount: '5', claimants: [new Claimant(bob.publicKey())] }))
    .setTimeout(0)
    .build();
  tx.sign(alice);
  nativeId = tx.getClaimableBalanceId(0);
  idrId = tx.getClaimableBalanceId(1);
  createdLedger = await network.submit(tx);
  expect((await server.transactions().transaction(Buffer.from(tx.hash()).toString('hex')).call()).successful).toBe(true);
}, 120_000);

afterAll(async () => {
  await network?.stop();
});

describe('@stellar/stellar-sdk claimable balances made by the embedded core', () => {
  it('the balances are at the ids the SDK computed, the relative predicate made absolute', async () => {
    const ledger = (await server.ledgers().ledger(createdLedger).call()) as unknown as { closed_at: string };
    const closedAt = BigInt(Date.parse(ledger.closed_at) / 1000);
    const native = await server.claimableBalances().claimableBalance(nativeId).call();
    expect(native).toMatchObject({
      id: nativeId,
      asset: 'native',
      amount: '10.0000000',
      sponsor: alice.publicKey(),
      last_modified_ledger: createdLedger,
      flags: { clawback_enabled: false },
    });
    expect(native.claimants).toEqual([
      { destination: bob.publicKey(), predicate: { abs_before: expect.any(String), abs_before_epoch: String(closedAt + 3600n) } },
      { destination: gateway.publicKey(), predicate: { unconditional: true } },
    ]);
    const idr = await server.claimableBalances().claimableBalance(idrId).call();
    expect(idr).toMatchObject({
      asset: IDR.toString(),
      amount: '5.0000000',
      sponsor: alice.publicKey(),
      flags: { clawback_enabled: true },
    });
    const forBob = await server.claimableBalances().claimant(bob.publicKey()).call();
    expect(forBob.records.map((r) => r.id).sort()).toEqual([nativeId, idrId].sort());
    // two reserves for the native balance, one for the other, on the creator
    const account = await server.loadAccount(alice.publicKey());
    expect(account.num_sponsoring).toBe(3);
  });

  it('claimed by bob and clawed back by the gateway: gone, with their operations', async () => {
    const before = await server.loadAccount(bob.publicKey());
    const nativeBefore = before.balances.find((b) => b.asset_type === 'native')!.balance;
    await submit(bob, [Operation.claimClaimableBalance({ balanceId: nativeId })]);
    await submit(gateway, [Operation.clawbackClaimableBalance({ balanceId: idrId })]);
    for (const id of [nativeId, idrId]) {
      await expect(server.claimableBalances().claimableBalance(id).call()).rejects.toBeInstanceOf(NotFoundError);
    }
    const after = await server.loadAccount(bob.publicKey());
    // 10 XLM claimed, one fee paid
    expect(Number(after.balances.find((b) => b.asset_type === 'native')!.balance)).toBeCloseTo(Number(nativeBefore) + 10 - 0.00001, 7);
    expect((await server.loadAccount(alice.publicKey())).num_sponsoring).toBe(0);
    const ops = await server.operations().forClaimableBalance(nativeId).call();
    expect(ops.records.map((o) => o.type)).toEqual(['create_claimable_balance', 'claim_claimable_balance']);
    const clawed = await server.operations().forClaimableBalance(idrId).call();
    expect(clawed.records.map((o) => o.type)).toEqual(['create_claimable_balance', 'clawback_claimable_balance']);
  });
});
