// Every operation's result codes, with stellar-core's semantics.
import { describe, expect, it } from 'vitest';
import { Asset, Keypair, Operation, xdr } from '@stellar/stellar-sdk/base';
import { Harness, XLM, opResultsOf } from './support/harness.js';

const native = Asset.native();
const pay = (to: Keypair, asset: Asset, amount: string, source?: Keypair) =>
  Operation.payment({ destination: to.publicKey(), asset, amount, ...(source ? { source: source.publicKey() } : {}) });

function rawOp(body: xdr.OperationBody): xdr.Operation {
  return new xdr.Operation({ sourceAccount: null, body });
}

async function withAsset(h: Harness, code = 'USD') {
  const [issuer, alice, bob] = await h.fund(100, 3);
  const asset = new Asset(code, issuer!.publicKey());
  return { issuer: issuer!, alice: alice!, bob: bob!, asset };
}

describe('create_account', () => {
  it('success, already exists, low reserve, underfunded, malformed', async () => {
    const h = await Harness.create();
    const [a] = await h.fund(10);
    const n = Keypair.random();
    const create = (dest: Keypair, amount: string) => Operation.createAccount({ destination: dest.publicKey(), startingBalance: amount });
    expect((await h.run(a!, [create(n, '2')])).ops).toEqual(['createAccountSuccess']);
    const created = h.core.account(n.publicKey())!;
    expect(created.balance).toBe(2n * XLM);
    expect(created.seqNum).toBe(BigInt(h.core.latestLedger().sequence) << 32n);
    expect((await h.run(a!, [create(n, '2')])).ops).toEqual(['createAccountAlreadyExist']);
    expect((await h.run(a!, [create(Keypair.random(), '0.9')])).ops).toEqual(['createAccountLowReserve']);
    expect((await h.run(a!, [create(Keypair.random(), '50')])).ops).toEqual(['createAccountUnderfunded']);
    const self = rawOp(
      xdr.OperationBody.createAccount(
        new xdr.CreateAccountOp({
          destination: xdr.PublicKey.publicKeyTypeEd25519(a!.rawPublicKey()),
          startingBalance: XLM,
        }),
      ),
    );
    expect((await h.run(a!, [self])).ops).toEqual(['createAccountMalformed']);
    const negative = rawOp(
      xdr.OperationBody.createAccount(
        new xdr.CreateAccountOp({
          destination: xdr.PublicKey.publicKeyTypeEd25519(Keypair.random().rawPublicKey()),
          startingBalance: -1n,
        }),
      ),
    );
    expect((await h.run(a!, [negative])).ops).toEqual(['createAccountMalformed']);
  });
});

