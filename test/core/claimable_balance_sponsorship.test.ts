// Claimable balances inside a begin/end sponsoring sandwich, and stellar-core's "too many
// sponsoring" (ClaimableBalanceTests, ClawbackClaimableBalanceTests, SponsorshipTestUtils), applied
// straight on a LedgerTxn: the sandwich is the transaction's future-reserve sponsorship
// (ltx.writeFutureSponsor), as begin_sponsoring_future_reserves leaves it.
import { describe, expect, it } from 'vitest';
import { Keypair, xdr } from '@stellar/stellar-sdk/base';
import {
  type AccountRec,
  accountKey,
  type ClaimableBalanceRec,
  claimableBalanceKey,
  newAccount,
  trustLineKey,
} from '../../src/core/ledger/entries.js';
import { LedgerTxn, RootState } from '../../src/core/ledger/ledger_txn.js';
import { opResultCode } from '../../src/core/ledger/results.js';
import { makeTxFrame } from '../../src/core/ledger/tx_frame.js';
import type { HeaderView } from '../../src/core/operations/context.js';
import { operationDef } from '../../src/core/operations/registry.js';
import { claimBalanceOp, claimant, clawbackBalanceOp, createBalanceOp } from './support/claimable.js';
import { assetToXdr, claimableBalanceHash, creditAsset, networkId } from '../../src/stellar/index.js';

const RESERVE = 100_000_000n;
const UINT32_MAX = 0xffffffff;
const header: HeaderView = { ledgerSeq: 10, closeTime: 1_451_606_400n, baseFee: 100, baseReserve: Number(RESERVE), ledgerVersion: 22 };
const NETWORK = networkId('Zenith Core Test Network');
const body = {
  create: (asset: xdr.Asset, amount: bigint, claimants: Keypair[]) =>
    createBalanceOp(
      asset,
      amount,
      claimants.map((kp) => claimant(kp)),
    ).body,
  claim: (id: Buffer) => claimBalanceOp(id).body,
  clawback: (id: Buffer) => clawbackBalanceOp(id).body,
};
const NATIVE = xdr.Asset.assetTypeNative();

class Ledger {
  readonly root = new RootState();
  private seq = 1n;

  account(kp: Keypair, balance: bigint, more: Partial<AccountRec> = {}): void {
    this.root.write(accountKey(kp.publicKey()), { ...newAccount(kp.publicKey(), balance, 1n, 1), ...more });
  }

  get(kp: Keypair): AccountRec {
    return this.root.get(accountKey(kp.publicKey())) as AccountRec;
  }

  balance(id: Buffer): ClaimableBalanceRec | undefined {
    return this.root.get(claimableBalanceKey(id.toString('hex'))) as ClaimableBalanceRec | undefined;
  }

  /**
   * One operation of a transaction from `source`, applied and committed when it succeeds, inside
   * `sponsoring`'s sandwich of `source`'s future reserves when given. Its code and its changes.
   */
  apply(source: Keypair, op: xdr.OperationBody, sponsoring?: Keypair): { code: string; changes: xdr.LedgerEntryChange[]; id: Buffer } {
    const seq = this.seq++;
    const tx = new xdr.Transaction({
      sourceAccount: xdr.MuxedAccount.keyTypeEd25519(source.rawPublicKey()),
      fee: 100,
      seqNum: seq,
      cond: xdr.Preconditions.precondNone(),
      memo: xdr.Memo.memoNone(),
      operations: [new xdr.Operation({ sourceAccount: null, body: op })],
      ext: xdr.TransactionExt.v0(),
    });
    const frame = makeTxFrame(xdr.TransactionEnvelope.envelopeTypeTx(new xdr.TransactionV1Envelope({ tx, signatures: [] })), NETWORK);
    const txl = new LedgerTxn(this.root, header.ledgerSeq);
    if (sponsoring) txl.writeFutureSponsor(source.publicKey(), sponsoring.publicKey());
    const opl = new LedgerTxn(txl, header.ledgerSeq);
    const def = operationDef(op.type)!;
    const o = frame.ops[0]!.op;
    const outcome =
      def.checkValid(o, source.publicKey(), 22) ??
      def.apply({ ltx: opl, header, frame, op: o, opIndex: 0, sourceId: source.publicKey() }).result;
    const code = opResultCode(outcome);
    const changes = xdr.decodeArray(xdr.LedgerEntryChange, opl.encodeChanges());
    if (code.endsWith('Success')) opl.commit();
    // end_sponsoring_future_reserves
    if (sponsoring) txl.writeFutureSponsor(source.publicKey(), null);
    txl.commit();
    return { code, changes, id: claimableBalanceHash(source.publicKey(), seq, 0) };
  }
}

const updatedAccounts = (changes: xdr.LedgerEntryChange[]) =>
  changes
    .filter((c) => c.type === 'ledgerEntryUpdated')
    .map((c) => xdr.expectUnionVariant(c, 'ledgerEntryUpdated').updated.data)
    .filter((d) => d.type === 'account')
    .map((d) => xdr.expectUnionVariant(d, 'account').account.accountId);