describe('payment', () => {
  it('native: success, no destination, underfunded, reserve kept, to self', async () => {
    const h = await Harness.create();
    const [a, b] = await h.fund(10, 2);
    expect((await h.run(a!, [pay(b!, native, '1')])).ops).toEqual(['paymentSuccess']);
    expect((await h.run(a!, [pay(Keypair.random(), native, '1')])).ops).toEqual(['paymentNoDestination']);
    // 9 XLM minus fees left, 1 XLM reserve: 8.5 is too much
    expect((await h.run(a!, [pay(b!, native, '8.5')])).ops).toEqual(['paymentUnderfunded']);
    const before = h.balance(a!);
    expect((await h.run(a!, [pay(a!, native, '1000')])).ops).toEqual(['paymentSuccess']);
    expect(h.balance(a!)).toBe(before - 100n);
  });

  it('credit: trust line existence, authorization, limit, issuer sending and receiving', async () => {
    const h = await Harness.create();
    const { issuer, alice, bob, asset } = await withAsset(h);
    expect((await h.run(issuer, [pay(alice, asset, '10')])).ops).toEqual(['paymentNoTrust']);
    expect((await h.run(alice, [Operation.changeTrust({ asset, limit: '100' })])).code).toBe('txSuccess');
    expect((await h.run(issuer, [pay(alice, asset, '60')])).ops).toEqual(['paymentSuccess']);
    expect((await h.run(issuer, [pay(alice, asset, '50')])).ops).toEqual(['paymentLineFull']);
    expect((await h.run(bob, [pay(alice, asset, '1')])).ops).toEqual(['paymentSrcNoTrust']);
    expect((await h.run(bob, [Operation.changeTrust({ asset })])).code).toBe('txSuccess');
    expect((await h.run(alice, [pay(bob, asset, '61')])).ops).toEqual(['paymentUnderfunded']);
    expect((await h.run(alice, [pay(bob, asset, '20')])).ops).toEqual(['paymentSuccess']);
    // back to the issuer: burns the credit, no trust line needed on the issuer side
    expect((await h.run(alice, [pay(issuer, asset, '40')])).ops).toEqual(['paymentSuccess']);
    expect(h.core.entries().next().done).toBe(false);
    const lines = [...h.core.entries()].filter((e) => e.type === 'trustline');
    expect(lines.map((l) => (l.type === 'trustline' ? l.balance : 0n)).sort()).toEqual([0n, 20n * XLM]);
    // a payment to an issuer that does not exist is still accepted (credits return to their issuer)
    const ghost = Keypair.random();
    const ghostAsset = new Asset('GHO', ghost.publicKey());
    expect((await h.run(alice, [pay(ghost, ghostAsset, '1')])).ops).toEqual(['paymentSrcNoTrust']);
  });

  it('credit: not authorized on either side', async () => {
    const h = await Harness.create();
    const { issuer, alice, bob, asset } = await withAsset(h);
    expect((await h.run(issuer, [Operation.setOptions({ setFlags: 3 as never })])).code).toBe('txSuccess'); // required + revocable
    expect((await h.run(alice, [Operation.changeTrust({ asset })])).code).toBe('txSuccess');
    expect((await h.run(bob, [Operation.changeTrust({ asset })])).code).toBe('txSuccess');
    expect((await h.run(issuer, [pay(alice, asset, '1')])).ops).toEqual(['paymentNotAuthorized']);
    expect((await h.run(issuer, [Operation.allowTrust({ trustor: alice.publicKey(), assetCode: 'USD', authorize: 1 })])).ops).toEqual([
      'allowTrustSuccess',
    ]);
    expect((await h.run(issuer, [pay(alice, asset, '5')])).ops).toEqual(['paymentSuccess']);
    expect((await h.run(alice, [pay(bob, asset, '1')])).ops).toEqual(['paymentNotAuthorized']);
    expect((await h.run(issuer, [Operation.allowTrust({ trustor: alice.publicKey(), assetCode: 'USD', authorize: 0 })])).ops).toEqual([
      'allowTrustSuccess',
    ]);
    expect((await h.run(alice, [pay(issuer, asset, '1')])).ops).toEqual(['paymentSrcNotAuthorized']);
  });

  it('malformed: zero amount, bad asset code', async () => {
    const h = await Harness.create();
    const [a, b] = await h.fund(10, 2);
    const zero = rawOp(
      xdr.OperationBody.payment(
        new xdr.PaymentOp({
          destination: xdr.MuxedAccount.keyTypeEd25519(b!.rawPublicKey()),
          asset: xdr.Asset.assetTypeNative(),
          amount: 0n,
        }),
      ),
    );
    expect((await h.run(a!, [zero])).ops).toEqual(['paymentMalformed']);
    const badCode = xdr.Asset.assetTypeCreditAlphanum4(
      new xdr.AlphaNum4({ assetCode: Buffer.from([0x55, 0, 0x44, 0]), issuer: xdr.PublicKey.publicKeyTypeEd25519(b!.rawPublicKey()) }),
    );
    const bad = rawOp(
      xdr.OperationBody.payment(
        new xdr.PaymentOp({ destination: xdr.MuxedAccount.keyTypeEd25519(b!.rawPublicKey()), asset: badCode, amount: 1n }),
      ),
    );
    expect((await h.run(a!, [bad])).ops).toEqual(['paymentMalformed']);
  });
});

describe('set_options', () => {
  it('every field: inflation destination, flags, home domain, master weight, thresholds, signers', async () => {
    const h = await Harness.create();
    const [a, b] = await h.fund(10, 2);
    const s = Keypair.random();
    const r = await h.run(a!, [
      Operation.setOptions({
        inflationDest: b!.publicKey(),
        setFlags: 1,
        homeDomain: 'example.com',
        masterWeight: 10,
        lowThreshold: 1,
        medThreshold: 2,
        highThreshold: 3,
        signer: { ed25519PublicKey: s.publicKey(), weight: 5 },
      }),
    ]);
    expect(r.ops).toEqual(['setOptionsSuccess']);
    let acc = h.core.account(a!.publicKey())!;
    expect(acc.inflationDest).toBe(b!.publicKey());
    expect(acc.flags).toBe(1);
    expect(acc.homeDomain).toBe('example.com');
    expect(acc.thresholds).toEqual([10, 1, 2, 3]);
    expect(acc.signers).toHaveLength(1);
    expect(acc.signers[0]!.weight).toBe(5);
    expect(acc.numSubEntries).toBe(1);
    // update the weight, then remove
    expect((await h.run(a!, [Operation.setOptions({ signer: { ed25519PublicKey: s.publicKey(), weight: 7 }, clearFlags: 1 })])).code).toBe(
      'txSuccess',
    );
    acc = h.core.account(a!.publicKey())!;
    expect(acc.signers[0]!.weight).toBe(7);
    expect(acc.flags).toBe(0);
    expect(acc.numSubEntries).toBe(1);
    expect((await h.run(a!, [Operation.setOptions({ signer: { ed25519PublicKey: s.publicKey(), weight: 0 } })])).code).toBe('txSuccess');
    acc = h.core.account(a!.publicKey())!;
    expect(acc.signers).toHaveLength(0);
    expect(acc.numSubEntries).toBe(0);
  });

  it('failure codes', async () => {
    const h = await Harness.create();
    const [a, poor] = await h.fund(10, 2);
    const so = (o: Partial<ConstructorParameters<typeof xdr.SetOptionsOp>[0]>) =>
      rawOp(
        xdr.OperationBody.setOptions(
          new xdr.SetOptionsOp({
            inflationDest: null,
            clearFlags: null,
            setFlags: null,
            masterWeight: null,
            lowThreshold: null,
            medThreshold: null,
            highThreshold: null,
            homeDomain: null,
            signer: null,
            ...o,
          }),
        ),
      );
    expect((await h.run(a!, [so({ setFlags: 16 })])).ops).toEqual(['setOptionsUnknownFlag']);
    expect((await h.run(a!, [so({ setFlags: 1, clearFlags: 1 })])).ops).toEqual(['setOptionsBadFlags']);
    expect((await h.run(a!, [so({ lowThreshold: 256 })])).ops).toEqual(['setOptionsThresholdOutOfRange']);
    expect((await h.run(a!, [so({ masterWeight: 300 })])).ops).toEqual(['setOptionsThresholdOutOfRange']);
    const selfSigner = new xdr.Signer({ key: xdr.SignerKey.signerKeyTypeEd25519(a!.rawPublicKey()), weight: 1 });
    expect((await h.run(a!, [so({ signer: selfSigner })])).ops).toEqual(['setOptionsBadSigner']);
    const heavy = new xdr.Signer({ key: xdr.SignerKey.signerKeyTypeEd25519(Keypair.random().rawPublicKey()), weight: 256 });
    expect((await h.run(a!, [so({ signer: heavy })])).ops).toEqual(['setOptionsBadSigner']);
    expect((await h.run(a!, [so({ homeDomain: Buffer.from('bad\ndomain') })])).ops).toEqual(['setOptionsInvalidHomeDomain']);
    expect((await h.run(a!, [Operation.setOptions({ inflationDest: Keypair.random().publicKey() })])).ops).toEqual([
      'setOptionsInvalidInflation',
    ]);
    expect((await h.run(a!, [Operation.setOptions({ setFlags: 8 })])).ops).toEqual(['setOptionsAuthRevocableRequired']);
    expect((await h.run(a!, [Operation.setOptions({ setFlags: 4 })])).ops).toEqual(['setOptionsSuccess']);
    expect((await h.run(a!, [Operation.setOptions({ clearFlags: 4 })])).ops).toEqual(['setOptionsCantChange']);
    expect((await h.run(a!, [Operation.setOptions({ setFlags: 1 })])).ops).toEqual(['setOptionsCantChange']);
    // 1 XLM reserve + fees: no room for a second base reserve
    const [b] = await h.fund(1.4);
    expect(
      (await h.run(b!, [Operation.setOptions({ signer: { ed25519PublicKey: Keypair.random().publicKey(), weight: 1 } })])).ops,
    ).toEqual(['setOptionsLowReserve']);
    void poor;
    const [rich] = await h.fund(100);
    const adds = Array.from({ length: 20 }, () =>
      Operation.setOptions({ signer: { ed25519PublicKey: Keypair.random().publicKey(), weight: 1 } }),
    );
    expect((await h.run(rich!, adds)).code).toBe('txSuccess');
    expect(
      (await h.run(rich!, [Operation.setOptions({ signer: { ed25519PublicKey: Keypair.random().publicKey(), weight: 1 } })])).ops,
    ).toEqual(['setOptionsTooManySigners']);
  });
});