describe('a sponsored create_claimable_balance (validateBalancesOnCreateAndClaim, createIsSponsored)', () => {
  it("the sandwich's sponsor holds the reserves, and gets them back on claim, sponsored or not", () => {
    for (const claimIsSponsored of [false, true]) {
      const l = new Ledger();
      const [root, acc1, acc2] = [Keypair.random(), Keypair.random(), Keypair.random()];
      l.account(root, 1_000n * RESERVE);
      l.account(acc1, 5n * RESERVE);
      l.account(acc2, 5n * RESERVE);
      const r = l.apply(acc1, body.create(NATIVE, 100n, [acc2, root]), root);
      expect(r.code).toBe('createClaimableBalanceSuccess');
      // checkSponsorship(ltx, claimableBalanceKey(balanceID), 1, &root): ext v1 with root as sponsor
      expect(l.balance(r.id)).toMatchObject({ sponsor: root.publicKey(), amount: 100n });
      expect(l.get(root)).toMatchObject({ numSponsoring: 2, numSponsored: 0, extLevel: 2, balance: 1_000n * RESERVE });
      // the creator pays only the amount
      expect(l.get(acc1)).toMatchObject({ numSponsoring: 0, numSponsored: 0, balance: 5n * RESERVE - 100n });
      expect(updatedAccounts(r.changes)).toHaveLength(2);

      const c = l.apply(acc2, body.claim(r.id), claimIsSponsored ? root : undefined);
      expect(c.code).toBe('claimClaimableBalanceSuccess');
      expect(l.balance(r.id)).toBeUndefined();
      expect(l.get(root).numSponsoring).toBe(0);
      expect(l.get(acc2)).toMatchObject({ balance: 5n * RESERVE + 100n, numSponsored: 0 });
      // the claimant (the source, loaded) and the sponsor (its reserve back)
      expect(updatedAccounts(c.changes)).toHaveLength(2);
      expect(c.changes.filter((ch) => ch.type === 'ledgerEntryRemoved')).toHaveLength(1);
    }
  });

  it('a sponsor without the reserves gives low reserve', () => {
    const l = new Ledger();
    const [sponsor, acc1, acc2] = [Keypair.random(), Keypair.random(), Keypair.random()];
    l.account(sponsor, 3n * RESERVE);
    l.account(acc1, 100n * RESERVE);
    l.account(acc2, 5n * RESERVE);
    expect(l.apply(acc1, body.create(NATIVE, 1n, [acc2, sponsor]), sponsor).code).toBe('createClaimableBalanceLowReserve');
    expect(l.apply(acc1, body.create(NATIVE, 1n, [acc2]), sponsor).code).toBe('createClaimableBalanceSuccess');
  });
});

describe('too many sponsoring (SponsorshipTestUtils tooManySponsoring)', () => {
  for (const claimants of [1, 3]) {
    it(`${claimants} claimant(s): one create fits below UINT32_MAX sponsoring, the next is opTOO_MANY_SPONSORING`, () => {
      for (const sandwich of [true, false]) {
        const l = new Ledger();
        const [root, acc1] = [Keypair.random(), Keypair.random()];
        const others = Array.from({ length: claimants }, () => Keypair.random());
        const sponsoring = { extLevel: 2, numSponsoring: UINT32_MAX - claimants };
        l.account(root, 10n ** 18n, sandwich ? sponsoring : {});
        l.account(acc1, sandwich ? 5n * RESERVE : 10n ** 18n, sandwich ? {} : sponsoring);
        const sponsor = sandwich ? root : undefined;
        expect(l.apply(acc1, body.create(NATIVE, 1n, others), sponsor).code).toBe('createClaimableBalanceSuccess');
        expect(l.apply(acc1, body.create(NATIVE, 1n, others), sponsor).code).toBe('opTooManySponsoring');
      }
    });
  }
});

describe('clawback of a sponsored claimable balance', () => {
  it('sponsor is the issuer, sponsor is not the issuer: the reserve goes back to the sponsor', () => {
    for (const sponsorIsIssuer of [true, false]) {
      const l = new Ledger();
      const [root, a1, gateway] = [Keypair.random(), Keypair.random(), Keypair.random()];
      l.account(root, 100n * RESERVE);
      l.account(a1, 6n * RESERVE, { numSubEntries: 1 });
      l.account(gateway, 6n * RESERVE, { flags: 0x8 | 0x2 });
      const idr = creditAsset('IDR', gateway.publicKey());
      l.root.write(trustLineKey(a1.publicKey(), idr), {
        type: 'trustline',
        accountId: a1.publicKey(),
        asset: idr,
        balance: 100n,
        limit: 1000n,
        flags: 0x1 | 0x4,
        extLevel: 0,
        buyingLiabilities: 0n,
        sellingLiabilities: 0n,
        liquidityPoolUseCount: 0,
        lastModified: 1,
      });
      const sponsor = sponsorIsIssuer ? gateway : root;
      const r = l.apply(a1, body.create(assetToXdr(idr), 100n, [gateway]), sponsor);
      expect(r.code).toBe('createClaimableBalanceSuccess');
      expect(l.balance(r.id)).toMatchObject({ sponsor: sponsor.publicKey(), flags: 1, extLevel: 1 });
      // checkSponsorship(ltx, a1, 0, nullptr, 1, 0, 0, 0) and (account, 0, nullptr, 0, 2, 1, 0)
      expect(l.get(a1)).toMatchObject({ numSubEntries: 1, numSponsoring: 0, numSponsored: 0 });
      expect(l.get(sponsor)).toMatchObject({ numSubEntries: 0, extLevel: 2, numSponsoring: 1, numSponsored: 0 });
      expect(l.apply(gateway, body.clawback(r.id)).code).toBe('clawbackClaimableBalanceSuccess');
      expect(l.get(sponsor)).toMatchObject({ extLevel: 2, numSponsoring: 0, numSponsored: 0 });
      expect(l.apply(gateway, body.clawback(r.id)).code).toBe('clawbackClaimableBalanceDoesNotExist');
    }
  });
});