describe('change_trust', () => {
  it('create, update, remove, and the failure codes', async () => {
    const h = await Harness.create();
    const { issuer, alice, asset } = await withAsset(h);
    expect((await h.run(alice, [Operation.changeTrust({ asset, limit: '0' })])).ops).toEqual(['changeTrustInvalidLimit']);
    expect((await h.run(alice, [Operation.changeTrust({ asset, limit: '100' })])).ops).toEqual(['changeTrustSuccess']);
    expect(h.core.account(alice.publicKey())!.numSubEntries).toBe(1);
    expect((await h.run(issuer, [pay(alice, asset, '50')])).code).toBe('txSuccess');
    expect((await h.run(alice, [Operation.changeTrust({ asset, limit: '40' })])).ops).toEqual(['changeTrustInvalidLimit']);
    expect((await h.run(alice, [Operation.changeTrust({ asset, limit: '0' })])).ops).toEqual(['changeTrustInvalidLimit']);
    expect((await h.run(alice, [Operation.changeTrust({ asset, limit: '60' })])).ops).toEqual(['changeTrustSuccess']);
    expect((await h.run(alice, [pay(issuer, asset, '50')])).code).toBe('txSuccess');
    expect((await h.run(alice, [Operation.changeTrust({ asset, limit: '0' })])).ops).toEqual(['changeTrustSuccess']);
    expect(h.core.account(alice.publicKey())!.numSubEntries).toBe(0);
    expect([...h.core.entries()].filter((e) => e.type === 'trustline')).toHaveLength(0);
    const ghost = new Asset('GHO', Keypair.random().publicKey());
    expect((await h.run(alice, [Operation.changeTrust({ asset: ghost })])).ops).toEqual(['changeTrustNoIssuer']);
    // the issuer trusting itself is malformed since protocol 16
    expect((await h.run(issuer, [Operation.changeTrust({ asset })])).ops).toEqual(['changeTrustMalformed']);
    const nativeLine = rawOp(
      xdr.OperationBody.changeTrust(new xdr.ChangeTrustOp({ line: xdr.ChangeTrustAsset.assetTypeNative(), limit: 1n })),
    );
    expect((await h.run(alice, [nativeLine])).ops).toEqual(['changeTrustMalformed']);
    const [poor] = await h.fund(1.4);
    expect((await h.run(poor!, [Operation.changeTrust({ asset })])).ops).toEqual(['changeTrustLowReserve']);
  });

  it('new lines are authorized unless the issuer requires authorization', async () => {
    const h = await Harness.create();
    const { issuer, alice, bob, asset } = await withAsset(h);
    await h.run(alice, [Operation.changeTrust({ asset })]);
    await h.run(issuer, [Operation.setOptions({ setFlags: 1 })]);
    await h.run(bob, [Operation.changeTrust({ asset })]);
    const flags = Object.fromEntries([...h.core.entries()].flatMap((e) => (e.type === 'trustline' ? [[e.accountId, e.flags]] : [])));
    expect(flags[alice.publicKey()]).toBe(1);
    expect(flags[bob.publicKey()]).toBe(0);
  });
});

describe('allow_trust', () => {
  it('authorize, deauthorize and the failure codes', async () => {
    const h = await Harness.create();
    const { issuer, alice, bob, asset } = await withAsset(h);
    const allow = (trustor: Keypair, authorize: number) =>
      Operation.allowTrust({ trustor: trustor.publicKey(), assetCode: asset.code, authorize: authorize as never });
    expect((await h.run(issuer, [allow(alice, 1)])).ops).toEqual(['allowTrustNoTrustLine']);
    await h.run(issuer, [Operation.setOptions({ setFlags: 1 })]);
    await h.run(alice, [Operation.changeTrust({ asset })]);
    expect((await h.run(issuer, [allow(alice, 1)])).ops).toEqual(['allowTrustSuccess']);
    // not revocable: revoking is refused, and so is downgrading to maintain-liabilities
    expect((await h.run(issuer, [allow(alice, 0)])).ops).toEqual(['allowTrustCantRevoke']);
    expect((await h.run(issuer, [allow(alice, 2)])).ops).toEqual(['allowTrustCantRevoke']);
    await h.run(issuer, [Operation.setOptions({ setFlags: 2 })]);
    expect((await h.run(issuer, [allow(alice, 2)])).ops).toEqual(['allowTrustSuccess']);
    expect((await h.run(issuer, [allow(alice, 0)])).ops).toEqual(['allowTrustSuccess']);
    const line = [...h.core.entries()].find((e) => e.type === 'trustline');
    expect(line && line.type === 'trustline' ? line.flags : -1).toBe(0);
    expect((await h.run(issuer, [allow(issuer, 1)])).ops).toEqual(['allowTrustMalformed']);
    const badCode = rawOp(
      xdr.OperationBody.allowTrust(
        new xdr.AllowTrustOp({
          trustor: xdr.PublicKey.publicKeyTypeEd25519(bob.rawPublicKey()),
          asset: xdr.AssetCode.assetTypeCreditAlphanum4(Buffer.from('U$D\0')),
          authorize: 1,
        }),
      ),
    );
    expect((await h.run(issuer, [badCode])).ops).toEqual(['allowTrustMalformed']);
    expect(
      (await h.run(issuer, [Operation.allowTrust({ trustor: bob.publicKey(), assetCode: 'USD', authorize: 3 as never })])).ops,
    ).toEqual(['allowTrustMalformed']);
  });
});

describe('account_merge', () => {
  it('success moves the balance and removes the account; failure codes', async () => {
    const h = await Harness.create();
    const [a, b, c] = await h.fund(10, 3);
    expect((await h.run(a!, [Operation.accountMerge({ destination: Keypair.random().publicKey() })])).ops).toEqual([
      'accountMergeNoAccount',
    ]);
    const selfMerge = rawOp(xdr.OperationBody.accountMerge(xdr.MuxedAccount.keyTypeEd25519(a!.rawPublicKey())));
    expect((await h.run(a!, [selfMerge])).ops).toEqual(['accountMergeMalformed']);
    await h.run(a!, [Operation.manageData({ name: 'k', value: 'v' })]);
    expect((await h.run(a!, [Operation.accountMerge({ destination: b!.publicKey() })])).ops).toEqual(['accountMergeHasSubEntries']);
    await h.run(a!, [Operation.manageData({ name: 'k', value: null })]);
    // signers alone do not block a merge (they go with the account)
    await h.run(a!, [Operation.setOptions({ signer: { ed25519PublicKey: Keypair.random().publicKey(), weight: 1 } })]);
    const balance = h.balance(a!) - 100n;
    const before = h.balance(b!);
    const r = await h.run(a!, [Operation.accountMerge({ destination: b!.publicKey() })]);
    expect(r.ops).toEqual(['accountMergeSuccess']);
    const tr = xdr.expectUnionVariant(opResultsOf(r.result!)[0]!, 'opInner').tr;
    const inner = xdr.expectUnionVariant(xdr.expectUnionVariant(tr, 'accountMerge').accountMergeResult, 'accountMergeSuccess');
    expect(inner.sourceAccountBalance).toBe(balance);
    expect(h.core.account(a!.publicKey())).toBeNull();
    expect(h.balance(b!)).toBe(before + balance);
    await h.run(c!, [Operation.setOptions({ setFlags: 4 })]);
    expect((await h.run(c!, [Operation.accountMerge({ destination: b!.publicKey() })])).ops).toEqual(['accountMergeImmutableSet']);
    const [d] = await h.fund(10);
    await h.run(d!, [Operation.bumpSequence({ bumpTo: String((BigInt(h.core.latestLedger().sequence) + 5n) << 32n) })]);
    expect((await h.run(d!, [Operation.accountMerge({ destination: b!.publicKey() })])).ops).toEqual(['accountMergeSeqnumTooFar']);
  });
});

describe('manage_data', () => {
  it('set, update, delete and failure codes', async () => {
    const h = await Harness.create();
    const [a] = await h.fund(10);
    expect((await h.run(a!, [Operation.manageData({ name: 'color', value: 'red' })])).ops).toEqual(['manageDataSuccess']);
    expect(h.core.account(a!.publicKey())!.numSubEntries).toBe(1);
    expect((await h.run(a!, [Operation.manageData({ name: 'color', value: 'blue' })])).ops).toEqual(['manageDataSuccess']);
    const data = [...h.core.entries()].find((e) => e.type === 'data');
    expect(data && data.type === 'data' ? Buffer.from(data.value, 'base64').toString() : '').toBe('blue');
    expect((await h.run(a!, [Operation.manageData({ name: 'color', value: null })])).ops).toEqual(['manageDataSuccess']);
    expect(h.core.account(a!.publicKey())!.numSubEntries).toBe(0);
    expect((await h.run(a!, [Operation.manageData({ name: 'color', value: null })])).ops).toEqual(['manageDataNameNotFound']);
    const empty = rawOp(xdr.OperationBody.manageData(new xdr.ManageDataOp({ dataName: Buffer.alloc(0), dataValue: Buffer.from('x') })));
    expect((await h.run(a!, [empty])).ops).toEqual(['manageDataInvalidName']);
    const ctrl = rawOp(
      xdr.OperationBody.manageData(new xdr.ManageDataOp({ dataName: Buffer.from('a\u0001'), dataValue: Buffer.from('x') })),
    );
    expect((await h.run(a!, [ctrl])).ops).toEqual(['manageDataInvalidName']);
    const [poor] = await h.fund(1.4);
    expect((await h.run(poor!, [Operation.manageData({ name: 'x', value: 'y' })])).ops).toEqual(['manageDataLowReserve']);
  });
});

describe('bump_sequence and inflation', () => {
  it('bump_sequence raises, never lowers; negative is bad_seq', async () => {
    const h = await Harness.create();
    const [a] = await h.fund(10);
    const seq = h.seq(a!);
    expect((await h.run(a!, [Operation.bumpSequence({ bumpTo: String(seq + 100n) })])).ops).toEqual(['bumpSequenceSuccess']);
    expect(h.seq(a!)).toBe(seq + 100n);
    expect((await h.run(a!, [Operation.bumpSequence({ bumpTo: '1' })])).ops).toEqual(['bumpSequenceSuccess']);
    expect(h.seq(a!)).toBe(seq + 101n);
    const neg = rawOp(xdr.OperationBody.bumpSequence(new xdr.BumpSequenceOp({ bumpTo: -1n })));
    expect((await h.run(a!, [neg])).ops).toEqual(['bumpSequenceBadSeq']);
  });

  it('inflation is not supported', async () => {
    const h = await Harness.create();
    const [a] = await h.fund(10);
    expect((await h.run(a!, [Operation.inflation({})])).ops).toEqual(['opNotSupported']);
  });
});
